// Holdings as plain rules: a lot checked field by field, a symbol's lots valued at a price, and
// totals kept apart by currency (dollars and yen are never added together).
import { type Currency, currencyOf } from './listing.js';
import { type Exact, type Fixed, fixedOf, parseFixed, percentOf, times } from './money.js';

/** One purchase: how many, at what cost per share (in the listing's price unit), and when. */
export interface Lot {
  symbol: string;
  /** Its number among the symbol's lots: given once, never again (holdings-store.ts). */
  number: number;
  quantity: Fixed;
  cost: Fixed;
  /** YYYY-MM-DD, when given. */
  bought: string | undefined;
}

/**
 * Why there is no lot `number` of `symbol`, given the last number the symbol was given: "no lot 2
 * of AAPL: it was removed", "no lot 9 of AAPL: the last added is lot 3".
 */
export function noLot(symbol: string, number: number, last: number): string {
  const why = number <= last ? 'it was removed' : last === 0 ? `no lot of ${symbol} was ever added` : `the last added is lot ${last}`;
  return `no lot ${number} of ${symbol}: ${why}`;
}

/** A lot as typed in a form or on a command line. */
export interface LotInput {
  quantity: string;
  cost: string;
  /** YYYY-MM-DD or empty. */
  date: string;
}

export type LotField = keyof LotInput;

export type CheckedLot = Pick<Lot, 'quantity' | 'cost' | 'bought'>;

/** What each field is called in a message. */
export const LOT_FIELD_NAMES: Readonly<Record<LotField, string>> = { quantity: 'quantity', cost: 'cost per share', date: 'date' };

function positive(field: LotField, text: string): Fixed | string {
  const value = parseFixed(text);
  const name = LOT_FIELD_NAMES[field];
  if (typeof value === 'string') return `${name} ${value}`;
  if (value <= 0n) return `${name} must be greater than 0`;
  return value;
}

/** Why `text` is not a purchase date on or before `today` (both YYYY-MM-DD), or undefined. */
export function dateProblem(text: string, today: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(trimmed);
  if (!match) return `date must be written YYYY-MM-DD, not ${JSON.stringify(trimmed)}`;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // setUTCFullYear, not Date.UTC: the latter reads years 0-99 as 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return `date ${trimmed} is not a day of the calendar`;
  if (trimmed > today) return `date ${trimmed} is in the future`;
  return undefined;
}

/** The lot the fields give, or what is wrong with each field that is wrong. */
export function checkLot(input: LotInput, today: string): { lot: CheckedLot } | { problems: Partial<Record<LotField, string>> } {
  const problems: Partial<Record<LotField, string>> = {};
  const quantity = positive('quantity', input.quantity);
  const cost = positive('cost', input.cost);
  if (typeof quantity === 'string') problems.quantity = quantity;
  if (typeof cost === 'string') problems.cost = cost;
  const date = dateProblem(input.date, today);
  if (date !== undefined) problems.date = date;
  if (typeof quantity === 'string' || typeof cost === 'string' || date !== undefined) return { problems };
  return { lot: { quantity, cost, bought: input.date.trim() || undefined } };
}

/** A symbol's lots valued at its price. Amounts are exact, in the listing's price unit. */
export interface Position {
  symbol: string;
  currency: Currency;
  lots: Lot[];
  quantity: Fixed;
  /** What was paid, all lots. */
  cost: Exact;
  /** At the last price; undefined without one. */
  value: Exact | undefined;
  /** The change since the day's open (its first recorded price); undefined without both. */
  day: Exact | undefined;
  /** value − cost. */
  gain: Exact | undefined;
  /** gain as a percentage of cost, to 2 decimals. */
  percent: number | undefined;
}

/** The position of `lots` (all of one symbol) at `price`, with the day measured from `dayOpen`. */
export function positionOf(symbol: string, lots: readonly Lot[], price: number | undefined, dayOpen: number | undefined): Position {
  let quantity = 0n;
  let cost = 0n;
  for (const lot of lots) {
    quantity += lot.quantity;
    cost += times(lot.quantity, lot.cost);
  }
  const last = price === undefined ? undefined : fixedOf(price);
  const value = last === undefined ? undefined : times(quantity, last);
  const day = last === undefined || dayOpen === undefined ? undefined : times(quantity, last - fixedOf(dayOpen));
  const gain = value === undefined ? undefined : value - cost;
  return { symbol, currency: currencyOf(symbol), lots: [...lots], quantity, cost, value, day, gain, percent: gain === undefined ? undefined : percentOf(gain, cost) };
}

/** One currency's sums. A position without a price is counted in `unpriced`, not in the sums. */
export interface Total {
  currency: Currency;
  cost: Exact;
  value: Exact;
  /** The day's change of the positions whose open is known (`dayUnknown` are not). */
  day: Exact;
  gain: Exact;
  percent: number | undefined;
  positions: number;
  unpriced: number;
  dayUnknown: number;
}

/** Totals per currency, in the order the currencies first appear. */
export function totalsOf(positions: readonly Position[]): Total[] {
  const totals = new Map<string, Total>();
  for (const p of positions) {
    let total = totals.get(p.currency.code);
    if (!total) {
      total = { currency: p.currency, cost: 0n, value: 0n, day: 0n, gain: 0n, percent: undefined, positions: 0, unpriced: 0, dayUnknown: 0 };
      totals.set(p.currency.code, total);
    }
    total.positions++;
    if (p.value === undefined || p.gain === undefined) {
      total.unpriced++;
      continue;
    }
    total.cost += p.cost;
    total.value += p.value;
    total.gain += p.gain;
    if (p.day === undefined) total.dayUnknown++;
    else total.day += p.day;
  }
  return [...totals.values()].map((t) => ({ ...t, percent: percentOf(t.gain, t.cost) }));
}

/** Lots grouped by symbol, symbols in the order their first lot comes. */
export function lotsBySymbol(lots: readonly Lot[]): Map<string, Lot[]> {
  const by = new Map<string, Lot[]>();
  for (const lot of lots) {
    const list = by.get(lot.symbol);
    if (list) list.push(lot);
    else by.set(lot.symbol, [lot]);
  }
  return by;
}

/** Every position of `lots` at the prices known, and their totals per currency. */
export function portfolioOf(
  lots: readonly Lot[],
  price: (symbol: string) => number | undefined,
  dayOpen: (symbol: string) => number | undefined,
): { positions: Position[]; totals: Total[] } {
  const positions = [...lotsBySymbol(lots)].map(([symbol, own]) => positionOf(symbol, own, price(symbol), dayOpen(symbol)));
  return { positions, totals: totalsOf(positions) };
}

/** The average cost per share of a position, in its price unit, rounded half away from zero. */
export const averageCost = (position: Position): Fixed => (position.quantity > 0n ? (2n * position.cost + position.quantity) / (2n * position.quantity) : 0n);

/** Whether any priced position of the total has the day's open recorded (its day P/L means something). */
export const dayKnown = (total: Total): boolean => total.dayUnknown < total.positions - total.unpriced;
