// `quote --watch` records what it prints; `history` prints it back, for the server it came from.
// Real processes of the built CLI against a real sandbox, and real history files.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSince } from '../../src/cli/history.js';
import { DAY_MS, HOUR_MS } from '../../src/market/bars.js';
import { runChild, cleanEnv } from '../helpers/child.js';
import { BIN, runTickbook, runTickbookToExit, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let root: string;
let sandbox: TestSandbox;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'tickbook-history-cli-'));
  sandbox = await startTestSandbox();
  const clean = cleanEnv();
  env = {
    ...clean,
    HOME: join(root, 'home'),
    XDG_CONFIG_HOME: join(root, 'config'),
    XDG_DATA_HOME: join(root, 'data'),
    TICKBOOK_BASE_URL: sandbox.url,
    TICKBOOK_TOKEN: sandbox.token,
    TICKBOOK_API_KEY: sandbox.apiKey,
    TZ: 'UTC',
  };
});
afterAll(async () => {
  await sandbox?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** `quote --watch` until it has printed `lines` lines, then Ctrl-C. */
async function watch(args: readonly string[], lines: number, environment = env) {
  const proc = runTickbook(['quote', ...args, '--watch', '--interval', '1'], environment);
  await proc.waitFor(new RegExp(`(?:.*\\n){${lines}}`), 'stdout', 15_000);
  proc.child.kill('SIGINT');
  const exit = await proc.exited;
  return { ...exit, stdout: proc.stdout(), stderr: proc.stderr() };
}

describe('quote --watch and history', () => {
  it('prints a line per tick until Ctrl-C, exit 0, and history prints the same prices back', async () => {
    const watched = await watch(['AAPL', 'MSFT'], 3);
    expect(watched).toMatchObject({ code: 0, stderr: '' });
    const lines = watched.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d {2}AAPL \d+\.\d\d {2}MSFT \d+\.\d\d$/);
    // From the second tick on, each price has its change since the one before.
    expect(lines[1]).toMatch(/^\d\d:\d\d:\d\d {2}AAPL \d+\.\d\d [+-]\d+\.\d\d {2}MSFT \d+\.\d\d [+-]\d+\.\d\d$/);

    const csv = await runTickbookToExit(['history', 'AAPL', '--csv'], env);
    expect(csv.code).toBe(0);
    const rows = csv.stdout.trim().split('\n');
    expect(rows[0]).toBe('time,price,volume');
    const printed = lines.map((line) => /AAPL (\d+\.\d\d)/.exec(line)![1]);
    expect(rows.slice(1, 1 + printed.length).map((row) => Number(row.split(',')[1]).toFixed(2))).toEqual(printed);
    for (const row of rows.slice(1)) expect(row).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z,[0-9.]+,\d+$/);

    const table = await runTickbookToExit(['history', 'aapl'], env);
    expect(table.stdout.split('\n')[0]).toMatch(/^TIME +PRICE +VOLUME$/);
    expect(table.stdout.split('\n')[1]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d +\d+\.\d\d +[\d,]+$/);

    const bars = await runTickbookToExit(['history', 'MSFT', '--bars', '1m', '--json'], env);
    const parsed = JSON.parse(bars.stdout) as { symbol: string; source: string; bars: string; data: Record<string, unknown>[] };
    expect(parsed).toMatchObject({ symbol: 'MSFT', source: sandbox.url, bars: '1m' });
    expect(Object.keys(parsed.data[0]!)).toEqual(['time', 'open', 'high', 'low', 'close', 'volume']);

    const ndjson = await runTickbookToExit(['history', 'MSFT', '--ndjson'], env);
    const first = JSON.parse(ndjson.stdout.split('\n')[0]!) as Record<string, unknown>;
    expect(Object.keys(first)).toEqual(['symbol', 'time', 'price', 'volume']);
  });

  it('streams an object per symbol per tick with --ndjson, and stops quietly when the reader leaves', async () => {
    const watched = await watch(['IBM', 'KO', '--ndjson'], 4, env);
    expect(watched).toMatchObject({ code: 0, stderr: '' });
    const objects = watched.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(objects.map((o) => o.symbol).slice(0, 4)).toEqual(['IBM', 'KO', 'IBM', 'KO']);
    expect(objects[0]).toEqual({ time: expect.stringMatching(/Z$/), symbol: 'IBM', price: expect.any(Number), volume: expect.any(Number) });
    expect(objects[2]!.time).not.toBe(objects[0]!.time);

    const piped = await runChild('bash', ['-c', `"${process.execPath}" "${BIN}" quote IBM --watch --ndjson --interval 1 | head -2; echo "status \${PIPESTATUS[0]}"`], {
      env,
      timeoutMs: 15_000,
    });
    expect(piped.stderr).toBe('');
    expect(piped.stdout).toMatch(/^\{"time".*\n\{"time".*\nstatus 0\n$/);
  }, 30_000);

  it('a process killed outright loses nothing it printed: every poll is on disk before its line', async () => {
    const crashEnv = { ...env, XDG_DATA_HOME: join(root, 'crash-data') };
    const proc = runTickbook(['quote', 'TSLA', '--watch', '--interval', '1'], crashEnv);
    await proc.waitFor(/(?:.*\n){3}/, 'stdout', 15_000);
    proc.child.kill('SIGKILL');
    await proc.exited;
    const printed = proc.stdout().trim().split('\n').map((line) => /TSLA (\d+\.\d\d)/.exec(line)![1]);
    const run = await runTickbookToExit(['history', 'TSLA', '--csv'], crashEnv);
    const recorded = run.stdout.trim().split('\n').slice(1).map((row) => Number(row.split(',')[1]).toFixed(2));
    expect(recorded.slice(0, printed.length)).toEqual(printed);
  });

  it('keeps each server\'s prices to itself', async () => {
    const other = await startTestSandbox();
    try {
      const otherEnv = { ...env, TICKBOOK_BASE_URL: other.url };
      await watch(['NVDA'], 1, otherEnv);
      expect((await runTickbookToExit(['history', 'NVDA'], otherEnv)).code).toBe(0);
      const here = await runTickbookToExit(['history', 'NVDA'], env);
      expect(here.code).toBe(1);
      expect(here.stderr).toMatch(/^tickbook: no prices of NVDA recorded from http:\/\/127\.0\.0\.1:\d+ since /m);
    } finally {
      await other.close();
    }
  });

  it('refuses what it cannot mean, naming the option', async () => {
    const cases: [string[], RegExp][] = [
      [['history'], /expected one symbol/],
      [['history', 'A', 'B'], /expected one symbol/],
      [['history', 'AAPL', '--since', 'yesterday'], /option --since must be an age like 30m/],
      [['history', 'AAPL', '--since', '2026-02-31'], /option --since must be/],
      [['history', 'AAPL', '--bars', '5m'], /option --bars must be 1m or 1d/],
      [['history', 'AAPL', '--csv', '--json'], /choose one of --json, --ndjson and --csv/],
      [['quote', 'AAPL', '--interval', '5'], /option --interval is for --watch/],
      [['quote', 'AAPL', '--watch', '--json'], /use --ndjson, not --json/],
      [['quote', 'AAPL', '--watch', '--interval', '0'], /option --interval must be an integer from 1 to 3600/],
    ];
    for (const [args, message] of cases) {
      const run = await runTickbookToExit(args, env);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(message);
    }
  });

  it('reads the history without writing it: a newer release\'s file is named and left as it was', async () => {
    const home = join(root, 'newer');
    const path = join(home, 'data', 'tickbook', 'history.db');
    mkdirSync(dirname(path), { recursive: true });
    const db = new Database(path);
    db.pragma('user_version = 8');
    db.close();
    const before = readFileSync(path);
    const run = await runTickbookToExit(['history', 'AAPL'], { ...env, XDG_DATA_HOME: join(home, 'data') });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^tickbook: cannot read the price history .*history\.db: its schema version 8 is newer than this tickbook understands \(7\)$/m);
    expect(readFileSync(path)).toEqual(before);
  });

  it('reads --since as an age, all, or a local date and time', () => {
    const now = Date.UTC(2026, 10, 26, 12, 0, 0);
    expect(parseSince('90m', now)).toBe(now - 90 * 60_000);
    expect(parseSince('1h', now)).toBe(now - HOUR_MS);
    expect(parseSince('7d', now)).toBe(now - 7 * DAY_MS);
    expect(parseSince('2w', now)).toBe(now - 14 * DAY_MS);
    expect(parseSince('all', now)).toBe(0);
    expect(parseSince('2026-11-20', now)).toBe(new Date(2026, 10, 20).getTime());
    expect(parseSince('2026-11-20T09:30', now)).toBe(new Date(2026, 10, 20, 9, 30).getTime());
    for (const bad of ['0h', '1y', '-1d', '2026-13-01', '2026-11-20T24:00', 'soon']) expect(() => parseSince(bad, now)).toThrow(/--since/);
  });
});
