import { describe, expect, it } from 'vitest';
import { barStart, dayStart, MINUTE_MS, tradedSince, withTick } from '../../src/market/bars.js';

const T0 = Date.UTC(2026, 10, 26, 14, 0, 0);

describe('bars from ticks', () => {
  it('counts what was traded between two readings where they fall: a minute bar only from the minute before, a day bar from that day', () => {
    const at = (t: number, volume: number) => ({ t, volume });
    expect(tradedSince('minute', undefined, at(T0, 500))).toBe(0);
    expect(tradedSince('minute', at(T0 - 30_000, 500), at(T0 + 10_000, 520))).toBe(20);
    // Four hours closed: those hours' trading is the day's, not this minute's.
    expect(tradedSince('minute', at(T0 - 4 * 3_600_000, 500), at(T0, 5_000))).toBe(0);
    expect(tradedSince('day', at(T0 - 4 * 3_600_000, 500), at(T0, 5_000))).toBe(4_500);
    // A new day: what was traded before its first reading is not known.
    expect(tradedSince('day', at(T0 - 24 * 3_600_000, 500), at(T0, 40))).toBe(0);
    // Two processes' answers crossing: a fall counts as nothing, never as negative.
    expect(tradedSince('day', at(T0, 500), at(T0 + 1000, 490))).toBe(0);
    // A reading stamped before the last (a clock set back) is not counted again.
    expect(tradedSince('day', at(T0, 500), at(T0 - 1000, 520))).toBe(0);
  });

  it('keeps the open and close of the earliest and latest tick when a clock steps back', () => {
    const start = barStart('minute', T0 + 30_000);
    let bar = withTick(undefined, start, { t: T0 + 30_000, price: 5, volume: 0 }, 0);
    bar = withTick(bar, start, { t: T0 + 10_000, price: 4, volume: 0 }, 1);
    bar = withTick(bar, start, { t: T0 + 20_000, price: 7, volume: 0 }, 2);
    expect(bar).toEqual({ t: T0, open: 4, high: 7, low: 4, close: 5, volume: 3, firstT: T0 + 10_000, lastT: T0 + 30_000 });
  });

  it('starts a day at local midnight, and minutes on the minute', () => {
    const t = T0 + 12_345;
    const midnight = new Date(t);
    midnight.setHours(0, 0, 0, 0);
    expect(dayStart(t)).toBe(midnight.getTime());
    expect(barStart('minute', t)).toBe(T0);
    expect(barStart('minute', T0 + MINUTE_MS - 1)).toBe(T0);
  });
});
