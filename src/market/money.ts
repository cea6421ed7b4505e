// Exact decimal amounts for holdings: quantities, costs and prices as integers of millionths
// (bigint), products and sums kept exact, and rounding to a currency's minor unit done once, when
// an amount is shown. Binary floating point would show 0.1 + 0.2 as 0.30000000000000004, and a
// total of many lots would drift by cents.
import type { Currency } from './listing.js';

/** Decimals kept in a quantity, a cost or a price. */
export const DECIMALS = 6;
const ONE = 10n ** BigInt(DECIMALS);
/** A product of two amounts has twice the decimals. */
const ONE_SQUARED = ONE * ONE;

/** An exact amount: `units` millionths. */
export type Fixed = bigint;

/** An exact money amount in a currency's major unit, at 12 decimals (a product of two Fixed). */
export type Exact = bigint;

/**
 * A decimal as typed ("12", "0.5", ".25", "1e3" is refused): its Fixed value, or why not. Six
 * decimals at most; a sign is refused unless `signed`.
 */
export function parseFixed(text: string, signed = false): Fixed | string {
  const trimmed = text.trim().replace(/_/g, '');
  if (trimmed === '') return 'is empty';
  const match = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(trimmed);
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) return `is not a number (${JSON.stringify(text.trim())})`;
  const [, sign, whole, fraction = ''] = match;
  if (sign === '-' && !signed) return 'cannot be negative';
  if (fraction.length > DECIMALS) return `has more than ${DECIMALS} decimals`;
  if (whole!.replace(/^0+/, '').length > 12) return 'is too large';
  const units = BigInt(whole || '0') * ONE + BigInt(fraction.padEnd(DECIMALS, '0') || '0');
  return sign === '-' ? -units : units;
}

/** A price as the market data gives it (a double), as the decimal it was written as. */
export function fixedOf(value: number): Fixed {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  // toFixed rounds the double to the nearest millionth in decimal: 187.23 → "187.230000".
  const text = value.toFixed(DECIMALS);
  const parsed = parseFixed(text, true);
  if (typeof parsed === 'string') throw new RangeError(`not an amount: ${value}`);
  return parsed;
}

/** A Fixed written plainly, without trailing zeros: 1500000n → "1.5". */
export function fixedText(value: Fixed): string {
  const sign = value < 0n ? '-' : '';
  const size = value < 0n ? -value : value;
  const whole = size / ONE;
  const fraction = (size % ONE).toString().padStart(DECIMALS, '0').replace(/0+$/, '');
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * A Fixed with every decimal it has, and at least `digits` of them: 200000000n, 2 → "200.00";
 * 125108333n, 2 → "125.108333"; 2500000000n, 0 → "2500".
 */
export function fixedWithDigits(value: Fixed, digits: number): string {
  const text = fixedText(value);
  const dot = text.indexOf('.');
  const has = dot < 0 ? 0 : text.length - dot - 1;
  return has >= digits ? text : `${text}${dot < 0 ? '.' : ''}${'0'.repeat(digits - has)}`;
}

/** quantity × price, exact. */
export const times = (quantity: Fixed, price: Fixed): Exact => quantity * price;

/**
 * An exact amount (in the listing's price unit, 12 decimals) rounded to the currency's minor unit,
 * half away from zero: 0.125 dollars → 13 cents.
 */
export function toMinor(amount: Exact, currency: Currency): bigint {
  // Pence priced: the amount is in minor units already.
  const scaled = currency.pricedInMinor ? amount : amount * 10n ** BigInt(currency.minorDigits);
  const negative = scaled < 0n;
  const size = negative ? -scaled : scaled;
  const rounded = (size + ONE_SQUARED / 2n) / ONE_SQUARED;
  return negative ? -rounded : rounded;
}

/** Digits grouped by thousands with commas: "1234567" → "1,234,567". */
const grouped = (digits: string): string => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/**
 * An amount in minor units written in the major unit, grouped: 123456n USD → "1,234.56", 1500n
 * JPY → "1,500". `signed` puts + before a gain; a loss always has its -.
 */
export function formatMinor(minor: bigint, currency: Currency, signed = false): string {
  const negative = minor < 0n;
  const size = negative ? -minor : minor;
  const base = 10n ** BigInt(currency.minorDigits);
  const whole = grouped((size / base).toString());
  const fraction = currency.minorDigits > 0 ? `.${(size % base).toString().padStart(currency.minorDigits, '0')}` : '';
  const sign = negative ? '-' : signed && size > 0n ? '+' : '';
  return `${sign}${whole}${fraction}`;
}

/** An exact amount rounded and written: `formatMinor(toMinor(…))`. */
export const formatMoney = (amount: Exact, currency: Currency, signed = false): string => formatMinor(toMinor(amount, currency), currency, signed);

/**
 * `part` as a percentage of `whole`, to two decimals (rounded half away from zero), as a number
 * to show; undefined when `whole` is not above zero.
 */
export function percentOf(part: Exact, whole: Exact): number | undefined {
  if (whole <= 0n) return undefined;
  const hundredths = (part * 10_000n * 2n + (part < 0n ? -whole : whole)) / (2n * whole);
  return Number(hundredths) / 100;
}
