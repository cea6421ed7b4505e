// Restoring an export: every contact of a list, exported (vCard and CSV) and imported into an
// empty list, comes back, among them contacts sharing a phone number (a family, a switchboard),
// contacts without a display name and contacts with one display name between them; the same
// import again creates nothing; a list's own export read back finds its contacts by their ids;
// and a long demo list (the 60 demo people again and again, 60 phone numbers among them) all
// comes back. The same restore of 10,000 demo contacts is timed in bench:contacts.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Account, accountOf, byUsername, contact, type Fields, HOUSEHOLD, setUpContactLists } from '../helpers/contact-accounts.js';
import { startTestSandbox } from '../helpers/sandbox.js';

const lists = setUpContactLists('restore', 12);

const PEOPLE: Fields[] = [
  ...HOUSEHOLD,
  // A switchboard: one number and one name for two desks.
  contact('acme.sales', '+442079460200', 'Acme Ltd'),
  contact('Acme.Support', '+442079460200', 'Acme Ltd'),
  // Sharing the second John Smith's number, without a display name.
  contact('j.smith', '+12125550102'),
  contact('x', '+33612345678'),
  // An avatar URL with backslashes (one before an n, one before a comma), commas and semicolons.
  contact('zoe', '+4930901820', 'Zoë Löwenstein', 'https://avatars.example/zo\\e\\new.png?size=64,64;q=a\\,b'),
];
/** Of PEOPLE, those whose number one before them in any order holds too. */
const SHARING = 4;

/** A list holding PEOPLE, made through the API. */
async function sourceAccount(): Promise<Account> {
  const from = lists.account();
  await lists.fill(from, PEOPLE);
  return from;
}

/** An export's cards or rows with what a restore makes anew (ids, times) left out, sorted. */
function restorable(format: 'vcf' | 'csv', text: string): string[] {
  if (format === 'vcf') {
    return text
      .split('END:VCARD\r\n')
      .filter((card) => card !== '')
      .map((card) => card.replace(/^(UID|REV):.*\r\n/gm, ''))
      .sort();
  }
  // id is the first column, created_at and last_active_at the last two: none holds a comma here.
  const [header, ...rows] = text.trimEnd().split('\r\n');
  expect(header).toBe('id,username,display_name,phone_number,avatar_url,created_at,last_active_at');
  return rows.map((row) => row.split(',').slice(1, -2).join(',')).sort();
}

const note = (count: number) => `note: ${count.toLocaleString('en-US')} of those created share a phone number with another contact (tickbook contacts duplicates lists them)\n`;

describe('restoring an export into an empty list', () => {
  it('gives every contact back, as vCard and as CSV (shared phone numbers, no display name, one name for two); importing it again creates nothing', async () => {
    const from = await sourceAccount();
    const restore = async (format: 'vcf' | 'csv') => {
      const exported = await from.run('contacts', 'export', '--format', format);
      expect(exported, format).toMatchObject({ code: 0, stderr: `exported ${PEOPLE.length} contacts (${format})\n` });
      const to = lists.account();
      const file = join(to.dir, `backup.${format}`);
      writeFileSync(file, exported.stdout);
      const imported = await to.run('contacts', 'import', file);
      expect(imported, format).toMatchObject({ code: 0, stdout: `created ${PEOPLE.length}, already present 0, invalid 0\n${note(SHARING)}`, stderr: '' });
      expect(byUsername(await to.contacts()), format).toEqual(byUsername(PEOPLE));
      const [again, back] = await Promise.all([to.run('contacts', 'import', file), to.run('contacts', 'export', '--format', format)]);
      expect(again, format).toMatchObject({ code: 0, stdout: `created 0, already present ${PEOPLE.length}, invalid 0\n`, stderr: '' });
      expect(back.code, back.stderr).toBe(0);
      expect(restorable(format, back.stdout), format).toEqual(restorable(format, exported.stdout));
    };
    await Promise.all([restore('vcf'), restore('csv')]);
  });

  // The shape of the 10,000 of bench:contacts, a fifth of its size: every demo person five times
  // (ana.lima, ana.lima-2, …), so most contacts share their number with four others.
  it('a long demo list (the 60 demo people again and again: 60 phone numbers) all comes back', async () => {
    const count = 300;
    const demo = await startTestSandbox({ demoData: true, demoContacts: count, tokens: lists.tokens.slice(0, 2), apiKeys: [lists.apiKey] });
    try {
      const [from, to] = lists.tokens.slice(0, 2).map((token) => accountOf(demo, lists.root, token, lists.apiKey)) as [Account, Account];
      const file = join(to.dir, 'demo.vcf');
      expect(await from.run('contacts', 'export', '--output', file)).toMatchObject({ code: 0, stderr: `exported ${count} contacts to ${file} (vcf)\n` });
      const expected = byUsername(await from.contacts());
      expect(new Set(expected.map((c) => c.phone_number)).size).toBe(60);
      const imported = await to.run('contacts', 'import', file);
      expect(imported).toMatchObject({ code: 0, stdout: `created ${count}, already present 0, invalid 0\n${note(count - 60)}`, stderr: '' });
      expect(byUsername(await to.contacts())).toEqual(expected);
    } finally {
      await demo.close();
    }
  });
});

/**
 * A list's own export, edited, imported back into the list: Mum's username changed (by hand, or
 * by a program that keeps the id but not the nickname), the grandmother added on the family's
 * line without an id.
 */
async function ownExportBack(format: 'vcf' | 'csv'): Promise<void> {
  const from = await sourceAccount();
  const exported = await from.run('contacts', 'export', '--format', format);
  expect(exported.code, exported.stderr).toBe(0);
  const edited =
    format === 'csv'
      ? exported.stdout.replace(/,mum,/, ',mother,') + ",gran,Gran,'+442079460100,,,\r\n"
      : exported.stdout.replace(/\r\nNICKNAME:mum\r\n/, '\r\nNICKNAME:mother\r\n') + 'BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Gran\r\nNICKNAME:gran\r\nTEL;VALUE=uri:tel:+442079460100\r\nEND:VCARD\r\n';
  expect(edited).toMatch(/[,:]mother[,\r]/);
  const file = join(from.dir, `edited.${format}`);
  writeFileSync(file, edited);
  const imported = await from.run('contacts', 'import', file);
  expect(imported).toMatchObject({ code: 0, stdout: `created 1, already present ${PEOPLE.length}, invalid 0\n${note(1).replace('share', 'shares')}`, stderr: '' });
  expect(byUsername(await from.contacts())).toEqual(byUsername([...PEOPLE, contact('gran', '+442079460100', 'Gran')]));
}

describe('an export holding numbers the import refuses as impossible (the sandbox stores any E.164)', () => {
  it('gives every other contact back; those are refused with the reason and written to --rejects as exported, and come back once mended there', async () => {
    const from = lists.account();
    // The old demo number of a sandbox.db made before issue 37, and a number one digit short.
    const refused = [contact('fatima.bello', '+23412345678', 'Fatima Bello'), contact('short', '+15550123', 'Too Short')];
    await lists.fill(from, [contact('ann', '+442079460958', 'Ann'), ...refused]);
    const restore = async (format: 'vcf' | 'csv') => {
      const exported = (await from.run('contacts', 'export', '--format', format)).stdout;
      const to = lists.account();
      const [file, rejects] = [join(to.dir, `backup.${format}`), join(to.dir, `rejects.${format}`)];
      writeFileSync(file, exported);
      const run = await to.run('contacts', 'import', file, '--rejects', rejects);
      expect(run, format).toMatchObject({ code: 1, stderr: '' });
      const lines = run.stdout.trimEnd().split('\n');
      expect(lines[0], format).toBe('created 1, already present 0, invalid 2');
      expect(lines.slice(1, 3).sort(), format).toEqual([
        expect.stringMatching(new RegExp(`^  backup\\.${format} (card at line|row) \\d+: phone "\\+15550123" is too short for \\+1: 7 digits after it, where numbers there have 10$`)),
        expect.stringMatching(new RegExp(`^  backup\\.${format} (card at line|row) \\d+: phone "\\+23412345678" is too short for \\+234: `)),
      ]);
      expect(lines[3], format).toBe(`the refused cards and rows are in ${rejects}, as they were written`);
      // The rejects file holds them as the export wrote them (rows under its header).
      const written = readFileSync(rejects, 'utf8');
      const records = format === 'vcf' ? exported.split(/(?<=END:VCARD\r\n)/) : exported.split(/(?<=\r\n)/).slice(1);
      const theirs = records.filter((record) => record.includes('+15550123') || record.includes('+23412345678'));
      expect(theirs, format).toHaveLength(2);
      expect(written, format).toBe(format === 'vcf' ? theirs.join('') : exported.split(/(?<=\r\n)/)[0]! + theirs.join(''));
      // Mended (the numbers they were meant to be), imported: every contact is back.
      writeFileSync(rejects, written.replace('+23412345678', '+2342012345678').replace('+15550123', '+12125550123'));
      expect(await to.run('contacts', 'import', rejects), format).toMatchObject({ code: 0, stdout: 'created 2, already present 0, invalid 0\n' });
      expect(byUsername(await to.contacts()), format).toEqual(byUsername([contact('ann', '+442079460958', 'Ann'), contact('fatima.bello', '+2342012345678', 'Fatima Bello'), contact('short', '+12125550123', 'Too Short')]));
    };
    await Promise.all([restore('vcf'), restore('csv')]);
  });
});

describe('a list’s own export imported back', () => {
  it('finds each contact by its id (the id column), whatever its username now; a row added by hand sharing a number is made (CSV)', () => ownExportBack('csv'));
  it('finds each contact by its id (the UID), whatever its NICKNAME now (vCard)', () => ownExportBack('vcf'));
});
