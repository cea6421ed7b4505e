// The vCard corpus (test/fixtures/vcard): a file to the shape of each address book people import
// from (iPhone, Mac, Outlook, Android, abook, Google, Evolution, BlackBerry, Lotus Notes,
// Thunderbird, the 2.1 specification, a file kept by hand, one saved as UTF-16), each beside a
// .expected.json saying which exporter it stands for and the contacts expected of it. Each is
// imported by the real `tickbook contacts import` into an empty list of a test sandbox: the
// contacts made, the report (every card in the file counted once, and the number taken where it
// is not the first written), and the cards refused written to --rejects byte for byte as they are
// in the file (its line ends, its charset; a UTF-16 file's as the UTF-8 it was read as), which an
// import reads again as the same.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { cleanEnv } from '../helpers/child.js';
import { client, runTickbookToExit, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const CORPUS = fileURLToPath(new URL('../fixtures/vcard/', import.meta.url));
const FILES = readdirSync(CORPUS).filter((name) => name.endsWith('.vcf')).sort();
const TOKENS = FILES.map((_, i) => `tok_vcard_corpus_${String(i).padStart(2, '0')}_abcdefghij`);
const API_KEY = 'key_vcard_corpus_abcdefghij';

interface Fields {
  username: string;
  display_name: string | null;
  phone_number: string;
  avatar_url: string | null;
}

interface Expected {
  exporter: string;
  shape: string;
  args?: string[];
  /** Cards in the file, each counted once: created + present + invalid. */
  cards: number;
  created: Fields[];
  /** The line each refused card begins on, and why it is refused. */
  invalid: [line: number, reason: string][];
  /** The cards whose number taken is not the first they give: where, the number, why, of how many. */
  taken: [line: number, phone: string, why: 'mobile' | 'preferred' | 'first', of: number][];
}

const WHY = { mobile: 'the mobile', preferred: 'the one it prefers', first: 'the first that is a phone number' };

let sandbox: TestSandbox;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'tickbook-vcard-corpus-'));
  sandbox = await startTestSandbox({ tokens: TOKENS, apiKeys: [API_KEY] });
});
afterAll(async () => {
  await sandbox?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

const byUsername = (list: Fields[]): Fields[] => [...list].sort((a, b) => (a.username < b.username ? -1 : a.username > b.username ? 1 : 0));

/**
 * The card of `bytes` that begins on `line` (from 1), as its bytes are: to its END:VCARD line's end,
 * or, never ended, to the next BEGIN:VCARD. Lines end at LF (any CRs before it with it) or a lone CR.
 */
function cardAt(bytes: Buffer, line: number): Buffer {
  const lines = bytes.toString('latin1').match(/[^\r\n]*(?:\r*\n|\r(?!\r*\n)|$)/g)!;
  const mark = (i: number) => lines[i]!.trimEnd().toUpperCase();
  if (mark(line - 1) !== 'BEGIN:VCARD') throw new Error(`line ${line} does not begin a card`);
  let end = line;
  while (end < lines.length && mark(end) !== 'BEGIN:VCARD' && mark(end - 1) !== 'END:VCARD') end++;
  return Buffer.from(lines.slice(line - 1, end).join(''), 'latin1');
}

describe('the vCard corpus: every exporter’s shape imported', () => {
  it.concurrent.for(FILES.map((file, i) => ({ file, token: TOKENS[i]! })))('$file', { timeout: 30_000 }, async ({ file, token }, { expect }) => {
    const expected = JSON.parse(readFileSync(join(CORPUS, file.replace(/\.vcf$/, '.expected.json')), 'utf8')) as Expected;
    expect(expected.exporter).not.toBe('');
    // Every card counted once, whatever happens to it.
    expect(expected.created.length + expected.invalid.length).toBe(expected.cards);
    const dir = mkdtempSync(join(root, 'home-'));
    const env = { ...cleanEnv(), HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), TICKBOOK_BASE_URL: sandbox.url, TICKBOOK_TOKEN: token, TICKBOOK_API_KEY: API_KEY };
    const rejects = join(dir, 'rejects.vcf');
    const run = await runTickbookToExit(['contacts', 'import', join(CORPUS, file), '--rejects', rejects, ...(expected.args ?? [])], env, 20_000);

    const refusals = expected.invalid.map(([line, reason]) => `  ${file} card at line ${line}: ${reason}\n`).join('');
    const taken = expected.taken.map(([line, phone, why, of]) => `  ${file} card at line ${line}: ${of} numbers, took ${phone} (${WHY[why]})\n`).join('');
    const tail = expected.invalid.length > 0 ? `the refused cards and rows are in ${rejects}, as they were written\n` : '';
    expect(run.stdout).toBe(`created ${expected.created.length}, already present 0, invalid ${expected.invalid.length}\n${refusals}${taken}${tail}`);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(expected.invalid.length > 0 ? 1 : 0);

    const page = await client(sandbox, token).list('?limit=100');
    const made = (page.json.data as Fields[]).map(({ username, display_name, phone_number, avatar_url }) => ({ username, display_name, phone_number, avatar_url }));
    expect(byUsername(made)).toEqual(byUsername(expected.created));

    // A UTF-16 file's refused cards are written as the UTF-8 it was read as.
    const written = readFileSync(join(CORPUS, file));
    const bytes = written[0] === 0xff && written[1] === 0xfe ? Buffer.from(written.subarray(2).toString('utf16le')) : written;
    const refused = expected.invalid.map(([line]) => cardAt(bytes, line));
    expect(readFileSync(rejects).equals(Buffer.concat(refused))).toBe(true);
    if (refused.length === 0) return;
    // Read again, the rejects file is the same cards: refused for the same reasons, where they now are.
    const again = await runTickbookToExit(['contacts', 'import', rejects, ...(expected.args ?? [])], env, 20_000);
    let line = 1;
    const where = refused.map((card) => {
      const at = line;
      line += card.toString('latin1').match(/\r*\n|\r(?!\r*\n)/g)!.length;
      return at;
    });
    // A card never ended is told where it stops, by what follows it: now the next refused card,
    // or the end of the rejects file.
    const stops = (i: number): string =>
      i + 1 < refused.length ? `before the next BEGIN:VCARD, at line ${where[i + 1]}` : `before the file ends, at line ${line - 1} (is the file cut short?)`;
    const reasons = expected.invalid
      .map(([, reason], i) => `  rejects.vcf card at line ${where[i]}: ${reason.startsWith('it has no END:VCARD') ? `it has no END:VCARD ${stops(i)}` : reason}\n`)
      .join('');
    expect(again).toMatchObject({ code: 1, stdout: `created 0, already present 0, invalid ${refused.length}\n${reasons}`, stderr: '' });
  });
});
