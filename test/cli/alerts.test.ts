// `tickbook alerts`: set, listed, paused and removed from the shell, and watched headless; real
// processes of the built CLI against a real sandbox and a real history file.
import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCondition } from '../../src/cli/alerts.js';
import { alertsOf } from '../../src/store/alerts-store.js';
import { historySource } from '../../src/store/history-source.js';
import { openHistoryStore } from '../../src/store/history-store.js';
import { pollUntil, processRunning, ROOT } from '../helpers/child.js';
import { runTickbook, runTickbookToExit, sandboxClient, sandboxEnv, startTestSandbox } from '../helpers/sandbox.js';
import { setUpCliHomes } from '../helpers/cli-homes.js';

const { freshEnv } = setUpCliHomes('tickbook-alerts-cli-');

describe('tickbook alerts', () => {
  it('adds, lists, pauses, resumes and removes alerts; a bad value names its field and saves nothing', async () => {
    const env = freshEnv();
    let run = await runTickbookToExit(['alerts', 'add', 'AAPL', 'above', '100000'], env);
    expect(run).toMatchObject({ code: 0, stdout: 'alert 1: AAPL above 100000.00\n' });
    run = await runTickbookToExit(['alerts', 'add', 'aapl', 'above', '1'], env);
    // Armed by the first price under 1.00 (no band), it fires at the next crossing as it says.
    expect(run.stdout).toBe('alert 2: AAPL above 1.00 (it holds now: it waits for a price below 1.00, then fires at the next crossing)\n');
    run = await runTickbookToExit(['alerts', 'add', 'MSFT', 'move', '-5', '--from', 'close', '--once'], env);
    // A fresh home has no day of MSFT recorded: whether it holds cannot be told, and it waits.
    expect(run.stdout).toBe(
      'alert 3: MSFT move -5% from close (cannot tell if it holds now: no earlier day of MSFT is recorded to measure from; it waits for a move above -5% from close, then fires at the next crossing)\n',
    );

    const bad: [string[], RegExp][] = [
      [['AAPL', 'above', '-5'], /the price must be a positive number, not "-5"/],
      [['AAPL', 'below', 'cheap'], /the price must be a positive number, not "cheap"/],
      [['AAPL', 'move', '0'], /the percentage must be a positive number, not "0"/],
      [['AAPL', 'move', '5', '--from', 'noon'], /option --from must be open, close or set/],
      [['AAPL', 'above', '5', '--from', 'open'], /option --from is for a move alert/],
      [['AAPL', 'sideways', '5'], /expected above, below, move or stale after the symbol/],
      [['NOPE1', 'above', '5'], /the symbol NOPE1 is not known to the server/],
      [['A$B', 'above', '5'], /"A\$B" is not a stock symbol/],
    ];
    for (const [args, message] of bad) {
      run = await runTickbookToExit(['alerts', 'add', ...args], env);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(message);
    }

    run = await runTickbookToExit(['alerts', 'pause', '1'], env);
    expect(run.stdout).toBe('alert 1 paused\n');
    run = await runTickbookToExit(['alerts', 'list', '--json'], env);
    const listed = (JSON.parse(run.stdout) as { alerts: { id: number; symbol: string; condition: string; state: string; waits_for: string | null; once: boolean }[] }).alerts;
    expect(listed.map(({ id, symbol, condition, state, waits_for, once }) => ({ id, symbol, condition, state, waits_for, once }))).toEqual([
      { id: 1, symbol: 'AAPL', condition: 'above 100000.00', state: 'paused', waits_for: null, once: false },
      { id: 2, symbol: 'AAPL', condition: 'above 1.00', state: 'waiting for a crossing', waits_for: 'a price below 1.00', once: false },
      { id: 3, symbol: 'MSFT', condition: 'move -5% from close', state: 'waiting for a crossing', waits_for: 'a move above -5% from close', once: true },
    ]);
    expect((await runTickbookToExit(['alerts', 'list'], env)).stdout).toMatch(/^ +2 +AAPL +above 1\.00 +waits for a price below 1\.00 +\d{4}-/m);
    expect((await runTickbookToExit(['alerts', 'resume', '1'], env)).stdout).toBe('alert 1 resumed\n');
    expect((await runTickbookToExit(['alerts', 'rm', '2'], env)).stdout).toBe('alert 2 removed\n');
    run = await runTickbookToExit(['alerts', 'rm', '2'], env);
    expect(run).toMatchObject({ code: 1, stderr: 'tickbook: no alert 2 for this server (tickbook alerts list shows them)\n' });
    run = await runTickbookToExit(['alerts', 'list'], env);
    expect(run.stdout.split('\n')[0]).toMatch(/^ID +SYMBOL +CONDITION +STATE +SET$/);
    expect(run.stdout).not.toMatch(/above 1\.00/);
  });

  it('watch prints each firing as it happens, once, records it in the log, and ends with 0 on Ctrl-C', async () => {
    const env = freshEnv();
    // The smallest move either way from the price when set: the next price that differs fires it.
    expect((await runTickbookToExit(['alerts', 'add', 'AAPL', 'move', '0.0001', '--from', 'set', '--once'], env)).code).toBe(0);
    const proc = runTickbook(['alerts', 'watch', '--interval', '1', '--ndjson'], env);
    const [line] = await proc.waitFor(/^\{.*\}$/m, 'stdout', 20_000);
    proc.child.kill('SIGINT');
    expect(await proc.exited).toMatchObject({ code: 0 });
    expect(proc.stderr()).toBe('');
    const fired = JSON.parse(line) as Record<string, unknown>;
    expect(fired).toEqual({ id: 1, symbol: 'AAPL', condition: 'move ±0.0001% from set', price: expect.any(Number), time: expect.stringMatching(/Z$/) });
    // One-shot: said once however long the watch ran.
    expect(proc.stdout().trim().split('\n')).toHaveLength(1);
    const log = await runTickbookToExit(['alerts', 'log', '--json'], env);
    expect((JSON.parse(log.stdout) as { firings: { id: number; text: string }[] }).firings).toEqual([
      expect.objectContaining({ id: 1, text: expect.stringMatching(/^AAPL at \d+\.\d\d moved [+-]\d+\.\d\d% from the price when set$/) }),
    ]);
    expect((await runTickbookToExit(['alerts', 'list'], env)).stdout).toMatch(/ 1 +AAPL +move ±0\.0001% from set, once +done /);
  }, 30_000);

  /** A home whose config runs `command` for each firing, with one alert that fires at the next price. */
  async function homeWithCommand(command: (dir: string) => string): Promise<{ env: NodeJS.ProcessEnv; dir: string }> {
    const env = freshEnv();
    const dir = join(env.HOME!, 'out');
    mkdirSync(dir, { recursive: true });
    mkdirSync(join(env.XDG_CONFIG_HOME!, 'tickbook'), { recursive: true });
    writeFileSync(join(env.XDG_CONFIG_HOME!, 'tickbook', 'config.json'), JSON.stringify({ alerts: { command: command(dir) } }), { mode: 0o600 });
    expect((await runTickbookToExit(['alerts', 'add', 'AAPL', 'move', '0.0001', '--from', 'set', '--once'], env)).code).toBe(0);
    return { env, dir };
  }

  /** The pid a command wrote to `file`, once it has. */
  const pidIn = (file: string): Promise<number> =>
    pollUntil(() => existsSync(file) && readFileSync(file, 'utf8').endsWith('\n') && Number(readFileSync(file, 'utf8')), `a pid in ${file}`, 20_000);


  for (const [signal, exit] of [['SIGTERM', { code: 0 }], ['SIGHUP', { signal: 'SIGHUP' }]] as const) {
    it(`watch runs alerts.command without tickbook's credentials, and a hanging one does not outlive it (${signal})`, async () => {
      const { env, dir } = await homeWithCommand((out) => `env > '${out}/env'; echo $$ > '${out}/pid'; exec sleep 300`);
      // The credentials the watcher itself uses (the test sandbox's).
      expect(env.TICKBOOK_TOKEN).toBeTruthy();
      const proc = runTickbook(['alerts', 'watch', '--interval', '1'], env);
      await proc.waitFor(/#1 AAPL at /, 'stdout', 20_000);
      const pid = await pidIn(join(dir, 'pid'));
      expect(processRunning(pid)).toBe(true);
      const seen = readFileSync(join(dir, 'env'), 'utf8');
      expect(seen).toMatch(/^TICKBOOK_ALERT_ID=1$/m);
      expect(seen).not.toMatch(/^TICKBOOK_TOKEN=/m);
      expect(seen).not.toMatch(/^TICKBOOK_API_KEY=/m);
      expect(seen).not.toContain(env.TICKBOOK_TOKEN);
      proc.child.kill(signal);
      expect(await proc.exited).toMatchObject(exit);
      expect(processRunning(pid)).toBe(false);
    }, 30_000);
  }

  it('watch says once that a symbol is no longer served, and goes on watching the rest', async () => {
    const env = freshEnv();
    expect((await runTickbookToExit(['alerts', 'add', 'AAPL', 'above', '100000'], env)).code).toBe(0);
    expect((await runTickbookToExit(['alerts', 'add', 'MSFT', 'above', '100000'], env)).code).toBe(0);
    // A symbol the server served when the alert was set, and has since stopped serving.
    const db = new Database(join(env.XDG_DATA_HOME!, 'tickbook', 'history.db'));
    db.prepare("UPDATE alerts SET symbol = 'GONE1' WHERE id = 1").run();
    db.close();
    const proc = runTickbook(['alerts', 'watch', '--interval', '1'], env);
    await proc.waitFor(/does not serve GONE1/, 'stderr', 20_000);
    // Two more polls: said once, not at every poll.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    proc.child.kill('SIGINT');
    expect(await proc.exited).toMatchObject({ code: 0 });
    expect(proc.stderr()).toBe('tickbook: warning: the server does not serve GONE1: its alerts cannot fire (tickbook alerts rm ID removes them)\n');
  }, 30_000);

  it('opens a history file made by the tickbook before (schema version 5) keeping every number; its log says whose each firing was', async () => {
    const env = freshEnv();
    const file = join(env.XDG_DATA_HOME!, 'tickbook', 'history.db');
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    copyFileSync(join(ROOT, 'test/fixtures/history/v5-alerts.db'), file);
    // Made against a server at another address (test/fixtures/history/README.md): this test's sandbox stands for it.
    const db = new Database(file);
    db.prepare('UPDATE sources SET key = ?').run(historySource({ marketDataUrl: env.TICKBOOK_BASE_URL! }));
    db.close();
    // Numbers 1 to 4 were used (4 by a removed alert, known from the log): the tickbook before said "alert 4".
    expect((await runTickbookToExit(['alerts', 'add', 'MSFT', 'above', '100000'], env)).stdout).toBe('alert 5: MSFT above 100000.00\n');
    const log = await runTickbookToExit(['alerts', 'log', '--json'], env);
    expect((JSON.parse(log.stdout) as { firings: Record<string, unknown>[] }).firings.map(({ id, symbol, condition, removed, text }) => ({ id, symbol, condition, removed, text }))).toEqual([
      { id: 4, symbol: 'IBM', condition: null, removed: true, text: 'IBM at 279.82 moved -0.04% from the price when set' },
      // Before: {"id":3,"symbol":"TSLA",…}, the firing of the removed 7203.T alert shown as alert 3's, now TSLA.
      { id: 3, symbol: '7203.T', condition: null, removed: true, text: '7203.T at 2800.61 moved +0.03% from the price when set' },
      { id: 1, symbol: 'AAPL', condition: 'move ±0.0001% from set', removed: false, text: 'AAPL at 217.61 moved +0.00% from the price when set' },
    ]);
    expect((await runTickbookToExit(['alerts', 'log'], env)).stdout).toMatch(/ 3 \(removed\) +7203\.T at 2800\.61 /);
    const list = (await runTickbookToExit(['alerts', 'list'], env)).stdout;
    expect(list).toMatch(/^ +2 +NVDA +below 100000\.00 +waits for a price above 100000\.00 /m);
    expect(list).toMatch(/^ +5 +MSFT +above 100000\.00 +armed /m);
  }, 30_000);

  it('gives no number twice between a dashboard holding the history file open and the shell', async () => {
    const env = freshEnv();
    expect((await runTickbookToExit(['alerts', 'add', 'AAPL', 'above', '100000'], env)).stdout).toBe('alert 1: AAPL above 100000.00\n');
    // The file open in this process, as the dashboard keeps it, its alerts read (and cached) there.
    const store = openHistoryStore(join(env.XDG_DATA_HOME!, 'tickbook', 'history.db'));
    try {
      const dashboard = alertsOf(store);
      const source = historySource({ marketDataUrl: env.TICKBOOK_BASE_URL! });
      const two = dashboard.add(source, 'MSFT', { kind: 'above', price: 100000 }, { price: 400, at: Date.now(), oneShot: false });
      expect(two.id).toBe(2);
      expect((await runTickbookToExit(['alerts', 'rm', '2'], env)).stdout).toBe('alert 2 removed\n');
      // The tickbook before gave 2 again, so the dashboard's "d" on its alert 2 deleted this one.
      expect((await runTickbookToExit(['alerts', 'add', 'NVDA', 'above', '100000'], env)).stdout).toBe('alert 3: NVDA above 100000.00\n');
      expect(dashboard.remove(source, two.id)).toBe(false);
      expect(dashboard.add(source, 'TSLA', { kind: 'above', price: 100000 }, { price: 300, at: Date.now(), oneShot: false }).id).toBe(4);
      expect(dashboard.list(source).map((a) => [a.id, a.symbol])).toEqual([[1, 'AAPL'], [3, 'NVDA'], [4, 'TSLA']]);
    } finally {
      store.close();
    }
  }, 30_000);

  it('a move from the open set while it holds says so; watch does not fire it at its first poll, and fires it at the next crossing', async () => {
    // The sandbox's market on a clock of this test's: its price is where the clock puts it.
    const clock = { now: Date.now() };
    const sandbox = await startTestSandbox({ now: () => clock.now });
    const home = mkdtempSync(join(tmpdir(), 'tickbook-alerts-move-'));
    const client = sandboxClient(sandbox);
    try {
      const env = sandboxEnv(sandbox, home);
      const priceAt = async (t: number) => {
        clock.now = t;
        return (await client.realtimePricing(['AAPL'])).quotes[0]!.price;
      };
      // Today's open as recorded (by a dashboard or a watch earlier today), and a minute later
      // on the market's clock where the price is at least 0.2% away from it.
      const t0 = clock.now;
      const open = await priceAt(t0);
      let t1 = t0;
      let moved = 0;
      while (Math.abs(moved) < 0.2) moved = ((await priceAt((t1 += 60_000))) / open - 1) * 100;
      const file = join(env.XDG_DATA_HOME!, 'tickbook', 'history.db');
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      const store = openHistoryStore(file);
      store.record(historySource({ marketDataUrl: sandbox.marketDataUrl }), [{ symbol: 'AAPL', price: open, volume: 1 }], Date.now());
      store.close();
      // Half the move, in its direction: it holds at t1's price and not at the open's.
      const percent = `${moved > 0 ? '+' : '-'}${(Math.abs(moved) / 2).toFixed(2)}`;
      clock.now = t1;
      const added = await runTickbookToExit(['alerts', 'add', 'AAPL', 'move', percent, '--from', 'open'], env);
      // Before, it said only "alert 1: AAPL move …% from open", set armed, and fired at the first poll.
      expect(added.stdout).toBe(
        `alert 1: AAPL move ${percent}% from open (it holds now: it waits for a move ${moved > 0 ? 'below' : 'above'} ${percent}% from open, then fires at the next crossing)\n`,
      );
      const polls = () => sandbox.logLines.filter((line) => / POST \S*realtime-pricing 200 /.test(line)).length;
      const before = polls();
      const proc = runTickbook(['alerts', 'watch', '--interval', '1', '--ndjson'], env);
      // Two polls at t1's price: it still holds, which is no crossing.
      await pollUntil(() => polls() >= before + 2, 'two polls of alerts watch', 20_000);
      expect(proc.stdout()).toBe('');
      // Back to the open's price arms it (it no longer holds); the move again is the crossing.
      clock.now = t0;
      const db = new Database(file, { readonly: true });
      try {
        await pollUntil(() => db.prepare('SELECT armed FROM alerts WHERE id = 1').pluck().get() === 1, 'the alert armed', 20_000);
      } finally {
        db.close();
      }
      expect(proc.stdout()).toBe('');
      clock.now = t1;
      const [line] = await proc.waitFor(/^\{.*\}$/m, 'stdout', 20_000);
      proc.child.kill('SIGINT');
      expect(await proc.exited).toMatchObject({ code: 0 });
      expect(JSON.parse(line)).toMatchObject({ id: 1, symbol: 'AAPL', condition: `move ${percent}% from open` });
      expect(proc.stdout().trim().split('\n')).toHaveLength(1);
    } finally {
      await client.close();
      await sandbox.close();
      rmSync(home, { recursive: true, force: true });
    }
  }, 40_000);

  it('reads conditions as the help says', () => {
    expect(parseCondition(['above', '200'], undefined)).toEqual({ kind: 'above', price: 200 });
    expect(parseCondition(['move', '+5'], undefined)).toEqual({ kind: 'move', percent: 5, direction: 'up', from: 'open' });
    expect(parseCondition(['move', '-2.5'], 'set')).toEqual({ kind: 'move', percent: 2.5, direction: 'down', from: 'set' });
    expect(parseCondition(['move', '5'], 'close')).toEqual({ kind: 'move', percent: 5, direction: 'either', from: 'close' });
    expect(parseCondition(['stale', '3'], undefined)).toEqual({ kind: 'stale', polls: 3 });
    expect(() => parseCondition(['stale', '0'], undefined)).toThrow(/the number of polls must be a whole number from 1 to 1000, not "0"/);
  });
});
