// A config.json that is not a regular file (a FIFO, a device, a directory) as the built CLI meets
// it: refused at once by every command that reads it, in one line naming the file and what it is,
// with the exit status a malformed config gets; Tab still answers, without the config's values.
// Before, a FIFO hung every command (Tab included) until something wrote to it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/sandbox.js';
import { type ChildRun, cleanEnv, runChild } from '../helpers/child.js';

let root: string;
let counter = 0;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'tickbook-config-kind-'));
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

/** A fresh home whose config.json is made by `make`; the built CLI run in it with `args`. */
async function tickbook(make: (path: string) => void, args: readonly string[]): Promise<ChildRun & { path: string }> {
  const home = join(root, `home-${++counter}`);
  const dir = join(home, 'config', 'tickbook');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'config.json');
  make(path);
  const env = { ...cleanEnv(), HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data'), XDG_CACHE_HOME: join(home, 'cache') };
  // A hang is killed after 5 s (a FIFO waits for ever): the runs here end in well under one.
  const run = await runChild(process.execPath, [BIN, ...args], { env, timeoutMs: 5_000 });
  return { ...run, path };
}

const fifo = (path: string): void => void execFileSync('mkfifo', [path]);

describe('a config.json that is a FIFO', () => {
  it('every command that reads it refuses it at once, naming the file and what it is, exit 2', async () => {
    for (const args of [['contacts', 'list', '--limit', '1'], ['quote', 'AAPL'], ['config', 'list'], ['config', 'get', 'interval'], ['history', 'AAPL']]) {
      const run = await tickbook(fifo, args);
      expect(run.timedOut, `${args.join(' ')} hung`).toBe(false);
      expect(run.stderr).toBe(`tickbook: ${run.path} is a FIFO (named pipe), not a regular file (see tickbook --help)\n`);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stdout).toBe('');
    }
  });

  it('config set and unset refuse to write over it, exit 1, and it stays a FIFO', async () => {
    for (const args of [['config', 'set', 'interval', '5'], ['config', 'unset', 'interval']]) {
      const run = await tickbook(fifo, args);
      expect(run.timedOut, `${args.join(' ')} hung`).toBe(false);
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stderr).toMatch(new RegExp(`^tickbook: .*${run.path}.* is a FIFO \\(named pipe\\), not a regular file; correct it first`));
      expect(execFileSync('stat', ['-c', '%F', run.path], { encoding: 'utf8' }).trim()).toBe('fifo');
    }
  });

  it('doctor says so on its config line and exits 1', async () => {
    const run = await tickbook(fifo, ['doctor']);
    expect(run.timedOut).toBe(false);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(new RegExp(`(✗|NO) +config +${run.path} is a FIFO \\(named pipe\\), not a regular file\\n`));
  });

  it('Tab answers without the config: symbols from the catalogue, no saved watchlists', async () => {
    const symbols = await tickbook(fifo, ['__complete', 'quote', 'MSF']);
    expect(symbols.timedOut).toBe(false);
    expect(symbols).toMatchObject({ code: 0, stdout: 'MSFT\n', stderr: '' });
    const lists = await tickbook(fifo, ['__complete', '--watchlist', '']);
    expect(lists.timedOut).toBe(false);
    expect(lists).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });
});

describe('a config.json that is a device or a directory', () => {
  it('is refused as the FIFO is, by what it is', async () => {
    const device = await tickbook((path) => symlinkSync('/dev/zero', path), ['contacts', 'list']);
    expect(device.timedOut).toBe(false);
    expect(device.code).toBe(2);
    expect(device.stderr).toBe(`tickbook: ${device.path} is a character device, not a regular file (see tickbook --help)\n`);
    const directory = await tickbook((path) => mkdirSync(path), ['config', 'list']);
    expect(directory.code).toBe(2);
    expect(directory.stderr).toBe(`tickbook: ${directory.path} is a directory, not a regular file (see tickbook --help)\n`);
  });
});
