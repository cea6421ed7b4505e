// The soak benchmark: a watch window left open. bin/tickbook in tmux at 120x40 polls a watchlist
// every second against `tickbook serve`, which is SIGKILLed and started again on the same port
// every two minutes, while a key is pressed every two seconds (Tab j n p J K g G). A second
// dashboard on the same server, polling one symbol every minute and pressed by no one, is the
// baseline: what the app costs standing nearly still. Every minute prints RSS, heap used and open descriptors; the end
// prints the least-squares slope of the second half, the restarts survived and the peak.
//
//   SOAK_MINUTES=60 SOAK_SYMBOLS=60 npm run bench:soak
//
// SOAK_SNAPSHOTS=10,60 writes a heap snapshot of the measured dashboard at those minutes
// (node --heapsnapshot-signal) into SOAK_DIR or the run's temp directory; they are kept.
// SOAK_SPEEDUP=20 runs both dashboards' clocks 20 times faster (soak-clock.mjs): eight hours of
// ticks in 24 minutes, slopes per hour of the dashboards' clock.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 60);
const SYMBOL_COUNT = Number(process.env.SOAK_SYMBOLS ?? 60);
const RESTART_S = Number(process.env.SOAK_RESTART_S ?? 120);
const KEY_S = Number(process.env.SOAK_KEY_S ?? 2);
const SPEEDUP = Number(process.env.SOAK_SPEEDUP ?? 1);
const SNAPSHOTS = (process.env.SOAK_SNAPSHOTS ?? '').split(',').filter(Boolean).map(Number);
const KEYS = ['Tab', 'j', 'n', 'p', 'J', 'K', 'g', 'G'];
const SAMPLE_MS = 10_000;
const SYMBOLS_PATH = '/v1/utilities/stock/symbols';

const root = new URL('../../', import.meta.url).pathname;
const bin = join(root, 'bin/tickbook');
const probe = join(root, 'test/bench/soak-probe.mjs');
const fastClock = join(root, 'test/bench/soak-clock.mjs');
const dir = process.env.SOAK_DIR ?? mkdtempSync(join(tmpdir(), 'tickbook-soak-'));
mkdirSync(dir, { recursive: true });
const socket = `tickbook-soak-${process.pid}`;
const TOKEN = 'soak-token-0123456789';
const API_KEY = 'soak-key-0123456789';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const tmux = (...args: string[]): string => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });

interface Sample {
  /** Real time. */
  at: number;
  /** The dashboard's clock: real time unless SOAK_SPEEDUP. */
  clock: number;
  rss: number;
  heapUsed: number;
  /** Heap used just after the latest full collection: what a leak raises. */
  liveHeap: number;
  external: number;
  fds: number;
}

const MB = 1024 * 1024;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** `tickbook serve` on `port`, resolved once it says it listens (its log is appended to across restarts). */
async function serve(port: number, db: string, log: string): Promise<ChildProcess> {
  const listened = () => (existsSync(log) ? readFileSync(log, 'utf8').split('listening on ').length - 1 : 0);
  const before = listened();
  const out = openSync(log, 'a');
  const child = spawn(process.execPath, [bin, 'serve', '--port', String(port), '--db', db, '--seed', '1', '--token', TOKEN, '--api-key', API_KEY], {
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  // A busy machine may take seconds to start it; its own line says when it listens.
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (listened() > before) return child;
    // The port may still be held for a moment by the process just killed.
    if (child.exitCode !== null) return serve(port, db, log);
    if (Date.now() > deadline) throw new Error(`the sandbox did not start on port ${port}; see ${log}`);
    await sleep(50);
  }
}

async function symbolsFrom(port: number): Promise<string[]> {
  const res = await fetch(`http://127.0.0.1:${port}${SYMBOLS_PATH}`, { headers: { authorization: API_KEY } });
  const body = (await res.json()) as { stock_symbols: { symbol: string }[] };
  return body.stock_symbols.map((s) => s.symbol);
}

/** A dashboard in its own tmux session; its samples go to `probeFile`. */
function dashboard(name: string, port: number, watchlist: readonly string[], intervalS: number, probeFile: string, snapshots: boolean): number {
  const home = join(dir, `home-${name}`);
  mkdirSync(home, { recursive: true });
  const nodeOptions = [`--import=${probe}`, ...(SPEEDUP > 1 ? [`--import=${fastClock}`] : []), ...(snapshots ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${dir}`] : [])].join(' ');
  const env = {
    HOME: home,
    XDG_DATA_HOME: join(home, 'data'),
    XDG_CONFIG_HOME: join(home, 'config'),
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    TICKBOOK_TOKEN: TOKEN,
    TICKBOOK_API_KEY: API_KEY,
    NODE_OPTIONS: nodeOptions,
    SOAK_PROBE_FILE: probeFile,
    SOAK_PROBE_MS: String(SAMPLE_MS),
    SOAK_SPEEDUP: String(SPEEDUP),
  };
  const args = [bin, '--base-url', `http://127.0.0.1:${port}`, '--interval', String(intervalS), '--watchlist', watchlist.join(',')];
  const quoted = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const command = `exec env -u CI ${Object.entries(env).map(([k, v]) => quoted(`${k}=${v}`)).join(' ')} ${args.map(quoted).join(' ')}`;
  tmux('new-session', '-d', '-s', name, '-x', '120', '-y', '40', command);
  return Number(tmux('display-message', '-p', '-t', name, '#{pane_pid}').trim());
}

function samples(file: string): Sample[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Sample);
}

/** Least-squares slope of `value` against the dashboard's clock, in units per hour. */
function slopePerHour(points: readonly { clock: number; value: number }[]): number {
  if (points.length < 2) return NaN;
  const n = points.length;
  const t0 = points[0]!.clock;
  const xs = points.map((p) => (p.clock - t0) / 3_600_000);
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = points.reduce((a, p) => a + p.value, 0) / n;
  let num = 0;
  let den = 0;
  points.forEach((p, i) => {
    num += (xs[i]! - mx) * (p.value - my);
    den += (xs[i]! - mx) ** 2;
  });
  return num / den;
}

const mb = (bytes: number): string => (bytes / MB).toFixed(1);

/** The slope of one figure of the samples, in MB per hour of the dashboard's clock. */
const slopeOf = (list: readonly Sample[], figure: 'rss' | 'liveHeap'): number =>
  slopePerHour(list.map((s) => ({ clock: s.clock, value: s[figure] / MB })));

async function main(): Promise<void> {
  const port = await freePort();
  const db = join(dir, 'sandbox.db');
  const serverLog = join(dir, 'server.log');
  let server = await serve(port, db, serverLog);
  const all = await symbolsFrom(port);
  if (all.length < SYMBOL_COUNT) throw new Error(`the sandbox has ${all.length} symbols; SOAK_SYMBOLS=${SYMBOL_COUNT}`);
  const watchlist = all.slice(0, SYMBOL_COUNT);
  const measuredFile = join(dir, 'measured.jsonl');
  const baselineFile = join(dir, 'baseline.jsonl');
  rmSync(measuredFile, { force: true });
  rmSync(baselineFile, { force: true });
  const pid = dashboard('measured', port, watchlist, 1, measuredFile, SNAPSHOTS.length > 0);
  dashboard('baseline', port, watchlist.slice(0, 1), 60, baselineFile, false);
  const clockNote = SPEEDUP > 1 ? ` (dashboard clocks ${SPEEDUP}x: ${((MINUTES * SPEEDUP) / 60).toFixed(1)} h of ticks)` : '';
  console.log(`soak: ${MINUTES} min${clockNote}, ${SYMBOL_COUNT} symbols every 1 s, sandbox killed every ${RESTART_S} s, a key every ${KEY_S} s; files in ${dir}`);
  console.log('');
  console.log('| min | clock h | RSS MB | live heap MB | external MB | descriptors | restarts survived | baseline RSS MB | baseline live heap MB |');
  console.log('|----:|--------:|-------:|-------------:|------------:|------------:|------------------:|----------------:|----------------------:|');

  const started = Date.now();
  let restarts = 0;
  let survived = 0;
  let checked = 0;
  let pendingCheck: number | undefined;
  let nextRestart = started + RESTART_S * 1000;
  let nextKey = started + KEY_S * 1000;
  let nextMinute = started + 60_000;
  let key = 0;
  const snapshotsDue = [...SNAPSHOTS].sort((a, b) => a - b);
  let alive = true;
  const end = started + MINUTES * 60_000;

  while (Date.now() < end) {
    await sleep(200);
    const now = Date.now();
    try {
      process.kill(pid, 0);
    } catch {
      alive = false;
      console.log(`the dashboard exited at minute ${((now - started) / 60_000).toFixed(1)}; its screen:\n${tmux('capture-pane', '-p', '-t', 'measured')}`);
      break;
    }
    if (now >= nextKey) {
      tmux('send-keys', '-t', 'measured', KEYS[key++ % KEYS.length]!);
      nextKey += KEY_S * 1000;
    }
    if (now >= nextRestart) {
      server.kill('SIGKILL');
      await new Promise((r) => server.once('exit', r));
      server = await serve(port, db, serverLog);
      restarts++;
      pendingCheck = Date.now() + 30_000;
      nextRestart += RESTART_S * 1000;
    }
    // A restart is survived when, 30 s on, prices are flowing again: the ticker shows no retry.
    if (pendingCheck !== undefined && now >= pendingCheck) {
      const screen = tmux('capture-pane', '-p', '-t', 'measured');
      if (!/retry in|no prices yet|last prices/.test(screen)) survived++;
      checked++;
      pendingCheck = undefined;
    }
    if (snapshotsDue.length > 0 && now - started >= snapshotsDue[0]! * 60_000) {
      snapshotsDue.shift();
      process.kill(pid, 'SIGUSR2');
    }
    if (now >= nextMinute) {
      const all = samples(measuredFile);
      const m = all.at(-1);
      const b = samples(baselineFile).at(-1);
      const minute = Math.round((nextMinute - started) / 60_000);
      if (m && b) {
        // The first sample is one period in.
        const clockHours = (m.clock - all[0]!.clock + SAMPLE_MS * SPEEDUP) / 3_600_000;
        console.log(`| ${minute} | ${clockHours.toFixed(2)} | ${mb(m.rss)} | ${mb(m.liveHeap)} | ${mb(m.external)} | ${m.fds} | ${survived}/${checked} | ${mb(b.rss)} | ${mb(b.liveHeap)} |`);
      }
      nextMinute += 60_000;
    }
  }

  server.kill('SIGKILL');
  spawnSync('tmux', ['-L', socket, 'kill-server']);
  const measured = samples(measuredFile);
  const baseline = samples(baselineFile);
  const half = (list: Sample[]) => list.filter((s) => s.at >= started + ((end - started) / 2));
  const rssSlope = slopeOf(half(measured), 'rss');
  // RSS swings by tens of MB with the garbage between collections (more of it when the machine
  // is busy and collections come later); the lowest sample of each minute is the level a leak
  // raises, and its slope is steadier.
  const floors = (list: Sample[]) => {
    const byMinute = new Map<number, Sample>();
    for (const s of list) {
      const minute = Math.floor((s.at - started) / 60_000);
      const low = byMinute.get(minute);
      if (!low || s.rss < low.rss) byMinute.set(minute, s);
    }
    return [...byMinute.values()];
  };
  const heapSlope = slopeOf(half(measured), 'liveHeap');
  const baseSlope = slopeOf(half(baseline), 'rss');
  const lastClock = measured.at(-1)?.clock ?? 0;
  const lastHour = measured.filter((s) => s.at >= started + (end - started) / 2 && s.clock >= lastClock - 3_600_000);
  const fds = measured.map((s) => s.fds);
  console.log('');
  console.log(`| figure | measured | baseline (one symbol every 60 s, no keys) |`);
  console.log(`|---|---:|---:|`);
  console.log(`| RSS slope, second half | ${rssSlope.toFixed(1)} MB/h | ${baseSlope.toFixed(1)} MB/h |`);
  console.log(`| RSS floor slope (each minute's lowest), second half | ${slopeOf(floors(half(measured)), 'rss').toFixed(1)} MB/h | ${slopeOf(floors(half(baseline)), 'rss').toFixed(1)} MB/h |`);
  console.log(`| live heap slope, second half | ${heapSlope.toFixed(1)} MB/h | ${slopeOf(half(baseline), 'liveHeap').toFixed(1)} MB/h |`);
  if (MINUTES * SPEEDUP > 120) {
    console.log(`| RSS slope, last hour | ${slopeOf(lastHour, 'rss').toFixed(1)} MB/h | |`);
    console.log(`| live heap slope, last hour | ${slopeOf(lastHour, 'liveHeap').toFixed(1)} MB/h | |`);
  }
  console.log(`| RSS first / last / peak | ${mb(measured[0]?.rss ?? NaN)} / ${mb(measured.at(-1)?.rss ?? NaN)} / ${mb(Math.max(...measured.map((s) => s.rss)))} MB | ${mb(baseline[0]?.rss ?? NaN)} / ${mb(baseline.at(-1)?.rss ?? NaN)} / ${mb(Math.max(...baseline.map((s) => s.rss)))} MB |`);
  console.log(`| descriptors first / last / max | ${fds[0]} / ${fds.at(-1)} / ${Math.max(...fds)} | |`);
  console.log(`| sandbox restarts (prices flowing 30 s on) | ${survived} of ${checked} checked, ${restarts} in all | |`);
  const snapshots = readdirSync(dir).filter((f) => f.endsWith('.heapsnapshot'));
  if (snapshots.length > 0) console.log(`\nheap snapshots: ${snapshots.map((f) => join(dir, f)).join(', ')}`);
  if (!alive) process.exitCode = 1;
}

main().catch((error: unknown) => {
  spawnSync('tmux', ['-L', socket, 'kill-server']);
  console.error(error);
  process.exit(1);
});
