// The config file and the debug log as the built CLI meets them (issue 17, items 11 and the small
// things): misspelt keys warned about on stderr while the command still runs; a dashboard-only
// setting that is malformed stops no other command; a BOM or an empty file is fine; a debug log
// that is a directory or that stops being writable is one line naming the option.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/sandbox.js';
import { type ChildRun, runChild } from '../helpers/child.js';
import { CONFIG_KEYS } from '../../src/config/config-file.js';

let root: string;
let counter = 0;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'tickbook-config-cli-'));
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

/** Runs the built CLI with its own home and XDG dirs, the config file holding `config` when given. */
async function tickbook(args: readonly string[], config?: string | Buffer): Promise<ChildRun & { path: string }> {
  const dir = join(root, `run-${++counter}`);
  const configDir = join(dir, 'config', 'tickbook');
  mkdirSync(configDir, { recursive: true });
  const path = join(configDir, 'config.json');
  if (config !== undefined) writeFileSync(path, config, { mode: 0o600 });
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data') };
  const run = await runChild(process.execPath, [BIN, ...args], { env, timeoutMs: 15_000 });
  expect(run.timedOut).toBe(false);
  return { ...run, path };
}

const warnings = (stderr: string): string[] => stderr.split('\n').filter((line) => line.startsWith('tickbook: warning: '));

describe('the config file, read by every subcommand', () => {
  it('misspelt keys are warned about on stderr, each with the key it probably meant; the command still runs', async () => {
    const run = await tickbook(['contacts', 'list', '--limit', '1', '--json'], '{"baseUrl": "https://api.example.com", "Token": "secret-xyz"}');
    expect(run.code, run.stderr).toBe(0);
    expect(warnings(run.stderr)).toEqual([
      `tickbook: warning: unknown key "baseUrl" in ${run.path}; did you mean "base_url"?`,
      `tickbook: warning: unknown key "Token" in ${run.path}; did you mean "token"?`,
    ]);
    expect(run.stderr).not.toContain('secret-xyz');
    // On the embedded sandbox, as the file asked for nothing tickbook knows.
    expect((JSON.parse(run.stdout) as { data: unknown[] }).data).toHaveLength(1);
  });

  it('300,000 unknown keys: the first 10 named, one line for the rest, the command runs; config list shows them all', async () => {
    // Before: a "did you mean" search per key and a warning line each, 28 s a command; and
    // config list's column width overflowed the stack.
    const keys = ['baseUrl', ...Array.from({ length: 299_999 }, (_, i) => `k${i.toString(36)}`)];
    const text = `{${keys.map((key) => `"${key}":0`).join(',')}}`;
    const run = await tickbook(['contacts', 'list', '--limit', '1', '--json'], text);
    expect(run.code, run.stderr.slice(0, 500)).toBe(0);
    expect(warnings(run.stderr)).toEqual([
      `tickbook: warning: unknown key "baseUrl" in ${run.path}; did you mean "base_url"?`,
      ...keys.slice(1, 10).map((key) => `tickbook: warning: unknown key "${key}" in ${run.path}; tickbook does not use it (known keys: ${CONFIG_KEYS.join(', ')})`),
      `tickbook: warning: and 299,990 more unknown keys in ${run.path}; tickbook config list names them all`,
    ]);
    expect((JSON.parse(run.stdout) as { data: unknown[] }).data).toHaveLength(1);
    const list = await tickbook(['config', 'list'], text);
    expect(list.code, list.stderr.slice(0, 500)).toBe(0);
    const lines = list.stdout.split('\n').filter((line) => line !== '');
    expect(lines).toHaveLength(300_000);
    expect(lines[0]).toMatch(/^baseUrl \(unknown: not used\) +0$/);
    expect(lines.at(-1)).toMatch(new RegExp(`^${keys.at(-1)} \\(unknown: not used\\) +0$`));
  });

  it('a malformed setting only the dashboard uses stops no other command: a warning each, exit 0', async () => {
    // Every dashboard-only key malformed at once, under every client subcommand; then each
    // other kind of malformed value under one of them.
    const cases = [
      ...[['contacts', 'list', '--limit', '1'], ['quote', 'AAPL'], ['symbols', '--search', 'apple']].map((args) => ({
        args,
        config: '{"interval": 0, "watchlist": [1]}',
        count: 2,
      })),
      ...['{"interval": "5"}', '{"interval": 61}', '{"watchlist": "AAPL"}'].map((config) => ({ args: ['contacts', 'get', 'ct_none'], config, count: 1 })),
    ];
    for (let at = 0; at < cases.length; at += 3) {
      const batch = cases.slice(at, at + 3);
      const runs = await Promise.all(batch.map(({ config, args }) => tickbook(args, config)));
      runs.forEach((run, i) => {
        const { config, args, count } = batch[i]!;
        const what = `${args.join(' ')} with ${config}`;
        // contacts get of a missing contact reaches the API: 1 is its 404, not the config.
        expect(run.code, `${what}: ${run.stderr}`).toBe(args[1] === 'get' ? 1 : 0);
        if (args[1] === 'get') expect(run.stderr, what).toMatch(/not found|no contact/i);
        expect(warnings(run.stderr), what).toHaveLength(count);
        for (const warning of warnings(run.stderr)) expect(warning, what).toMatch(/(interval|watchlist) must be .*; left as it is and not used/);
      });
    }
  });

  it('a file with a UTF-8 byte-order mark, an empty one and a blank one: read, exit 0, no warning', async () => {
    const runs = await Promise.all(
      [Buffer.from('\uFEFF{"interval": 3}'), '', ' \n\n'].map((config) => tickbook(['contacts', 'list', '--limit', '1'], config)),
    );
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(0);
      expect(warnings(run.stderr)).toEqual([]);
    }
  });

  it('a JSON mistake: exit 2, one line naming the file, the line and the column', async () => {
    const run = await tickbook(['contacts', 'list'], '{\n  "base_url": "https://x.example",\n  "token": "t",\n}\n');
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `tickbook: ${run.path}: invalid JSON at line 4, column 1: a comma before "}" (JSON allows none there) (see tickbook --help)\n`,
    );
  });
});

describe('--debug-log', () => {
  it('a directory: exit 2, one line naming the option and the path', async () => {
    const run = await tickbook(['contacts', 'list', '--debug-log', root]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`tickbook: option --debug-log: cannot write ${JSON.stringify(root)}: it is a directory (see tickbook --help)\n`);
  });

  it('a log that opens but cannot be written (/dev/full): one warning naming the option, the command completes, exit 0', async () => {
    const run = await tickbook(['contacts', 'list', '--limit', '2', '--json', '--debug-log', '/dev/full']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe(
      'tickbook: warning: option --debug-log: cannot write "/dev/full" any more: no space left on the device (ENOSPC); the log stops here\n',
    );
    expect((JSON.parse(run.stdout) as { data: unknown[] }).data).toHaveLength(2);
  });
});
