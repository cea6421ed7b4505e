// Exact decimal money (src/market/money.ts) and the currency a listing's suffix gives
// (src/market/listing.ts): parsing as typed, exact products and sums, and rounding once, when shown.
import { describe, expect, it } from 'vitest';
import { positionOf, type Lot } from '../../src/market/holdings.js';
import { currencyOf } from '../../src/market/listing.js';
import { fixedOf, fixedText, fixedWithDigits, formatMinor, formatMoney, parseFixed, percentOf, times, toMinor } from '../../src/market/money.js';

const USD = currencyOf('AAPL');
const JPY = currencyOf('7203.T');
const GBP = currencyOf('VOD.L');

/** A decimal as typed, which the test expects to parse. */
function fixed(text: string): bigint {
  const value = parseFixed(text, true);
  if (typeof value === 'string') throw new Error(`${text} ${value}`);
  return value;
}

/** An amount of money in the price unit, as the exact product of `amount` × 1. */
const amount = (text: string): bigint => times(fixed(text), fixed('1'));

const lot = (number: number, quantity: string, cost: string): Lot => ({ symbol: 'AAPL', number, quantity: fixed(quantity), cost: fixed(cost), bought: undefined });

describe('parseFixed', () => {
  it('reads decimals as typed, exactly, in millionths', () => {
    expect(parseFixed('12')).toBe(12_000_000n);
    expect(parseFixed('0.5')).toBe(500_000n);
    expect(parseFixed('.25')).toBe(250_000n);
    expect(parseFixed('3.')).toBe(3_000_000n);
    expect(parseFixed(' 7.000001 ')).toBe(7_000_001n);
    expect(parseFixed('0.000001')).toBe(1n);
    expect(parseFixed('999999999999.999999')).toBe(999_999_999_999_999_999n);
  });

  it('refuses what is not a plain decimal, saying why', () => {
    expect(parseFixed('')).toBe('is empty');
    expect(parseFixed('   ')).toBe('is empty');
    expect(parseFixed('abc')).toBe('is not a number ("abc")');
    expect(parseFixed('12abc')).toMatch(/^is not a number/);
    // Exponents are a typo more often than a price, and would hide how many decimals were meant.
    expect(parseFixed('1e3')).toBe('is not a number ("1e3")');
    expect(parseFixed('.')).toMatch(/^is not a number/);
    expect(parseFixed('-')).toMatch(/^is not a number/);
    expect(parseFixed('1.2.3')).toMatch(/^is not a number/);
    expect(parseFixed('1,000')).toMatch(/^is not a number/);
    expect(parseFixed('Infinity')).toMatch(/^is not a number/);
    expect(parseFixed('0.0000001')).toBe('has more than 6 decimals');
    expect(parseFixed('1000000000000')).toBe('is too large');
  });

  it('refuses a negative unless signed', () => {
    expect(parseFixed('-1')).toBe('cannot be negative');
    expect(parseFixed('-0.5')).toBe('cannot be negative');
    expect(parseFixed('-1', true)).toBe(-1_000_000n);
    expect(parseFixed('-0.000001', true)).toBe(-1n);
    expect(parseFixed('+2.5')).toBe(2_500_000n);
  });
});

describe('fixedOf and fixedText', () => {
  it('takes a price as the decimal it was written as, not its binary neighbour', () => {
    // 187.23 is 187.229999999999989768… as a double.
    expect(fixedOf(187.23)).toBe(187_230_000n);
    expect(fixedOf(0.1 + 0.2)).toBe(300_000n);
    expect(fixedOf(0.0001)).toBe(100n);
    expect(fixedOf(-12.5)).toBe(-12_500_000n);
    expect(() => fixedOf(Number.NaN)).toThrow(RangeError);
    expect(() => fixedOf(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });

  it('writes an amount plainly, without trailing zeros', () => {
    expect(fixedText(1_500_000n)).toBe('1.5');
    expect(fixedText(0n)).toBe('0');
    expect(fixedText(1n)).toBe('0.000001');
    expect(fixedText(-1n)).toBe('-0.000001');
    expect(fixedText(-2_250_000n)).toBe('-2.25');
    expect(fixedText(123_456_789_123_456n)).toBe('123456789.123456');
  });

  it('writes an amount with at least the decimals asked for, and every one it has (a figure per share in JSON)', () => {
    expect(fixedWithDigits(200_000_000n, 2)).toBe('200.00');
    expect(fixedWithDigits(150_100_000n, 2)).toBe('150.10');
    expect(fixedWithDigits(125_108_333n, 2)).toBe('125.108333');
    expect(fixedWithDigits(100_000n, 2)).toBe('0.10');
    expect(fixedWithDigits(0n, 2)).toBe('0.00');
    expect(fixedWithDigits(-2_500_000n, 2)).toBe('-2.50');
    // Yen have no minor digits: as it is.
    expect(fixedWithDigits(2_500_000_000n, 0)).toBe('2500');
    expect(fixedWithDigits(2_500_500_000n, 0)).toBe('2500.5');
  });
});

describe('sums and products stay exact', () => {
  it('0.1 + 0.2 of cost shows as 0.30', () => {
    const position = positionOf('AAPL', [lot(1, '1', '0.1'), lot(2, '1', '0.2')], undefined, undefined);
    expect(position.cost).toBe(amount('0.3'));
    expect(formatMoney(position.cost, USD)).toBe('0.30');
  });

  it('a thousand lots of a third of a cent add up to what one multiplication gives', () => {
    const lots = Array.from({ length: 1000 }, (_, i) => lot(i, '0.333333', '0.01'));
    const position = positionOf('AAPL', lots, undefined, undefined);
    expect(position.cost).toBe(times(fixed('333.333'), fixed('0.01')));
    expect(formatMoney(position.cost, USD)).toBe('3.33');
  });
});

describe('rounding to the minor unit, once, when shown', () => {
  it('rounds half away from zero to cents', () => {
    expect(toMinor(amount('0.125'), USD)).toBe(13n);
    expect(toMinor(amount('-0.125'), USD)).toBe(-13n);
    expect(toMinor(amount('0.124999'), USD)).toBe(12n);
    expect(toMinor(amount('-0.124999'), USD)).toBe(-12n);
    expect(toMinor(amount('0.005'), USD)).toBe(1n);
    expect(toMinor(amount('0.004999'), USD)).toBe(0n);
    // A product keeps all 12 decimals until shown: half a cent exactly rounds up, a hair less down.
    expect(toMinor(times(fixed('0.5'), fixed('0.01')), USD)).toBe(1n);
    expect(toMinor(times(fixed('0.499999'), fixed('0.01')), USD)).toBe(0n);
  });

  it('yen have no decimals', () => {
    expect(JPY).toEqual({ code: 'JPY', minorDigits: 0, pricedInMinor: false });
    expect(toMinor(amount('2500.5'), JPY)).toBe(2501n);
    expect(toMinor(amount('2500.49'), JPY)).toBe(2500n);
    expect(formatMoney(times(fixed('100'), fixed('2995.58')), JPY)).toBe('299,558');
    expect(formatMinor(1500n, JPY)).toBe('1,500');
  });

  it('a London price is in pence: 1000 shares at 72.5p are £725.00', () => {
    expect(GBP).toEqual({ code: 'GBP', minorDigits: 2, pricedInMinor: true });
    expect(toMinor(times(fixed('1000'), fixed('72.5')), GBP)).toBe(72_500n);
    expect(formatMoney(times(fixed('1000'), fixed('72.5')), GBP)).toBe('725.00');
    // Half a penny rounds to the penny, not to the pound.
    expect(formatMoney(times(fixed('3'), fixed('0.5')), GBP)).toBe('0.02');
  });
});

describe('formatting', () => {
  it('groups thousands with commas', () => {
    expect(formatMinor(123_456_789n, USD)).toBe('1,234,567.89');
    expect(formatMinor(100_000n, USD)).toBe('1,000.00');
    expect(formatMinor(99_999n, USD)).toBe('999.99');
    expect(formatMinor(5n, USD)).toBe('0.05');
    expect(formatMinor(0n, USD)).toBe('0.00');
    expect(formatMoney(amount('1234567.891'), USD)).toBe('1,234,567.89');
  });

  it('a gain has its + only when signed, a loss always its -, and zero neither', () => {
    expect(formatMinor(123_456n, USD, true)).toBe('+1,234.56');
    expect(formatMinor(123_456n, USD)).toBe('1,234.56');
    expect(formatMinor(-123_456n, USD, true)).toBe('-1,234.56');
    expect(formatMinor(-123_456n, USD)).toBe('-1,234.56');
    expect(formatMinor(-5n, USD)).toBe('-0.05');
    expect(formatMinor(0n, USD, true)).toBe('0.00');
    expect(formatMinor(1n, JPY, true)).toBe('+1');
    // A loss smaller than half a cent shows as no loss at all, not as "-0.00".
    expect(formatMoney(amount('-0.004'), USD, true)).toBe('0.00');
  });
});

describe('percentOf', () => {
  it('rounds to two decimals, half away from zero', () => {
    expect(percentOf(1n, 3n)).toBe(33.33);
    expect(percentOf(2n, 3n)).toBe(66.67);
    expect(percentOf(-2n, 3n)).toBe(-66.67);
    expect(percentOf(1n, 8n)).toBe(12.5);
    // 0.005% exactly: half, away from zero either way.
    expect(percentOf(1n, 20_000n)).toBe(0.01);
    expect(percentOf(-1n, 20_000n)).toBe(-0.01);
    expect(percentOf(1n, 20_001n)).toBe(0);
    expect(percentOf(amount('1746.10'), amount('1500.50'))).toBe(116.37);
    expect(percentOf(0n, amount('10'))).toBe(0);
  });

  it('is undefined for a cost of zero or less', () => {
    expect(percentOf(5n, 0n)).toBeUndefined();
    expect(percentOf(0n, 0n)).toBeUndefined();
    expect(percentOf(5n, -1n)).toBeUndefined();
  });
});

describe('currencyOf', () => {
  it('reads the currency from the suffix', () => {
    expect(currencyOf('AAPL')).toEqual({ code: 'USD', minorDigits: 2, pricedInMinor: false });
    expect(currencyOf('SHOP.TO').code).toBe('CAD');
    expect(currencyOf('SAP.DE').code).toBe('EUR');
    expect(currencyOf('MC.PA').code).toBe('EUR');
    expect(currencyOf('0700.HK').code).toBe('HKD');
    expect(currencyOf('BHP.AX').code).toBe('AUD');
    for (const symbol of ['SHOP.TO', 'SAP.DE', 'MC.PA', '0700.HK', 'BHP.AX']) expect(currencyOf(symbol)).toMatchObject({ minorDigits: 2, pricedInMinor: false });
  });

  it('an exchange not in the table keeps its suffix as its code, so it is never added to dollars', () => {
    expect(currencyOf('ABC.XX')).toEqual({ code: '.XX', minorDigits: 2, pricedInMinor: false });
    expect(currencyOf('ABC.XX').code).not.toBe(currencyOf('AAPL').code);
  });
});
