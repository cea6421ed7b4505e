// `tickbook history SYMBOL`: the prices recorded on this machine, from the history file alone
// (no request is made): raw ticks for the last day, or minute and day bars.
import { BAR_SPANS, HISTORY_OPTIONS } from './options.js';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, configFilePath, readConfigFile } from '../config/config-file.js';
import { resolveConnection } from '../config/connection.js';
import { defaultDatabasePath } from '../config/paths.js';
import { type Bar, DAY_MS, HOUR_MS, MINUTE_MS, type Tick } from '../market/bars.js';
import { historyPath, historySource } from '../store/history-source.js';
import { formatPrice } from '../text/numbers.js';
import { sanitize } from '../text/sanitize.js';
import { localDateTime } from '../text/time.js';
import { formatOf, renderTable, writeJson, writeNdjson } from './output.js';
import { warn } from './poll-loop.js';
import { nonEmptyOption, parseCommandLine, symbolList, UsageError } from './usage.js';

export const HISTORY_HELP = `Usage: tickbook history SYMBOL [--since 1h|1d|7d|DATE] [--bars 1m|1d] [--json|--ndjson|--csv]

Prices recorded on this machine by the dashboard and quote --watch, for the server they came
from (the embedded sandbox, or the market data URL configured). No request is made.
  --since WHEN              from when: 30m, 1h, 1d, 7d, 2w (ago), all, or a local date or time
                            (2026-11-20, 2026-11-20T09:30); default 1h for ticks, 1d for 1m
                            bars, 30d for 1d bars
  --bars 1m|1d              minute or day bars (open, high, low, close, volume traded);
                            without it, the prices as received (kept for 24 hours)
  --base-url URL  --market-data-url URL
                            which server's prices (as the other commands choose it)
Output:
  --json  --ndjson  --csv   times in ISO 8601 (UTC); the table shows local time
  -h, --help                show this help

Ticks are kept 24 hours, minute bars 30 days, day bars 2 years, in ${'$'}XDG_DATA_HOME/tickbook/history.db;
a damaged one is moved aside and a new one started (keeping its alerts and lots); one that is not a
regular file (a FIFO, a socket) is refused saying what it is.
Exit status: 0 with prices printed, 1 when none are recorded for the span, 2 a usage error.
`;


const UNITS: Readonly<Record<string, number>> = { m: MINUTE_MS, h: HOUR_MS, d: DAY_MS, w: 7 * DAY_MS };

/** `--since`: an age (30m, 1h, 7d, 2w), `all`, or a local date or date and time. */
export function parseSince(raw: string, now: number): number {
  const text = raw.trim();
  if (text === 'all') return 0;
  const age = /^([0-9]+)\s*([mhdw])$/.exec(text);
  if (age && Number(age[1]) > 0) return now - Number(age[1]) * UNITS[age[2]!]!;
  const date = /^([0-9]{4})-([0-9]{2})-([0-9]{2})(?:[T ]([0-9]{2}):([0-9]{2})(?::([0-9]{2}))?)?$/.exec(text);
  if (date) {
    const [year, month, day, hours = 0, minutes = 0, seconds = 0] = date.slice(1).map((part) => (part === undefined ? undefined : Number(part)));
    const when = new Date(year!, month! - 1, day, hours, minutes, seconds);
    // new Date rolls 2026-02-31 over into March: a date that does not exist is a mistake.
    if (when.getMonth() === month! - 1 && when.getDate() === day && hours! < 24 && minutes! < 60 && seconds! < 60) return when.getTime();
  }
  throw new UsageError(`option --since must be an age like 30m, 1h, 7d or 2w, "all", or a date like 2026-11-20 or 2026-11-20T09:30, not ${JSON.stringify(raw)}`);
}

const iso = (t: number): string => new Date(t).toISOString();

/** The server whose prices are asked for, named as the recorders name it (no request is made). */
export function sourceFor(values: { 'base-url'?: string | undefined; 'market-data-url'?: string | undefined }): string {
  const path = configFilePath();
  try {
    const { config } = readConfigFile(path);
    const connection = resolveConnection(
      { baseUrl: nonEmptyOption('base-url', values['base-url']), marketDataUrl: nonEmptyOption('market-data-url', values['market-data-url']) },
      process.env,
      config,
      { configPath: path },
    );
    return historySource(
      connection.mode === 'sandbox' ? { sandboxDbPath: resolve(defaultDatabasePath()), marketDataUrl: '' } : { marketDataUrl: connection.marketDataUrl },
    );
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}

interface Columns<R> {
  header: readonly string[];
  align: readonly ('left' | 'right')[];
  /** The record's cells for the table (local time, prices as the dashboard shows them). */
  cells(record: R): string[];
  /** The record's fields for JSON and CSV, the time first. */
  fields(record: R): Record<string, string | number>;
}

const TICK_COLUMNS: Columns<Tick> = {
  header: ['TIME', 'PRICE', 'VOLUME'],
  align: ['left', 'right', 'right'],
  cells: (tick) => [localDateTime(tick.t), formatPrice(tick.price), tick.volume.toLocaleString('en-US')],
  fields: (tick) => ({ time: iso(tick.t), price: tick.price, volume: tick.volume }),
};

const BAR_COLUMNS: Columns<Bar> = {
  header: ['TIME', 'OPEN', 'HIGH', 'LOW', 'CLOSE', 'VOLUME'],
  align: ['left', 'right', 'right', 'right', 'right', 'right'],
  cells: (bar) => [localDateTime(bar.t), ...[bar.open, bar.high, bar.low, bar.close].map(formatPrice), bar.volume.toLocaleString('en-US')],
  fields: (bar) => ({ time: iso(bar.t), open: bar.open, high: bar.high, low: bar.low, close: bar.close, volume: bar.volume }),
};

function print<R>(columns: Columns<R>, records: readonly R[], format: 'table' | 'json' | 'ndjson' | 'csv', meta: { symbol: string; source: string; bars: string | null }): void {
  if (format === 'json') writeJson({ status: 'success', ...meta, data: records.map(columns.fields) });
  else if (format === 'ndjson') writeNdjson(records.map((record) => ({ symbol: meta.symbol, ...columns.fields(record) })));
  else if (format === 'csv') {
    // Times in ISO form and numbers: nothing here ever needs quoting.
    const rows = records.map((record) => Object.values(columns.fields(record)).join(','));
    process.stdout.write([Object.keys(columns.fields(records[0]!)).join(','), ...rows].join('\n') + '\n');
  } else {
    const table = columns.header.map((title, i) => ({ title, align: columns.align[i]! }));
    process.stdout.write(renderTable(table, records.map(columns.cells)));
  }
}

export async function history(args: readonly string[], now = Date.now()): Promise<number> {
  const { values, positionals } = parseCommandLine(args, HISTORY_OPTIONS, true);
  if (values.help) {
    process.stdout.write(HISTORY_HELP);
    return 0;
  }
  if ([values.json, values.ndjson, values.csv].filter(Boolean).length > 1) throw new UsageError('choose one of --json, --ndjson and --csv');
  const format = values.csv ? 'csv' : formatOf(values);
  const symbols = symbolList('history', positionals);
  if (symbols.length !== 1) throw new UsageError('expected one symbol: tickbook history AAPL');
  const symbol = symbols[0]!;
  const bars = values.bars;
  if (bars !== undefined && !(BAR_SPANS as readonly string[]).includes(bars)) throw new UsageError(`option --bars must be 1m or 1d, not ${JSON.stringify(bars)}`);
  const since = parseSince(values.since ?? (bars === '1d' ? '30d' : bars === '1m' ? '1d' : '1h'), now);
  const source = sourceFor(values);
  const path = historyPath();
  const meta = { symbol, source, bars: bars ?? null };

  // Reading creates nothing: no file is no prices.
  let records: Tick[] | Bar[] = [];
  if (existsSync(path)) {
    const { readHistory } = await import('../store/history-use.js');
    const read = readHistory(
      path,
      (store) => (bars === undefined ? store.ticks(source, symbol, since, now) : store.bars(source, symbol, bars === '1m' ? 'minute' : 'day', since, now)),
      { onWarning: (w) => warn(`warning: ${w}`) },
    );
    records = read ?? [];
  }
  if (bars === undefined && since < now - DAY_MS) {
    process.stderr.write('tickbook: prices as received are kept for 24 hours; --bars 1m goes back 30 days, --bars 1d two years\n');
  }
  if (records.length === 0) {
    // The source names a path or URL the user gave: shown as any text from outside is.
    process.stderr.write(`tickbook: ${sanitize(`no prices of ${symbol} recorded from ${source} since ${since === 0 ? 'recording began' : localDateTime(since)}`)}\n`);
    if (format === 'json') writeJson({ status: 'success', ...meta, data: [] });
    return 1;
  }
  if (bars === undefined) print(TICK_COLUMNS, records as Tick[], format, meta);
  else print(BAR_COLUMNS, records as Bar[], format, meta);
  return 0;
}
