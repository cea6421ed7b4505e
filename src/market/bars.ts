// Bars from ticks: the rules the history store keeps its minute and day bars by, a tick at a time
// (history-store.ts), as plain functions that can be checked without a database.

/** A price as received: when, the price, and the day's cumulative volume the server gave. */
export interface Tick {
  t: number;
  price: number;
  volume: number;
}

/** Open, high, low and close of the ticks in [t, next bar), and the volume traded over them. */
export interface Bar {
  /** The bar's start: a whole minute, or a local midnight. */
  t: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  /** When its first and last ticks came (the open's and the close's times). */
  firstT: number;
  lastT: number;
}

export type BarSize = 'minute' | 'day';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** The local midnight that starts the day of `t` (a day may be 23 or 25 hours long). */
export function dayStart(t: number): number {
  const day = new Date(t);
  day.setHours(0, 0, 0, 0);
  return day.getTime();
}

/** The start of the bar of `size` that `t` falls in. */
export function barStart(size: BarSize, t: number): number {
  return size === 'minute' ? Math.floor(t / MINUTE_MS) * MINUTE_MS : dayStart(t);
}

/**
 * The volume a bar of `size` counts for a reading of the day's cumulative volume: what was traded
 * since the reading before, when that is known to fall in the bar's time. Nothing is known
 * before the first reading of a day (recording began, or a new day's count began at the server),
 * and a gap of minutes between readings is traded over those minutes, not in this one: a minute
 * bar counts only a reading in the minute before or its own, a day bar any earlier one that day.
 * A fall within a day (two processes' answers crossing) counts as nothing.
 */
export function tradedSince(size: BarSize, previous: Pick<Tick, 't' | 'volume'> | undefined, tick: Pick<Tick, 't' | 'volume'>): number {
  if (previous === undefined || tick.volume < previous.volume) return 0;
  const near = size === 'day' ? dayStart(previous.t) === dayStart(tick.t) : barStart('minute', tick.t) - barStart('minute', previous.t) <= MINUTE_MS;
  return near && previous.t <= tick.t ? tick.volume - previous.volume : 0;
}

/**
 * A bar with one more tick in it, whichever order the ticks come in: the open is the earliest
 * tick's price and the close the latest's, so a clock that steps back mixes nothing up.
 */
export function withTick(bar: Bar | undefined, start: number, tick: Tick, traded: number): Bar {
  if (!bar) {
    return { t: start, open: tick.price, high: tick.price, low: tick.price, close: tick.price, volume: traded, firstT: tick.t, lastT: tick.t };
  }
  return {
    t: bar.t,
    open: tick.t < bar.firstT ? tick.price : bar.open,
    high: Math.max(bar.high, tick.price),
    low: Math.min(bar.low, tick.price),
    close: tick.t >= bar.lastT ? tick.price : bar.close,
    volume: bar.volume + traded,
    firstT: Math.min(bar.firstT, tick.t),
    lastT: Math.max(bar.lastT, tick.t),
  };
}
