// `tickbook contacts import` against a rate limit: a real `tickbook serve --rate-limit` (its 429s
// with `Retry-After: 1`), the built CLI in its own process, piped and on a terminal; and a server
// that asks for more than the import waits. The 1,500-rows-at-200-a-second case is timed in
// bench:import (a test here would take 8 s).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv } from '../helpers/child.js';
import { hasScript, startInPty } from '../helpers/pty.js';
import { BIN, killTickbookChildren, runTickbookToExit, type ServeProcess, startServe } from '../helpers/sandbox.js';
import { closeAllServers, errorJson, httpServer, json } from '../helpers/servers.js';

const TOKENS = ['tok_rate_limit_piped_0123456789', 'tok_rate_limit_on_tty_0123456789'];
const API_KEY = 'key_rate_limit_0123456789';
const LIMIT = 5;
const ROWS = 20;

let dir: string;
let serve: ServeProcess;

beforeAll(async () => {
  expect(existsSync(join(BIN, '..', '..', 'dist', 'cli', 'main.js')), 'run `node scripts/build-if-needed.mjs` first').toBe(true);
  dir = mkdtempSync(join(tmpdir(), 'tickbook-import-rate-'));
  const args = ['--port', '0', '--db', join(dir, 'serve.db'), '--no-demo-data', '--seed', '1', '--rate-limit', String(LIMIT), '--api-key', API_KEY];
  serve = await startServe([...args, ...TOKENS.flatMap((token) => ['--token', token])], { ...cleanEnv(), XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config') });
});
afterAll(async () => {
  await killTickbookChildren();
  if (dir) rmSync(dir, { recursive: true, force: true });
});
afterEach(closeAllServers);

/** The environment of an import as `token` (each its own contact list and its own rate) against `url`. */
function envOf(token: string, url: string, home: string): Record<string, string> {
  return {
    ...(cleanEnv() as Record<string, string>),
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: join(home, 'data'),
    TICKBOOK_BASE_URL: url,
    TICKBOOK_TOKEN: token,
    TICKBOOK_API_KEY: API_KEY,
  };
}

/** `rows` people, a number each, as a CSV file in a home of its own; the file and the home. */
function peopleFile(name: string, rows: number): { file: string; home: string; usernames: string[] } {
  const home = mkdtempSync(join(dir, 'home-'));
  const file = join(home, `${name}.csv`);
  const people = Array.from({ length: rows }, (_, i) => ({ username: `${name}.${i}`, phone: `+4477009${String(10_000 + i)}` }));
  writeFileSync(file, `username,phone\r\n${people.map((p) => `${p.username},${p.phone}`).join('\r\n')}\r\n`);
  return { file, home, usernames: people.map((p) => p.username) };
}

/**
 * The usernames of the contacts of the import run in `env`, each as many times as it is there:
 * through `contacts list`, whose reads wait out the 429 a request of the test's own would get.
 */
async function usernamesOf(env: NodeJS.ProcessEnv): Promise<string[]> {
  const list = await runTickbookToExit(['contacts', 'list', '--all', '--json'], env, 15_000);
  expect(list.code, list.stderr).toBe(0);
  return (JSON.parse(list.stdout).data as { username: string }[]).map((c) => c.username).sort();
}

describe('import against `tickbook serve --rate-limit 5`', () => {
  it(`${ROWS} rows: every one created once, exit 0, the wait said (a line on piped stderr, a countdown on a terminal)`, async () => {
    const piped = peopleFile('piped', ROWS);
    const onTty = peopleFile('tty', ROWS);
    // The two at once, each with its own token: the limit is a credential's.
    const pty = hasScript() ? startInPty([process.execPath, BIN, 'contacts', 'import', onTty.file], { ...envOf(TOKENS[1]!, serve.url, onTty.home), LANG: 'C.UTF-8' }, onTty.home, 30_000) : undefined;
    const pipedEnv = envOf(TOKENS[0]!, serve.url, piped.home);
    const run = await runTickbookToExit(['contacts', 'import', piped.file], pipedEnv, 30_000);

    expect(run, run.stderr).toMatchObject({ code: 0, stdout: `created ${ROWS}, already present 0, invalid 0\n` });
    // Once, however many times it waited (4 at least: 21 requests at 5 a second).
    expect(run.stderr).toBe('tickbook: the server asks to slow down (HTTP 429): waiting as it asks (1s this time), then going on\n');
    expect(await usernamesOf(pipedEnv)).toEqual([...piped.usernames].sort());
    // The server did refuse: the import waited, it did not get through by luck.
    expect(serve.stdout()).toMatch(/ POST \/v1\/contacts 429 /);

    if (pty) {
      expect(await pty.exited).toBe(0);
      expect(pty.text()).toContain('waiting 1s: the server asks to slow down');
      expect(pty.text()).toContain(`created ${ROWS}, already present 0, invalid 0`);
      expect(await usernamesOf(envOf(TOKENS[1]!, serve.url, onTty.home))).toEqual([...onTty.usernames].sort());
    }
  }, 40_000);
});

describe('a server asking for more than an import waits', () => {
  // An hour in seconds, and two hours as an HTTP date: neither waited for, the import stops at once.
  it.each([
    ['3600 (seconds)', '3600', '1h 00m'],
    ['an HTTP date two hours on', new Date(Date.now() + 2 * 3_600_000 + 30_000).toUTCString(), '2h 00m'],
  ])('Retry-After: %s stops the import with the report so far, saying how long it asked for; exit 1', async (_, retryAfter, said) => {
    let created = 0;
    const server = await httpServer((req, res) => {
      if (req.method === 'GET') return json(res, 200, { data: [], has_more: false });
      // The first two are made; after them the server asks for the long wait.
      if (created < 2) {
        const form = new URLSearchParams(req.body);
        created++;
        return json(res, 201, { id: `ct_${created}`, username: form.get('username'), phone_number: form.get('phone_number'), avatar_url: null, display_name: null, conversation_id: `cv_${created}`, last_active_at: null, created_at: 1_700_000_000 });
      }
      json(res, 429, errorJson('rate_limited', 'quota used up'), { 'retry-after': retryAfter });
    });
    const { file, home } = peopleFile('long', 3);
    const started = Date.now();
    // The three go together: whichever comes third is refused.
    const run = await runTickbookToExit(['contacts', 'import', file], envOf(TOKENS[0]!, server.url, home), 15_000);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(run.code, run.stderr).toBe(1);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^created 2, already present 0, invalid 0, failed 1$/);
    expect(lines[1]).toMatch(/^ {2}long\.csv row \d: quota used up \(HTTP 429, request 11111111-2222-4333-8444-555555555555\)$/);
    expect(lines[2]).toBe(`stopped: the server asks for no more requests for ${said} (HTTP 429, Retry-After), longer than the 5 minutes an import waits; run the same import again to finish it (nothing is created twice)`);
    expect(lines).toHaveLength(3);
    expect(run.stderr).toBe('');
  });
});
