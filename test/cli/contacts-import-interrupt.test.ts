// Ctrl-C (SIGINT) and SIGTERM during `tickbook contacts import`: the built CLI in its own process
// against a slow contacts API on loopback, signalled once some creates are answered. The report of
// what was done comes first (as at the end, marked as interrupted), then the exit status a shell
// gives a process a signal ended (130, 143). A second signal cuts off the creates under way.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, pollUntil } from '../helpers/child.js';
import { BIN, killTickbookChildren, runTickbook } from '../helpers/sandbox.js';
import { closeAllServers, errorJson, httpServer, json, type TestServer } from '../helpers/servers.js';

const ROWS = 40;
const REST = 'run the same import again to finish it (nothing is created twice)';

let dir: string;

beforeAll(() => {
  expect(existsSync(join(BIN, '..', '..', 'dist', 'cli', 'main.js')), 'run `node scripts/build-if-needed.mjs` first').toBe(true);
  dir = mkdtempSync(join(tmpdir(), 'tickbook-import-interrupt-'));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await killTickbookChildren();
  await closeAllServers();
});

/**
 * A contacts API with an empty list (never sent, when `listHangs`) whose creates are answered
 * `delayMs` after they come (never, from the `hangFrom`th on; 429 asking for a minute from the
 * `slowDownFrom`th on).
 */
async function slowApi(options: { delayMs: number; hangFrom?: number; slowDownFrom?: number; listHangs?: boolean }): Promise<TestServer & { made: () => number }> {
  let made = 0;
  const server = await httpServer((req, res, n) => {
    if (req.method === 'GET') return options.listHangs ? undefined : json(res, 200, { data: [], has_more: false });
    if (n + 1 >= (options.hangFrom ?? Number.POSITIVE_INFINITY)) return;
    if (n + 1 >= (options.slowDownFrom ?? Number.POSITIVE_INFINITY)) return json(res, 429, errorJson('rate_limited', 'slow down'), { 'retry-after': '60' });
    setTimeout(() => {
      const form = new URLSearchParams(req.body);
      made++;
      json(res, 201, { id: `ct_${n}`, username: form.get('username'), phone_number: form.get('phone_number'), avatar_url: null, display_name: null, conversation_id: `cv_${n}`, last_active_at: null, created_at: 1_700_000_000 });
    }, options.delayMs);
  });
  return Object.assign(server, { made: () => made });
}

/** An import of ROWS people (a number each) from a home of its own, against `url`. */
function startImport(url: string, extra: readonly string[] = []) {
  const home = mkdtempSync(join(dir, 'home-'));
  const file = join(home, 'people.csv');
  writeFileSync(file, `username,phone\r\n${Array.from({ length: ROWS }, (_, i) => `person.${i},+4477009${10_000 + i}`).join('\r\n')}\r\n`);
  const env = { ...cleanEnv(), HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data'), TICKBOOK_BASE_URL: url, TICKBOOK_TOKEN: 'tok_interrupt_0123456789', TICKBOOK_API_KEY: 'key_interrupt_0123456789' };
  return runTickbook(['contacts', 'import', file, ...extra], env);
}

const creates = (server: TestServer): number => server.count('POST', '/v1/contacts');

describe('an import interrupted', () => {
  it('Ctrl-C (SIGINT) after the first creates: the creates under way are answered, nothing more is sent, the report so far, exit 130', async () => {
    const server = await slowApi({ delayMs: 150 });
    const run = startImport(server.url);
    await pollUntil(() => server.made() >= 4, 'the first creates answered', 15_000);
    run.child.kill('SIGINT');
    const exit = await run.exited;
    expect(exit, run.stderr()).toEqual({ code: 130, signal: null });
    // Every create sent was answered, and counted; none was sent after the signal.
    const sent = creates(server);
    expect(sent).toBeLessThan(ROWS);
    expect(server.requests.filter((r) => r.method === 'POST').every((r) => r.answered)).toBe(true);
    expect(run.stdout()).toBe(`created ${sent}, already present 0, invalid 0\nstopped: interrupted by Ctrl-C (SIGINT); ${REST}\n`);
    expect(run.stderr()).toBe('tickbook: Ctrl-C (SIGINT): stopping once the creates under way are answered (again to cut them off)\n');
  });

  it('SIGTERM the same, exit 143; --json says "interrupted"', async () => {
    const server = await slowApi({ delayMs: 150 });
    const run = startImport(server.url, ['--json']);
    await pollUntil(() => server.made() >= 4, 'the first creates answered', 15_000);
    run.child.kill('SIGTERM');
    expect(await run.exited).toEqual({ code: 143, signal: null });
    expect(JSON.parse(run.stdout())).toMatchObject({ status: 'interrupted', created: creates(server), failed: [], failed_count: 0, stopped: 'interrupted by SIGTERM' });
    expect(run.stderr()).toBe('tickbook: SIGTERM: stopping once the creates under way are answered (again to cut them off)\n');
  });

  it('while every create waits out a 429 (a minute asked for): the wait is cut off at once, the rows not sent are neither counted nor refused', async () => {
    const server = await slowApi({ delayMs: 0, slowDownFrom: 4 });
    const run = startImport(server.url);
    await run.waitFor(/the server asks to slow down/, 'stderr', 15_000);
    const signalled = Date.now();
    run.child.kill('SIGINT');
    expect(await run.exited).toEqual({ code: 130, signal: null });
    expect(Date.now() - signalled).toBeLessThan(5000);
    expect(run.stdout()).toBe(`created 3, already present 0, invalid 0\nstopped: interrupted by Ctrl-C (SIGINT); ${REST}\n`);
  });

  it('while the list is read, before any create: the reading is cut off, the report says nothing was done, exit 130', async () => {
    const server = await slowApi({ delayMs: 0, listHangs: true });
    const run = startImport(server.url);
    await pollUntil(() => server.count('GET', '/v1/contacts') > 0, 'the list asked for', 15_000);
    run.child.kill('SIGINT');
    expect(await run.exited).toEqual({ code: 130, signal: null });
    expect(run.stdout()).toBe(`created 0, already present 0, invalid 0\nstopped: interrupted by Ctrl-C (SIGINT); ${REST}\n`);
    expect(creates(server)).toBe(0);
  });

  it('a second signal cuts off the creates under way: each is failed, "it may have been created", and the report still comes; exit 130', async () => {
    // Two made, then creates the server never answers.
    const server = await slowApi({ delayMs: 0, hangFrom: 3 });
    const run = startImport(server.url);
    await pollUntil(() => server.made() >= 2 && creates(server) >= 6, 'two made and four hanging', 15_000);
    run.child.kill('SIGINT');
    // The first is taken (the creates under way are waited for) before the second comes.
    await run.waitFor(/stopping once the creates under way are answered/, 'stderr');
    expect(run.stdout()).toBe('');
    run.child.kill('SIGINT');
    expect(await run.exited).toEqual({ code: 130, signal: null });
    const lines = run.stdout().trimEnd().split('\n');
    expect(lines[0]).toBe('created 2, already present 0, invalid 0, failed 4');
    const cut = 'interrupted by Ctrl-C (SIGINT) before the server answered: it may have been created (an import run again finds it)';
    expect(lines.slice(1, 5).map((line) => line.replace(/row \d+/, 'row N'))).toEqual(Array(4).fill(`  people.csv row N: ${cut}`));
    expect(lines.slice(5)).toEqual([`stopped: interrupted by Ctrl-C (SIGINT); ${REST}`]);
  });
});
