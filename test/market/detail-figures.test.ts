// The detail view's pure helpers: the day's figures (dayFigures), stepping through spans
// (stepSpan), how far apart two prices a chart still joins (joinableGapMs), and where a symbol is
// listed (listingOf).
import { describe, expect, it } from 'vitest';
import { type Bar, DAY_MS, HOUR_MS, MINUTE_MS } from '../../src/market/bars.js';
import { dayFigures } from '../../src/market/day-figures.js';
import { listingOf } from '../../src/market/listing.js';
import { joinableGapMs, SPANS, type SpanName, stepSpan } from '../../src/market/spans.js';

const DAY_START = new Date(2026, 10, 26, 0, 0, 0, 0).getTime();
const SLACK = 4_000;

/** Today's bar: opened at 100 at `firstT`, ranged 95..110, closed at 105. */
const bar = (over: Partial<Bar> = {}): Bar => ({
  t: DAY_START,
  open: 100,
  high: 110,
  low: 95,
  close: 105,
  volume: 12_345,
  firstT: DAY_START + 1_000,
  lastT: DAY_START + 10 * HOUR_MS,
  ...over,
});

describe('dayFigures', () => {
  it('gives the change and percent since the tick before and since the day open', () => {
    const f = dayFigures(104, 102, bar(), DAY_START, SLACK);
    expect(f.price).toBe(104);
    expect(f.tickChange).toBeCloseTo(2, 10);
    expect(f.tickPercent).toBeCloseTo((2 / 102) * 100, 10);
    expect(f.dayChange).toBeCloseTo(4, 10);
    expect(f.dayPercent).toBeCloseTo(4, 10);
    expect(f.open).toBe(100);
    expect(f.volume).toBe(12_345);
  });

  it('gives falls as negative changes and percents', () => {
    const f = dayFigures(96, 98, bar(), DAY_START, SLACK);
    expect(f.tickChange).toBeCloseTo(-2, 10);
    expect(f.tickPercent).toBeCloseTo((-2 / 98) * 100, 10);
    expect(f.dayChange).toBeCloseTo(-4, 10);
    expect(f.dayPercent).toBeCloseTo(-4, 10);
  });

  it('gives zero changes (not undefined) for an unchanged price', () => {
    const f = dayFigures(100, 100, bar(), DAY_START, SLACK);
    expect(f.tickChange).toBe(0);
    expect(f.tickPercent).toBe(0);
    expect(f.dayChange).toBe(0);
    expect(f.dayPercent).toBe(0);
  });

  it('keeps the recorded high and low when the price on screen is inside them', () => {
    const f = dayFigures(104, 102, bar(), DAY_START, SLACK);
    expect(f.high).toBe(110);
    expect(f.low).toBe(95);
  });

  it('counts the price on screen in the high and the low (it may be newer than the last recorded)', () => {
    expect(dayFigures(120, 110, bar(), DAY_START, SLACK)).toMatchObject({ high: 120, low: 95 });
    expect(dayFigures(90, 95, bar(), DAY_START, SLACK)).toMatchObject({ high: 110, low: 90 });
  });

  it('leaves the tick change undefined with no previous price, and still gives the day figures', () => {
    const f = dayFigures(104, undefined, bar(), DAY_START, SLACK);
    expect(f.tickChange).toBeUndefined();
    expect(f.tickPercent).toBeUndefined();
    expect(f.dayChange).toBeCloseTo(4, 10);
    expect(f.open).toBe(100);
  });

  it('leaves every day figure undefined with nothing recorded today, and still gives the tick change', () => {
    const f = dayFigures(104, 100, undefined, DAY_START, SLACK);
    expect(f).toEqual({
      price: 104,
      tickChange: 4,
      tickPercent: 4,
      dayChange: undefined,
      dayPercent: undefined,
      open: undefined,
      high: undefined,
      low: undefined,
      volume: undefined,
      recordedSince: undefined,
    });
  });

  it('leaves everything but the price undefined with neither a previous price nor a bar', () => {
    const f = dayFigures(104, undefined, undefined, DAY_START, SLACK);
    expect(f.price).toBe(104);
    for (const key of ['tickChange', 'tickPercent', 'dayChange', 'dayPercent', 'open', 'high', 'low', 'volume', 'recordedSince'] as const) {
      expect(f[key], key).toBeUndefined();
    }
  });

  it('gives no percent against a zero base (no division by zero), but the change', () => {
    const f = dayFigures(1, 0, bar({ open: 0, low: 0 }), DAY_START, SLACK);
    expect(f.tickChange).toBe(1);
    expect(f.tickPercent).toBeUndefined();
    expect(f.dayChange).toBe(1);
    expect(f.dayPercent).toBeUndefined();
  });

  it('says since when only when the first tick came later than the day start plus the slack', () => {
    // Within the slack (a poll after midnight): the day's open, no "since".
    expect(dayFigures(104, 102, bar({ firstT: DAY_START }), DAY_START, SLACK).recordedSince).toBeUndefined();
    expect(dayFigures(104, 102, bar({ firstT: DAY_START + SLACK }), DAY_START, SLACK).recordedSince).toBeUndefined();
    // Just past it, and hours past it.
    expect(dayFigures(104, 102, bar({ firstT: DAY_START + SLACK + 1 }), DAY_START, SLACK).recordedSince).toBe(DAY_START + SLACK + 1);
    const nine = DAY_START + 9 * HOUR_MS + 30 * MINUTE_MS;
    expect(dayFigures(104, 102, bar({ firstT: nine }), DAY_START, SLACK).recordedSince).toBe(nine);
    // No bar, no since.
    expect(dayFigures(104, 102, undefined, DAY_START, SLACK).recordedSince).toBeUndefined();
  });
});

describe('stepSpan', () => {
  const names = SPANS.map((s) => s.name);

  it('lists the spans shortest first: 1h, 1d, 5d, 1m, all', () => {
    expect(names).toEqual(['1h', '1d', '5d', '1m', 'all']);
  });

  it('steps one longer and one shorter', () => {
    expect(stepSpan('1h', 1)).toBe('1d');
    expect(stepSpan('1d', 1)).toBe('5d');
    expect(stepSpan('5d', 1)).toBe('1m');
    expect(stepSpan('1m', 1)).toBe('all');
    expect(stepSpan('all', -1)).toBe('1m');
    expect(stepSpan('1d', -1)).toBe('1h');
  });

  it('steps several at once (a held key)', () => {
    expect(stepSpan('1h', 3)).toBe('1m');
    expect(stepSpan('all', -2)).toBe('5d');
  });

  it('stops at both ends', () => {
    expect(stepSpan('1h', -1)).toBe('1h');
    expect(stepSpan('1h', -100)).toBe('1h');
    expect(stepSpan('all', 1)).toBe('all');
    expect(stepSpan('all', 100)).toBe('all');
    expect(stepSpan('5d', 99)).toBe('all');
    expect(stepSpan('5d', -99)).toBe('1h');
  });

  it('stays put with a step of 0', () => {
    for (const name of names) expect(stepSpan(name as SpanName, 0)).toBe(name);
  });
});

describe('joinableGapMs', () => {
  it('joins ticks up to five polls apart, never less than 10 s', () => {
    expect(joinableGapMs(HOUR_MS, 1_000, 200)).toBe(10_000);
    expect(joinableGapMs(HOUR_MS, 2_000, 200)).toBe(10_000);
    expect(joinableGapMs(HOUR_MS, 5_000, 200)).toBe(25_000);
    expect(joinableGapMs(HOUR_MS, 60_000, 200)).toBe(300_000);
    // Up to three hours of span counts as ticks.
    expect(joinableGapMs(3 * HOUR_MS, 3_000, 200)).toBe(15_000);
  });

  it('joins minute buckets a few buckets apart, never less than 5 minutes', () => {
    // A day over 200 points: 432 s buckets, 3 of them.
    expect(joinableGapMs(DAY_MS, 2_000, 200)).toBe(3 * Math.ceil(DAY_MS / 200));
    // A short span over many points: the 5-minute floor.
    expect(joinableGapMs(3 * HOUR_MS + 1, 2_000, 10_000)).toBe(5 * MINUTE_MS);
    expect(joinableGapMs(5 * DAY_MS, 2_000, 236)).toBe(3 * Math.ceil((5 * DAY_MS) / 236));
    // Up to 30 days counts as minute bars; the poll does not matter there.
    expect(joinableGapMs(30 * DAY_MS, 60_000, 200)).toBe(3 * Math.ceil((30 * DAY_MS) / 200));
  });

  it('joins day bars up to four days apart (a long weekend)', () => {
    expect(joinableGapMs(30 * DAY_MS + 1, 2_000, 200)).toBe(4 * DAY_MS);
    expect(joinableGapMs(365 * DAY_MS, 2_000, 200)).toBe(4 * DAY_MS);
  });
});

describe('listingOf', () => {
  it('names the exchange of a known suffix', () => {
    expect(listingOf('SHEL.L')).toBe('London Stock Exchange');
    expect(listingOf('SAP.DE')).toBe('Xetra, Frankfurt');
    expect(listingOf('7203.T')).toBe('Tokyo Stock Exchange');
    expect(listingOf('RY.TO')).toBe('Toronto Stock Exchange');
  });

  it('calls a symbol without a suffix a US listing', () => {
    expect(listingOf('AAPL')).toBe('US listing');
    expect(listingOf('MSFT')).toBe('US listing');
  });

  it('names an unknown suffix as it is', () => {
    expect(listingOf('ABC.XX')).toBe('listed on .XX');
  });

  it('reads only the last suffix', () => {
    expect(listingOf('BRK.B.L')).toBe('London Stock Exchange');
  });
});
