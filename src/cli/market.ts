// `tickbook quote` and `tickbook symbols`: the market data operations, scriptable.
import { QUOTE_OPTIONS, SYMBOLS_OPTIONS } from './options.js';
import { describeRejected } from '../api/types.js';
import { formatPrice as price } from '../text/numbers.js';
import { sanitize } from '../text/sanitize.js';
import { CONNECTION_HELP } from './connection-options.js';
import { formatOf, renderTable, writeJson, writeNdjson } from './output.js';
import { integerOption, nonEmptyOption, parseCommandLine, symbolList, UsageError } from './usage.js';
import { watchQuotes } from './watch-quotes.js';
import { withClient } from './with-client.js';

export const QUOTE_HELP = `Usage: tickbook quote SYMBOL... [--watch [--interval N]]

Real-time prices and the day's volume. Symbols are separated by spaces or commas; unknown
symbols are listed, not fatal, and one that cannot be a symbol is a usage error.
  --watch                   ask again every interval and print a line per tick (with --ndjson,
                            an object per symbol per tick, with its time), until Ctrl-C or the
                            reader leaves, exit 0; the prices are recorded (tickbook history),
                            and while another process holds the history or the disk is full
                            that is said once on stderr and they are kept until it can be
  --interval N              seconds between ticks with --watch, 1 to 3600 (default 2)

${CONNECTION_HELP}`;

export const SYMBOLS_HELP = `Usage: tickbook symbols [--search TEXT]

The symbols catalogue: every listing with its company name.
  --search TEXT             only symbols starting with TEXT, or names containing it

${CONNECTION_HELP}`;

const volume = (value: number): string => value.toLocaleString('en-US');


export async function quote(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(args, QUOTE_OPTIONS, true);
  if (values.help) {
    process.stdout.write(QUOTE_HELP);
    return 0;
  }
  const format = formatOf(values);
  // "AAPL,MSFT" reads naturally too. A symbol the API could never know is the caller's mistake,
  // not an unknown symbol; only one that could be listed is asked about.
  const symbols = symbolList('quote', positionals);
  if (symbols.length === 0) throw new UsageError('expected at least one symbol: tickbook quote AAPL MSFT');
  const intervalS = integerOption('interval', values.interval, 1, 3600);
  if (values.watch) {
    if (format === 'json') throw new UsageError('--watch prints as it goes: use --ndjson, not --json');
    return withClient(values, (opened) => watchQuotes(opened, symbols, { intervalS: intervalS ?? 2, ndjson: format === 'ndjson' }));
  }
  if (intervalS !== undefined) throw new UsageError('option --interval is for --watch');
  return withClient(values, async ({ client }) => {
    const result = await client.realtimePricing(symbols);
    const data = result.quotes.map((q) => ({ symbol: q.symbol, price: q.price, volume: q.volume }));
    if (format === 'json') {
      const rejected = result.rejected.map(({ symbol, reason }) => ({ symbol: symbol ?? null, reason }));
      writeJson({ status: 'success', stock_symbols: result.symbols, stock_data: data, unknown_symbols: result.unknown, left_out: rejected });
    } else if (format === 'ndjson') {
      writeNdjson(data);
    } else {
      const rows = result.quotes.map((q) => [q.symbol, price(q.price), volume(q.volume)]);
      const columns = [{ title: 'SYMBOL' }, { title: 'PRICE', align: 'right' as const }, { title: 'VOLUME', align: 'right' as const }];
      if (rows.length > 0) process.stdout.write(renderTable(columns, rows));
    }
    if (result.unknown.length > 0) process.stderr.write(`unknown: ${result.unknown.join(' ')}\n`);
    // A record that was not a price is left out and named; the others are printed.
    for (const rejected of result.rejected) process.stderr.write(`left out ${sanitize(describeRejected(rejected))}\n`);
    // Nothing priced at all is a failure a script should see.
    return result.quotes.length === 0 ? 1 : 0;
  });
}


export async function symbols(args: readonly string[]): Promise<number> {
  const { values } = parseCommandLine(args, SYMBOLS_OPTIONS, false);
  if (values.help) {
    process.stdout.write(SYMBOLS_HELP);
    return 0;
  }
  const format = formatOf(values);
  const search = nonEmptyOption('search', values.search)?.trim().toLowerCase();
  return withClient(values, async ({ client }) => {
    const all = await client.listSymbols();
    const found = search === undefined
      ? all
      : all.filter((s) => s.symbol.toLowerCase().startsWith(search) || s.name.toLowerCase().includes(search));
    if (format === 'json') writeJson({ status: 'success', stock_symbols: found });
    else if (format === 'ndjson') writeNdjson(found);
    else process.stdout.write(renderTable([{ title: 'SYMBOL' }, { title: 'NAME' }], found.map((s) => [s.symbol, s.name])));
    return 0;
  });
}
