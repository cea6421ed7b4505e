// `tickbook … | head -1`: when whoever reads the output goes away, every command stops quietly
// (status 0, no stack trace), whatever it prints, and the embedded sandbox still closes its
// database cleanly. The reader is a real pipe: closed by this process before the child writes
// (certain to hit), and `head` in a shell (a race, so repeated).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { cleanEnv } from '../helpers/child.js';

let root: string;
let sandbox: TestSandbox;
let counter = 0;

beforeAll(async () => {
  expect(existsSync(join(BIN, '..', '..', 'dist', 'bundle', 'tickbook.mjs')), 'run `node scripts/build-if-needed.mjs` first').toBe(true);
  root = mkdtempSync(join(tmpdir(), 'tickbook-pipes-'));
  sandbox = await startTestSandbox({ demoData: true });
});

afterAll(async () => {
  await sandbox?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** The parent's environment without TICKBOOK_*, with its own home and XDG directories. */
function isolatedEnv(): NodeJS.ProcessEnv {
  const dir = join(root, `env-${++counter}`);
  const clean = cleanEnv();
  return { ...clean, HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data') };
}

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** What the stream still being read received. */
  output: string;
}

/** Runs `tickbook ARGS` with the reading end of `closed` shut at once. */
function runWithReaderGone(args: readonly string[], env: NodeJS.ProcessEnv, closed: 'stdout' | 'stderr'): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child[closed]!.destroy();
    const read = closed === 'stdout' ? child.stderr! : child.stdout!;
    let output = '';
    read.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, output });
    });
  });
}

/** A database closed cleanly has checkpointed its write-ahead log and removed it. */
function expectClosedCleanly(env: NodeJS.ProcessEnv): void {
  const dir = join(env.XDG_DATA_HOME!, 'tickbook');
  expect(readdirSync(dir).sort()).toEqual(['sandbox.db']);
  const db = new Database(join(dir, 'sandbox.db'), { readonly: true });
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  } finally {
    db.close();
  }
}

const quiet = (what: string, ended: Ended): void => {
  expect(ended.signal, what).toBe(null);
  expect([0, 141], `${what} → ${ended.code}: ${ended.output}`).toContain(ended.code);
};

describe('the reader of the output goes away', () => {
  it('every output form stops quietly, on stdout or stderr, and the embedded sandbox closes its database', async () => {
    const onStdout: string[][] = [
      ['contacts', 'list'],
      ['contacts', 'list', '--json'],
      ['contacts', 'list', '--limit', '4', '--ndjson'],
      // Many pages: the walk stops, and the database still closes.
      ['contacts', 'list', '--all', '--limit', '2', '--ndjson'],
      ['contacts', 'list', '--all', '--limit', '5'],
      ['symbols', '--ndjson'],
      ['quote', 'AAPL', 'MSFT'],
      ['--help'],
      ['contacts', '--help'],
    ];
    const envs = onStdout.map(() => isolatedEnv());
    const stderrEnv = isolatedEnv();
    const [stderrGone, ...stdoutGone] = await Promise.all([
      // The table goes to stdout, the hint for the next page to stderr, which nobody reads.
      runWithReaderGone(['contacts', 'list'], stderrEnv, 'stderr'),
      ...onStdout.map((args, i) => runWithReaderGone(args, envs[i]!, 'stdout')),
    ]);
    stdoutGone.forEach((ended, i) => {
      const what = `tickbook ${onStdout[i]!.join(' ')} | (closed)`;
      quiet(what, ended);
      // Nothing on stderr but the usual hint for the next page: no stack trace, no "Error", no
      // message about the pipe.
      expect(ended.output.replace(/^more: tickbook contacts list .*\n/, ''), what).toBe('');
      if (!onStdout[i]!.includes('--help')) expectClosedCleanly(envs[i]!);
    });
    quiet('tickbook contacts list 2>(closed)', stderrGone);
    expect(stderrGone.output.split('\n')[0]).toMatch(/^ID\s+NAME/);
    expectClosedCleanly(stderrEnv);
  });

  it('serve whose log is no longer read stops as for SIGTERM, its database closed', async () => {
    const env = isolatedEnv();
    const ended = await runWithReaderGone(['serve', '--port', '0'], env, 'stdout');
    quiet('serve', ended);
    expect(ended.output).toBe('');
    expectClosedCleanly(env);
  });

  it('`| head -1` in a shell, again and again: status 0, nothing on stderr', async () => {
    const env = { ...isolatedEnv(), TICKBOOK_BASE_URL: sandbox.url, TICKBOOK_TOKEN: sandbox.token, TICKBOOK_API_KEY: sandbox.apiKey };
    const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const tickbook = [process.execPath, BIN].map(quote).join(' ');
    // One shell runs the pipelines one after another and reports each tickbook's own status.
    const script = [
      ...Array.from({ length: 3 }, () => `${tickbook} contacts list --limit 4 --ndjson | head -2 >/dev/null; echo "status \${PIPESTATUS[0]}"`),
      ...Array.from({ length: 3 }, () => `${tickbook} symbols --ndjson | head -1 >/dev/null; echo "status \${PIPESTATUS[0]}"`),
      `${tickbook} contacts list --all --limit 1 --ndjson | head -1 >/dev/null; echo "status \${PIPESTATUS[0]}"`,
    ].join('\n');
    const ended = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn('bash', ['-c', script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      const out = { stdout: '', stderr: '' };
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out.stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out.stderr += chunk));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, ...out }));
    });
    expect(ended.stderr).toBe('');
    const statuses = ended.stdout.trim().split('\n');
    expect(statuses).toHaveLength(7);
    for (const line of statuses) expect(line, ended.stdout).toMatch(/^status (0|141)$/);
  }, 30_000);
});
