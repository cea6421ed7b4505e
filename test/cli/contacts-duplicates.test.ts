// `tickbook contacts duplicates`: the built CLI against a real (empty) test sandbox, which the
// test fills with two people sharing a number and two sharing a name.
import { describe, expect, it } from 'vitest';
import { runTickbookToExit } from '../helpers/sandbox.js';
import { setUpCliHomes } from '../helpers/cli-homes.js';

const { freshEnv } = setUpCliHomes('tickbook-duplicates-cli-');

describe('tickbook contacts duplicates', () => {
  it('says there are none, then lists each group with its contacts, in a table and as JSON', async () => {
    const env = freshEnv();
    const create = async (username: string, phone: string, name: string) =>
      expect((await runTickbookToExit(['contacts', 'create', '--username', username, '--phone', phone, '--display-name', name], env)).code).toBe(0);
    await create('ann.a', '+442079460001', 'Ann Able');
    let run = await runTickbookToExit(['contacts', 'duplicates'], env);
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: 'no duplicates among 1 contacts (by phone number or display name)\n' });
    await create('ann.b', '+442079460001', 'Ann B');
    await create('bo.1', '+15550000001', 'Bö Lee');
    await create('bo.2', '+15550000002', 'bo  lee');
    run = await runTickbookToExit(['contacts', 'duplicates'], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^same phone number: \+442079460001\n {2}ID +NAME +USERNAME +PHONE +LAST ACTIVE\n {2}ct_\S+ +Ann B +ann\.b .*\n {2}ct_\S+ +Ann Able +ann\.a .*\nsame name: /);
    expect(run.stderr).toBe('2 groups among 4 contacts\n');
    run = await runTickbookToExit(['contacts', 'duplicates', '--json'], env);
    const document = JSON.parse(run.stdout) as { status: string; duplicates: { by: string; value: string; contacts: { username: string }[] }[] };
    // The envelope of every --json document tickbook makes itself (history, holdings, alerts, the import's report).
    expect(Object.keys(document)).toEqual(['status', 'duplicates']);
    expect(document.status).toBe('success');
    const groups = document.duplicates;
    expect(groups.map((g) => [g.by, g.value, g.contacts.map((c) => c.username).sort()])).toEqual([
      ['phone', '+442079460001', ['ann.a', 'ann.b']],
      ['name', 'bo  lee', ['bo.1', 'bo.2']],
    ]);
  });
});
