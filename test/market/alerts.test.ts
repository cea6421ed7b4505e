import { describe, expect, it } from 'vitest';
import {
  type AlertCondition,
  type AlertState,
  armingWords,
  arms,
  describeFiring,
  holds,
  initialState,
  type Reading,
  REARM_BAND,
  step,
  whenSetWords,
} from '../../src/market/alerts.js';
import { formatPrice } from '../../src/text/numbers.js';

const at = (price: number | undefined, extra: Partial<Reading> = {}): Reading => ({ price, pollsWithout: 0, reference: undefined, now: 1_000, ...extra });

/** Feeds prices one tick each; returns at which ticks the alert fired. */
function firings(condition: AlertCondition, prices: readonly (number | Reading)[], state?: AlertState): number[] {
  const readings = prices.map((p) => (typeof p === 'number' ? at(p) : p));
  let s = state ?? initialState(condition, readings[0]);
  const fired: number[] = [];
  readings.forEach((reading, i) => {
    const next = step(condition, s, reading);
    s = next.state;
    if (next.fired) fired.push(i);
  });
  return fired;
}

describe('price lines', () => {
  const above: AlertCondition = { kind: 'above', price: 100 };
  const below: AlertCondition = { kind: 'below', price: 100 };

  it('fire when the price reaches the line exactly (at or above, at or below)', () => {
    expect(firings(above, [99, 100])).toEqual([1]);
    expect(firings(below, [101, 100])).toEqual([1]);
  });

  it('fire on a gap over the line, once', () => {
    expect(firings(above, [90, 150, 160, 170])).toEqual([1]);
  });

  it('do not fire for a price already past the line when set: only at the next crossing', () => {
    expect(firings(above, [105, 110, 104, 101])).toEqual([]);
    expect(firings(above, [105, 99.7, 101])).toEqual([2]);
  });

  it('a price hovering on the line fires once; it is armed again only past the band', () => {
    expect(firings(above, [99, 100, 99.9, 100.1, 99.8, 100.2])).toEqual([1]);
    const band = 100 * (1 - REARM_BAND);
    expect(firings(above, [99, 100, band - 0.01, 100])).toEqual([1, 3]);
  });
});

describe('an alert set while its condition holds', () => {
  const above: AlertCondition = { kind: 'above', price: 100 };
  const below: AlertCondition = { kind: 'below', price: 24.5 };

  it('is armed by the first price on the other side of its line, without the band, and fires at the next crossing', () => {
    // 99.9 is under the line but inside the band (99.75): enough to arm it, as it was set.
    expect(firings(above, [105, 110, 99.9, 100.5])).toEqual([3]);
    // SHEL.L below 24.50 set at 24.40: up to 24.51 (inside the band's 24.56125) and back through.
    expect(firings(below, [24.4, 24.45, 24.51, 24.49])).toEqual([3]);
    // A move up 2% set at +2.5%: back to +1.9% (inside the band's 1.75%) arms it; +2% fires.
    const move: AlertCondition = { kind: 'move', percent: 2, direction: 'up', from: 'open' };
    const r = (price: number) => at(price, { reference: 100 });
    expect(firings(move, [r(102.5), r(101.9), r(102)])).toEqual([2]);
  });

  it('is not armed by a price on its line: that is its condition holding still', () => {
    expect(firings(above, [100, 100, 100.2, 100])).toEqual([]);
    expect(firings(above, [100, 100, 99.99, 100])).toEqual([3]);
    expect(firings(below, [24.5, 24.5, 24.5001, 24.5])).toEqual([3]);
  });

  it('after its first firing needs the band again, as every alert does', () => {
    // Armed at 99.9 (no band), fires at 100.5; 99.9 is then inside the band: the next 100.5 is quiet.
    expect(firings(above, [105, 99.9, 100.5, 99.9, 100.5, 99.7, 100])).toEqual([2, 6]);
  });

  it('snoozed, lets the next crossing pass, and needs the band after it', () => {
    const state = { ...initialState(above, at(105)), snoozedUntil: 5_000 };
    const t = (price: number, now: number) => at(price, { now });
    // 100.5 at 3000 is let pass; 99.9 after the snooze does not arm it (inside the band), 99.7 does.
    expect(firings(above, [t(105, 1000), t(99.9, 2000), t(100.5, 3000), t(99.9, 6000), t(100.5, 7000), t(99.7, 8000), t(100.1, 9000)], state)).toEqual([6]);
  });

  it('says what it waits for: the line itself when set holding, the line less the band after a firing', () => {
    const alarmed = (condition: AlertCondition, band: boolean) => armingWords(condition, band, formatPrice);
    expect(alarmed(above, false)).toBe('a price below 100.00');
    expect(alarmed(above, true)).toBe('a price below 99.75');
    expect(alarmed({ kind: 'above', price: 200 }, true)).toBe('a price below 199.50');
    expect(alarmed(below, false)).toBe('a price above 24.50');
    // Exactly the line that arms it, not one rounded to two decimals (24.44 would not arm it).
    expect(alarmed(below, true)).toBe('a price above 24.56125');
    expect(alarmed({ kind: 'move', percent: 5, direction: 'either', from: 'open' }, true)).toBe('a move within ±4.75% from open');
    expect(alarmed({ kind: 'move', percent: 5, direction: 'up', from: 'set' }, false)).toBe('a move below +5% from set');
    expect(alarmed({ kind: 'move', percent: 3, direction: 'down', from: 'close' }, true)).toBe('a move above -2.75% from close');
    expect(alarmed({ kind: 'move', percent: 0.1, direction: 'up', from: 'set' }, true)).toBe('a move below -0.15% from set');
    expect(alarmed({ kind: 'move', percent: 0.1, direction: 'either', from: 'set' }, true)).toBe('nothing: ±0.1% is inside the 0.25-point band, so it does not fire again');
    expect(alarmed({ kind: 'stale', polls: 3 }, true)).toBe('a new price');
    expect(whenSetWords('SHEL.L', below, true, 24.4, formatPrice)).toBe('it holds now: it waits for a price above 24.50, then fires at the next crossing');
    expect(whenSetWords('SHEL.L', below, true, 24.4, formatPrice, true)).toBe('it holds now: it waits for a price above 24.50');
    expect(whenSetWords('SHEL.L', below, false, 24.6, formatPrice)).toBeUndefined();
  });

  it('is armed at the line it says it waits for, and not a hair before', () => {
    // The words and the rule are one line: 24.50 and 0.25% is 24.56125, as shown, where the sum
    // in floating point is 24.561249999999998, which a price of 24.56125 would be above.
    const fired = { ...initialState(below, at(25)), armed: false, band: true };
    expect(arms(below, at(24.56125), true)).toBe(false);
    expect(arms(below, at(24.5613), true)).toBe(true);
    expect(firings(below, [24.56125, 24.5, 24.5613, 24.5], fired)).toEqual([3]);
  });
});

describe('an alert set when it cannot be told whether its condition holds', () => {
  const up: AlertCondition = { kind: 'move', percent: 5, direction: 'up', from: 'open' };
  const r = (price: number, reference: number | undefined = 100) => at(price, { reference });

  it('is not armed: a first reading where it holds does not fire; one where it does not arms it, and the next crossing fires', () => {
    // No price when set (the quote could not be had): 105 at the first poll is past the line already.
    const above: AlertCondition = { kind: 'above', price: 100 };
    expect(initialState(above, at(undefined))).toMatchObject({ armed: false, band: false });
    expect(firings(above, [105, 110, 99.9, 100.5], initialState(above, at(undefined)))).toEqual([3]);
    // A move from the open set with nothing recorded today: +6% at the first poll that has one.
    const unknown = initialState(up, r(106, undefined));
    expect(unknown).toMatchObject({ armed: false, band: false });
    expect(firings(up, [r(106, undefined), r(106), r(106.5), r(104.9), r(105)], unknown)).toEqual([4]);
    // A first reading where it does not hold arms it at once: a crossing after that fires.
    expect(firings(up, [r(100), r(105)], unknown)).toEqual([1]);
  });

  it('never fires at its first reading merely because its condition held when set, for every kind', () => {
    const conditions: AlertCondition[] = [
      { kind: 'above', price: 100 },
      { kind: 'below', price: 100 },
      ...(['up', 'down', 'either'] as const).flatMap((direction) => (['open', 'close', 'set'] as const).map((from) => ({ kind: 'move' as const, percent: 5, direction, from }))),
    ];
    for (const condition of conditions) {
      const falls = condition.kind === 'below' || (condition.kind === 'move' && condition.direction === 'down');
      const holding = falls ? r(90) : r(110);
      // Back on the other side of the line: for a move, no move at all.
      const quiet = condition.kind === 'move' ? r(100) : r(falls ? 105 : 95);
      for (const when of [at(undefined), r(holding.price!, undefined), holding]) {
        const state = initialState(condition, when);
        const name = `${JSON.stringify(condition)} set at ${JSON.stringify(when)}`;
        expect(state.armed, name).toBe(false);
        expect(firings(condition, [holding, holding, quiet, holding], state), name).toEqual([3]);
      }
    }
    // A stale alert can always be told: no poll has gone without a price when it is set.
    expect(initialState({ kind: 'stale', polls: 3 }, at(undefined))).toMatchObject({ armed: true });
  });

  it('says it cannot tell, and why: no price, nothing recorded today, no earlier day', () => {
    const words = (condition: AlertCondition, price: number | undefined, short?: boolean) => whenSetWords('AAPL', condition, undefined, price, formatPrice, short);
    expect(words({ kind: 'above', price: 200 }, undefined)).toBe('cannot tell if it holds now: the server gave no price for AAPL; it waits for a price below 200.00, then fires at the next crossing');
    expect(words(up, 210)).toBe('cannot tell if it holds now: nothing of AAPL is recorded today to measure from; it waits for a move below +5% from open, then fires at the next crossing');
    expect(words({ ...up, direction: 'down', from: 'close' }, 210)).toBe(
      'cannot tell if it holds now: no earlier day of AAPL is recorded to measure from; it waits for a move above -5% from close, then fires at the next crossing',
    );
    expect(words({ ...up, from: 'set' }, undefined)).toBe('cannot tell if it holds now: the server gave no price for AAPL; it waits for a move below +5% from set, then fires at the next crossing');
    expect(words(up, 210, true)).toBe('cannot tell if it holds now: it waits for a move below +5% from open');
  });
});

describe('moves from a reference', () => {
  it('up, down and either way, from the day\'s open, a close or the price set', () => {
    const ref = { reference: 200 };
    expect(holds({ kind: 'move', percent: 5, direction: 'up', from: 'open' }, at(210, ref))).toBe(true);
    expect(holds({ kind: 'move', percent: 5, direction: 'up', from: 'open' }, at(190, ref))).toBe(false);
    expect(holds({ kind: 'move', percent: 5, direction: 'down', from: 'close' }, at(190, ref))).toBe(true);
    expect(holds({ kind: 'move', percent: 5, direction: 'either', from: 'set' }, at(190, ref))).toBe(true);
    expect(holds({ kind: 'move', percent: 5, direction: 'either', from: 'set' }, at(209.99, ref))).toBe(false);
  });

  it('cannot be told without a reference, and never fire then', () => {
    const move: AlertCondition = { kind: 'move', percent: 1, direction: 'either', from: 'close' };
    expect(holds(move, at(100))).toBeUndefined();
    expect(firings(move, [at(100), at(200), at(300)])).toEqual([]);
  });

  it('fire at the crossing and re-arm inside the move less the band', () => {
    const move: AlertCondition = { kind: 'move', percent: 2, direction: 'up', from: 'open' };
    const r = (price: number) => at(price, { reference: 100 });
    // 102 is +2%: fires; 101.9 is inside the band (2 − 0.25 = 1.75%): stays quiet; 101.7 re-arms.
    expect(firings(move, [r(101), r(102), r(101.9), r(102.5), r(101.7), r(102)])).toEqual([1, 5]);
  });
});

describe('stale quotes', () => {
  it('fire after N polls without a new price, and re-arm with the next price', () => {
    const stale: AlertCondition = { kind: 'stale', polls: 3 };
    const p = (pollsWithout: number) => at(100, { pollsWithout });
    expect(firings(stale, [p(0), p(1), p(2), p(3), p(4), p(0), p(1), p(2), p(3)])).toEqual([3, 8]);
  });
});

describe('one-shot, pause and snooze', () => {
  const above: AlertCondition = { kind: 'above', price: 100 };

  it('a one-shot alert fires once and is done', () => {
    const state = initialState(above, at(90), true);
    expect(firings(above, [90, 101, 90, 101], state)).toEqual([1]);
  });

  it('a paused alert neither fires nor arms', () => {
    const paused = { ...initialState(above, at(90)), paused: true };
    expect(firings(above, [90, 101, 90, 101], paused)).toEqual([]);
  });

  it('a crossing while snoozed is let pass; the next one after the snooze fires', () => {
    const snoozed = { ...initialState(above, at(90)), snoozedUntil: 5_000 };
    const t = (price: number, now: number) => at(price, { now });
    expect(firings(above, [t(90, 1000), t(101, 2000), t(90, 3000), t(101, 4000), t(90, 6000), t(101, 7000)], snoozed)).toEqual([5]);
  });
});

describe('what a firing says', () => {
  it('names the symbol, the price and what it crossed', () => {
    expect(describeFiring('AAPL', { kind: 'above', price: 200 }, at(200.5), formatPrice)).toBe('AAPL at 200.50 crossed above 200.00');
    expect(describeFiring('SHEL.L', { kind: 'move', percent: 5, direction: 'down', from: 'open' }, at(95, { reference: 100 }), formatPrice)).toBe(
      "SHEL.L at 95.00 moved -5.00% from the day's open",
    );
    expect(describeFiring('X', { kind: 'stale', polls: 3 }, at(1, { pollsWithout: 4 }), formatPrice)).toBe('X has had no new price for 4 polls');
  });
});
