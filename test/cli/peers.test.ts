// Other address books as peers, for real: Debian's abook (0.6) and khard (0.18), which .ci/run
// installs (each test is skipped, saying so, where one is missing). tickbook's vCard export read
// by each (abook files every number as the mobile, khard lists it as a cell number) and written
// back by each, imported into an empty list: every contact's name, username and phone number come
// back. And each one's own cards (abook's vCard export of its own address book, the cards `khard
// new` makes) imported into tickbook. Each peer is run on the export here only, once.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { byUsername, contact, type Fields, HOUSEHOLD, setUpContactLists } from '../helpers/contact-accounts.js';
import { cleanEnv, runChild } from '../helpers/child.js';

const has = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const ABOOK = has('abook');
const KHARD = has('khard');
const needs = (tool: string) => `(needs ${tool}, which .ci/run installs from Debian's packages)`;

const lists = setUpContactLists('peers');

/**
 * The contacts sent through each peer: a family on one number and two John Smiths, text vCard
 * escapes (`,` `;` `\`), accents and CJK, an avatar (khard keeps it; abook does not). Display
 * names stay within the 72 octets of a card's first FN line: abook keeps no more (README).
 */
const PEOPLE: Fields[] = [
  ...HOUSEHOLD,
  contact('comma.person', '+442079460700', 'Smith, John; "Jack" \\ O\'Neil'),
  contact('zoe', '+4930901820', 'Zoë Löwenstein', 'https://avatars.example/zoe.png'),
  contact('kenji_tanaka', '+81312345678', '田中健二'),
];
/** As contacts come back through a peer that keeps no photo. */
const withoutAvatars = (list: Fields[]) => list.map((c) => ({ ...c, avatar_url: null }));

/** tickbook's vCard export of PEOPLE, made once. */
let exported: string;

beforeAll(async () => {
  const from = lists.account();
  await lists.fill(from, PEOPLE);
  const run = await from.run('contacts', 'export');
  expect(run).toMatchObject({ code: 0, stderr: `exported ${PEOPLE.length} contacts (vcf)\n` });
  exported = run.stdout;
});

/** A peer's command run to its end in `dir` (its home too), failing the test on a non-zero exit. */
async function peer(dir: string, command: string, args: string[], input?: string): Promise<string> {
  const run = await runChild(command, args, { cwd: dir, env: { ...cleanEnv(), HOME: dir }, timeoutMs: 10_000, ...(input !== undefined && { input }) });
  expect(run, `${command} ${args.join(' ')}: ${run.stderr}`).toMatchObject({ code: 0, timedOut: false });
  return run.stdout;
}

/** `file` imported into an empty list: the report, and what the list then holds. */
async function importInto(file: string): Promise<{ stdout: string; contacts: Fields[] }> {
  const to = lists.account();
  const run = await to.run('contacts', 'import', file);
  expect(run.stderr).toBe('');
  return { stdout: run.stdout, contacts: byUsername(await to.contacts()) };
}

/** The entries of an abook address book file: each one's fields (name=…, mobile=…). */
const abookEntries = (text: string): Record<string, string>[] =>
  text
    .split(/^\[\d+\]$/m)
    .slice(1)
    .map((entry) => Object.fromEntries(entry.trim().split('\n').map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)])));

describe('abook', () => {
  // abook keeps a TEL only with a TYPE (cell, home, work) and its value as plain text: the export
  // writes `TEL;TYPE=cell:+…` for it. Its own vCard export has no VERSION and bare parameters
  // (`TEL;CELL:`), which the reader takes.
  it.skipIf(!ABOOK)(`tickbook → abook → tickbook: abook keeps every name, username and number, and its vCard export imports each back ${needs('abook')}`, async () => {
    const dir = mkdtempSync(join(lists.root, 'abook-'));
    writeFileSync(join(dir, 'tickbook.vcf'), exported);
    await peer(dir, 'abook', ['--convert', '--informat', 'vcard', '--infile', 'tickbook.vcf', '--outformat', 'abook', '--outfile', 'addressbook']);
    const entries = abookEntries(readFileSync(join(dir, 'addressbook'), 'utf8'));
    // abook files every number as the mobile, as written (no tel:), and keeps a text value's
    // escapes as written (it shows `Smith\\, John`, README says so), and writes them back so.
    // FN as the export writes it: a backslash and a comma escaped (a semicolon need not be, FN
    // not being a compound value).
    const asVcardText = (text: string) => text.replace(/[\\,]/g, '\\$&');
    expect(entries.map((e) => ({ name: e.name, nick: e.nick, mobile: e.mobile })).sort((a, b) => (a.nick! < b.nick! ? -1 : 1))).toEqual(
      byUsername(PEOPLE).map((c) => ({ name: asVcardText(c.display_name ?? c.username), nick: c.username, mobile: c.phone_number })),
    );
    await peer(dir, 'abook', ['--convert', '--informat', 'abook', '--infile', 'addressbook', '--outformat', 'vcard', '--outfile', 'abook.vcf']);
    const back = await importInto(join(dir, 'abook.vcf'));
    expect(back.stdout).toMatch(new RegExp(`^created ${PEOPLE.length}, already present 0, invalid 0\\n`));
    expect(back.contacts).toEqual(byUsername(withoutAvatars(PEOPLE)));
  });

  // abook's vCard has no VERSION and bare type parameters (`TEL;HOME:`); of María's three numbers,
  // written home, work, cell, the mobile is taken.
  it.skipIf(!ABOOK)(`abook's own address book, exported as vCard by abook, imports with each name and the mobile ${needs('abook')}`, async () => {
    const dir = mkdtempSync(join(lists.root, 'abook-own-'));
    // An address book as abook's own editor saves it.
    writeFileSync(
      join(dir, 'addressbook'),
      [
        '# abook addressbook file',
        '',
        '[format]',
        'program=abook',
        'version=0.6.1',
        '',
        '',
        '[0]',
        'name=María González',
        'email=maria@example.org',
        'phone=+34 912 345 678',
        'workphone=+34 913 000 000',
        'mobile=+34 612 345 678',
        'nick=mariag',
        '',
        '[1]',
        'name=Tom Baker',
        'mobile=+44 7700 900123',
        '',
        '[2]',
        'name=Home Line',
        'phone=+44 20 7946 0123',
        '',
      ].join('\n'),
    );
    await peer(dir, 'abook', ['--convert', '--informat', 'abook', '--infile', 'addressbook', '--outformat', 'vcard', '--outfile', 'abook.vcf']);
    const imported = await importInto(join(dir, 'abook.vcf'));
    // abook writes the home number first: the mobile is taken, and said.
    expect(imported.stdout).toBe('created 3, already present 0, invalid 0\n  abook.vcf card at line 1: 3 numbers, took +34612345678 (the mobile)\n');
    expect(imported.contacts).toEqual([contact('home.line', '+442079460123', 'Home Line'), contact('mariag', '+34612345678', 'María González'), contact('tom.baker', '+447700900123', 'Tom Baker')]);
  });
});

/** A throwaway khard setup in `dir`: two address books (vdirs, a card a file), a and b. */
function khardConfig(dir: string): string[] {
  for (const book of ['a', 'b']) mkdirSync(join(dir, book));
  const config = join(dir, 'khard.conf');
  // No editor: a test must never wait on one.
  writeFileSync(config, `[addressbooks]\n[[a]]\npath = ${join(dir, 'a')}\n[[b]]\npath = ${join(dir, 'b')}\n[general]\ndefault_action = list\neditor = /bin/false\nmerge_editor = /bin/false\n`);
  return ['-c', config];
}

/** Every card in a vdir, one after another, as one file. */
const vdirCards = (dir: string): string =>
  readdirSync(dir)
    .filter((name) => name.endsWith('.vcf'))
    .sort()
    .map((name) => readFileSync(join(dir, name), 'utf8'))
    .join('');

describe('khard', () => {
  it.skipIf(!KHARD)(`tickbook → khard → tickbook: khard lists every name and number of tickbook's cards, and the cards it writes import each back ${needs('khard')}`, async () => {
    const dir = mkdtempSync(join(lists.root, 'khard-'));
    const config = khardConfig(dir);
    // A vdir as vdirsyncer keeps one: each card in a file named by its UID.
    const uids: string[] = [];
    for (const card of exported.split(/(?<=END:VCARD\r\n)/).filter((text) => text.startsWith('BEGIN:VCARD'))) {
      const uid = /\r\nUID:(.+)\r\n/.exec(card)![1]!;
      uids.push(uid);
      writeFileSync(join(dir, 'a', `${uid}.vcf`), card);
    }
    expect(uids).toHaveLength(PEOPLE.length);
    // khard lists every number of tickbook's cards as a cell number of its contact.
    const numbers = await peer(dir, 'khard', [...config, 'phone', '--parsable', '-a', 'a']);
    expect(numbers.trimEnd().split('\n').map((line) => line.split('\t')).sort()).toEqual(PEOPLE.map((c) => [c.phone_number, c.display_name ?? c.username, 'cell']).sort());
    // khard writes each card anew (its own vCard writer) when it copies it to another address
    // book; asked whether to overwrite one of the same name there (the two John Smiths), 0: no.
    for (const uid of uids) await peer(dir, 'khard', [...config, 'copy', '-a', 'a', '-A', 'b', `uid:${uid}`], '0\n');
    expect(readdirSync(join(dir, 'b'))).toHaveLength(PEOPLE.length);
    const written = join(dir, 'khard.vcf');
    writeFileSync(written, vdirCards(join(dir, 'b')));
    const back = await importInto(written);
    expect(back.stdout).toMatch(new RegExp(`^created ${PEOPLE.length}, already present 0, invalid 0\\n`));
    expect(back.contacts).toEqual(byUsername(PEOPLE));
  });

  /** Cards made by `khard new` from its template, as 3.0 (its default) or 4.0, in vdir b. */
  async function khardMade(dir: string, people: readonly string[], version?: '4.0'): Promise<string> {
    const config = khardConfig(dir);
    for (const [i, yaml] of people.entries()) {
      writeFileSync(join(dir, `new-${i}.yaml`), yaml);
      await peer(dir, 'khard', [...config, 'new', '-a', 'b', ...(version ? ['--vcard-version', version] : []), '-i', `new-${i}.yaml`]);
    }
    const file = join(dir, 'khard.vcf');
    writeFileSync(file, vdirCards(join(dir, 'b')));
    return file;
  }

  it.skipIf(!KHARD)(`the cards khard makes itself (3.0 and 4.0; a number as a tel: URI; a company's) import with their names and numbers ${needs('khard')}`, async () => {
    const people = ['First name: Łukasz\nLast name: Bjørn\nPhone:\n    home: +48 22 123 45 67\n', 'Organisation: Acme Switchboard\nPhone:\n    work: +44 20 7946 0000\n', 'First name: Ada\nLast name: Lovelace\nNickname: ada\nPhone:\n    cell: +44 7700 900001\n'];
    const [v3, v4] = await Promise.all([khardMade(mkdtempSync(join(lists.root, 'khard-3-')), people), khardMade(mkdtempSync(join(lists.root, 'khard-4-')), people, '4.0')]);
    expect(readFileSync(v4, 'utf8')).toContain('TEL;TYPE=home;VALUE=uri:tel:+48 22 123 45 67');
    const expected = [contact('acme.switchboard', '+442079460000', 'Acme Switchboard'), contact('ada', '+447700900001', 'Ada Lovelace'), contact('lukasz.bjorn', '+48221234567', 'Łukasz Bjørn')];
    for (const file of [v3, v4]) {
      const imported = await importInto(file);
      expect(imported.stdout, file).toBe('created 3, already present 0, invalid 0\n');
      expect(imported.contacts, file).toEqual(expected);
    }
  });

  // khard writes the numbers in its template's order, work before cell; a messaging list wants
  // the mobile, and the report says it was taken.
  it.skipIf(!KHARD)(`a card khard makes with a work number before the mobile imports with the mobile ${needs('khard')}`, async () => {
    const file = await khardMade(mkdtempSync(join(lists.root, 'khard-cell-')), ['First name: Grace\nLast name: Hopper\nPhone:\n    work: +1 212 555 0100\n    cell: +1 212 555 0199\n']);
    expect(readFileSync(file, 'utf8')).toMatch(/TEL;TYPE=work:\+1 212 555 0100\r\nTEL;TYPE=cell:\+1 212 555 0199\r\n/);
    const imported = await importInto(file);
    expect(imported.stdout).toBe('created 1, already present 0, invalid 0\n  khard.vcf card at line 1: 2 numbers, took +12125550199 (the mobile)\n');
    expect(imported.contacts).toEqual([contact('grace.hopper', '+12125550199', 'Grace Hopper')]);
  });
});
