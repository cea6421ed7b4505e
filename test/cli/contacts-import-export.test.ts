// `tickbook contacts export` and `tickbook contacts import`: real processes of the built CLI
// against a real test sandbox. Round trips through vCard and CSV, importing again, the corpus of
// address-book files in test/fixtures/contacts (reports, rejects files, mending them), dry runs,
// files that are no contacts at all, a server that goes away part way, and exports to files.
import { parse } from 'csv-parse/sync';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Account, accountOf, byUsername, contact, contactsOfCsv, type Fields } from '../helpers/contact-accounts.js';
import { call, client, runTickbookToExit, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { closeAllServers, errorJson, httpServer, json } from '../helpers/servers.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/contacts/', import.meta.url));
const fixture = (name: string): string => join(FIXTURES, name);

// Each bearer token sees a contact list of its own: the first holds the demo contacts (the source
// of the round trips and exports), every other starts empty, one per test that imports.
const TOKENS = Array.from({ length: 40 }, (_, i) => `tok_contacts_io_${String(i).padStart(2, '0')}_abcdefghij`);
const API_KEY = 'key_contacts_io_abcdefghij';
const DEMO_CONTACTS = 60;

/** Contacts added to the demo ones: text that vCard and CSV each have to escape, and a long fold. */
const EXTRAS: Record<string, string>[] = [
  { username: 'comma.person', phone_number: '+442079460700', display_name: 'Smith, John; "Jack" \\ O\'Neil', avatar_url: 'https://img.example/a.png?size=64,64&x=1' },
  { username: 'formula', phone_number: '+442079460701', display_name: '=HYPERLINK("http://evil.example","click")' },
  { username: 'signs', phone_number: '+442079460702', display_name: '-minus +plus @at' },
  { username: 'Long_Emoji', phone_number: '+442079460703', display_name: '😀é€'.repeat(21) },
  { username: 'MixedCase.NoName', phone_number: '+12125550199' },
];
const SOURCE_COUNT = DEMO_CONTACTS + EXTRAS.length;

let sandbox: TestSandbox;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'tickbook-contacts-io-'));
  sandbox = await startTestSandbox({ demoData: true, tokens: TOKENS, apiKeys: [API_KEY] });
  const api = client(sandbox, TOKENS[0]);
  for (const form of EXTRAS) expect((await api.create(form)).status).toBe(201);
});
afterAll(async () => {
  await sandbox?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});
afterEach(closeAllServers);

/** A home and a contact list of its own (the next unused token), or the source's with index 0. */
let accounts = 0;
const account = (options: { token?: string; baseUrl?: string } = {}): Account =>
  accountOf(sandbox, root, options.token ?? TOKENS[++accounts]!, API_KEY, options);

const source = () => account({ token: TOKENS[0] });

describe('round trips', () => {
  it('export vcf → import into an empty list → export csv gives every contact back field for field, and so does csv; importing again creates nothing', async () => {
    const from = source();
    const expected = byUsername(await from.contacts());
    expect(expected).toHaveLength(SOURCE_COUNT);
    // The hard cases are there to be carried: no display name, an avatar, escaping, folding.
    expect(expected.filter((c) => c.display_name === null).length).toBeGreaterThan(5);
    expect(expected.filter((c) => c.avatar_url !== null).length).toBeGreaterThan(5);

    const [vcf, csv] = await Promise.all([from.run('contacts', 'export'), from.run('contacts', 'export', '--format', 'csv')]);
    expect(vcf).toMatchObject({ code: 0, stderr: `exported ${SOURCE_COUNT} contacts (vcf)\n` });
    expect(csv).toMatchObject({ code: 0, stderr: `exported ${SOURCE_COUNT} contacts (csv)\n` });
    // The long emoji name is folded in the vCard (189 octets: three lines): an import must unfold it.
    const emojiCard = vcf.stdout.split('BEGIN:VCARD').find((card) => card.includes('NICKNAME:Long_Emoji'));
    expect(emojiCard).toMatch(/\r\nFN:[^\r]+\r\n [^\r]+\r\n [^\r]+\r\nNICKNAME:Long_Emoji\r\n/u);

    const roundTrip = async (format: 'vcf' | 'csv', text: string) => {
      const to = account();
      const file = join(to.dir, `contacts.${format}`);
      writeFileSync(file, text);
      const imported = await to.run('contacts', 'import', file);
      expect(imported, format).toMatchObject({ code: 0, stdout: `created ${SOURCE_COUNT}, already present 0, invalid 0\n`, stderr: '' });
      const [back, again] = await Promise.all([to.run('contacts', 'export', '--format', 'csv'), to.run('contacts', 'import', file)]);
      expect(back.code, back.stderr).toBe(0);
      expect(byUsername(contactsOfCsv(back.stdout)), format).toEqual(expected);
      // Imported before: found by username and number, none made twice.
      expect(again, format).toMatchObject({ code: 0, stdout: `created 0, already present ${SOURCE_COUNT}, invalid 0\n` });
      expect(await to.contacts()).toHaveLength(SOURCE_COUNT);
    };
    await Promise.all([roundTrip('vcf', vcf.stdout), roundTrip('csv', csv.stdout)]);
  }, 40_000);
});

/** The card of a vCard fixture that begins on `line` (from 1), as written. */
function cardAt(text: string, line: number): string {
  const lines = text.split('\r\n');
  expect(lines[line - 1]).toBe('BEGIN:VCARD');
  const end = lines.indexOf('END:VCARD', line - 1);
  return `${lines.slice(line - 1, end + 1).join('\r\n')}\r\n`;
}

/** `count` lines of a CSV fixture from the one starting with `start`, as written (less any BOM). */
function linesFrom(text: string, start: string, count = 1): string {
  const lines = text.replace(/^\uFEFF/, '').split('\r\n');
  const at = lines.findIndex((line) => line.startsWith(start));
  expect(at, start).toBeGreaterThanOrEqual(0);
  return `${lines.slice(at, at + count).join('\r\n')}\r\n`;
}

const NO_COUNTRY = (phone: string) => `phone ${JSON.stringify(phone)} has no country code: give --default-country (e.g. GB, US) to say how to read it`;

interface CorpusCase {
  file: string;
  created: Fields[];
  /** Already there within the file itself (a person twice). */
  present: number;
  invalid: [where: string, why: string][];
  /** Where the number taken is not the first written, and what the report says of it. */
  taken?: [where: string, note: string][];
  /** The rejects file expected, from the fixture's text. */
  rejects: (text: string) => string;
  /** Importing the rejects file with --default-country. */
  mend: { country: string; adds: Fields[]; invalid: [where: string, why: string][] };
}

const CORPUS: CorpusCase[] = [
  {
    file: 'iphone-3.0.vcf',
    created: [
      contact('john.appleseed', '+14085550126', 'John Appleseed'),
      contact('acme.pizza', '+442079460321', 'Acme Pizza'),
      contact('anna.haro.md', '+353871234567', 'Anna Haro, MD'),
      contact('tel.447700900987', '+447700900987'),
      contact('tel.819012345678', '+819012345678', '田中 健二'),
    ],
    present: 0,
    invalid: [
      ['card at line 19', NO_COUNTRY('(555) 564-8583')],
      ['card at line 51', 'no phone number'],
    ],
    rejects: (text) => cardAt(text, 19) + cardAt(text, 51),
    mend: { country: 'US', adds: [contact('kate.bell', '+15555648583', 'Kate Bell')], invalid: [['card at line 15', 'no phone number']] },
  },
  {
    file: 'android-2.1.vcf',
    created: [
      contact('jurgen.muller', '+491701234567', 'Jürgen Müller'),
      contact('tel.306912345678', '+306912345678', 'Σοφία Παπαδοπούλου-Καραγιάννη'),
      contact('francois-xavier.lefevre-dumont.d', '+33612345678', 'François-Xavier Lefèvre-Dûmont de Saint-Étienne'),
      contact('pizza.napoli', '+390212345678', 'Pizza Napoli'),
      contact('tel.31612345678', '+31612345678'),
      contact('lena.schmidt', '+436641234567', 'Lena Schmidt'),
    ],
    // Jürgen is in the file twice, with the same mobile number.
    present: 1,
    invalid: [
      ['card at line 37', NO_COUNTRY('07700 900123')],
      ['card at line 43', 'no phone number'],
    ],
    rejects: (text) => cardAt(text, 37) + cardAt(text, 43),
    mend: { country: 'GB', adds: [contact('anna.smith', '+447700900123', 'Anna Smith')], invalid: [['card at line 7', 'no phone number']] },
  },
  {
    file: 'google.csv',
    created: [
      contact('ada.lovelace', '+447700900001', 'Ada Lovelace', 'https://lh3.googleusercontent.com/-a1b2c3/AAAAAAAAAAI/ada/photo.jpg'),
      contact('grace.hopper', '+12125550100', 'Grace Hopper'),
      contact('alan.turing', '+442079460002', 'Alan Turing'),
      contact('tim.berners-lee', '+442079460003', 'Tim Berners-Lee'),
      contact('tel.14155550105', '+14155550105'),
      contact('margaret.hamilton', '+16175550106', 'Margaret Hamilton'),
    ],
    present: 0,
    invalid: [
      ['row 6', 'no phone number'],
      ['row 7', NO_COUNTRY('020 7946 0004')],
    ],
    // Work "ext. 4021" first, no phone number, then a Mobile: the mobile taken, and said.
    taken: [['row 5', '2 numbers, took +442079460003 (the mobile)']],
    rejects: (text) => linesFrom(text, 'Name,Given Name') + linesFrom(text, 'Katherine Johnson,') + linesFrom(text, 'Linus Torvalds,'),
    mend: { country: 'GB', adds: [contact('linus.torvalds', '+442079460004', 'Linus Torvalds')], invalid: [['row 2', 'no phone number']] },
  },
  {
    file: 'outlook.csv',
    created: [
      // Business Phone before Mobile Phone: the mobile is taken.
      contact('john.smith', '+14255550101', 'John Smith'),
      // A second John Smith: the name's username is taken by another number.
      contact('john.smith.0142', '+12065550142', 'John Smith'),
      contact('priya.patel', '+919876543210', 'Priya Patel'),
      contact('tel.442079460999', '+442079460999'),
    ],
    present: 0,
    invalid: [
      ['row 4', NO_COUNTRY('07700 900555')],
      ['row 7', 'no phone number'],
    ],
    taken: [['row 2', '2 numbers, took +14255550101 (the mobile)']],
    rejects: (text) => linesFrom(text, 'First Name,') + linesFrom(text, '"Jane"') + linesFrom(text, '"Bob"'),
    mend: { country: 'GB', adds: [contact('jane.doe', '+447700900555', 'Jane Doe')], invalid: [['row 3', 'no phone number']] },
  },
  {
    file: 'european.csv',
    created: [
      contact('dupont.jean', '+33612345670', 'Dupont, Jean'),
      contact('muller.anna', '+4930901820', 'Müller, Anna', 'https://example.org/avatars/anna.png'),
      contact('smith.jr', '+442079460555', 'Smith; Jr'),
      contact('nono.perez', '+34612345679', 'Ñoño Pérez'),
      contact('tel.31612345679', '+31612345679'),
    ],
    present: 0,
    invalid: [
      ['row 4', NO_COUNTRY('06 1234 5678')],
      ['row 7', 'no phone number'],
    ],
    rejects: (text) => linesFrom(text, 'Display Name;') + linesFrom(text, 'Rossi, Marco;') + linesFrom(text, 'De Vries, Daan;'),
    mend: { country: 'IT', adds: [contact('rossi.marco', '+390612345678', 'Rossi, Marco')], invalid: [['row 3', 'no phone number']] },
  },
  {
    file: 'quoted.csv',
    created: [
      contact('smith.john.jack', '+442079460200', 'Smith, John "Jack"'),
      contact('line.break', '+442079460201', 'Line Break'),
      contact('cmd.c.calc.a0', '+442079460202', "=cmd|' /C calc'!A0"),
      // A username the contract does not take is made into one.
      contact('bad.user', '+442079460203', 'Bad User'),
    ],
    present: 0,
    invalid: [
      ['row 6', 'no phone number'],
      ['row 7', NO_COUNTRY('020 7946 0204')],
      ['row 8', 'name is longer than 64 characters'],
    ],
    rejects: (text) =>
      linesFrom(text, 'username,') + linesFrom(text, ',"Multi', 2) + linesFrom(text, ',"Ünïcödé') + linesFrom(text, ',Wolfeschlegel'),
    mend: {
      country: 'GB',
      adds: [contact('unicode.ltd', '+442079460204', 'Ünïcödé, Ltd.', 'https://example.com/logo.png?size=64,64')],
      invalid: [
        ['row 2', 'no phone number'],
        ['row 4', 'name is longer than 64 characters'],
      ],
    },
  },
];

const report = (file: string, created: number, present: number, invalid: [string, string][], verb = 'created', taken: [string, string][] = []) =>
  `${verb} ${created}, already present ${present}, invalid ${invalid.length}\n${[...invalid, ...taken].map(([where, why]) => `  ${file} ${where}: ${why}\n`).join('')}`;

describe('the corpus of address-book files', () => {
  // Four processes one after another each, the six files at once: generous for a loaded machine.
  it.concurrent.for(CORPUS)('$file: the report, the rejects file as written, importing again, and the mended rejects', { timeout: 40_000 }, async (c, { expect }) => {
    const to = account();
    const text = readFileSync(fixture(c.file), 'utf8');
    const extension = c.file.split('.').at(-1)!;
    const rejects = join(to.dir, `rejects.${extension}`);

    const first = await to.run('contacts', 'import', fixture(c.file), '--rejects', rejects);
    expect(first.stderr).toBe('');
    expect(first.stdout).toBe(`${report(c.file, c.created.length, c.present, c.invalid, 'created', c.taken)}the refused cards and rows are in ${rejects}, as they were written\n`);
    expect(first.code).toBe(1);

    const [made, again] = await Promise.all([to.contacts(), to.run('contacts', 'import', fixture(c.file))]);
    expect(byUsername(made)).toEqual(byUsername(c.created));
    expect(readFileSync(rejects, 'utf8')).toBe(c.rejects(text));
    expect(statSync(rejects).mode & 0o777).toBe(0o600);
    // A second import finds every contact the first made; the refused are refused again.
    expect(again).toMatchObject({ code: 1, stdout: report(c.file, 0, c.created.length + c.present, c.invalid, 'created', c.taken) });

    const mended = await to.run('contacts', 'import', rejects, '--default-country', c.mend.country);
    expect(mended).toMatchObject({ stdout: report(`rejects.${extension}`, c.mend.adds.length, 0, c.mend.invalid), stderr: '' });
    expect(mended.code).toBe(c.mend.invalid.length > 0 ? 1 : 0);
    expect(byUsername(await to.contacts())).toEqual(byUsername([...c.created, ...c.mend.adds]));
  });
});

describe('contacts import', () => {
  it('a 100 MB file that is not contacts is refused at once from its first bytes, naming the file; nothing is read whole', async () => {
    const to = account();
    const big = join(to.dir, 'big-notes.txt');
    // 100 MB of notes: refused by its first line, not by reading it all.
    writeFileSync(big, 'notes from the meeting\n'.repeat(Math.ceil((100 * 1024 * 1024) / 23)));
    const binary = join(to.dir, 'big-photo.vcf');
    writeFileSync(binary, Buffer.alloc(100 * 1024 * 1024, 0));
    const [text, bytes] = await Promise.all([to.run('contacts', 'import', big), to.run('contacts', 'import', binary)]);
    expect(text).toEqual({ code: 1, signal: null, stdout: '', stderr: `tickbook: ${big} is neither vCard nor CSV: its first line is not BEGIN:VCARD, nor a header of columns (give --format to say which it is)\n` });
    expect(bytes).toEqual({ code: 1, signal: null, stdout: '', stderr: `tickbook: ${binary} is not text (it holds binary data): expected a vCard (.vcf) or CSV file\n` });
    expect(await to.contacts()).toEqual([]);
    rmSync(big);
    rmSync(binary);
  });

  it('--dry-run says what it would do and creates nothing', async () => {
    const to = account();
    const google = CORPUS.find((c) => c.file === 'google.csv')!;
    const outlook = CORPUS.find((c) => c.file === 'outlook.csv')!;
    const [dry, dryJson, vcardJson] = await Promise.all([
      to.run('contacts', 'import', fixture('google.csv'), '--dry-run'),
      to.run('contacts', 'import', fixture('outlook.csv'), '--dry-run', '--json'),
      to.run('contacts', 'import', join(FIXTURES, '../vcard/outlook-2003.vcf'), '--dry-run', '--json'),
    ]);
    expect(dry).toMatchObject({ code: 1, stdout: report('google.csv', 6, 0, google.invalid, 'would create', google.taken), stderr: '' });
    expect(dryJson.code).toBe(1);
    expect(JSON.parse(dryJson.stdout)).toEqual({
      status: 'success',
      dry_run: true,
      created: 4,
      present: 0,
      shared_phone: 0,
      invalid: [
        { where: 'outlook.csv row 4', field: 'phone', reason: outlook.invalid[0]![1] },
        { where: 'outlook.csv row 7', field: 'phone', reason: 'no phone number' },
      ],
      failed: [],
      invalid_count: 2,
      failed_count: 0,
      // Which number a row of several was read as, when it is not the first written.
      numbers_taken: [{ where: 'outlook.csv row 2', phone: '+14255550101', taken: 'mobile', of: 2 }],
      numbers_taken_count: 1,
      stopped: null,
    });
    // Outlook's WORK, HOME, CELL and FAX: the mobile taken, and said.
    expect(vcardJson.code, vcardJson.stderr).toBe(0);
    expect(JSON.parse(vcardJson.stdout)).toMatchObject({
      created: 1,
      numbers_taken: [{ where: 'outlook-2003.vcf card at line 1', phone: '+15125550142', taken: 'mobile', of: 4 }],
      numbers_taken_count: 1,
    });
    const list = await to.run('contacts', 'list', '--all', '--json');
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual({ has_more: false, data: [] });
  });

  it('files that hold no contacts: exit 1, a message naming the file, nothing created (not even from a good file beside them)', async () => {
    const to = account();
    const path = (name: string) => join(to.dir, name);
    mkdirSync(path('folder.vcf'));
    // A PNG's first bytes: the signature and the start of its IHDR chunk, NULs among them.
    writeFileSync(path('photo.vcf'), Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex'));
    writeFileSync(path('latin1.csv'), Buffer.from('Name,Phone\r\nJosé Núñez,+34612345678\r\n', 'latin1'));
    writeFileSync(path('empty.csv'), '');
    writeFileSync(path('blank.vcf'), '\r\n  \r\n\r\n');
    writeFileSync(path('notes.txt'), 'Remember to call Ana tomorrow\nBuy milk\n');
    writeFileSync(path('emails.csv'), 'Name,Email\r\nAna,ana@example.com\r\n');
    writeFileSync(path('good.csv'), 'Name,Phone\r\nZed,+442079460900\r\n');

    const bad: [file: string, message: string][] = [
      ['missing.vcf', `cannot read ${path('missing.vcf')}: no such file or directory (ENOENT)`],
      ['folder.vcf', `${path('folder.vcf')} is a directory, not a file`],
      ['photo.vcf', `${path('photo.vcf')} is not text (it holds binary data): expected a vCard (.vcf) or CSV file`],
      ['latin1.csv', `${path('latin1.csv')} line 2 is not UTF-8 text (byte 0xE9): save it as UTF-8 and import it again`],
      ['empty.csv', `${path('empty.csv')} is empty: there is nothing to import`],
      ['blank.vcf', `${path('blank.vcf')} is empty: there is nothing to import`],
      ['notes.txt', `${path('notes.txt')} is neither vCard nor CSV: its first line is not BEGIN:VCARD, nor a header of columns (give --format to say which it is)`],
      ['emails.csv', `${path('emails.csv')}: its header names no phone column (phone_number, phone, mobile, …): "Name,Email"`],
    ];
    const runs = await Promise.all([
      ...bad.map(([file]) => to.run('contacts', 'import', path(file))),
      // Every file is checked before anything is sent: the good one first is not imported either.
      to.run('contacts', 'import', path('good.csv'), path('latin1.csv')),
    ]);
    for (const [i, [file, message]] of bad.entries()) expect(runs[i], file).toEqual({ code: 1, signal: null, stdout: '', stderr: `tickbook: ${message}\n` });
    expect(runs.at(-1)).toEqual({ code: 1, signal: null, stdout: '', stderr: `tickbook: ${bad[3]![1]}\n` });
    expect(await to.contacts()).toEqual([]);
  });

  it('the server going away part way: exit 1 with the report so far and "run the same import again"; run again, it finishes and makes nothing twice', async () => {
    const to = account();
    const file = join(to.dir, 'people.csv');
    // Two by two on one number (couples on a home line): each person is made, none twice.
    const people = Array.from({ length: 20 }, (_, i) => contact(`person.${i}`, `+4420794610${String(i >> 1).padStart(2, '0')}`, `Person ${i}`));
    writeFileSync(file, `Name,Phone\r\n${people.map((p) => `${p.display_name},${p.phone_number}`).join('\r\n')}\r\n`);

    // A proxy in front of the sandbox: the first six creates are answered; the seventh reaches the
    // sandbox but its answer is lost with the connection; every create after is cut off unsent.
    const ANSWERED = 6;
    const proxy = await httpServer((req, res, n) => {
      const create = req.method === 'POST';
      if (create && n > ANSWERED) {
        res.socket?.destroy();
        return;
      }
      void call(sandbox.url, req.url, {
        method: req.method,
        headers: { authorization: String(req.headers.authorization) },
        ...(req.body !== '' && { body: req.body, contentType: String(req.headers['content-type']) }),
      }).then((reply) => {
        if (create && n === ANSWERED) {
          res.socket?.destroy();
          return;
        }
        const headers = Object.fromEntries(
          Object.entries(reply.headers).filter(([name]) => !['connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(name)),
        ) as Record<string, string>;
        res.writeHead(reply.status, headers).end(reply.text);
      });
    });

    const cut = await runTickbookToExit(['contacts', 'import', file], { ...to.env, TICKBOOK_BASE_URL: proxy.url }, 20_000);
    expect(cut.code, cut.stderr).toBe(1);
    const lines = cut.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^created 6, already present 0, invalid 0, failed [1-4]$/);
    const failed = Number(/failed (\d)/.exec(lines[0]!)![1]);
    // The creates cut off (those in flight, at most four), each named by its row.
    const dropped = `the connection to ${new URL(proxy.url).host} was dropped (network)`;
    const rows = lines.slice(1, 1 + failed).map((line) => {
      const row = /^ {2}people\.csv row (\d+): (.*)$/.exec(line);
      expect(row?.[2], line).toBe(dropped);
      return Number(row![1]);
    });
    expect(new Set(rows).size).toBe(failed);
    // Which of the six share a number with one before them depends on the order the creates went.
    const shared = /^note: [1-5] of those created share a phone number with another contact \(tickbook contacts duplicates lists them\)$/;
    expect(lines.slice(1 + failed).filter((line) => !shared.test(line))).toEqual([`stopped: ${dropped}; run the same import again to finish it (nothing is created twice)`]);
    expect(proxy.count('POST', '/v1/contacts')).toBeGreaterThan(ANSWERED);
    // The six answered and the one whose answer was lost.
    expect(await to.contacts()).toHaveLength(ANSWERED + 1);

    const rerun = await to.run('contacts', 'import', file);
    expect(rerun).toMatchObject({ code: 0, stderr: '' });
    expect(rerun.stdout).toMatch(/^created 13, already present 7, invalid 0\nnote: \d+ of those created share a phone number with another contact \(tickbook contacts duplicates lists them\)\n$/);
    expect(byUsername(await to.contacts())).toEqual(byUsername(people));
  });

  it('already there: the same username (any case) with the same number; a number alone is another person, made and noted; a username given that another number holds is refused; a derived one gets the digits', async () => {
    const to = account();
    const api = client(sandbox, to.token);
    expect((await api.create({ username: 'ada', phone_number: '+442079460958', display_name: 'Ada' })).status).toBe(201);
    expect((await api.create({ username: 'bob', phone_number: '+442079460959' })).status).toBe(201);
    const file = join(to.dir, 'known.csv');
    writeFileSync(file, 'username,name,phone\r\n,Ada Lovelace,+44 20 7946 0958\r\nBOB,Bobby,+442079460000\r\n,Bob,+442079460001\r\nBoB,Robert,+442079460959\r\n');
    const refused = '  known.csv row 3: username BOB belongs to another contact (with another phone number)\n';
    expect(await to.run('contacts', 'import', file)).toMatchObject({
      code: 1,
      stdout: `created 2, already present 1, invalid 1\n${refused}note: 1 of those created shares a phone number with another contact (tickbook contacts duplicates lists them)\n`,
      stderr: '',
    });
    const there = [contact('ada', '+442079460958', 'Ada'), contact('ada.lovelace', '+442079460958', 'Ada Lovelace'), contact('bob', '+442079460959'), contact('bob.0001', '+442079460001', 'Bob')];
    expect(byUsername(await to.contacts())).toEqual(there);
    expect(await to.run('contacts', 'import', file)).toMatchObject({ code: 1, stdout: `created 0, already present 3, invalid 1\n${refused}`, stderr: '' });
    expect(byUsername(await to.contacts())).toEqual(there);
  });

  it('people without a username sharing a number (a family) are each made, by the name\'s username; one name and number twice is one person; importing again makes nothing', async () => {
    const to = account();
    const file = join(to.dir, 'family.csv');
    writeFileSync(file, 'Name,Phone\r\nJohn Smith,+44 20 7946 0100\r\nJane Smith,+44 20 7946 0100\r\nJim Smith,+44 20 7946 0100\r\nJohn Smith,+44 20 7946 0100\r\nJohn Smith,+1 212 555 0101\r\n');
    const first = await to.run('contacts', 'import', file, '--json');
    expect(first).toMatchObject({ code: 0, stderr: '' });
    // Jane and Jim share John's number: noted, not merged.
    expect(JSON.parse(first.stdout)).toMatchObject({ created: 4, present: 1, shared_phone: 2 });
    const family = [
      contact('jane.smith', '+442079460100', 'Jane Smith'),
      contact('jim.smith', '+442079460100', 'Jim Smith'),
      contact('john.smith', '+442079460100', 'John Smith'),
      // Another John Smith: the name's username is another number's.
      contact('john.smith.0101', '+12125550101', 'John Smith'),
    ];
    expect(byUsername(await to.contacts())).toEqual(family);
    const again = await to.run('contacts', 'import', file, '--json');
    expect(again).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(again.stdout)).toMatchObject({ created: 0, present: 5, shared_phone: 0 });
    expect(byUsername(await to.contacts())).toEqual(family);
  });

  it('people on one number whose names give one username (no A–Z letters, or cut at 32) are each made; only the same name and number is the same person; importing again makes nothing', async () => {
    const to = account();
    const vcf = join(to.dir, 'family.vcf');
    const card = (name: string, phone: string) => `BEGIN:VCARD\r\nVERSION:3.0\r\nFN:${name}\r\nTEL;TYPE=HOME:${phone}\r\nEND:VCARD\r\n`;
    writeFileSync(vcf, [card('Иван Петров', '+74951234567'), card('Мария Петрова', '+74951234567'), card('Ольга Петрова', '+74951234567'), card('李伟', '+8613800138000'), card('王芳', '+8613800138000')].join(''));
    const csv = join(to.dir, 'names.csv');
    writeFileSync(
      csv,
      [
        'name,phone',
        'Γιώργος Παπαδόπουλος,+302101234567',
        'Μαρία Παπαδοπούλου,+302101234567',
        'Christopher Alexander Montgomery,+12125550187',
        'Christopher Alexander Montgomery Jr,+12125550187',
        'José Núñez,+12125550188',
        'Jose Nunez,+12125550188',
        // A person twice in one address book: one contact. With neither a name nor a username, two
        // rows of one number carry nothing to tell them apart, and nothing of the second is lost.
        'Иван Петров,+74951234567',
        ',+447700900555',
        ',+447700900555',
        '',
      ].join('\r\n'),
    );
    const first = await to.run('contacts', 'import', vcf, csv, '--json');
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(first.stdout)).toMatchObject({ created: 12, present: 2, shared_phone: 6, invalid_count: 0 });
    const everyone = [
      contact('christopher.alexander.montg.0187', '+12125550187', 'Christopher Alexander Montgomery Jr'),
      contact('christopher.alexander.montgomery', '+12125550187', 'Christopher Alexander Montgomery'),
      contact('jose.nunez', '+12125550188', 'José Núñez'),
      contact('jose.nunez.0188', '+12125550188', 'Jose Nunez'),
      contact('tel.302101234567', '+302101234567', 'Γιώργος Παπαδόπουλος'),
      contact('tel.302101234567.4567', '+302101234567', 'Μαρία Παπαδοπούλου'),
      contact('tel.447700900555', '+447700900555'),
      contact('tel.74951234567', '+74951234567', 'Иван Петров'),
      contact('tel.74951234567.4567', '+74951234567', 'Мария Петрова'),
      contact('tel.74951234567.4567-2', '+74951234567', 'Ольга Петрова'),
      contact('tel.8613800138000', '+8613800138000', '李伟'),
      contact('tel.8613800138000.8000', '+8613800138000', '王芳'),
    ];
    expect(byUsername(await to.contacts())).toEqual(everyone);
    const again = await to.run('contacts', 'import', vcf, csv, '--json');
    expect(again).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(again.stdout)).toMatchObject({ created: 0, present: 14, shared_phone: 0 });
    expect(byUsername(await to.contacts())).toEqual(everyone);
  });

  it('a CSV with LF line ends: its refused rows go to the rejects file once each, CRLF, and a .vcf with no card is refused before anything is sent', async () => {
    const to = account();
    const csv = join(to.dir, 'lf.csv');
    writeFileSync(csv, 'Name,Phone,Notes\n"Multi\nLine","",y\nBob,020 7946 0959,x\nAnn,+442079460960,z\n');
    const rejects = join(to.dir, 'lf-rejects.csv');
    let run = await to.run('contacts', 'import', csv, '--rejects', rejects);
    expect(run.stdout).toMatch(/^created 1, already present 0, invalid 2\n/);
    expect(readFileSync(rejects, 'utf8')).toBe('Name,Phone,Notes\r\n"Multi\nLine","",y\r\nBob,020 7946 0959,x\r\n');
    // The mended file (a country given) finds only the two refused, nothing made up from blank lines.
    run = await to.run('contacts', 'import', rejects, '--default-country', 'GB');
    expect(run.stdout).toMatch(/^created 1, already present 0, invalid 1\n/);

    const notes = join(to.dir, 'notes.vcf');
    writeFileSync(notes, 'these are my notes, not cards\n');
    const good = join(to.dir, 'good.csv');
    writeFileSync(good, 'name,phone\r\nCara,+442079460961\r\n');
    const before = (await to.contacts()).length;
    run = await to.run('contacts', 'import', good, notes);
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr).toMatch(/notes\.vcf holds no vCard \(no BEGIN:VCARD line\)/);
    expect(await to.contacts()).toHaveLength(before);
  });

  it('a report line quotes a short excerpt, never a whole value: a line no property and a TEL run on into 24,820 bytes of base64', async () => {
    const to = account();
    const base64 = 'QUJD'.repeat(6205);
    const file = join(to.dir, 'mac.vcf');
    const card = (...lines: string[]) => ['BEGIN:VCARD', 'VERSION:3.0', ...lines, 'END:VCARD', ''].join('\r\n');
    // A photo's value on a line of its own (no folding space) right after TEL, and a TEL folded into one.
    writeFileSync(file, card('FN:Mac One', 'TEL:+442079460801', base64) + card('FN:Mac Two', 'TEL:+44 20 7946', ` ${base64}`));
    const run = await to.run('contacts', 'import', file);
    expect(run.code).toBe(1);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toBe('created 0, already present 0, invalid 2');
    expect(lines[1]).toBe(`  mac.vcf card at line 1: line 5 is not a property (name:value): "${base64.slice(0, 39)}…"`);
    expect(lines[2]!.startsWith('  mac.vcf card at line 7: phone "+44 20 7946QUJD')).toBe(true);
    expect(lines[2]!.endsWith('…')).toBe(true);
    expect(lines[2]!.length).toBeLessThanOrEqual(240);
  });

  it('a create answered 409 (someone made it meanwhile) counts as already present, exit 0', async () => {
    const server = await httpServer((req, res) => {
      if (req.method === 'GET') json(res, 200, { has_more: false, data: [] });
      else json(res, 409, errorJson('conflict', 'a contact with this username already exists'));
    });
    const to = account({ baseUrl: server.url });
    const file = join(to.dir, 'three.csv');
    writeFileSync(file, 'name,phone\r\nA,+442079460001\r\nB,+442079460002\r\nC,+442079460003\r\n');
    const run = await to.run('contacts', 'import', file);
    expect(run).toMatchObject({ code: 0, stdout: 'created 0, already present 3, invalid 0\n', stderr: '' });
    expect(server.count('POST', '/v1/contacts')).toBe(3);
  });
});

describe('the CSV formula guard', () => {
  it('a cell a spreadsheet splitting on "," or ";" would run is written after a \', one holding a separator quoted, a phone number as it is; an import gives each back as it was', async () => {
    const from = account();
    const api = client(sandbox, from.env.TICKBOOK_TOKEN);
    const hostile = [
      { username: 'semi', phone_number: '+442079460710', display_name: 'Bob;=1+1;x' },
      { username: 'kept', phone_number: '+442079460711', display_name: "'=kept" },
      { username: 'wide', phone_number: '+442079460712', display_name: '\uFF1D1+1' },
      { username: 'comma.at', phone_number: '+442079460713', display_name: 'Ann,@home' },
      { username: 'quoted.eq', phone_number: '+442079460714', display_name: 'x;"=1"' },
      { username: 'plain', phone_number: '+442079460715', display_name: "O'Neil; Jr" },
    ];
    for (const form of hostile) expect((await api.create(form)).status).toBe(201);
    const file = join(from.dir, 'guarded.csv');
    expect(await from.run('contacts', 'export', '--output', file)).toMatchObject({ code: 0, stderr: `exported ${hostile.length} contacts to ${file} (csv)\n` });
    const text = readFileSync(file, 'utf8');
    const line = (username: string) => text.split('\r\n').find((row) => row.split(',')[1] === username)!;
    expect(line('semi')).toContain(`,semi,"Bob;'=1+1;x",+442079460710,`);
    expect(line('kept')).toContain(`,kept,''=kept,+442079460711,`);
    expect(line('wide')).toContain(`,wide,'\uFF1D1+1,+442079460712,`);
    expect(line('comma.at')).toContain(`,comma.at,"Ann,'@home",+442079460713,`);
    expect(line('quoted.eq')).toContain(`,quoted.eq,"x;'""=1""",+442079460714,`);
    expect(line('plain')).toContain(`,plain,"O'Neil; Jr",+442079460715,`);
    // As a spreadsheet splitting on ";" sees each line: no cell of it starts a formula.
    for (const { username } of hostile) {
      for (const cell of line(username).split(';')) expect(cell, `${username}: ${cell}`).not.toMatch(/^"*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/);
    }

    const to = account();
    expect(await to.run('contacts', 'import', file)).toMatchObject({ code: 0, stdout: `created ${hostile.length}, already present 0, invalid 0\n` });
    expect(byUsername(await to.contacts())).toEqual(byUsername(hostile.map((c) => contact(c.username, c.phone_number, c.display_name))));
  });
});

describe('contacts export', () => {
  it('json, ndjson, csv and vcf to stdout and to files: every contact, each format as the help says', async () => {
    const from = source();
    const out = (name: string) => join(from.dir, name);
    // A file there already is replaced whole.
    writeFileSync(out('all.vcf'), 'an older export that must not survive\n'.repeat(100));
    const [list, jsonRun, ndjson, csv, vcf, csvFile, vcfFile, ndjsonFile, explicit] = await Promise.all([
      from.run('contacts', 'list', '--all', '--json'),
      from.run('contacts', 'export', '--format', 'json'),
      from.run('contacts', 'export', '--format', 'ndjson'),
      from.run('contacts', 'export', '--format', 'csv'),
      from.run('contacts', 'export'),
      from.run('contacts', 'export', '--output', out('all.csv')),
      from.run('contacts', 'export', '--output', out('all.vcf')),
      from.run('contacts', 'export', '-o', out('all.ndjson')),
      // --format wins over the extension.
      from.run('contacts', 'export', '--format', 'csv', '--output', out('table.json')),
    ]);
    const listed = JSON.parse(list.stdout) as { has_more: boolean; data: Record<string, unknown>[] };
    expect(listed.data).toHaveLength(SOURCE_COUNT);

    expect(jsonRun).toMatchObject({ code: 0, stderr: `exported ${SOURCE_COUNT} contacts (json)\n` });
    expect(JSON.parse(jsonRun.stdout)).toEqual({ has_more: false, data: listed.data });

    expect(ndjson).toMatchObject({ code: 0, stderr: `exported ${SOURCE_COUNT} contacts (ndjson)\n` });
    expect(ndjson.stdout.endsWith('\n')).toBe(true);
    expect(ndjson.stdout.slice(0, -1).split('\n').map((line) => JSON.parse(line))).toEqual(listed.data);

    expect(csv).toMatchObject({ code: 0, stderr: `exported ${SOURCE_COUNT} contacts (csv)\n` });
    const csvLines = csv.stdout.split('\r\n');
    expect(csvLines[0]).toBe('id,username,display_name,phone_number,avatar_url,created_at,last_active_at');
    expect(csvLines.at(-1)).toBe('');
    const cells = parse(csv.stdout, { columns: true }) as Record<string, string>[];
    expect(cells).toHaveLength(SOURCE_COUNT);
    // Every phone number is written as it is, for a reader other than a spreadsheet: a sign and
    // digits run nothing.
    for (const row of cells) expect(row.phone_number).toMatch(/^\+\d+$/);
    const extra = (username: string) => cells.find((row) => row.username === username)!;
    expect(extra('formula').display_name).toBe(`'${EXTRAS[1]!.display_name}`);
    expect(extra('signs').display_name).toBe("'-minus +plus @at");
    expect(extra('comma.person')).toMatchObject({ display_name: EXTRAS[0]!.display_name, avatar_url: EXTRAS[0]!.avatar_url });
    expect(csv.stdout).toContain(`,"Smith, John; ""Jack"" \\ O'Neil",+442079460700,"https://img.example/a.png?size=64,64&x=1",`);
    expect(cells.map((row) => row.id)).toEqual(listed.data.map((c) => c.id));

    expect(vcf).toMatchObject({ code: 0, stderr: `exported ${SOURCE_COUNT} contacts (vcf)\n` });
    expect(vcf.stdout.match(/^BEGIN:VCARD\r$/gm)).toHaveLength(SOURCE_COUNT);
    expect(vcf.stdout).not.toMatch(/[^\r]\n/);
    for (const line of vcf.stdout.split('\r\n')) expect(Buffer.byteLength(line), line).toBeLessThanOrEqual(75);

    // Files: the same text as stdout, the format from the extension, readable by the owner alone.
    for (const [run, file, format, text] of [
      [csvFile, 'all.csv', 'csv', csv.stdout],
      [vcfFile, 'all.vcf', 'vcf', vcf.stdout],
      [ndjsonFile, 'all.ndjson', 'ndjson', ndjson.stdout],
      [explicit, 'table.json', 'csv', csv.stdout],
    ] as const) {
      expect(run, file).toMatchObject({ code: 0, stdout: '', stderr: `exported ${SOURCE_COUNT} contacts to ${out(file)} (${format})\n` });
      expect(readFileSync(out(file), 'utf8'), file).toBe(text);
      expect(statSync(out(file)).mode & 0o777, file).toBe(0o600);
    }
    expect(readdirSync(from.dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  }, 40_000);

  it('an export to a file it cannot write fails cleanly, leaving no file and no temporary file behind', async () => {
    const from = source();
    const place = join(from.dir, 'place');
    const missing = join(place, 'no-such-dir', 'out.csv');
    // A directory where the file should go: refused by what it is, before anything is read.
    const taken = join(place, 'exports', 'taken.vcf');
    mkdirSync(taken, { recursive: true });
    const [noDir, isDir] = await Promise.all([from.run('contacts', 'export', '--output', missing), from.run('contacts', 'export', '--output', taken)]);
    expect(noDir).toMatchObject({ code: 2, stdout: '', stderr: `tickbook: option --output: cannot write ${missing}: no such file or directory (ENOENT) (see tickbook --help)\n` });
    expect(readdirSync(place)).toEqual(['exports']);
    expect(isDir).toMatchObject({ code: 2, stdout: '', stderr: `tickbook: option --output: ${taken} is a directory: not written (see tickbook --help)\n` });
    expect(readdirSync(join(place, 'exports'))).toEqual(['taken.vcf']);
    expect(readdirSync(taken)).toEqual([]);
  });
});
