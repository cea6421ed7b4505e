// The CSV corpus (test/fixtures/csv/, its README says which exporter each file stands for): every
// file imported by the built `tickbook contacts import --json` into a contact list of its own in
// a test sandbox, and the contacts made, the rows refused and the numbers chosen checked against
// the file's NAME.expected.json.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, runTickbookToExit, sandboxEnv, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const CORPUS = fileURLToPath(new URL('../fixtures/csv/', import.meta.url));

interface Expected {
  /** The exporter the file stands for. */
  exporter: string;
  /** More arguments to the import (`--default-country`). */
  args?: string[];
  /** Why the file cannot be imported yet (what it waits for); the test is skipped with it. */
  pending?: string;
  created: { username: string; display_name: string | null; phone_number: string; avatar_url: string | null }[];
  invalid: { where: string; field: string; reason: string }[];
  numbers_taken: { where: string; phone: string; taken: string; of: number }[];
}

const files = readdirSync(CORPUS)
  .filter((name) => name.endsWith('.expected.json'))
  .sort()
  .map((name) => ({ file: name.replace(/\.expected\.json$/, ''), expected: JSON.parse(readFileSync(join(CORPUS, name), 'utf8')) as Expected }));

const TOKENS = files.map((_, i) => `tok_csv_corpus_${String(i).padStart(2, '0')}_abcdefghij`);

let sandbox: TestSandbox;
let home: string;
beforeAll(async () => {
  sandbox = await startTestSandbox({ tokens: TOKENS });
  home = mkdtempSync(join(tmpdir(), 'tickbook-csv-corpus-'));
});
afterAll(async () => {
  await sandbox?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

describe('the CSV corpus', () => {
  it('holds a file beside each expectation, and an expectation beside each file', () => {
    const data = readdirSync(CORPUS).filter((name) => !name.endsWith('.expected.json') && name !== 'README.md' && !name.startsWith('.'));
    expect(data.sort()).toEqual(files.map(({ file }) => file));
    expect(files.length).toBeGreaterThanOrEqual(7);
  });

  for (const [i, { file, expected }] of files.entries()) {
    it.skipIf(expected.pending !== undefined)(`${file} (${expected.exporter})${expected.pending ? `: waits for ${expected.pending}` : ''}`, async () => {
      const env = { ...sandboxEnv(sandbox, home), TICKBOOK_TOKEN: TOKENS[i]! };
      const run = await runTickbookToExit(['contacts', 'import', join(CORPUS, file), '--json', ...(expected.args ?? [])], env, 20_000);
      expect(run.stderr).toBe('');
      const report = JSON.parse(run.stdout);
      expect(report).toMatchObject({ status: 'success', created: expected.created.length, present: 0, invalid_count: expected.invalid.length, failed_count: 0 });
      expect(report.invalid).toEqual(expected.invalid);
      expect(report.numbers_taken).toEqual(expected.numbers_taken);
      expect(run.code).toBe(expected.invalid.length > 0 ? 1 : 0);

      const listed = await client(sandbox, TOKENS[i]).list('?limit=100');
      expect(listed.status).toBe(200);
      const made = (listed.json.data as Expected['created']).map(({ username, display_name, phone_number, avatar_url }) => ({ username, display_name, phone_number, avatar_url }));
      const byUsername = (list: Expected['created']) => [...list].sort((a, b) => a.username.localeCompare(b.username));
      expect(byUsername(made)).toEqual(byUsername(expected.created));
    });
  }
});
