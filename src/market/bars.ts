// Bars from ticks: the rules the history store keeps its minute and day bars by, as plain
// functions, so that "a bar says what its ticks say" can be checked without a database.

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
 * The volume traded between two readings of the day's cumulative volume. It never falls within a
 * day (the contract), so a fall is a new day: everything since its start was traded since. With
 * no reading before (recording began), nothing is known to have been traded.
 */
export function tradedSince(previous: number | undefined, volume: number): number {
  if (previous === undefined) return 0;
  return volume >= previous ? volume - previous : volume;
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

/**
 * The bars of `size` that ticks make, received in this order (the traded volume of each is
 * counted against the one received before it, as the store counts it). `previousVolume` is the
 * cumulative volume of the tick received before the first of these.
 */
export function barsOf(size: BarSize, ticks: readonly Tick[], previousVolume?: number): Bar[] {
  const bars = new Map<number, Bar>();
  let previous = previousVolume;
  for (const tick of ticks) {
    const start = barStart(size, tick.t);
    bars.set(start, withTick(bars.get(start), start, tick, tradedSince(previous, tick.volume)));
    previous = tick.volume;
  }
  return [...bars.values()].sort((a, b) => a.t - b.t);
}
