// The history file as the commands that read and change its alerts and lots use it when it cannot
// be written: read-only (a real file and directory of root's, the commands run as nobody), on a
// full disk (a real 2 MB tmpfs filled to the last block), damaged (a real page of an index
// overwritten), and held by another process (a real one, BEGIN EXCLUSIVE). Real bin/tickbook
// processes against a real sandbox on loopback.
import Database from 'better-sqlite3';
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runTickbook, runTickbookToExit } from '../helpers/sandbox.js';
import { ROOT } from '../helpers/child.js';
import { setUpCliHomes } from '../helpers/cli-homes.js';
import { damageLastLeaf, damagePage } from '../helpers/damage.js';
import { NO_SMALL_DISK, smallDisk, type SmallDisk } from '../helpers/tmpfs.js';
import { cannotDropPrivileges, traversable } from '../helpers/unprivileged.js';
import { killUnprivilegedChildren, runTickbookUnprivilegedToExit } from '../helpers/unprivileged-server.js';

const { freshEnv } = setUpCliHomes('tickbook-history-file-');
const NO_NOBODY = cannotDropPrivileges();

afterEach(killUnprivilegedChildren);

/** An alert, a lot and a recorded price, as a user's history holds them. */
async function userHistory(env: NodeJS.ProcessEnv): Promise<string> {
  expect((await runTickbookToExit(['alerts', 'add', 'AAPL', 'above', '100000'], env)).code).toBe(0);
  expect((await runTickbookToExit(['holdings', 'add', 'AAPL', '10', '--cost', '150'], env)).code).toBe(0);
  const watch = runTickbook(['quote', 'AAPL', '--watch', '--interval', '1'], env);
  await watch.waitFor(/AAPL \d+\.\d\d/);
  watch.child.kill('SIGINT');
  expect((await watch.exited).code).toBe(0);
  return join(env.XDG_DATA_HOME!, 'tickbook', 'history.db');
}

/** A command of each use of the history, with its words for what it could not do. */
const USES = [
  [['history', 'AAPL'], 'read the price history'],
  [['alerts', 'list'], 'read the alerts in'],
  [['alerts', 'log'], 'read the alerts in'],
  [['holdings'], 'read the holdings in'],
  [['alerts', 'rm', '1'], 'change the alerts in'],
  [['holdings', 'add', 'AAPL', '1', '--cost', '1'], 'change the holdings in'],
  [['alerts', 'watch'], 'watch the alerts in'],
] as const;

/** Each use refused in one line naming the file and `why`, exit 1, ending by itself (killed after 5 s). */
async function expectEachRefused(env: NodeJS.ProcessEnv, path: string, why: string): Promise<void> {
  for (const [args, doing] of USES) {
    expect(await runTickbookToExit(args, env, 5000), args.join(' ')).toMatchObject({ code: 1, stdout: '', stderr: `tickbook: cannot ${doing} ${path}: ${why}\n` });
  }
}

describe('a history that may be read but not written', () => {
  it.skipIf(NO_NOBODY !== undefined)('is read by the commands that read it; a change is refused in the command\'s words, naming the file, exit 1, and nothing is written', async () => {
    const env = freshEnv();
    const path = await userHistory(env);
    // Root's file in root's directory, readable by anyone: as nobody, neither it nor the -wal and
    // -shm SQLite would make beside it may be written.
    traversable(env.HOME!);
    execFileSync('chmod', ['-R', 'a+rX', env.HOME!]);
    chmodSync(path, 0o644);
    chmodSync(join(env.XDG_DATA_HOME!, 'tickbook'), 0o555);
    const before = readFileSync(path);
    try {
      let run = await runTickbookUnprivilegedToExit(['alerts', 'list', '--json'], env);
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(run.stdout).alerts).toEqual([expect.objectContaining({ id: 1, symbol: 'AAPL', condition: 'above 100000.00', state: 'armed' })]);
      expect(await runTickbookUnprivilegedToExit(['alerts', 'log'], env)).toMatchObject({ code: 0, stderr: '' });
      run = await runTickbookUnprivilegedToExit(['holdings', '--json'], env);
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(run.stdout).positions).toEqual([expect.objectContaining({ symbol: 'AAPL', quantity: '10', average_cost: '150.00' })]);
      run = await runTickbookUnprivilegedToExit(['history', 'AAPL', '--csv'], env);
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(run.stdout).toMatch(/^time,price,volume\n\d{4}-.*Z,\d+(\.\d+)?,\d+\n/);

      const refused = (what: string) => `tickbook: cannot change the ${what} in ${path}: it is read-only (tickbook may not write it)\n`;
      for (const [args, what] of [
        [['alerts', 'rm', '1'], 'alerts'],
        [['alerts', 'pause', '1'], 'alerts'],
        [['alerts', 'add', 'MSFT', 'below', '1'], 'alerts'],
        [['holdings', 'rm', 'AAPL'], 'holdings'],
        [['holdings', 'add', 'MSFT', '1', '--cost', '1'], 'holdings'],
      ] as const) {
        expect(await runTickbookUnprivilegedToExit(args, env), args.join(' ')).toMatchObject({ code: 1, stdout: '', stderr: refused(what) });
      }
      // A watch that could decide no alert does not start.
      expect(await runTickbookUnprivilegedToExit(['alerts', 'watch', '--interval', '1'], env)).toMatchObject({
        code: 1,
        stdout: '',
        stderr: `tickbook: cannot watch the alerts in ${path}: it is read-only (tickbook may not write it)\n`,
      });
      expect(readFileSync(path)).toEqual(before);
    } finally {
      chmodSync(join(env.XDG_DATA_HOME!, 'tickbook'), 0o755);
    }
  }, 30_000);
});

describe('a history that is not a regular file', () => {
  it('a FIFO or a socket where the file should be: every command says what it is, naming the file, exit 1, at once', async () => {
    const env = freshEnv();
    const path = join(env.XDG_DATA_HOME!, 'tickbook', 'history.db');
    mkdirSync(join(path, '..'), { recursive: true });
    // No writer ever comes: SQLite's read-only open of it would wait for one for ever.
    execFileSync('mkfifo', [path]);
    const refused = (doing: string, kind = 'a FIFO (named pipe)') => `tickbook: cannot ${doing} ${path}: it is ${kind}, not a database file\n`;
    await expectEachRefused(env, path, 'it is a FIFO (named pipe), not a database file');
    // quote --watch records nothing and says why, once; its prices go on.
    const watch = runTickbook(['quote', 'AAPL', '--watch', '--interval', '1'], env);
    await watch.waitFor(/AAPL \d+\.\d\d/);
    watch.child.kill('SIGINT');
    expect((await watch.exited).code).toBe(0);
    expect(watch.stderr()).toBe(`tickbook: warning: price history not recorded: ${refused('record price history in').slice('tickbook: '.length)}`);
    const doctor = await runTickbookToExit(['doctor'], env, 5000);
    expect(doctor.stdout).toMatch(new RegExp(`history +${path} *: it is a FIFO \\(named pipe\\), not a database file\n`));
    expect(statSync(path).isFIFO()).toBe(true);

    // A socket (SQLite cannot open one at all, and said only "unable to open").
    rmSync(path);
    const server = createServer().listen(path);
    await once(server, 'listening');
    try {
      expect(await runTickbookToExit(['alerts', 'list'], env, 5000)).toMatchObject({ code: 1, stdout: '', stderr: refused('read the alerts in', 'a socket') });
    } finally {
      server.close();
    }
  }, 40_000);
});

describe('a history from a newer tickbook', () => {
  it('is refused in each command\'s words, saying the schema is newer, exit 1, and left as it is', async () => {
    const env = freshEnv();
    expect((await runTickbookToExit(['alerts', 'add', 'AAPL', 'above', '100000'], env)).code).toBe(0);
    const path = join(env.XDG_DATA_HOME!, 'tickbook', 'history.db');
    const db = new Database(path);
    db.pragma('user_version = 999');
    db.close();
    const before = readFileSync(path);
    await expectEachRefused(env, path, 'its schema version 999 is newer than this tickbook understands (7)');
    expect(readFileSync(path)).toEqual(before);
  }, 30_000);
});

describe('a history on a full disk', () => {
  let disk: SmallDisk | undefined;
  afterEach(() => {
    disk?.unmount();
    disk = undefined;
  });

  it.skipIf(NO_SMALL_DISK !== undefined)('a change says the disk is full, naming the file, exit 1; reading goes on; with room again, changes are made', async () => {
    disk = smallDisk(2048);
    const env = { ...freshEnv(), XDG_DATA_HOME: disk.dir };
    const path = await userHistory(env);
    disk.fill();
    const full = (what: string) => `tickbook: cannot change the ${what} in ${path}: the disk is full\n`;
    expect(await runTickbookToExit(['alerts', 'add', 'MSFT', 'below', '1'], env)).toMatchObject({ code: 1, stdout: '', stderr: full('alerts') });
    expect(await runTickbookToExit(['alerts', 'rm', '1'], env)).toMatchObject({ code: 1, stdout: '', stderr: full('alerts') });
    expect(await runTickbookToExit(['holdings', 'add', 'MSFT', '1', '--cost', '1'], env)).toMatchObject({ code: 1, stdout: '', stderr: full('holdings') });
    let run = await runTickbookToExit(['alerts', 'list', '--json'], env);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout).alerts).toHaveLength(1);
    run = await runTickbookToExit(['holdings', '--json'], env);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout).positions).toHaveLength(1);

    disk.free();
    expect(await runTickbookToExit(['alerts', 'rm', '1'], env)).toMatchObject({ code: 0, stdout: 'alert 1 removed\n' });
  }, 30_000);
});

describe('a history with a damaged page', () => {
  const asideOf = (path: string) => {
    const dir = join(path, '..');
    return readdirSync(dir).filter((name) => /^history\.db\.damaged-\d{8}T\d{6}-\d+$/.test(name)).map((name) => join(dir, name));
  };
  const warning = (path: string, aside: string, kept: string) => `tickbook: warning: the price history ${path} was damaged: moved aside to ${aside}; recording starts anew${kept}\n`;

  it('is moved aside by the first command to meet it, keeping the alerts and lots, with a warning naming both files; every command goes on', async () => {
    const env = freshEnv();
    const path = await userHistory(env);
    // The index every lookup of a server goes through.
    damagePage(path, 'sqlite_autoindex_sources_1');
    let run = await runTickbookToExit(['holdings', '--json'], env);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).positions).toEqual([expect.objectContaining({ symbol: 'AAPL', quantity: '10', average_cost: '150.00' })]);
    expect(asideOf(path)).toHaveLength(1);
    expect(run.stderr).toBe(warning(path, asideOf(path)[0]!, ', with its 1 alert and 1 lot'));
    run = await runTickbookToExit(['alerts', 'list', '--json'], env);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout).alerts).toEqual([expect.objectContaining({ id: 1, symbol: 'AAPL', state: 'armed' })]);

    // A change, on a file whose alerts' table is what is damaged: what can be read is kept.
    damagePage(path, 'alerts');
    run = await runTickbookToExit(['holdings', 'rm', 'AAPL'], env);
    expect(run).toMatchObject({ code: 0, stdout: 'removed AAPL: 1 lot\n' });
    expect(asideOf(path)).toHaveLength(1);
    run = await runTickbookToExit(['alerts', 'add', 'MSFT', 'below', '1'], env);
    expect(run.code).toBe(0);
    // 1 is the number of the alert that could not be read (it stays in the file moved aside): never given again.
    expect(run.stdout).toMatch(/^alert 2: MSFT below 1\.00/);
    expect(run.stderr).toMatch(/^tickbook: warning: the price history .* was damaged: moved aside to .*; recording starts anew; its alerts, if any, could not be read \(they stay in the file moved aside\)\n$/);
    expect(asideOf(path)).toHaveLength(2);

    // The prices `history` reads: a WITHOUT ROWID table's primary key is its b-tree.
    const watch = runTickbook(['quote', 'AAPL', '--watch', '--interval', '1'], env);
    await watch.waitFor(/AAPL \d+\.\d\d/);
    watch.child.kill('SIGINT');
    expect((await watch.exited).code).toBe(0);
    damagePage(path, 'ticks');
    run = await runTickbookToExit(['history', 'AAPL'], env);
    expect(run.code).toBe(1);
    expect(asideOf(path)).toHaveLength(3);
    expect(run.stderr).toMatch(/^tickbook: warning: the price history .* was damaged: moved aside to .*; recording starts anew, with its 1 alert\ntickbook: no prices of AAPL recorded /);
    expect(JSON.parse((await runTickbookToExit(['alerts', 'list', '--json'], env)).stdout).alerts).toEqual([expect.objectContaining({ symbol: 'MSFT' })]);
  }, 40_000);

  it('found by a change after its first statement made it: the change is made once, and said as made', async () => {
    const env = freshEnv();
    const path = await userHistory(env);
    // Lots enough that the lots' index spans several leaves; its last (the highest keys: AAPL's,
    // after AAL's) damaged. Adding a lot of AAPL takes its number, then writes into that leaf;
    // listing the lots reads them all.
    const db = new Database(path);
    const source = db.prepare<[], number>('SELECT source FROM lots').pluck().get()!;
    const insert = db.prepare<[number, number]>("INSERT INTO lots (source, symbol, number, quantity, cost, bought, added_at) VALUES (?, 'AAL', ?, '1', '1', NULL, 0)");
    db.transaction(() => {
      for (let i = 1; i <= 3000; i++) insert.run(source, i);
      db.prepare("INSERT INTO lot_numbers (source, symbol, last) VALUES (?, 'AAL', 3000)").run(source);
    })();
    db.close();
    damageLastLeaf(path, 'lots_by_symbol');
    const lotsOf = async (symbol: string) => {
      const run = await runTickbookToExit(['holdings', '--json'], env);
      expect(run).toMatchObject({ code: 0, stderr: '' });
      return JSON.parse(run.stdout).positions.find((p: { symbol: string }) => p.symbol === symbol)?.quantity;
    };

    let run = await runTickbookToExit(['holdings', 'add', 'AAPL', '1', '--cost', '1'], env);
    expect(run).toMatchObject({ code: 0, stdout: 'AAPL lot 2: 1 at 1\n' });
    expect(run.stderr).toBe(warning(path, asideOf(path)[0]!, ', with its 1 alert and 3001 lots'));
    expect(await lotsOf('AAPL')).toBe('11');

    // Found by rm's listing of the lots: removed once, and said.
    damageLastLeaf(path, 'lots_by_symbol');
    run = await runTickbookToExit(['holdings', 'rm', 'AAPL'], env);
    expect(run).toMatchObject({ code: 0, stdout: 'removed AAPL: 2 lots\n' });
    expect(asideOf(path)).toHaveLength(2);
    expect(await lotsOf('AAPL')).toBeUndefined();
    expect(await lotsOf('AAL')).toBe('3000');
  }, 40_000);

  it('found by alerts watch or quote --watch as they run: moved aside, and the watch goes on, its alert firing', async () => {
    const env = freshEnv();
    // The smallest move either way from the price when set: the next price that differs fires it.
    expect((await runTickbookToExit(['alerts', 'add', 'AAPL', 'move', '0.0001', '--from', 'set', '--once'], env)).code).toBe(0);
    const path = join(env.XDG_DATA_HOME!, 'tickbook', 'history.db');
    damagePage(path, 'sqlite_autoindex_sources_1');
    const watch = runTickbook(['alerts', 'watch', '--interval', '1', '--ndjson'], env);
    const [line] = await watch.waitFor(/^\{.*\}$/m, 'stdout', 20_000);
    watch.child.kill('SIGINT');
    expect(await watch.exited).toMatchObject({ code: 0 });
    expect(JSON.parse(line)).toMatchObject({ id: 1, symbol: 'AAPL' });
    expect(watch.stderr()).toMatch(/^tickbook: warning: the price history .* was damaged: moved aside to .*; recording starts anew, with its 1 alert\n$/);

    damagePage(path, 'sqlite_autoindex_series_1');
    const quotes = runTickbook(['quote', 'AAPL', '--watch', '--interval', '1'], env);
    await quotes.waitFor(/AAPL \d+\.\d\d(.|\n)*AAPL \d+\.\d\d/);
    quotes.child.kill('SIGINT');
    expect((await quotes.exited).code).toBe(0);
    expect(quotes.stderr()).toMatch(/^tickbook: warning: the price history .* was damaged: moved aside to .*; recording starts anew, with its 1 alert\n$/);
    // Recorded into the new file.
    const csv = await runTickbookToExit(['history', 'AAPL', '--csv'], env);
    expect(csv).toMatchObject({ code: 0, stderr: '' });
    expect(asideOf(path)).toHaveLength(2);
  }, 40_000);
});

describe('a history another process holds', () => {
  it('alerts watch says so once, records and fires nothing meanwhile, and once it is free records the polls kept and fires the crossing', async () => {
    const env = freshEnv();
    // The smallest move either way from the price when set: the next price that differs fires it.
    expect((await runTickbookToExit(['alerts', 'add', 'AAPL', 'move', '0.0001', '--from', 'set', '--once'], env)).code).toBe(0);
    const path = join(env.XDG_DATA_HOME!, 'tickbook', 'history.db');
    const holder = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test/helpers/hold-lock-child.ts'), path], { stdio: ['pipe', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => holder.stdout!.once('data', () => resolve()));
    const watch = runTickbook(['alerts', 'watch', '--interval', '1', '--ndjson'], env);
    try {
      await watch.waitFor(/price history busy/, 'stderr', 15_000);
      expect(watch.stderr()).toBe(`tickbook: warning: price history busy: another process holds ${path}; recording and alerts wait for it\n`);
      expect(watch.stdout()).toBe('');
      holder.stdin!.end();
      const [line] = await watch.waitFor(/^\{.*\}$/m, 'stdout', 15_000);
      expect(JSON.parse(line)).toMatchObject({ id: 1, symbol: 'AAPL' });
      expect(watch.stderr()).toMatch(/wait for it\ntickbook: price history: recording again\n$/);
    } finally {
      holder.kill();
      watch.child.kill('SIGINT');
      expect((await watch.exited).code).toBe(0);
    }
    const log = await runTickbookToExit(['alerts', 'log', '--json'], env);
    expect(JSON.parse(log.stdout).firings).toHaveLength(1);
  }, 40_000);
});
