// `tickbook contacts search TEXT`: the built CLI (run `npm run build` first) as real processes
// against a real test sandbox holding 130 contacts (two walk pages). The output shapes scripts
// rely on (the table, --json and --ndjson with the contact's fields and what matched), the exit
// codes (no match is an answer, exit 0, said on stderr; no TEXT is a usage error, exit 2), and
// what happens when the server cannot be reached: the index in the history file, as the last run
// read it, still answers, with a warning, and only for the server it was read from.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { setUpCliHomes } from '../helpers/cli-homes.js';
import { CONTACT_KEYS, call, runTickbookToExit, startTestSandbox } from '../helpers/sandbox.js';

const { freshEnv } = setUpCliHomes('tickbook-search-cli-');

/** The people to find, among fillers "Person 000" … "Person 124" (user_000 …). */
const PEOPLE: Record<string, string>[] = [
  { username: 'zangstrom', phone_number: '+442079460555', display_name: 'Zoë Ångström' },
  { username: 'pq_77', phone_number: '+61293744000', display_name: 'Priya Quillfeather' },
  { username: 'quill.fan', phone_number: '+48221234567', display_name: 'Tomasz Nowak' },
  { username: 'li.wei', phone_number: '+8613800138000', display_name: '李伟' },
  { username: 'no_name_here', phone_number: '+12125550199' },
];
const FILLERS = 125;

/** Plain HTTP calls to the sandbox `env` points at, as the user `env` names. */
const api = (env: NodeJS.ProcessEnv) => ({
  create: (form: Record<string, string>) => call(env.TICKBOOK_BASE_URL!, '/v1/contacts', { auth: `Bearer ${env.TICKBOOK_TOKEN}`, form }),
  remove: (id: string) => call(env.TICKBOOK_BASE_URL!, `/v1/contacts/${encodeURIComponent(id)}`, { method: 'DELETE', auth: `Bearer ${env.TICKBOOK_TOKEN}` }),
});

/** Creates the contacts through the API: the people first (the oldest, on the walk's second page). */
async function fill(env: NodeJS.ProcessEnv): Promise<void> {
  const create = async (form: Record<string, string>) => expect((await api(env).create(form)).status).toBe(201);
  for (const person of PEOPLE) await create(person);
  for (let i = 0; i < FILLERS; i++) await create({ username: `user_${String(i).padStart(3, '0')}`, phone_number: `+1555${1_000_000 + i}`, display_name: `Person ${String(i).padStart(3, '0')}` });
}

const search = (args: string[], env: NodeJS.ProcessEnv) => runTickbookToExit(['contacts', 'search', ...args], env, 20_000);

interface Hit {
  [key: string]: unknown;
  username: string;
  matched: string;
}

describe('tickbook contacts search', () => {
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    env = freshEnv();
    await fill(env);
  });

  it('prints a table of the matches, best first, from every page of the list; nothing on stderr when it is not a terminal', async () => {
    const run = await search(['angst'], env);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME +USERNAME +PHONE +ID$/);
    // Zoë was created first: the oldest, on the second walk page.
    expect(lines.slice(1)).toHaveLength(1);
    expect(lines[1]).toMatch(/^Zoë Ångström +zangstrom +\+442079460555 +ct_\S+$/);
    // The list was read into the history file of this home.
    expect(existsSync(join(env.XDG_DATA_HOME!, 'tickbook', 'history.db'))).toBe(true);

    // Two matches, the username that starts with the text before the name that only holds it;
    // a contact without a display name shows its username as its name.
    const quill = (await search(['quill'], env)).stdout.trimEnd().split('\n').slice(1);
    expect(quill.map((l) => l.split(/ {2,}/)[1])).toEqual(['quill.fan', 'pq_77']);
    const nameless = await search(['no_name'], env);
    expect(nameless.stdout.split('\n')[1]).toMatch(/^no_name_here +no_name_here +\+12125550199 /);
  });

  it('--json gives {status, query, data}: each match with the contact fields and the field that matched; --ndjson one such object a line', async () => {
    let run = await search(['quill', '--json'], env);
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout) as { status: string; query: string; data: Hit[] };
    // The envelope of every --json document tickbook makes itself.
    expect(Object.keys(json)).toEqual(['status', 'query', 'data']);
    expect(json.status).toBe('success');
    expect(json.query).toBe('quill');
    expect(json.data.map((h) => [h.username, h.matched])).toEqual([
      ['quill.fan', 'username'],
      ['pq_77', 'name'],
    ]);
    for (const hit of json.data) expect(Object.keys(hit).sort()).toEqual([...CONTACT_KEYS, 'matched'].sort());
    expect(json.data[1]).toMatchObject({ display_name: 'Priya Quillfeather', phone_number: '+61293744000', avatar_url: null, last_active_at: null });
    expect(json.data[1]!.id).toMatch(/^ct_/);
    expect(json.data[1]!.created_at).toEqual(expect.any(Number));

    run = await search(['quill', '--ndjson'], env);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Hit);
    expect(lines).toEqual(json.data);

    // A scope narrows to a field; --limit cuts the list.
    run = await search(['user:quill', '--json'], env);
    expect((JSON.parse(run.stdout) as { data: Hit[] }).data.map((h) => h.username)).toEqual(['quill.fan']);
    run = await search(['name:quill', '--ndjson'], env);
    expect(run.stdout.trimEnd().split('\n').map((l) => (JSON.parse(l) as Hit).username)).toEqual(['pq_77']);
    run = await search(['quill', '--limit', '1', '--json'], env);
    expect((JSON.parse(run.stdout) as { data: Hit[] }).data.map((h) => h.username)).toEqual(['quill.fan']);
  });

  it('finds a phone number by its digits, spaced as one argument or as several, and says it matched the phone', async () => {
    for (const args of [['20 7946 0555'], ['+44', '20', '7946', '0555'], ['phone:7946-0555']]) {
      const run = await search([...args, '--json'], env);
      expect(run.code, args.join(' ')).toBe(0);
      expect((JSON.parse(run.stdout) as { data: Hit[] }).data.map((h) => [h.username, h.matched]), args.join(' ')).toEqual([['zangstrom', 'phone']]);
    }
    const cjk = await search(['伟', '--json'], env);
    expect((JSON.parse(cjk.stdout) as { data: Hit[] }).data.map((h) => h.username)).toEqual(['li.wei']);
  });

  it('no match: exit 0, nothing on stdout, the message on stderr (and an empty list as JSON)', async () => {
    let run = await search(['xqzvwk'], env);
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: 'no contact matches "xqzvwk"\n' });
    run = await search(['xqzvwk', '--json'], env);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ status: 'success', query: 'xqzvwk', data: [] });
    run = await search(['xqzvwk', '--ndjson'], env);
    expect(run).toMatchObject({ code: 0, stdout: '' });
  });

  it('no TEXT (or only spaces), or a bad --limit: a usage error, exit 2', async () => {
    for (const args of [[], [''], ['   '], ['ann', '--limit', '0']]) {
      const run = await search(args, env);
      expect(run.code, JSON.stringify(args)).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^tickbook: /);
    }
    expect((await search([], env)).stderr).toContain('expected something to search for');
  });

  it('a contact deleted on the server since the last run is not found: every run reads the list again', async () => {
    const made = await api(env).create({ username: 'short_lived', phone_number: '+442079460888', display_name: 'Ephemera Brief' });
    expect(made.status).toBe(201);
    expect((await search(['ephemera', '--json'], env)).stdout).toContain('short_lived');
    expect((await api(env).remove(made.json.id as string)).status).toBe(200);
    const run = await search(['ephemera'], env);
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: 'no contact matches "ephemera"\n' });
  });
});

describe('tickbook contacts search with the server unreachable', () => {
  it('searches the index as the last run read it, with a warning; a server never read has no index to fall back on', async () => {
    // A server of this test's own, to stop: the file's sandbox serves the other tests.
    const sandbox = await startTestSandbox();
    const env = { ...freshEnv(), TICKBOOK_BASE_URL: sandbox.url, TICKBOOK_TOKEN: sandbox.token, TICKBOOK_API_KEY: sandbox.apiKey };
    try {
      await fill(env);
      const first = await search(['angst'], env);
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(/Zoë Ångström +zangstrom/);
    } finally {
      await sandbox.close();
    }

    // The same server, now gone (its port closed), and the same home: the index answers.
    const run = await search(['angst'], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^NAME +USERNAME +PHONE +ID\nZoë Ångström +zangstrom +\+442079460555 +ct_\S+\n$/);
    expect(run.stderr).toMatch(/^tickbook: warning: .*refused the connection.*: searching the 130 contacts as last read\n$/);
    const json = await search(['quill', '--json'], env);
    expect(json.code).toBe(0);
    expect((JSON.parse(json.stdout) as { data: Hit[] }).data.map((h) => h.username)).toEqual(['quill.fan', 'pq_77']);
    expect(json.stderr).toMatch(/warning: .*searching the 130 contacts as last read/);

    // Another server (a closed port elsewhere), same home: that server's list was never read, and
    // the other server's index is not passed off as it.
    const elsewhere = await search(['angst'], { ...env, TICKBOOK_BASE_URL: 'http://127.0.0.1:9' });
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stdout).toBe('');
    expect(elsewhere.stderr).toMatch(/^tickbook: 127\.0\.0\.1:9 refused the connection/);
    expect(elsewhere.stderr).not.toMatch(/as last read/);
  });
});
