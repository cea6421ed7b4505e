// The dashboard benchmark's measurements, each one function for whatever app runs in the
// PtyApp: tickbook and the baseline are measured by the same code. Every wait has a deadline;
// a figure that could not be had comes back as NaN (or counted as lost), never as a hang.
import { type PtyApp, quietFor, sleep } from './pty-app.js';

export const DOWN = '\u001b[B';
export const UP = '\u001b[A';

/** A list on the screen whose selection is drawn in reverse video. */
export interface List {
  name: string;
  length: number;
  /** The selected row's index in the whole list, from the screen's reverse-video runs. */
  locate(runs: readonly string[]): number | undefined;
  /** The keys that move the selection down and up one row, pressed for key-to-frame. */
  step: readonly [down: string, up: string];
}

export const selection = (app: PtyApp, list: List): number | undefined => list.locate(app.inverseRuns());

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** Milliseconds from starting the program to the first frame `ready` accepts (NaN: none in `timeoutMs`). */
export async function startUp(app: PtyApp, ready: (screen: string) => boolean, timeoutMs = 20_000): Promise<number> {
  const at = await app.until(() => ready(app.text()), timeoutMs);
  return at === undefined ? NaN : at - app.startedAt;
}

export interface Ticking {
  seconds: number;
  cpu: number;
  /** The median of the last RSS_WINDOW_S readings (MB). */
  rss: number;
  /** The one reading at the end (MB). */
  rssAtEnd: number;
  bytesPerTick: number;
  cellsPerTick: number;
  cellBytesPerTick: number;
}

/** RSS is read once a second while ticking; `rss` is the median of the readings in this last stretch. */
export const RSS_WINDOW_S = 10;

/**
 * Left alone for `seconds`, one tick a second: CPU (% of a core), RSS over the last seconds and at
 * the end, and per tick
 * the bytes written beside the cells that changed on the screen (text or look) and their bytes
 * as UTF-8 text. The screen is compared before and after each burst of output.
 */
export async function ticking(app: PtyApp, seconds: number): Promise<Ticking> {
  let before = app.cells();
  let cells = 0;
  let cellBytes = 0;
  const compare = () => {
    const after = app.cells();
    after.forEach((cell, i) => {
      const was = before[i];
      if (was && was.text === cell.text && was.look === cell.look) return;
      cells += 1;
      cellBytes += Buffer.byteLength(cell.text);
    });
    before = after;
  };
  let burst: NodeJS.Timeout | undefined;
  const stop = app.observe(() => {
    clearTimeout(burst);
    burst = setTimeout(compare, 100);
  });
  const cpuBefore = app.cpuSeconds();
  const bytesBefore = app.bytes;
  const started = performance.now();
  // One reading at the end is wherever a young generation happens to be in its fill: the
  // baseline's (16 MB) read 72 to 106 MB at 80x24 from run to run. Its median over the last
  // seconds is what the process holds then.
  const readings: number[] = [];
  const reader = setInterval(() => readings.push(app.rssMb()), 1000);
  await sleep(seconds * 1000);
  clearInterval(reader);
  const elapsed = (performance.now() - started) / 1000;
  const cpu = ((app.cpuSeconds() - cpuBefore) / elapsed) * 100;
  const bytes = app.bytes - bytesBefore;
  const rssAtEnd = app.rssMb();
  stop();
  clearTimeout(burst);
  compare();
  return {
    seconds: elapsed,
    cpu,
    rss: readings.length > 0 ? percentile(readings.slice(-RSS_WINDOW_S), 50) : rssAtEnd,
    rssAtEnd,
    bytesPerTick: bytes / elapsed,
    cellsPerTick: cells / elapsed,
    cellBytesPerTick: cellBytes / elapsed,
  };
}

export interface KeyToFrame {
  p50: number;
  p95: number;
  presses: number;
  /** Presses after which the selection had not moved within a second (counted as Infinity). */
  missed: number;
  /** Median bytes written from a press to the frame that showed it. */
  bytesPerKey: number;
}

/** Presses the list's down and up keys in turn, `gapMs` apart: time until the selection is seen to move. */
export async function keyToFrame(app: PtyApp, list: List, presses = 60, gapMs = 80): Promise<KeyToFrame> {
  const latencies: number[] = [];
  const bytes: number[] = [];
  for (let i = 0; i < presses; i++) {
    await sleep(gapMs);
    const before = selection(app, list);
    const bytesBefore = app.bytes;
    const sentAt = app.send(list.step[i % 2]!);
    const at = await app.until(() => {
      const now = selection(app, list);
      return now !== undefined && now !== before;
    }, 1000);
    latencies.push(at === undefined ? Infinity : at - sentAt);
    if (at !== undefined) bytes.push(app.bytes - bytesBefore);
  }
  return {
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    presses,
    missed: latencies.filter((l) => l === Infinity).length,
    bytesPerKey: percentile(bytes, 50),
  };
}

/** The moves of the selection while it is watched: when each frame arrived and where it was. */
class SelectionWatch {
  /** When each move arrived, where the selection went, and the bytes written by then. */
  moves: { at: number; index: number; bytes: number }[] = [];
  #last: number | undefined;
  #stop: () => void;

  constructor(app: PtyApp, list: List) {
    this.#last = selection(app, list);
    this.#stop = app.observe((at) => {
      const index = selection(app, list);
      if (index === undefined || index === this.#last) return;
      this.#last = index;
      this.moves.push({ at, index, bytes: app.bytes });
    });
  }

  get index(): number | undefined {
    return this.#last;
  }

  /** Waits until the selection has not moved for `quietMs` since `since` (at most `timeoutMs`). */
  settled(since: number, quietMs = 2000, timeoutMs = 30_000): Promise<void> {
    return quietFor(() => Math.max(since, this.moves.at(-1)?.at ?? 0), quietMs, timeoutMs);
  }

  stop(): void {
    this.#stop();
  }
}

/**
 * Moves the selection to the list's first row with Up keys (never more than it is down, so no
 * key is left over to eat the next measurement's), waiting for each batch to settle. Returns
 * where the selection is after at most 30 s: 0, unless the app lost the way up.
 */
export async function toTop(app: PtyApp, list: List): Promise<number | undefined> {
  const deadline = performance.now() + 30_000;
  const watch = new SelectionWatch(app, list);
  try {
    while (watch.index !== undefined && watch.index > 0 && performance.now() < deadline) {
      const sentAt = app.send(UP.repeat(Math.min(watch.index, 100)));
      await watch.settled(sentAt, 1000, 15_000);
    }
    await app.quiet(300, 3000);
    return watch.index;
  } finally {
    watch.stop();
  }
}

export interface Navigation {
  /** Where the selection started and where it should end: 100 rows down, clamped at the end. */
  from: number;
  expected: number;
  /** Where it ended. */
  final: number;
  /** Keys that did not move it (negative: moved too far). */
  lost: number;
  /** Keys sent per second (timers permitting; a read is one write). */
  sentPerSecond: number;
  /** Rows moved per second, from the first key to the last move. */
  appliedPerSecond: number;
  /** From the last key to the last move of the selection, ms. */
  lastMoveAfterMs: number;
  /** Bytes written from the first key to the last move, per row moved (ticks included). */
  bytesPerRow: number;
}

/**
 * Sends `keys` Down keys, `keysPerSecond` of them a second (Infinity: all in one write), from the
 * top of the list, and follows the selection on the screen until it stops moving.
 */
export async function navigate(app: PtyApp, list: List, keysPerSecond: number, keys = 100): Promise<Navigation> {
  const from = (await toTop(app, list)) ?? NaN;
  const expected = Math.min(from + keys, list.length - 1);
  const watch = new SelectionWatch(app, list);
  const bytesBefore = app.bytes;
  let firstSent = NaN;
  let lastSent = NaN;
  if (keysPerSecond === Infinity) {
    firstSent = lastSent = app.send(DOWN.repeat(keys));
  } else {
    const interval = 1000 / keysPerSecond;
    const start = performance.now();
    for (let i = 0; i < keys; i++) {
      const wait = start + i * interval - performance.now();
      if (wait > 0) await sleep(wait);
      lastSent = app.send(DOWN);
      if (i === 0) firstSent = lastSent;
    }
  }
  await watch.settled(lastSent);
  watch.stop();
  const final = watch.index ?? NaN;
  const lastMove = watch.moves.at(-1)?.at ?? NaN;
  const moved = final - from;
  return {
    from,
    expected,
    final,
    lost: expected - final,
    sentPerSecond: keysPerSecond === Infinity ? Infinity : ((keys - 1) / (lastSent - firstSent)) * 1000,
    appliedPerSecond: watch.moves.length === 0 ? 0 : (moved / Math.max(lastMove - firstSent, 1)) * 1000,
    lastMoveAfterMs: lastMove - lastSent,
    bytesPerRow: ((watch.moves.at(-1)?.bytes ?? NaN) - bytesBefore) / moved,
  };
}
