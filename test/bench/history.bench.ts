// The price history benchmark: what a year of 1 s polls of 20 symbols leaves on disk, what
// recording one poll costs, how long compacting takes, and how long a chart takes to read and
// draw at 120x40. A year of polling leaves what the store keeps: 24 h of ticks, 30 days of minute
// bars and the day bars, so that is what is built (in a temp directory, removed at the end): the
// older bars bulk-inserted straight into the tables, the last 24 h 30 min recorded through
// record() one poll at a time, t advancing 1 s per poll. Baselines measured in the same run: plain
// INSERTs of the same ticks into a bare table (same pragmas, one transaction per poll), chartLines
// alone on points already read, and a raw SELECT of the span's minute bars. Recording and
// compacting times are also split by whether the call's commit ran SQLite's automatic checkpoint.
//
//   npm run bench:history
//   HISTORY_POLLS=20000 npm run bench:history   (record fewer polls; the rest of the 24 h 30 min
//                                                of ticks and bars is then bulk-inserted too)
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { barStart, DAY_MS, dayStart, MINUTE_MS, type Bar } from '../../src/market/bars.js';
import { chartLines } from '../../src/market/chart.js';
import type { Quote } from '../../src/api/types.js';
import { alertsOf } from '../../src/store/alerts-store.js';
import { RETENTION_MS } from '../../src/store/history-ageing.js';
import { openHistoryStore, type PricePoint } from '../../src/store/history-store.js';
import { PriceRecorder } from '../../src/store/price-recorder.js';
import { DASHBOARD_LOCK_WAIT_MS } from '../../src/tui/state/history-reports.js';
import { sequence } from '../../src/server/random.js';

const SYMBOL_COUNT = 20;
const SOURCE = 'https://bench.tickbook.invalid';
const POLL_MS = 1000;
/** A day of ticks and half an hour more, so that compacting has ticks (and bars) to delete. */
const TICK_SPAN_MS = RETENTION_MS.ticks + 30 * MINUTE_MS;
const ALL_POLLS = TICK_SPAN_MS / POLL_MS;
const RECORDED_POLLS = Math.min(ALL_POLLS, Number(process.env.HISTORY_POLLS ?? ALL_POLLS));
/** The first poll; fixed, so every run builds the same history. */
const START = Date.UTC(2026, 9, 14, 11, 30, 0);
/** The last poll's time: "now" for compacting and charts. */
const NOW = START + (ALL_POLLS - 1) * POLL_MS;
const YEAR_MS = 365 * DAY_MS;
const CHART = { width: 120, height: 40 };
/** What the detail view asks points() for: two points per plot column (braille has 2 dots across). */
const MAX_POINTS = 2 * CHART.width;
const CHART_RUNS = 50;
const CHART_WARMUPS = 5;
/** Commands' changes timed for the lock they hold. */
const LOCK_RUNS = 200;
const MB = 1024 * 1024;

const symbols = Array.from({ length: SYMBOL_COUNT }, (_, i) => `SYM${String(i).padStart(2, '0')}`);

// The sandbox's seeded generator, so every run builds the same walk.
const rand = sequence(11);
const cents = (p: number): number => Math.round(p * 100) / 100;
/** One step of a walk: relative moves of up to ±size. */
const step = (p: number, size: number): number => Math.max(1, p * (1 + (rand() - 0.5) * 2 * size));

function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
const ms = (n: number): string => `${n.toFixed(3)} ms`;
const int = (n: number): string => n.toLocaleString('en');
const out = (line = ''): void => void process.stdout.write(`${line}\n`);

/** A bar of a walk over [t, t + length): OHLC from a few steps, first and last tick inside it. */
function walkBar(t: number, length: number, open: number, size: number): Bar {
  let price = open;
  let high = open;
  let low = open;
  for (let i = 0; i < 4; i++) {
    price = step(price, size);
    high = Math.max(high, price);
    low = Math.min(low, price);
  }
  const firstT = t + Math.floor(rand() * POLL_MS);
  const lastT = t + length - POLL_MS + Math.floor(rand() * POLL_MS);
  return { t, open: cents(open), high: cents(high), low: cents(low), close: cents(price), volume: Math.floor(rand() * 50_000), firstT, lastT };
}

const dir = mkdtempSync(join(tmpdir(), 'tickbook-history-bench-'));
const historyPath = join(dir, 'history.db');
const baselinePath = join(dir, 'baseline.db');

const fileSize = (path: string): number => ['', '-wal', '-shm'].reduce((sum, s) => sum + (existsSync(path + s) ? statSync(path + s).size : 0), 0);

/**
 * Whether SQLite checkpointed since the last call: a checkpoint (automatic once the WAL has 1000
 * pages, on the commit that passed it) is the only thing that writes the main file in WAL mode.
 * Read outside the timed calls, to tell the calls that paid for one from those that did not.
 */
let mainWritten = 0;
function checkpointed(): boolean {
  const written = statSync(historyPath).mtimeMs;
  const changed = written !== mainWritten;
  mainWritten = written;
  return changed;
}

/** Call times split by whether the call's commit checkpointed. */
interface Split {
  all: number[];
  withCheckpoint: number[];
  without: number[];
}

/** `between(i)` runs after call i is timed, untimed (the recorder's own checkpoints go there). */
function timeSplit(calls: Iterable<() => unknown>, between?: (i: number) => void): Split {
  const split: Split = { all: [], withCheckpoint: [], without: [] };
  checkpointed();
  let i = 0;
  for (const call of calls) {
    const started = performance.now();
    call();
    const took = performance.now() - started;
    split.all.push(took);
    (checkpointed() ? split.withCheckpoint : split.without).push(took);
    if (between) {
      between(i);
      checkpointed();
    }
    i++;
  }
  return split;
}

const describeSplit = (split: Split): string =>
  split.withCheckpoint.length === 0 || split.without.length === 0
    ? `${int(split.withCheckpoint.length)} of ${int(split.all.length)} paid for a checkpoint`
    : `${int(split.withCheckpoint.length)} paid for a checkpoint (p50 ${ms(percentile(split.withCheckpoint, 50))}, max ${ms(Math.max(...split.withCheckpoint))}); ` +
  `the others p99 ${ms(percentile(split.without, 99))}, max ${ms(Math.max(...split.without))}`;

interface Compaction {
  steps: number;
  totalMs: number;
  maxMs: number;
  p99Ms: number;
  split: Split;
}

/** `checkpoint` runs untimed every 50 steps, as the recorder does between its steps. */
function compactAll(compactStep: (now: number) => boolean, now: number, checkpoint?: () => void): Compaction {
  let done = false;
  const steps = function* () {
    while (!done) yield () => (done = !compactStep(now));
  };
  const split = timeSplit(steps(), (i) => {
    if (checkpoint && (done || (i + 1) % 50 === 0)) checkpoint();
  });
  const samples = split.all;
  return { steps: samples.length, totalMs: samples.reduce((a, b) => a + b, 0), maxMs: Math.max(...samples), p99Ms: percentile(samples, 99), split };
}

async function main(): Promise<void> {
  const store = openHistoryStore(historyPath);
  const db = new Database(historyPath);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const results: { figure: string; value: string; target: string; ok: boolean | undefined }[] = [];
  try {
    // ---- 1. The older history, bulk-inserted (setup) ----
    const sourceId = (db.prepare('INSERT INTO sources (key) VALUES (?) RETURNING id').get(SOURCE) as { id: number }).id;
    const addSeries = db.prepare('INSERT INTO series (source, symbol) VALUES (?, ?) RETURNING id');
    const ids = symbols.map((symbol) => (addSeries.get(sourceId, symbol) as { id: number }).id);
    const putBar = (table: string) =>
      db.prepare(
        `INSERT INTO ${table} (series, t, open, high, low, close, volume, first_t, last_t)
         VALUES (@series, @t, @open, @high, @low, @close, @volume, @firstT, @lastT)`,
      );
    const putDay = putBar('day_bars');
    const putMinute = putBar('minute_bars');
    const putTick = db.prepare('INSERT INTO ticks (series, t, price, volume) VALUES (?, ?, ?, ?)');
    const setLastVolume = db.prepare('UPDATE series SET last_volume = ? WHERE id = ?');

    const setupStarted = performance.now();
    // Day bars: a year of days before the recorded ones' first (local midnights, as the store keeps them).
    const prices = symbols.map((_, i) => 20 + 15 * i);
    let dayRows = 0;
    db.transaction(() => {
      for (let day = dayStart(NOW - YEAR_MS); day < dayStart(START); ) {
        const next = dayStart(day + DAY_MS + 12 * 3_600_000);
        for (let s = 0; s < SYMBOL_COUNT; s++) {
          const bar = walkBar(day, next - day, prices[s]!, 0.01);
          prices[s] = bar.close;
          putDay.run({ series: ids[s], ...bar });
          dayRows++;
        }
        day = next;
      }
    })();
    // Minute bars: from 30 days and 30 minutes before now (so some have aged out) to the first
    // recorded poll, in time order across the symbols as polling writes them (which decides how
    // full the B-tree pages are), a day per transaction.
    let minuteRows = 0;
    const minuteFrom = barStart('minute', NOW - RETENTION_MS.minute - 30 * MINUTE_MS);
    const minuteTo = START + (ALL_POLLS - RECORDED_POLLS) * POLL_MS;
    const insertMinutes = db.transaction((from: number, to: number) => {
      for (let t = from; t < to; t += MINUTE_MS) {
        for (let s = 0; s < SYMBOL_COUNT; s++) {
          const bar = walkBar(t, MINUTE_MS, prices[s]!, 0.0008);
          prices[s] = bar.close;
          putMinute.run({ series: ids[s], ...bar });
          minuteRows++;
        }
      }
    });
    for (let t = minuteFrom; t < minuteTo; t += DAY_MS) insertMinutes(t, Math.min(minuteTo, t + DAY_MS));
    // Ticks before the recorded polls, when fewer are recorded (their minute bars are above).
    let tickRows = 0;
    const volumes = symbols.map(() => Math.floor(rand() * 10_000));
    const insertTicks = db.transaction((from: number, to: number) => {
      for (let t = from; t < to; t += POLL_MS) {
        for (let s = 0; s < SYMBOL_COUNT; s++) {
          prices[s] = step(prices[s]!, 0.0002);
          volumes[s]! += Math.floor(rand() * 100);
          putTick.run(ids[s], t, cents(prices[s]!), volumes[s]);
          tickRows++;
        }
      }
    });
    for (let t = START; t < minuteTo; t += 3_600_000) insertTicks(t, Math.min(minuteTo, t + 3_600_000));
    // The day bars the bulk-inserted ticks fall in (the recorded polls keep them up to date after).
    db.transaction(() => {
      for (let day = dayStart(START); START < minuteTo && day < minuteTo; day = dayStart(day + DAY_MS + 12 * 3_600_000)) {
        for (let s = 0; s < SYMBOL_COUNT; s++) {
          const end = Math.min(minuteTo, dayStart(day + DAY_MS + 12 * 3_600_000));
          const bar = walkBar(day, end - Math.max(day, START), prices[s]!, 0.005);
          putDay.run({ series: ids[s], ...bar, t: day, firstT: Math.max(day, START), lastT: end - POLL_MS });
          dayRows++;
        }
      }
      for (let s = 0; s < SYMBOL_COUNT; s++) setLastVolume.run(volumes[s], ids[s]);
    })();
    const setupMs = performance.now() - setupStarted;
    out(`setup: bulk-inserted ${int(dayRows)} day bars, ${int(minuteRows)} minute bars, ${int(tickRows)} ticks in ${(setupMs / 1000).toFixed(1)} s`);

    // ---- 2. Recording: the last polls through record(), against plain INSERTs ----
    let day = dayStart(minuteTo);
    const polls: { t: number; quotes: Quote[] }[] = [];
    for (let i = ALL_POLLS - RECORDED_POLLS; i < ALL_POLLS; i++) {
      const t = START + i * POLL_MS;
      // The day's cumulative volume starts again at midnight, as a server's does.
      const newDay = dayStart(t) !== day;
      day = dayStart(t);
      polls.push({
        t,
        quotes: symbols.map((symbol, s) => {
          prices[s] = step(prices[s]!, 0.0002);
          volumes[s] = (newDay ? 0 : volumes[s]!) + Math.floor(rand() * 100);
          return { symbol, price: cents(prices[s]!), volume: volumes[s]! };
        }),
      });
    }
    const recordStarted = performance.now();
    // The recorder checkpoints the write-ahead log every 30 s, between polls: timed on its own.
    const checkpointSamples: number[] = [];
    const recordSplit = timeSplit(
      polls.map(({ t, quotes }) => () => store.record(SOURCE, quotes, t)),
      (i) => {
        if ((i + 1) % 30 !== 0) return;
        const started = performance.now();
        store.checkpoint();
        checkpointSamples.push(performance.now() - started);
      },
    );
    const recordSamples = recordSplit.all;
    const recordWallS = (performance.now() - recordStarted) / 1000;

    const base = new Database(baselinePath);
    base.pragma('journal_mode = WAL');
    base.pragma('synchronous = NORMAL');
    base.exec('CREATE TABLE ticks (series INTEGER, t INTEGER, price REAL, volume INTEGER, PRIMARY KEY (series, t)) WITHOUT ROWID');
    const baseInsert = base.prepare('INSERT INTO ticks (series, t, price, volume) VALUES (?, ?, ?, ?)');
    const baseTx = base.transaction((quotes: readonly Quote[], t: number) => {
      for (let s = 0; s < quotes.length; s++) baseInsert.run(s + 1, t, quotes[s]!.price, quotes[s]!.volume);
    });
    const baseSamples: number[] = [];
    for (const { t, quotes } of polls) {
      const started = performance.now();
      baseTx.immediate(quotes, t);
      baseSamples.push(performance.now() - started);
    }
    base.close();

    const [r50, r99, rMax] = [percentile(recordSamples, 50), percentile(recordSamples, 99), Math.max(...recordSamples)];
    const [b50, b99, bMax] = [percentile(baseSamples, 50), percentile(baseSamples, 99), Math.max(...baseSamples)];
    out(
      `\nrecording ${int(RECORDED_POLLS)} polls of ${SYMBOL_COUNT} quotes (${RECORDED_POLLS === ALL_POLLS ? 'all 24 h 30 min' : `the last ${(RECORDED_POLLS / 3600).toFixed(1)} h; the rest bulk-inserted`}), ${recordWallS.toFixed(1)} s in all\n` +
        `  record()                   p50 ${ms(r50)}   p99 ${ms(r99)}   max ${ms(rMax)}\n` +
        `  plain INSERT x20 baseline  p50 ${ms(b50)}   p99 ${ms(b99)}   max ${ms(bMax)}\n` +
        `  ratio                      p50 ${(r50 / b50).toFixed(2)}x     p99 ${(r99 / b99).toFixed(2)}x\n` +
        `  of the record() calls, ${describeSplit(recordSplit)}\n` +
        `  the recorder's checkpoint every 30 polls, between them: ${int(checkpointSamples.length)} of them, p50 ${ms(percentile(checkpointSamples, 50))}, p99 ${ms(percentile(checkpointSamples, 99))}, max ${ms(Math.max(...checkpointSamples))}`,
    );
    results.push({ figure: 'checkpoint every 30 s, p99', value: ms(percentile(checkpointSamples, 99)), target: '(between polls)', ok: undefined });
    results.push({ figure: 'insert per poll of 20, p99', value: ms(r99), target: '< 2 ms', ok: r99 < 2 });

    // ---- 3. Compaction: what aged out by now, then a backlog (a week away) at the end ----
    const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    const before = { ticks: count('ticks'), minute: count('minute_bars'), day: count('day_bars') };
    const steady = compactAll((now) => store.compactStep(now), NOW, () => store.checkpoint());
    const after = { ticks: count('ticks'), minute: count('minute_bars'), day: count('day_bars') };
    const oldestLeft = (table: string) => (db.prepare(`SELECT min(t) AS t FROM ${table}`).get() as { t: number }).t;
    const aged = oldestLeft('ticks') >= NOW - RETENTION_MS.ticks && oldestLeft('minute_bars') >= barStart('minute', NOW - RETENTION_MS.minute);
    out(
      `\ncompacting at now = last poll: ${steady.steps} steps, ${ms(steady.totalMs)} in all, max ${ms(steady.maxMs)} per step\n` +
        `  deleted ${int(before.ticks - after.ticks)} ticks, ${int(before.minute - after.minute)} minute bars, ${int(before.day - after.day)} day bars; ` +
        `nothing older than kept is left: ${aged ? 'yes' : 'NO'}; ${describeSplit(steady.split)}`,
    );
    results.push({ figure: 'compaction step, max', value: ms(steady.maxMs), target: '< 10 ms', ok: steady.maxMs < 10 && aged });

    // ---- 4. Size on disk ----
    db.pragma('wal_checkpoint(TRUNCATE)');
    const bytes = fileSize(historyPath);
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const freePages = db.pragma('freelist_count', { simple: true }) as number;
    let tables = '';
    try {
      const rows = db.prepare('SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY 2 DESC').all() as { name: string; bytes: number }[];
      tables = rows
        .filter((r) => r.bytes >= 64 * 1024)
        .map((r) => `${r.name} ${(r.bytes / MB).toFixed(1)} MB`)
        .join(', ');
    } catch {
      tables = '(dbstat not compiled in)';
    }
    const perSymbol = bytes / SYMBOL_COUNT;
    out(
      `\nsize on disk after compacting and checkpoint(TRUNCATE): ${(bytes / MB).toFixed(1)} MB for ${SYMBOL_COUNT} symbols, ` +
        `${(perSymbol / MB).toFixed(2)} MB per symbol (${int(after.ticks)} ticks, ${int(after.minute)} minute bars, ${int(after.day)} day bars)\n` +
        `  free pages ${(freePages * pageSize / MB).toFixed(1)} MB; by table: ${tables}`,
    );
    results.push({ figure: 'a year of 1 symbol, on disk', value: `${(perSymbol / MB).toFixed(2)} MB`, target: '< 10 MB', ok: perSymbol < 10 * MB });

    // ---- 5. Charts: read and draw at 120x40, against drawing alone and a raw SELECT ----
    const rawMinutes = db.prepare('SELECT t, close FROM minute_bars WHERE series = ? AND t >= ?');
    out(`\nchart ${CHART.width}x${CHART.height}, ${CHART_RUNS} runs after ${CHART_WARMUPS} warm-ups, a different symbol each run (median / p95)`);
    out(`  span   points  read+draw              draw alone             raw minute_bars SELECT (rows)`);
    for (const [name, span] of [
      ['1h', 3_600_000],
      ['1d', DAY_MS],
      ['5d', 5 * DAY_MS],
      ['30d', 30 * DAY_MS],
      ['1y', YEAR_MS],
    ] as const) {
      const from = NOW - span;
      const options = { ...CHART, from, to: NOW, unicode: true, timeZone: 'UTC' };
      // Each measure in a loop of its own, so that one's garbage is not collected in another's time.
      const timed = (work: (s: number) => unknown): number[] => {
        const samples: number[] = [];
        for (let i = 0; i < CHART_WARMUPS + CHART_RUNS; i++) {
          const started = performance.now();
          work(i % SYMBOL_COUNT);
          if (i >= CHART_WARMUPS) samples.push(performance.now() - started);
        }
        return samples;
      };
      const read = (s: number): PricePoint[] => store.points(SOURCE, symbols[s]!, from, NOW, MAX_POINTS, NOW);
      const total = timed((s) => {
        const lines = chartLines(read(s), options);
        if (lines.length !== CHART.height) throw new Error(`chartLines gave ${lines.length} lines`);
      });
      const pointsOf = symbols.map((_, s) => read(s));
      const draw = timed((s) => chartLines(pointsOf[s]!, options));
      const raw = timed((s) => rawMinutes.all(ids[s], from));
      const pointCount = pointsOf[0]!.length;
      const rawRows = rawMinutes.all(ids[0], from).length;
      const pair = (samples: number[]) => `${percentile(samples, 50).toFixed(2)} / ${percentile(samples, 95).toFixed(2)} ms`.padEnd(23);
      out(`  ${name.padEnd(5)}  ${String(pointCount).padStart(6)}  ${pair(total)}${pair(draw)}${pair(raw)}(${int(rawRows)})`);
      if (name === '1d' || name === '1y') {
        const p95 = percentile(total, 95);
        results.push({ figure: `${name} chart read+draw, p95`, value: ms(p95), target: '< 10 ms', ok: p95 < 10 });
      }
    }

    // The backlog: opened after a week away, everything recorded then aged out at once.
    const backlogNow = NOW + 7 * DAY_MS;
    const backlog = compactAll((now) => store.compactStep(now), backlogNow, () => store.checkpoint());
    const left = { ticks: count('ticks'), minute: count('minute_bars') };
    out(
      `\ncompacting a backlog (now = last poll + 7 days): ${backlog.steps} steps, ${(backlog.totalMs / 1000).toFixed(2)} s in all, ` +
        `p99 ${ms(backlog.p99Ms)}, max ${ms(backlog.maxMs)} per step\n` +
        `  deleted ${int(after.ticks - left.ticks)} ticks, ${int(after.minute - left.minute)} minute bars; of the steps, ${describeSplit(backlog.split)}`,
    );
    results.push({ figure: 'backlog compaction step, max', value: ms(backlog.maxMs), target: '< 10 ms', ok: backlog.maxMs < 10 });
    results.push({ figure: 'steady compaction, total', value: ms(steady.totalMs), target: '(none)', ok: undefined });

    // ---- Waiting for another process's lock ----
    // How long another tickbook holds the write lock for a command's change (one transaction,
    // committed on disk with synchronous = FULL, as withHistoryFile makes it), beside a poll's
    // record and a compaction slice above: what a shorter wait of the dashboard must cover.
    const command = openHistoryStore(historyPath);
    const changes: number[] = [];
    try {
      command.db.pragma('synchronous = FULL');
      const alerts = alertsOf(command);
      for (let i = 0; i < LOCK_RUNS; i++) {
        const started = performance.now();
        command.db.exec('BEGIN IMMEDIATE');
        const alert = alerts.add(SOURCE, symbols[i % SYMBOL_COUNT]!, { kind: 'above', price: 1e6 }, { price: 1, at: NOW, oneShot: false });
        command.db.exec('COMMIT');
        changes.push(performance.now() - started);
        alerts.remove(SOURCE, alert.id);
      }
    } finally {
      command.close();
    }
    out(
      `
another process's write lock, held for a command's change (alerts add, one transaction on disk), ${LOCK_RUNS} runs: ` +
        `p50 ${ms(percentile(changes, 50))}, p99 ${ms(percentile(changes, 99))}, max ${ms(Math.max(...changes))}`,
    );
    results.push({ figure: "command's change, lock held", value: ms(Math.max(...changes)), target: `< ${DASHBOARD_LOCK_WAIT_MS} ms`, ok: Math.max(...changes) < DASHBOARD_LOCK_WAIT_MS });
    // A poll that meets a lock held longer than its wait: the recorder's record() blocks its
    // thread (the dashboard's draws and reads keys) for the whole wait, then says the file is held
    // and tries the next polls without waiting until a write works.
    const holder = new Database(historyPath);
    out(`a poll meeting another process's lock held for longer (BEGIN EXCLUSIVE), the recorder's thread blocked for:`);
    for (const [who, lockWaitMs] of [['the dashboard', DASHBOARD_LOCK_WAIT_MS], ['quote --watch, alerts watch (2 s)', undefined]] as const) {
      const recorder = new PriceRecorder({ source: SOURCE, path: historyPath, onWarning: () => undefined, ...(lockWaitMs !== undefined && { lockWaitMs }) });
      try {
        await recorder.open();
        holder.exec('BEGIN EXCLUSIVE');
        const quotes = symbols.map((symbol) => ({ symbol, price: 100, volume: 1 }));
        let started = performance.now();
        recorder.record(quotes, NOW + 2 * DAY_MS);
        const first = performance.now() - started;
        started = performance.now();
        recorder.record(quotes, NOW + 2 * DAY_MS + POLL_MS);
        const next = performance.now() - started;
        holder.exec('ROLLBACK');
        out(`  ${who.padEnd(36)}the first poll ${ms(first)}, the next (the file known to be held) ${ms(next)}`);
        if (lockWaitMs !== undefined) results.push({ figure: "dashboard's poll meeting a lock", value: ms(first), target: '< 300 ms', ok: first < 300 });
      } finally {
        recorder.close();
      }
    }
    holder.close();
    results.push({ figure: 'insert p50, vs plain INSERTs', value: `${(r50 / b50).toFixed(2)}x`, target: '(baseline)', ok: undefined });

    out('\ntargets:');
    out(`  ${'figure'.padEnd(32)}${'value'.padEnd(14)}${'target'.padEnd(12)}verdict`);
    for (const r of results) {
      out(`  ${r.figure.padEnd(32)}${r.value.padEnd(14)}${r.target.padEnd(12)}${r.ok === undefined ? '' : r.ok ? 'met' : 'MISSED'}`);
    }
  } finally {
    db.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
