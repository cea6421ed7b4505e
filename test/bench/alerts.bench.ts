// The alerts benchmark (issue 12's targets): 1,000 alerts over 100 symbols stepped on a tick of
// 100 prices (the store's one transaction under the write lock), against the same rules stepped
// in memory, in the same run; then `tickbook alerts watch --interval 1` on those alerts against
// `tickbook serve` in its own process, its CPU over BENCH_SECONDS (30).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCatalogue } from '../../src/server/catalogue.js';
import { type AlertCondition, initialState, step } from '../../src/market/alerts.js';
import { AlertWatch, alertsOf } from '../../src/store/alerts-store.js';
import { openHistoryStore } from '../../src/store/history-store.js';
import { startServeProcess } from './serve-process.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const TICKS = 300;
const TOKEN = 'bench-token-0123456789';
const API_KEY = 'bench-key-0123456789';
const root = new URL('../../', import.meta.url).pathname;

const dir = mkdtempSync(join(tmpdir(), 'tickbook-bench-alerts-'));
const ms = (n: number) => `${n.toFixed(3)} ms`;
const percentile = (samples: number[], p: number) => [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor((p / 100) * samples.length))]!;

/** A deterministic walk of prices for `symbols`, one step a tick of up to ±`move` (0.005: ±0.5%). */
function walk(symbols: readonly string[], move: number) {
  let x = 7;
  const rand = () => (x = (x * 48271) % 2147483647) / 2147483647;
  const prices = new Map(symbols.map((s) => [s, 100]));
  return () => {
    for (const s of symbols) prices.set(s, Math.max(1, prices.get(s)! * (1 + (rand() - 0.5) * 2 * move)));
    return new Map(prices);
  };
}

/** Ten alerts a symbol: lines above and below, moves either way from set and open, stale. */
function conditions(): AlertCondition[] {
  return [
    { kind: 'above', price: 100.5 },
    { kind: 'above', price: 101 },
    { kind: 'below', price: 99.5 },
    { kind: 'below', price: 99 },
    { kind: 'move', percent: 0.5, direction: 'either', from: 'set' },
    { kind: 'move', percent: 1, direction: 'up', from: 'set' },
    { kind: 'move', percent: 1, direction: 'down', from: 'open' },
    { kind: 'move', percent: 2, direction: 'either', from: 'open' },
    { kind: 'stale', polls: 3 },
    { kind: 'above', price: 150 },
  ];
}

/** A process's CPU, in percent of a core, over SECONDS after 5 s to settle (from /proc: user and system time). */
async function cpuPercent(pid: number): Promise<number> {
  const cpu = () => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  };
  await new Promise((r) => setTimeout(r, 5_000));
  const before = cpu();
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  return ((cpu() - before) / SECONDS) * 100;
}

async function main(): Promise<void> {
  const symbols = loadCatalogue().slice(0, 100).map((s) => s.symbol);
  const source = 'http://bench.example';
  const path = join(dir, 'history.db');
  const store = openHistoryStore(path);
  const alerts = alertsOf(store);
  for (const symbol of symbols) for (const condition of conditions()) alerts.add(source, symbol, condition, { price: 100, at: 0, oneShot: false });
  const watch = new AlertWatch(alerts, store, source);

  // The store: one transaction a tick, 1,000 alerts stepped, what changed written. Two markets:
  // a calm one (up to ±0.05% a second, as a large stock moves) and a storm (±0.5% a second, which
  // crosses a line every few ticks and re-arms as often: about 16 writes a tick).
  const stepTicks = (move: number) => {
    const next = walk(symbols, move);
    const samples: number[] = [];
    let fired = 0;
    for (let i = 0; i < TICKS; i++) {
      const prices = next();
      const started = performance.now();
      fired += watch.polled(symbols, prices, 1_000 * i).length;
      samples.push(performance.now() - started);
    }
    return { samples, fired };
  };
  const calm = stepTicks(0.0005);
  const { samples, fired } = stepTicks(0.005);
  // The same rules in memory: what the store adds is the rest.
  const memory = symbols.flatMap((symbol) => conditions().map((condition) => ({ symbol, condition, state: initialState(condition, { price: 100, pollsWithout: 0, reference: 100, now: 0 }) })));
  const again = walk(symbols, 0.005);
  const baseline: number[] = [];
  for (let i = 0; i < TICKS; i++) {
    const prices = again();
    const started = performance.now();
    for (const alert of memory) alert.state = step(alert.condition, alert.state, { price: prices.get(alert.symbol), pollsWithout: 0, reference: 100, now: 1_000 * i }).state;
    baseline.push(performance.now() - started);
  }
  store.close();
  const [p50, p99] = [percentile(samples, 50), percentile(samples, 99)];
  const calm50 = percentile(calm.samples, 50);
  console.log(`1,000 alerts over 100 symbols, ${TICKS} ticks of 100 prices:`);
  console.log(`  calm (±0.05% a tick, ${calm.fired} firings), in the store   p50 ${ms(calm50)}   p99 ${ms(percentile(calm.samples, 99))}   max ${ms(Math.max(...calm.samples))}`);
  console.log(`  storm (±0.5% a tick, ${fired} firings), in the store   p50 ${ms(p50)}   p99 ${ms(p99)}   max ${ms(Math.max(...samples))}`);
  console.log(`  the same rules in memory (baseline)             p50 ${ms(percentile(baseline, 50))}   p99 ${ms(percentile(baseline, 99))}`);

  // Watchers at 1 s against the sandbox in its own process, each on a file of its own: the
  // thousand alerts above, and ten over ten symbols (a person's few).
  const server = await startServeProcess(dir, join(dir, 'sandbox.db'), TOKEN, API_KEY);
  const bin = join(root, 'bin/tickbook');
  const watcherCpu = async (name: string, count: number, perSymbol: number): Promise<number> => {
    const home = join(dir, name);
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), TICKBOOK_BASE_URL: server.url, TICKBOOK_TOKEN: TOKEN, TICKBOOK_API_KEY: API_KEY };
    delete env.CI;
    // One through the command (which makes the file and names the server as the watcher will),
    // the rest straight into the file: a thousand processes would take minutes.
    await new Promise<void>((resolve, reject) => {
      const add = spawn(process.execPath, [bin, 'alerts', 'add', symbols[0]!, 'move', '50', '--from', 'set'], { env, stdio: 'ignore' });
      add.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`alerts add exited ${code}`))));
    });
    const file = openHistoryStore(join(home, 'data', 'tickbook', 'history.db'));
    const fileAlerts = alertsOf(file);
    const watched = fileAlerts.list(server.url)[0] ? server.url : undefined;
    if (!watched) throw new Error('the alert added is not under the server URL');
    symbols.slice(0, count).forEach((symbol, i) => {
      for (const condition of conditions().slice(i === 0 ? 1 : 0, perSymbol)) fileAlerts.add(watched, symbol, condition, { price: 100, at: Date.now(), oneShot: false });
    });
    file.close();
    const watcher = spawn(process.execPath, [bin, 'alerts', 'watch', '--interval', '1'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    const used = await cpuPercent(watcher.pid!);
    watcher.kill('SIGINT');
    await new Promise((r) => watcher.on('close', r));
    return used;
  };
  const heavy = await watcherCpu('heavy', 100, 10);
  const light = await watcherCpu('light', 10, 1);
  // The floor, in the same run: a bare process asking for the same 100 symbols every second
  // with raw undici, recording nothing and stepping nothing.
  const raw = spawn(process.execPath, [join(root, 'test/bench/raw-poller.mjs'), server.url, API_KEY, ...symbols], { stdio: ['ignore', 'ignore', 'inherit'] });
  const floor = await cpuPercent(raw.pid!);
  raw.kill();
  await server.stop();
  console.log(`tickbook alerts watch --interval 1, ${SECONDS} s each: 1,000 alerts over 100 symbols ${heavy.toFixed(2)}% of a core; 10 alerts over 10 symbols ${light.toFixed(2)}%`);
  console.log(`  baseline: raw undici asking for the same 100 symbols every second, nothing recorded or stepped: ${floor.toFixed(2)}% (the watcher ${(heavy / floor).toFixed(1)}x, ${(heavy - floor).toFixed(2)} points above it)`);
  console.log('targets:');
  console.log(`  1,000 alerts stepped per tick < 1 ms (p50), calm market: ${ms(calm50)}  ${calm50 < 1 ? 'met' : 'MISSED'}`);
  console.log(`  1,000 alerts stepped per tick < 1 ms (p50), storm: ${ms(p50)}  ${p50 < 1 ? 'met' : 'MISSED'}`);
  console.log(`  a watcher at 1 s < 1% of a core, 10 alerts: ${light.toFixed(2)}%  ${light < 1 ? 'met' : 'MISSED'}`);
  // The issue's watcher target names no count; with the thousand alerts of the stepping target
  // the watcher also records 100 prices a second, on a floor of a third of the budget.
  console.log(`  the same with 1,000 alerts over 100 symbols: ${heavy.toFixed(2)}%  ${heavy < 1 ? 'under 1%' : `over 1% (${(heavy - floor).toFixed(2)} points above the raw floor)`}`);
}

try {
  await main();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
