// `tickbook holdings`: the user's lots, kept with the recorded prices for the server they are
// valued by, listed at the latest prices with totals per currency, added and removed from the shell.
import { HOLDINGS_OPTIONS } from './options.js';
import type { TickbookClient } from '../api/client.js';
import { averageCost, checkLot, dayKnown, type Lot, noLot, portfolioOf, type Position, type Total } from '../market/holdings.js';
import type { Currency } from '../market/listing.js';
import { type Exact, type Fixed, fixedOf, fixedText, fixedWithDigits, formatMoney } from '../market/money.js';
import { barStart } from '../market/bars.js';
import type { HistoryStore } from '../store/history-store.js';
import type { HistoryUse } from '../store/history-use.js';
import type { HoldingsStore } from '../store/holdings-store.js';
import { formatPrice, signedPercent } from '../text/numbers.js';
import { localToday } from '../text/time.js';
import { CONNECTION_HELP } from './connection-options.js';
import { withHistoryFile } from './history-file.js';
import { sourceFor } from './history.js';
import { formatOf, renderTable, writeJson } from './output.js';
import { parseCommandLine, symbolList, UsageError } from './usage.js';
import { withClient } from './with-client.js';

export const HOLDINGS_HELP = `Usage: tickbook holdings [--json]
       tickbook holdings add SYMBOL QUANTITY --cost PRICE [--date YYYY-MM-DD]
       tickbook holdings rm SYMBOL [--lot N]

Your positions, kept on this machine with the recorded prices, for the server that prices them.
  (none)                    each position at the latest price: quantity, average cost, value,
                            the day's change (from the day's first recorded price), profit or
                            loss and its percentage; then totals, one per currency (a listing's
                            currency comes from its suffix: none USD, .L pence sterling (valued
                            in GBP), .TO CAD, .DE and .PA EUR, .T JPY, .HK HKD, .AX AUD)
  add SYMBOL QUANTITY       a lot of QUANTITY shares bought at --cost PRICE per share (in the
                            listing's price unit: pence for .L), on --date (optional); a symbol
                            can hold several lots
  rm SYMBOL                 every lot of SYMBOL, or with --lot N only lot N (as listed)

A lot's number is given when it is added (1, 2, ... for each symbol) and never given again, not
after that lot or every lot of the symbol is removed: rm --lot 2 run twice fails the second time
(no lot 2 of AAPL: it was removed, exit 1) and never removes another lot. The list shows each
lot of a symbol under it by its number (all but a symbol's lone lot 1).

Amounts are exact decimals (up to 6 places), never rounded until shown. With --json every amount
and price is a decimal string: money to the currency's minor unit ("1501.30", yen "250000"), a
price or cost per share exact with at least as many decimals ("200.00", "125.108333"). The list
reads a history file tickbook may not write (read-only, a full disk); add and rm change nothing in
one and say which file and why, exit 1. A damaged file is moved aside and a new one started, with
the lots it still lets be read, and a change made there once; one that is not a regular file (a
FIFO, a socket) is refused saying what it is.

${CONNECTION_HELP}`;


/** What each action does with the history file, in words for its errors. */
const READ: HistoryUse = { doing: 'read the holdings in', writes: false };
const CHANGE: HistoryUse = { doing: 'change the holdings in', writes: true };

async function withHoldings<T>(use: HistoryUse, body: (history: HistoryStore, holdings: HoldingsStore) => T | Promise<T>): Promise<T> {
  const { holdingsOf } = await import('../store/holdings-store.js');
  return withHistoryFile(use, (history) => body(history, holdingsOf(history)));
}

/** An amount in the currency's major unit, exact to its minor unit, for JSON: "1872.30", "-5". */
const moneyJson = (amount: Exact | undefined, currency: Currency): string | null =>
  amount === undefined ? null : formatMoney(amount, currency).replace(/,/g, '');

/**
 * A figure per share (a price, a cost) for JSON, in the listing's price unit: exact, with at least
 * the decimals of the currency's minor unit, so that it reads as the amounts beside it: "200.00",
 * "125.108333", "72.50" (pence), "2500" (yen).
 */
const perShareJson = (figure: Fixed, currency: Currency): string => fixedWithDigits(figure, currency.minorDigits);

const lotJson = (lot: Lot, currency: Currency) => ({ lot: lot.number, quantity: fixedText(lot.quantity), cost: perShareJson(lot.cost, currency), date: lot.bought ?? null });

function positionJson(p: Position, price: number | undefined) {
  return {
    symbol: p.symbol,
    currency: p.currency.code,
    quantity: fixedText(p.quantity),
    average_cost: perShareJson(averageCost(p), p.currency),
    price: price === undefined ? null : perShareJson(fixedOf(price), p.currency),
    cost: moneyJson(p.cost, p.currency),
    value: moneyJson(p.value, p.currency),
    day: moneyJson(p.day, p.currency),
    gain: moneyJson(p.gain, p.currency),
    gain_percent: p.percent ?? null,
    lots: p.lots.map((lot) => lotJson(lot, p.currency)),
  };
}

function totalJson(t: Total) {
  return {
    currency: t.currency.code,
    cost: moneyJson(t.cost, t.currency),
    value: moneyJson(t.value, t.currency),
    // Null when no position has a price recorded today: not a day without change.
    day: moneyJson(dayKnown(t) ? t.day : undefined, t.currency),
    gain: moneyJson(t.gain, t.currency),
    gain_percent: t.percent ?? null,
    positions: t.positions,
    unpriced: t.unpriced,
    day_unknown: t.dayUnknown,
  };
}

const dash = '-';
const money = (amount: Exact | undefined, currency: Currency, signed = false): string => (amount === undefined ? dash : formatMoney(amount, currency, signed));
const percent = (value: number | undefined): string => (value === undefined ? dash : signedPercent(value));

async function list(client: TickbookClient, source: string, json: boolean): Promise<number> {
  const { lots, opens } = await withHoldings(READ, (history, holdings) => {
    const lots = holdings.list(source);
    const days = history.dayReferences(source, barStart('day', Date.now()));
    return { lots, opens: new Map([...days].map(([symbol, day]) => [symbol, day.open])) };
  });
  if (lots.length === 0) {
    if (json) writeJson({ status: 'success', positions: [], totals: [] });
    else process.stderr.write('tickbook: no holdings: tickbook holdings add AAPL 10 --cost 150\n');
    return 0;
  }
  const symbols = [...new Set(lots.map((lot) => lot.symbol))];
  const result = await client.realtimePricing(symbols);
  const prices = new Map(result.quotes.map((q) => [q.symbol, q.price]));
  const { positions, totals } = portfolioOf(lots, (s) => prices.get(s), (s) => opens.get(s));
  if (json) {
    writeJson({ status: 'success', positions: positions.map((p) => positionJson(p, prices.get(p.symbol))), totals: totals.map(totalJson) });
    return 0;
  }
  const rows: string[][] = [];
  for (const p of positions) {
    const price = prices.get(p.symbol);
    const note = result.unknown.includes(p.symbol) ? 'not served' : price === undefined ? 'no price' : formatPrice(price);
    rows.push([p.symbol, p.currency.code, fixedText(p.quantity), formatPrice(Number(fixedText(averageCost(p)))), note, money(p.value, p.currency), money(p.day, p.currency, true), money(p.gain, p.currency, true), percent(p.percent)]);
    // Its lots under it, by the numbers holdings rm --lot takes; but for a lone lot 1, whose
    // number goes without saying.
    if (p.lots.length > 1 || p.lots[0]!.number !== 1) {
      for (const lot of p.lots) rows.push([`  lot ${lot.number}`, '', fixedText(lot.quantity), formatPrice(Number(fixedText(lot.cost))), lot.bought ?? '', '', '', '', '']);
    }
  }
  const right = { align: 'right' } as const;
  process.stdout.write(
    renderTable(
      [{ title: 'SYMBOL' }, { title: 'CCY' }, { title: 'QTY', ...right }, { title: 'AVG COST', ...right }, { title: 'PRICE', ...right }, { title: 'VALUE', ...right }, { title: 'DAY', ...right }, { title: 'P/L', ...right }, { title: 'P/L %', ...right }],
      rows,
    ),
  );
  process.stdout.write('\n');
  process.stdout.write(
    renderTable(
      [{ title: 'TOTAL' }, { title: 'COST', ...right }, { title: 'VALUE', ...right }, { title: 'DAY', ...right }, { title: 'P/L', ...right }, { title: 'P/L %', ...right }, { title: '' }],
      totals.map((t) => [
        t.currency.code,
        money(t.cost, t.currency),
        money(t.value, t.currency),
        money(dayKnown(t) ? t.day : undefined, t.currency, true),
        money(t.gain, t.currency, true),
        percent(t.percent),
        [t.unpriced > 0 ? `${t.unpriced} without a price, left out` : '', t.dayUnknown > 0 ? `day: ${t.dayUnknown} with no price recorded today` : ''].filter(Boolean).join('; '),
      ]),
    ),
  );
  return 0;
}

function symbolOf(words: readonly string[], example: string): string {
  const [symbol] = symbolList('holdings', words.slice(0, 1));
  if (symbol === undefined) throw new UsageError(`expected a symbol: ${example}`);
  return symbol;
}

async function add(client: TickbookClient, source: string, words: readonly string[], values: { cost?: string | undefined; date?: string | undefined }): Promise<number> {
  const example = 'tickbook holdings add AAPL 10 --cost 150';
  const symbol = symbolOf(words, example);
  if (words[1] === undefined) throw new UsageError(`expected a quantity after the symbol: ${example}`);
  if (words.length > 2) throw new UsageError(`unexpected argument ${JSON.stringify(words[2])}`);
  if (values.cost === undefined) throw new UsageError(`option --cost (the cost per share) is required: ${example}`);
  const checked = checkLot({ quantity: words[1], cost: values.cost, date: values.date ?? '' }, localToday());
  if ('problems' in checked) throw new UsageError(Object.values(checked.problems).join('; '));
  // A symbol the server does not know is not saved: it could never be valued.
  const result = await client.realtimePricing([symbol]);
  if (result.unknown.includes(symbol)) throw new UsageError(`the symbol ${symbol} is not known to the server`);
  // Said once it is made (committed): a change is one transaction (withHistoryFile).
  const { number } = await withHoldings(CHANGE, (_, holdings) => holdings.add(source, symbol, checked.lot, Date.now()));
  process.stdout.write(`${symbol} lot ${number}: ${fixedText(checked.lot.quantity)} at ${fixedText(checked.lot.cost)}${checked.lot.bought ? ` on ${checked.lot.bought}` : ''}\n`);
  return 0;
}

async function remove(source: string, words: readonly string[], lotOption: string | undefined): Promise<number> {
  const symbol = symbolOf(words, 'tickbook holdings rm AAPL [--lot N]');
  if (words.length > 1) throw new UsageError(`unexpected argument ${JSON.stringify(words[1])}`);
  if (lotOption !== undefined && !/^[1-9][0-9]*$/.test(lotOption)) throw new UsageError(`option --lot must be a lot's number (1, 2, …, as tickbook holdings lists them), not ${JSON.stringify(lotOption)}`);
  // What was done is said once it is made (committed): a change is one transaction (withHistoryFile).
  const outcome = await withHoldings(CHANGE, (_, holdings): { said: string; code: number } => {
    const own = holdings.list(source).filter((lot) => lot.symbol === symbol);
    if (lotOption === undefined) {
      if (own.length === 0) return { said: `tickbook: no holdings of ${symbol} (tickbook holdings lists them)`, code: 1 };
      const removed = holdings.removeSymbol(source, symbol);
      return { said: `removed ${symbol}: ${removed} lot${removed === 1 ? '' : 's'}`, code: 0 };
    }
    const number = Number(lotOption);
    const lot = own.find((l) => l.number === number);
    if (lot === undefined) return { said: `tickbook: ${noLot(symbol, number, holdings.lastNumber(source, symbol))} (tickbook holdings lists them)`, code: 1 };
    holdings.remove(source, symbol, number);
    return { said: `removed ${symbol} lot ${number}: ${fixedText(lot.quantity)} at ${fixedText(lot.cost)}`, code: 0 };
  });
  (outcome.code === 0 ? process.stdout : process.stderr).write(`${outcome.said}\n`);
  return outcome.code;
}

export async function holdings(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(args, HOLDINGS_OPTIONS, true);
  const [action, ...words] = positionals;
  if (values.help) {
    process.stdout.write(HOLDINGS_HELP);
    return 0;
  }
  const format = formatOf(values, false);
  if (action !== 'add' && (values.cost !== undefined || values.date !== undefined)) throw new UsageError('options --cost and --date are for holdings add');
  if (action !== 'rm' && values.lot !== undefined) throw new UsageError('option --lot is for holdings rm');
  if (action !== undefined && action !== 'list' && format !== 'table') throw new UsageError(`option --json is for holdings (the list), not holdings ${action}`);
  switch (action) {
    case undefined:
    case 'list':
      if (words.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(words[0])}`);
      return withClient(values, ({ client, historySource }) => list(client, historySource, format === 'json'));
    case 'add':
      return withClient(values, ({ client, historySource }) => add(client, historySource, words, values));
    case 'rm':
      return remove(sourceFor(values), words, values.lot);
    default:
      throw new UsageError(`unknown holdings action ${JSON.stringify(action)}: add or rm (or none, to list)`);
  }
}
