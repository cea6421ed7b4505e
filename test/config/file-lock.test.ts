// The config file's lock (issue 38, item 1): two processes saving the file at once each read it,
// change it and write it back under the lock, so neither writes over the other (real processes,
// a real file, each saving 100 or 200 times); a lock left by a process that is gone, or older than any
// save takes, is taken; one held is waited on and then refused, naming it; something else in its
// place is refused, never followed or removed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { updateConfigFile } from '../../src/config/config-file.js';
import { FileLockError, lockPathOf, withFileLock } from '../../src/config/file-lock.js';
import { pollUntil, ROOT, tsxArgs } from '../helpers/child.js';

let dir: string;
let path: string;

beforeEach(() => {
  // On tmpfs where there is one: a save's fsyncs cost ~20 ms on a disk, and it is the race between
  // two processes that is tested here, not the disk.
  dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'tickbook-lock-'));
  path = join(dir, 'config.json');
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Runs save-config-loop-child.ts once per argument list, all starting together; each one's last line. */
async function together(runs: string[][]): Promise<string[]> {
  const children = runs.map((args) => {
    const child = spawn(process.execPath, tsxArgs('test/helpers/save-config-loop-child.ts', [path, ...args]), { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
    const said = { text: '', ended: false };
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (said.text += chunk));
    child.on('close', () => (said.ended = true));
    return { child, said };
  });
  await pollUntil(() => children.every(({ said }) => said.text.startsWith('ready\n')), 'both children ready', 20_000);
  for (const { child } of children) child.stdin.end('go\n');
  await pollUntil(() => children.every(({ said }) => said.ended), 'both children done', 30_000);
  return children.map(({ said }) => said.text.trim().split('\n').at(-1)!);
}

describe('two processes saving at once', () => {
  it('each sets 200 keys of its own, one save each: all 400 are in the file', async () => {
    writeFileSync(path, '{}\n', { mode: 0o600 });
    expect(await together([['keys', 'a', '200'], ['keys', 'b', '200']])).toEqual(['done', 'done']);
    const saved = JSON.parse(readFileSync(path, 'utf8')) as Record<string, number>;
    const missing = ['a', 'b'].flatMap((p) => Array.from({ length: 200 }, (_, i) => `${p}${i}`)).filter((key) => saved[key] === undefined);
    expect(missing).toEqual([]);
    expect(existsSync(lockPathOf(path))).toBe(false);
  }, 60_000);

  it('two windows each add 100 symbols to one list, one save each: all 200 are in it, each window\'s in its order', async () => {
    writeFileSync(path, JSON.stringify({ watchlists: [{ name: 'Tech', symbols: ['AAPL'] }], active_watchlist: 'Tech' }), { mode: 0o600 });
    expect(await together([['symbols', 'X', '100'], ['symbols', 'Z', '100']])).toEqual(['done', 'done']);
    const symbols = (JSON.parse(readFileSync(path, 'utf8')) as { watchlists: { symbols: string[] }[] }).watchlists[0]!.symbols;
    expect(symbols).toHaveLength(201);
    for (const p of ['X', 'Z']) expect(symbols.filter((s) => s.startsWith(p))).toEqual(Array.from({ length: 100 }, (_, i) => `${p}${i}`));
  }, 60_000);
});

describe('the lock', () => {
  const lock = () => lockPathOf(path);

  it('is .NAME.lock beside the file, mode 0600, naming this process, and gone after', () => {
    const seen = withFileLock(path, () => ({ text: readFileSync(lock(), 'utf8'), mode: statSync(lock()).mode & 0o777 }));
    expect(lock()).toBe(join(dir, '.config.json.lock'));
    expect(seen).toEqual({ text: `${process.pid} ${hostname()}\n`, mode: 0o600 });
    expect(existsSync(lock())).toBe(false);
  });

  it('is let go when what it guards throws', () => {
    expect(() => withFileLock(path, () => {
      throw new Error('no');
    })).toThrow('no');
    expect(existsSync(lock())).toBe(false);
  });

  it('held by a process that runs: waited on, then refused naming the lock and the process; nothing run', () => {
    writeFileSync(lock(), `${process.pid} ${hostname()}\n`);
    let ran = false;
    const attempt = () => withFileLock(path, () => (ran = true), { waitMs: 30 });
    expect(attempt).toThrow(FileLockError);
    expect(attempt).toThrow(`another tickbook is saving it (${lock()} is held by process ${process.pid}); try again, or remove that file if no tickbook is running`);
    expect(ran).toBe(false);
    // Another host's: named as such.
    writeFileSync(lock(), '4242 elsewhere.example\n');
    expect(attempt).toThrow(`(${lock()} is held by process 4242 on elsewhere.example)`);
  });

  it('left by a process that is gone: taken at once, and a save goes through', () => {
    const gone = spawnSync(process.execPath, ['-e', '']).pid!;
    writeFileSync(lock(), `${gone} ${hostname()}\n`);
    updateConfigFile(path, { interval: 7 });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ interval: 7 });
    expect(existsSync(lock())).toBe(false);
  });

  it('older than any save takes: taken, whoever it names (another host, a pid reused, nothing written yet)', () => {
    for (const text of ['4242 elsewhere.example\n', `${process.pid} ${hostname()}\n`, '']) {
      writeFileSync(lock(), text);
      const past = new Date(Date.now() - 60_000);
      utimesSync(lock(), past, past);
      expect(withFileLock(path, () => 'ran', { waitMs: 0 })).toBe('ran');
    }
    // A fresh one with nothing in it yet is being written: waited on.
    writeFileSync(lock(), '');
    expect(() => withFileLock(path, () => 'ran', { waitMs: 0 })).toThrow(FileLockError);
  });

  it('a directory or a link in its place: refused, never followed or removed', () => {
    mkdirSync(lock());
    expect(() => withFileLock(path, () => 'ran')).toThrow(`its lock ${lock()} is a directory, not a lock file; remove it`);
    rmSync(lock(), { recursive: true });
    const elsewhere = join(dir, 'elsewhere');
    writeFileSync(elsewhere, 'mine\n');
    symlinkSync(elsewhere, lock());
    expect(() => withFileLock(path, () => 'ran')).toThrow(`its lock ${lock()} is a symbolic link, not a lock file; remove it`);
    expect(readFileSync(elsewhere, 'utf8')).toBe('mine\n');
  });
});
