// Holdings as plain rules (src/market/holdings.ts): a lot checked field by field, positions valued
// at a price with the day from the day's open, and totals that never add two currencies.
import { describe, expect, it } from 'vitest';
import { averageCost, checkLot, dateProblem, type Lot, lotsBySymbol, portfolioOf, positionOf, totalsOf } from '../../src/market/holdings.js';
import { formatMoney, parseFixed, times } from '../../src/market/money.js';

const TODAY = '2025-06-15';

function fixed(text: string): bigint {
  const value = parseFixed(text, true);
  if (typeof value === 'string') throw new Error(`${text} ${value}`);
  return value;
}

/** An exact amount (12 decimals) from its decimal text. */
const exact = (text: string): bigint => times(fixed(text), fixed('1'));

let nextNumber = 1;
const lot = (symbol: string, quantity: string, cost: string, bought?: string): Lot => ({ symbol, number: nextNumber++, quantity: fixed(quantity), cost: fixed(cost), bought });

const problemsOf = (quantity: string, cost: string, date = '') => {
  const checked = checkLot({ quantity, cost, date }, TODAY);
  return 'problems' in checked ? checked.problems : undefined;
};

describe('checkLot', () => {
  it('gives the lot of valid fields, exactly, with the date trimmed and an empty one left out', () => {
    expect(checkLot({ quantity: '10', cost: '150.25', date: '' }, TODAY)).toEqual({ lot: { quantity: 10_000_000n, cost: 150_250_000n, bought: undefined } });
    expect(checkLot({ quantity: '0.5', cost: '0.000001', date: ' 2024-02-29 ' }, TODAY)).toEqual({ lot: { quantity: 500_000n, cost: 1n, bought: '2024-02-29' } });
    // Today is not in the future.
    expect(checkLot({ quantity: '1', cost: '1', date: TODAY }, TODAY)).toEqual({ lot: { quantity: 1_000_000n, cost: 1_000_000n, bought: TODAY } });
  });

  it('a quantity of zero or less is refused, named as the quantity', () => {
    expect(problemsOf('0', '10')).toEqual({ quantity: 'quantity must be greater than 0' });
    expect(problemsOf('0.000000', '10')).toEqual({ quantity: 'quantity must be greater than 0' });
    expect(problemsOf('-1', '10')).toEqual({ quantity: 'quantity cannot be negative' });
    expect(problemsOf('', '10')).toEqual({ quantity: 'quantity is empty' });
    expect(problemsOf('ten', '10')).toEqual({ quantity: 'quantity is not a number ("ten")' });
    expect(problemsOf('1.0000001', '10')).toEqual({ quantity: 'quantity has more than 6 decimals' });
    expect(problemsOf('1000000000000', '10')).toEqual({ quantity: 'quantity is too large' });
  });

  it('a cost that is not a price is refused, named as the cost per share', () => {
    expect(problemsOf('10', 'abc')).toEqual({ cost: 'cost per share is not a number ("abc")' });
    // A price of zero is a slip, not a gift: it would show the whole value as profit.
    expect(problemsOf('10', '0')).toEqual({ cost: 'cost per share must be greater than 0' });
    expect(problemsOf('10', '-5')).toEqual({ cost: 'cost per share cannot be negative' });
    expect(problemsOf('10', '1e3')).toEqual({ cost: 'cost per share is not a number ("1e3")' });
  });

  it('a date in another format, not in the calendar, or in the future is refused, named as the date', () => {
    for (const bad of ['2025/06/01', '01-06-2025', '2025-6-1', '20250601', 'yesterday', '2025-06-01T10:00']) {
      expect(problemsOf('1', '1', bad), bad).toEqual({ date: `date must be written YYYY-MM-DD, not ${JSON.stringify(bad)}` });
    }
    for (const impossible of ['2025-02-30', '2025-02-29', '2025-13-01', '2025-00-10', '2025-04-31', '2025-01-00']) {
      expect(problemsOf('1', '1', impossible), impossible).toEqual({ date: `date ${impossible} is not a day of the calendar` });
    }
    expect(problemsOf('1', '1', '2025-06-16')).toEqual({ date: 'date 2025-06-16 is in the future' });
    expect(problemsOf('1', '1', '2026-01-01')).toEqual({ date: 'date 2026-01-01 is in the future' });
  });

  it('reports every wrong field at once, each message naming its field', () => {
    const problems = problemsOf('-1', '0', '2025-02-30');
    expect(problems).toEqual({
      quantity: 'quantity cannot be negative',
      cost: 'cost per share must be greater than 0',
      date: 'date 2025-02-30 is not a day of the calendar',
    });
    // One bad field is not saved for the other two being good.
    expect(problemsOf('1', '1', 'soon')).not.toHaveProperty('quantity');
    expect(problemsOf('1', '1', 'soon')).not.toHaveProperty('cost');
  });

  it('dateProblem accepts no date at all', () => {
    expect(dateProblem('', TODAY)).toBeUndefined();
    expect(dateProblem('   ', TODAY)).toBeUndefined();
    expect(dateProblem('2000-01-01', TODAY)).toBeUndefined();
  });
});

describe('positionOf', () => {
  const lots = [lot('AAPL', '10', '150'), lot('AAPL', '5', '0.1'), lot('AAPL', '0.25', '200.04')];

  it('adds the lots exactly and values them at the price', () => {
    const p = positionOf('AAPL', lots, 187.23, 185);
    expect(p.symbol).toBe('AAPL');
    expect(p.currency.code).toBe('USD');
    expect(p.lots.map((l) => l.number)).toEqual(lots.map((l) => l.number));
    expect(p.quantity).toBe(fixed('15.25'));
    // 1500 + 0.5 + 50.01
    expect(p.cost).toBe(exact('1550.51'));
    expect(p.value).toBe(exact('2855.2575'));
    expect(p.gain).toBe(exact('1304.7475'));
    expect(p.percent).toBe(84.15);
    expect(p.day).toBe(exact('34.0075'));
    expect(formatMoney(p.value!, p.currency)).toBe('2,855.26');
    expect(formatMoney(p.day!, p.currency, true)).toBe('+34.01');
  });

  it('a loss is negative, in value, gain and percentage', () => {
    const p = positionOf('AAPL', [lot('AAPL', '2', '100')], 75.5, 80);
    expect(p.gain).toBe(exact('-49'));
    expect(p.percent).toBe(-24.5);
    expect(p.day).toBe(exact('-9'));
  });

  it('the day is undefined without the open or without a price; value and gain need only the price', () => {
    const noOpen = positionOf('AAPL', lots, 187.23, undefined);
    expect(noOpen.day).toBeUndefined();
    expect(noOpen.value).toBe(exact('2855.2575'));
    const noPrice = positionOf('AAPL', lots, undefined, 185);
    expect(noPrice).toMatchObject({ value: undefined, day: undefined, gain: undefined, percent: undefined });
    expect(noPrice.cost).toBe(exact('1550.51'));
  });

  it('takes the currency from the symbol, pence for London', () => {
    const p = positionOf('VOD.L', [lot('VOD.L', '1000', '72.5')], 74.82, undefined);
    expect(p.currency.code).toBe('GBP');
    expect(formatMoney(p.cost, p.currency)).toBe('725.00');
    expect(formatMoney(p.value!, p.currency)).toBe('748.20');
    expect(formatMoney(p.gain!, p.currency, true)).toBe('+23.20');
  });
});

describe('totalsOf and portfolioOf', () => {
  it('never adds two currencies: one total each, in the order they first appear', () => {
    const positions = [
      positionOf('AAPL', [lot('AAPL', '10', '100')], 110, 100),
      positionOf('SAP.DE', [lot('SAP.DE', '4', '250')], 240, undefined),
      positionOf('MSFT', [lot('MSFT', '1', '400')], 410, 405),
      positionOf('7203.T', [lot('7203.T', '100', '2500')], 2995.58, 3000),
      positionOf('VOD.L', [lot('VOD.L', '1000', '72.5')], 74.82, undefined),
      positionOf('MC.PA', [lot('MC.PA', '2', '700')], 710, 700),
    ];
    const totals = totalsOf(positions);
    expect(totals.map((t) => t.currency.code)).toEqual(['USD', 'EUR', 'JPY', 'GBP']);
    const [usd, eur, jpy, gbp] = totals;
    expect(usd).toMatchObject({ cost: exact('1400'), value: exact('1510'), gain: exact('110'), day: exact('105'), percent: 7.86, positions: 2, unpriced: 0, dayUnknown: 0 });
    // SAP's open is unknown: its value counts, its day does not, and it is said so.
    expect(eur).toMatchObject({ cost: exact('2400'), value: exact('2380'), gain: exact('-20'), day: exact('20'), percent: -0.83, positions: 2, dayUnknown: 1 });
    expect(jpy).toMatchObject({ cost: exact('250000'), value: exact('299558'), gain: exact('49558'), day: exact('-442'), percent: 19.82, positions: 1 });
    expect(formatMoney(jpy!.value, jpy!.currency)).toBe('299,558');
    expect(gbp).toMatchObject({ cost: exact('72500'), value: exact('74820'), positions: 1, dayUnknown: 1 });
    expect(formatMoney(gbp!.cost, gbp!.currency)).toBe('725.00');
  });

  it('a position without a price is counted, not summed', () => {
    const totals = totalsOf([
      positionOf('AAPL', [lot('AAPL', '10', '100')], 110, undefined),
      positionOf('GONE', [lot('GONE', '1000', '5')], undefined, undefined),
    ]);
    expect(totals).toHaveLength(1);
    expect(totals[0]).toMatchObject({ cost: exact('1000'), value: exact('1100'), gain: exact('100'), percent: 10, positions: 2, unpriced: 1 });
  });

  it('a currency with nothing priced has no percentage', () => {
    const [total] = totalsOf([positionOf('AAPL', [lot('AAPL', '1', '1')], undefined, undefined)]);
    expect(total).toMatchObject({ cost: 0n, value: 0n, percent: undefined, positions: 1, unpriced: 1 });
  });

  it('portfolioOf groups lots by symbol, in the order the first lot of each comes, and prices each', () => {
    const lots = [lot('MSFT', '1', '400'), lot('AAPL', '1', '100'), lot('MSFT', '2', '410'), lot('7203.T', '100', '2500')];
    expect([...lotsBySymbol(lots)].map(([symbol, own]) => [symbol, own.length])).toEqual([
      ['MSFT', 2],
      ['AAPL', 1],
      ['7203.T', 1],
    ]);
    const prices: Record<string, number> = { MSFT: 420, AAPL: 99 };
    const opens: Record<string, number> = { MSFT: 415 };
    const { positions, totals } = portfolioOf(lots, (s) => prices[s], (s) => opens[s]);
    expect(positions.map((p) => [p.symbol, p.quantity, p.value])).toEqual([
      ['MSFT', fixed('3'), exact('1260')],
      ['AAPL', fixed('1'), exact('99')],
      ['7203.T', fixed('100'), undefined],
    ]);
    expect(positions[0]!.day).toBe(exact('15'));
    expect(positions[1]!.day).toBeUndefined();
    expect(totals.map((t) => [t.currency.code, t.cost, t.positions, t.unpriced, t.dayUnknown])).toEqual([
      ['USD', exact('1320'), 2, 0, 1],
      ['JPY', 0n, 1, 1, 0],
    ]);
  });
});

describe('averageCost', () => {
  it('is the cost of all lots over their quantity, in the price unit', () => {
    expect(averageCost(positionOf('AAPL', [lot('AAPL', '10', '150'), lot('AAPL', '10', '50')], undefined, undefined))).toBe(fixed('100'));
    expect(averageCost(positionOf('AAPL', [lot('AAPL', '10', '150'), lot('AAPL', '5', '0.1')], undefined, undefined))).toBe(fixed('100.033333'));
    expect(averageCost(positionOf('VOD.L', [lot('VOD.L', '1000', '72.5'), lot('VOD.L', '3000', '80.5')], undefined, undefined))).toBe(fixed('78.5'));
    expect(averageCost(positionOf('AAPL', [lot('AAPL', '0.5', '10'), lot('AAPL', '1.5', '20')], undefined, undefined))).toBe(fixed('17.5'));
  });

  it('is zero for a position of no lots, rather than a division by zero', () => {
    expect(averageCost(positionOf('AAPL', [], 100, undefined))).toBe(0n);
  });
});
