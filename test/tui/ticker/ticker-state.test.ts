// The ticker pane's reducer: prices and their history, sorting, reordering, removal with undo,
// the interval and the polling delay.
import { describe, expect, it } from 'vitest';
import type { PricingResult, Quote } from '../../../src/api/types.js';
import {
  clampInterval,
  DEFAULT_WATCHLIST,
  displayOrder,
  failingSince,
  HISTORY,
  initialTickerState,
  nextDelayMs,
  selectedSymbol,
  sessionChange,
  type SymbolRow,
  type TickerAction,
  type TickerState,
  tickerReducer,
} from '../../../src/tui/ticker/ticker-state.js';

const run = (state: TickerState, ...actions: TickerAction[]): TickerState => actions.reduce(tickerReducer, state);

function result(quotes: Quote[], unknown: string[] = [], rejected: PricingResult['rejected'] = []): PricingResult {
  return {
    symbols: [...quotes.map((q) => q.symbol), ...unknown, ...rejected.flatMap((r) => (r.symbol ? [r.symbol] : []))],
    quotes,
    unknown,
    rejected,
    requestTime: new Date('2024-05-01T12:00:00Z'),
  };
}

const q = (symbol: string, price: number, volume = 1000): Quote => ({ symbol, price, volume });

const succeeded = (quotes: Quote[], at: number, unknown: string[] = []): TickerAction => ({
  type: 'poll-succeeded',
  result: result(quotes, unknown),
  at,
});

/** Four symbols with two ticks each: AAA +10%, BBB -5%, CCC +20%; DDD never priced. */
function priced(): TickerState {
  return run(
    initialTickerState(['BBB', 'DDD', 'AAA', 'CCC'], 2),
    succeeded([q('BBB', 100, 500), q('AAA', 10, 9000), q('CCC', 50, 20)], 1000),
    succeeded([q('BBB', 95, 600), q('AAA', 11, 8000), q('CCC', 60, 30)], 3000),
  );
}

describe('initial state', () => {
  it('starts in watchlist order, unpaused, with no prices', () => {
    const state = initialTickerState(DEFAULT_WATCHLIST, 2);
    expect(state.watchlist).toEqual([...DEFAULT_WATCHLIST]);
    expect(state.watchlist).not.toBe(DEFAULT_WATCHLIST);
    expect(state.intervalS).toBe(2);
    expect(state.sort).toBe('watchlist');
    expect(state.paused).toBe(false);
    expect(state.rows).toEqual({});
    expect(state.failures).toBe(0);
    expect(state.cursor).toBe(0);
  });

  it('clamps the interval it is given', () => {
    expect(initialTickerState([], 0).intervalS).toBe(1);
    expect(initialTickerState([], 600).intervalS).toBe(60);
  });
});

describe('polls', () => {
  it('poll-succeeded records price, previous, first, volume, history and time', () => {
    let state = run(initialTickerState(['AAPL', 'MSFT'], 2), succeeded([q('AAPL', 200, 10)], 1000));
    expect(state.rows.AAPL).toEqual({ price: 200, previous: undefined, first: 200, volume: 10, history: [200], updatedAt: 1000 });
    expect(state.lastSuccessAt).toBe(1000);
    state = run(state, succeeded([q('AAPL', 202, 15)], 3000));
    expect(state.rows.AAPL).toEqual({ price: 202, previous: 200, first: 200, volume: 15, history: [200, 202], updatedAt: 3000 });
    state = run(state, succeeded([q('AAPL', 199, 20)], 5000));
    expect(state.rows.AAPL).toEqual({ price: 199, previous: 202, first: 200, volume: 20, history: [200, 202, 199], updatedAt: 5000 });
    expect(state.rows.MSFT).toBeUndefined();
  });

  it('keeps at most HISTORY prices, the most recent', () => {
    expect(HISTORY).toBe(30);
    let state = initialTickerState(['AAPL'], 2);
    for (let i = 1; i <= HISTORY + 5; i++) state = tickerReducer(state, succeeded([q('AAPL', i)], i * 1000));
    const row = state.rows.AAPL!;
    expect(row.history).toHaveLength(HISTORY);
    expect(row.history[0]).toBe(6);
    expect(row.history.at(-1)).toBe(HISTORY + 5);
    expect(row.first).toBe(1);
    expect(row.previous).toBe(HISTORY + 4);
  });

  it('keeps rows only for the watchlist and the symbol last removed, however many come and go', () => {
    let state = initialTickerState(['AAPL'], 1);
    // A week of trying symbols: each added, priced, removed.
    for (let i = 0; i < 200; i++) {
      const symbol = `S${i}`;
      state = run(state, { type: 'symbol-added', symbol }, succeeded([q('AAPL', 100 + i), q(symbol, i + 1)], i * 1000));
      state = run(state, { type: 'cursor-to', index: 'last' }, { type: 'symbol-removed' });
    }
    state = run(state, succeeded([q('AAPL', 1)], 999_000));
    expect(Object.keys(state.rows).sort()).toEqual(['AAPL', 'S199']);
    // Undo brings the last one back with its prices.
    state = run(state, { type: 'removal-undone' });
    expect(state.rows.S199?.price).toBe(200);
    state = run(state, succeeded([q('AAPL', 2), q('S199', 201)], 1_000_000));
    expect(state.rows.S199?.history).toEqual([200, 201]);
  });

  it('records the unknown symbols of the latest answer', () => {
    let state = run(initialTickerState(['AAPL', 'NOPE', 'ZZZZ'], 2), succeeded([q('AAPL', 1)], 1, ['NOPE', 'ZZZZ']));
    expect([...state.unknown].sort()).toEqual(['NOPE', 'ZZZZ']);
    state = run(state, succeeded([q('AAPL', 1)], 2, ['NOPE']));
    expect([...state.unknown]).toEqual(['NOPE']);
  });

  it('keeps the same unknown and rejected collections while a poll finds the same ones', () => {
    const rejectedAs = (reason: string): TickerAction => ({
      type: 'poll-succeeded',
      result: result([q('AAPL', 1)], ['NOPE'], [{ symbol: 'BAD', reason }]),
      at: 1,
    });
    const first = run(initialTickerState(['AAPL', 'NOPE', 'BAD'], 2), rejectedAs('price is missing'));
    const same = run(first, rejectedAs('price is missing'));
    // What selects them (the dashboard) is not drawn again by a poll that changed nothing there.
    expect(same.unknown).toBe(first.unknown);
    expect(same.rejected).toBe(first.rejected);
    const otherReason = run(same, rejectedAs('price is negative (-5)'));
    expect(otherReason.rejected).not.toBe(same.rejected);
    expect(otherReason.rejected.get('BAD')).toBe('price is negative (-5)');
    expect(otherReason.unknown).toBe(same.unknown);
    // As many unknown symbols, other ones: a new set.
    const otherUnknown = run(otherReason, succeeded([q('AAPL', 2)], 3, ['GONE']));
    expect(otherUnknown.unknown).not.toBe(otherReason.unknown);
    expect([...otherUnknown.unknown]).toEqual(['GONE']);
    const noneUnknown = run(otherUnknown, succeeded([q('AAPL', 2)], 3));
    expect([...noneUnknown.unknown]).toEqual([]);
    expect(noneUnknown.rejected.size).toBe(0);
  });

  it('poll-succeeded resets the failure count', () => {
    const state = run(initialTickerState(['AAPL'], 2), { type: 'poll-failed' }, { type: 'poll-failed' }, succeeded([q('AAPL', 5)], 9));
    expect(state.failures).toBe(0);
  });

  it('poll-failed keeps the last good prices and counts the failure', () => {
    const before = priced();
    const state = run(before, { type: 'poll-failed' });
    expect(state.rows).toEqual(before.rows);
    expect(state.rows.AAA?.price).toBe(11);
    expect(state.failures).toBe(1);
    expect(state.lastSuccessAt).toBe(3000);
    expect(tickerReducer(state, { type: 'poll-failed' }).failures).toBe(2);
  });

  it('failingSince says how old the prices are while polls fail, and nothing while they work', () => {
    const fresh = initialTickerState(['AAPL'], 2);
    expect(failingSince(fresh, 5000)).toBeUndefined();
    expect(failingSince(run(fresh, { type: 'poll-failed' }), 5000)).toBe('no prices yet');
    const priced = run(fresh, succeeded([q('AAPL', 5)], 1000));
    expect(failingSince(priced, 60_000)).toBeUndefined();
    const failing = run(priced, { type: 'poll-failed' });
    expect(failingSince(failing, 1000 + 45_000)).toBe('last prices 45 s ago');
    expect(failingSince(failing, 1000 + 3 * 60_000)).toBe('last prices 3 min ago');
  });

  it('poll-scheduled records when the next poll is due', () => {
    const state = tickerReducer(initialTickerState([], 2), { type: 'poll-scheduled', at: 12345 });
    expect(state.nextPollAt).toBe(12345);
    expect(tickerReducer(state, { type: 'poll-scheduled', at: undefined }).nextPollAt).toBeUndefined();
  });

  it('pause-toggled pauses and resumes', () => {
    const paused = tickerReducer(initialTickerState([], 2), { type: 'pause-toggled' });
    expect(paused.paused).toBe(true);
    expect(tickerReducer(paused, { type: 'pause-toggled' }).paused).toBe(false);
  });
});

describe('sessionChange', () => {
  const row = (price: number, first: number): SymbolRow => ({ price, previous: undefined, first, volume: 0, history: [], updatedAt: 0 });

  it('is the change since the first tick in percent', () => {
    expect(sessionChange(row(110, 100))).toBeCloseTo(10, 10);
    expect(sessionChange(row(95, 100))).toBeCloseTo(-5, 10);
    expect(sessionChange(row(100, 100))).toBe(0);
  });

  it('follows the ticks', () => {
    const state = priced();
    expect(sessionChange(state.rows.AAA!)).toBeCloseTo(10, 10);
    expect(sessionChange(state.rows.BBB!)).toBeCloseTo(-5, 10);
    expect(sessionChange(state.rows.CCC!)).toBeCloseTo(20, 10);
  });
});

describe('displayOrder', () => {
  it('watchlist order as given', () => {
    expect(displayOrder(priced())).toEqual(['BBB', 'DDD', 'AAA', 'CCC']);
  });

  it('symbol order', () => {
    expect(displayOrder({ ...priced(), sort: 'symbol' })).toEqual(['AAA', 'BBB', 'CCC', 'DDD']);
  });

  it('session: biggest gain first, symbols without prices last', () => {
    expect(displayOrder({ ...priced(), sort: 'session' })).toEqual(['CCC', 'AAA', 'BBB', 'DDD']);
  });

  it('flipped (S): smallest first, Z to A, the watchlist from its end; unpriced still last', () => {
    expect(displayOrder({ ...priced(), sort: 'session', descending: true })).toEqual(['BBB', 'AAA', 'CCC', 'DDD']);
    expect(displayOrder({ ...priced(), sort: 'symbol', descending: true })).toEqual(['DDD', 'CCC', 'BBB', 'AAA']);
    expect(displayOrder({ ...priced(), sort: 'watchlist', descending: true })).toEqual(['CCC', 'AAA', 'DDD', 'BBB']);
  });

  it('price and tick change: largest first', () => {
    const state = run(initialTickerState(['X', 'Y', 'Z'], 2), succeeded([q('X', 10), q('Y', 50), q('Z', 20)], 1), succeeded([q('X', 11), q('Y', 49), q('Z', 20)], 2));
    expect(displayOrder({ ...state, sort: 'price' })).toEqual(['Y', 'Z', 'X']);
    expect(displayOrder({ ...state, sort: 'change' })).toEqual(['X', 'Z', 'Y']);
  });

  it('session: several symbols without prices stay last, in watchlist order', () => {
    const state = run(
      initialTickerState(['NONE1', 'LOSS', 'NONE2', 'GAIN'], 2),
      succeeded([q('LOSS', 10), q('GAIN', 10)], 1),
      succeeded([q('LOSS', 9), q('GAIN', 12)], 2),
    );
    expect(displayOrder({ ...state, sort: 'session' })).toEqual(['GAIN', 'LOSS', 'NONE1', 'NONE2']);
  });

  it('volume: biggest first, symbols without prices last', () => {
    expect(displayOrder({ ...priced(), sort: 'volume' })).toEqual(['AAA', 'BBB', 'CCC', 'DDD']);
  });

  it('does not reorder the watchlist itself', () => {
    const state = { ...priced(), sort: 'symbol' as const };
    displayOrder(state);
    expect(state.watchlist).toEqual(['BBB', 'DDD', 'AAA', 'CCC']);
  });
});

describe('sort-cycled', () => {
  it('cycles watchlist → symbol → price → change → session → volume → watchlist, each unflipped', () => {
    let state = run(priced(), { type: 'sort-flipped' });
    const seen: string[] = [];
    for (let i = 0; i < 6; i++) {
      state = tickerReducer(state, { type: 'sort-cycled' });
      seen.push(state.sort);
      expect(state.descending).toBe(false);
    }
    expect(seen).toEqual(['symbol', 'price', 'change', 'session', 'volume', 'watchlist']);
  });

  it('keeps the sort with the list shown', () => {
    const state = run(priced(), { type: 'sort-cycled' }, { type: 'sort-flipped' });
    expect(state.lists[state.active]).toMatchObject({ sort: 'symbol', descending: true, symbols: state.watchlist });
  });

  it('keeps the selected symbol selected in every order', () => {
    let state = run(priced(), { type: 'cursor-to', index: 3 });
    expect(selectedSymbol(state)).toBe('CCC');
    const cursors: number[] = [];
    for (let i = 0; i < 6; i++) {
      state = tickerReducer(state, { type: 'sort-cycled' });
      expect(selectedSymbol(state)).toBe('CCC');
      cursors.push(state.cursor);
    }
    // symbol, price, change, session, volume, watchlist order.
    expect(cursors).toEqual([2, 1, 0, 0, 2, 3]);
  });
});

describe('a live-sorted watchlist', () => {
  it('keeps the highlight on its symbol when a tick reorders the rows, so x removes what was chosen', () => {
    // By session change: CCC +20%, AAA +10%, BBB -5%, DDD unpriced.
    let state = run(priced(), ...Array<TickerAction>(4).fill({ type: 'sort-cycled' }), { type: 'cursor-to', index: 1 });
    expect(state.sort).toBe('session');
    expect(selectedSymbol(state)).toBe('AAA');
    // BBB jumps to +50% and CCC falls to -10%, the rows around AAA swap; then AAA falls to -20%
    // and moves down a row, under the cursor's old place.
    state = tickerReducer(state, succeeded([q('BBB', 150), q('AAA', 11), q('CCC', 45)], 5000));
    expect(displayOrder(state)).toEqual(['BBB', 'AAA', 'CCC', 'DDD']);
    expect(selectedSymbol(state)).toBe('AAA');
    state = tickerReducer(state, succeeded([q('BBB', 150), q('AAA', 8), q('CCC', 45)], 7000));
    expect(displayOrder(state)).toEqual(['BBB', 'CCC', 'AAA', 'DDD']);
    expect(state.cursor).toBe(2);
    expect(selectedSymbol(state)).toBe('AAA');
    state = tickerReducer(state, { type: 'symbol-removed' });
    expect(state.removed?.symbol).toBe('AAA');
    expect(state.watchlist).toEqual(['BBB', 'DDD', 'CCC']);
  });

  it('keeps it there when a symbol is added that sorts before it', () => {
    let state = run(priced(), { type: 'sort-cycled' }, { type: 'cursor-to', index: 1 });
    expect(state.sort).toBe('symbol');
    expect(selectedSymbol(state)).toBe('BBB');
    state = tickerReducer(state, { type: 'symbol-added', symbol: 'AAB' });
    expect(selectedSymbol(state)).toBe('BBB');
  });
});

describe('rejected records', () => {
  it('are kept per symbol with why, and cleared by an answer without them', () => {
    let state = priced();
    state = tickerReducer(state, {
      type: 'poll-succeeded',
      result: result([q('BBB', 96), q('CCC', 61)], [], [{ symbol: 'AAA', reason: 'price is negative (-5)' }, { symbol: undefined, reason: 'stock_data[3] is not an object' }]),
      at: 5000,
    });
    expect([...state.rejected]).toEqual([['AAA', 'price is negative (-5)']]);
    // AAA keeps its last good price and its time.
    expect(state.rows.AAA).toMatchObject({ price: 11, updatedAt: 3000 });
    expect(state.rows.BBB).toMatchObject({ price: 96, updatedAt: 5000 });
    state = tickerReducer(state, succeeded([q('BBB', 96), q('AAA', 12), q('CCC', 61)], 7000));
    expect(state.rejected.size).toBe(0);
  });
});

describe('cursor', () => {
  it('moves and is clamped to the watchlist', () => {
    let state = priced();
    state = tickerReducer(state, { type: 'cursor-moved', by: 2 });
    expect(state.cursor).toBe(2);
    state = tickerReducer(state, { type: 'cursor-moved', by: 9 });
    expect(state.cursor).toBe(3);
    state = tickerReducer(state, { type: 'cursor-moved', by: -9 });
    expect(state.cursor).toBe(0);
    state = tickerReducer(state, { type: 'cursor-to', index: 'last' });
    expect(state.cursor).toBe(3);
    expect(selectedSymbol(state)).toBe('CCC');
  });
});

describe('symbol-moved (J/K)', () => {
  it('moves the selected symbol down and up, the cursor following it', () => {
    let state = run(priced(), { type: 'cursor-to', index: 1 }, { type: 'symbol-moved', by: 1 });
    expect(state.watchlist).toEqual(['BBB', 'AAA', 'DDD', 'CCC']);
    expect(state.cursor).toBe(2);
    expect(selectedSymbol(state)).toBe('DDD');
    state = run(state, { type: 'symbol-moved', by: -1 }, { type: 'symbol-moved', by: -1 });
    expect(state.watchlist).toEqual(['DDD', 'BBB', 'AAA', 'CCC']);
    expect(state.cursor).toBe(0);
  });

  it('does not move past the ends', () => {
    const top = run(priced(), { type: 'cursor-to', index: 0 });
    expect(tickerReducer(top, { type: 'symbol-moved', by: -1 })).toBe(top);
    const bottom = run(priced(), { type: 'cursor-to', index: 'last' });
    expect(tickerReducer(bottom, { type: 'symbol-moved', by: 1 })).toBe(bottom);
  });

  it('only in watchlist order', () => {
    const sorted = run(priced(), { type: 'sort-cycled' });
    expect(sorted.sort).toBe('symbol');
    expect(tickerReducer(sorted, { type: 'symbol-moved', by: 1 })).toBe(sorted);
  });
});

describe('symbol-removed / removal-undone (x / u)', () => {
  it('removes the selected symbol and puts it back at the same place', () => {
    let state = run(priced(), { type: 'cursor-to', index: 1 }, { type: 'symbol-removed' });
    expect(state.watchlist).toEqual(['BBB', 'AAA', 'CCC']);
    expect(state.removed).toEqual({ symbol: 'DDD', index: 1 });
    expect(selectedSymbol(state)).toBe('AAA');
    state = tickerReducer(state, { type: 'removal-undone' });
    expect(state.watchlist).toEqual(['BBB', 'DDD', 'AAA', 'CCC']);
    expect(state.removed).toBeUndefined();
    expect(selectedSymbol(state)).toBe('DDD');
  });

  it('removing the last row moves the cursor up', () => {
    const state = run(priced(), { type: 'cursor-to', index: 'last' }, { type: 'symbol-removed' });
    expect(state.watchlist).toEqual(['BBB', 'DDD', 'AAA']);
    expect(state.cursor).toBe(2);
  });

  it('in another sort order, removes the symbol on screen and restores its watchlist place', () => {
    let state = run(priced(), ...Array<TickerAction>(4).fill({ type: 'sort-cycled' })); // session: CCC AAA BBB DDD
    state = run(state, { type: 'cursor-to', index: 1 }, { type: 'symbol-removed' });
    expect(state.removed).toEqual({ symbol: 'AAA', index: 2 });
    expect(state.watchlist).toEqual(['BBB', 'DDD', 'CCC']);
    state = tickerReducer(state, { type: 'removal-undone' });
    expect(state.watchlist).toEqual(['BBB', 'DDD', 'AAA', 'CCC']);
    expect(selectedSymbol(state)).toBe('AAA');
  });

  it('keeps the removed symbol’s prices so undo shows them again', () => {
    const state = run(priced(), { type: 'symbol-removed' }, { type: 'removal-undone' });
    expect(state.rows.BBB?.price).toBe(95);
  });

  it('undo with nothing removed changes no symbol', () => {
    const state = priced();
    expect(tickerReducer(state, { type: 'removal-undone' }).watchlist).toEqual(state.watchlist);
  });

  it('undo does not duplicate a symbol added back meanwhile', () => {
    const state = run(priced(), { type: 'symbol-removed' }, { type: 'symbol-added', symbol: 'BBB' }, { type: 'removal-undone' });
    expect(state.watchlist).toEqual(['DDD', 'AAA', 'CCC', 'BBB']);
    expect(state.removed).toBeUndefined();
  });

  it('once the window is over the removal is let go: undo puts nothing back', () => {
    let state = run(priced(), { type: 'symbol-removed' }, { type: 'removal-expired' });
    expect(state.removed).toBeUndefined();
    state = tickerReducer(state, { type: 'removal-undone' });
    expect(state.watchlist).toEqual(['DDD', 'AAA', 'CCC']);
    expect(tickerReducer(state, { type: 'removal-expired' })).toBe(state);
  });

  it('removing from an empty watchlist does nothing', () => {
    const state = initialTickerState([], 2);
    expect(tickerReducer(state, { type: 'symbol-removed' })).toBe(state);
  });
});

describe('symbol-added', () => {
  it('appends a new symbol and ignores one already there', () => {
    const state = tickerReducer(priced(), { type: 'symbol-added', symbol: 'VOD.L' });
    expect(state.watchlist).toEqual(['BBB', 'DDD', 'AAA', 'CCC', 'VOD.L']);
    expect(tickerReducer(state, { type: 'symbol-added', symbol: 'AAA' })).toBe(state);
  });
});

describe('interval', () => {
  it('+/- change it by a second within 1..60', () => {
    let state = initialTickerState([], 2);
    state = tickerReducer(state, { type: 'interval-changed', by: 1 });
    expect(state.intervalS).toBe(3);
    state = run(state, { type: 'interval-changed', by: -1 }, { type: 'interval-changed', by: -1 }, { type: 'interval-changed', by: -1 });
    expect(state.intervalS).toBe(1);
    state = tickerReducer({ ...state, intervalS: 60 }, { type: 'interval-changed', by: 1 });
    expect(state.intervalS).toBe(60);
  });

  it('clampInterval rounds and clamps', () => {
    expect(clampInterval(0)).toBe(1);
    expect(clampInterval(-5)).toBe(1);
    expect(clampInterval(2.4)).toBe(2);
    expect(clampInterval(2.6)).toBe(3);
    expect(clampInterval(61)).toBe(60);
    expect(clampInterval(30)).toBe(30);
  });
});

describe('nextDelayMs', () => {
  const at = (intervalS: number, failures: number): TickerState => ({ ...initialTickerState([], intervalS), failures });

  it('is the interval when all is well', () => {
    expect(nextDelayMs(at(2, 0))).toBe(2000);
    expect(nextDelayMs(at(15, 0))).toBe(15_000);
  });

  it('doubles with each further failure, capped at 60 s', () => {
    expect([1, 2, 3, 4, 5, 6, 10].map((failures) => nextDelayMs(at(2, failures)))).toEqual([
      2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000,
    ]);
    expect(nextDelayMs(at(45, 2))).toBe(60_000);
  });

  it('waits as long as Retry-After asks when that is longer', () => {
    expect(nextDelayMs(at(2, 1), 30_000)).toBe(30_000);
    expect(nextDelayMs(at(2, 1), 120_000)).toBe(120_000);
    expect(nextDelayMs(at(2, 3), 1000)).toBe(8000);
    expect(nextDelayMs(at(2, 0), undefined)).toBe(2000);
  });
});

describe('no work for nothing', () => {
  it('a move that changes nothing (k on the first row, j on the last) returns the same state: nothing is drawn again', () => {
    const state = priced();
    expect(tickerReducer(state, { type: 'cursor-moved', by: -1 })).toBe(state);
    expect(tickerReducer(state, { type: 'cursor-to', index: 0 })).toBe(state);
    const last = tickerReducer(state, { type: 'cursor-to', index: 'last' });
    expect(last).not.toBe(state);
    expect(tickerReducer(last, { type: 'cursor-moved', by: 100 })).toBe(last);
  });
});

describe('alert-fired', () => {
  it('keeps when an alert fired for the list\'s symbols only, and drops those no longer on it', () => {
    let state = run(priced(), { type: 'alert-fired', symbol: 'AAA', at: 5 }, { type: 'alert-fired', symbol: 'IBM', at: 6 });
    expect([...state.alerted]).toEqual([['AAA', 5]]);
    state = run(state, { type: 'cursor-to', index: 2 }, { type: 'symbol-removed' }, { type: 'alert-fired', symbol: 'BBB', at: 7 });
    expect(state.watchlist).not.toContain('AAA');
    expect([...state.alerted]).toEqual([['BBB', 7]]);
  });
});
