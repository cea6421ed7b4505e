// Which columns a watchlist shows, in which order, and how wide each is at a pane's width: the
// list's own choice, less what a narrow pane cannot hold, least useful first.
import { COLUMN_NAMES, type ColumnName, MARKET_COLUMNS } from '../../market/watchlists.js';

export { COLUMN_NAMES, type ColumnName, MARKET_COLUMNS };

/** Widths of the columns shown (the symbol always first), 0 for one not shown. */
export type WatchlistColumns = Record<'symbol' | ColumnName, number>;

/** Given up first when the pane is too narrow for the columns chosen: the price never. */
export const DROP_ORDER: readonly ColumnName[] = ['name', 'trend', 'age', 'volume', 'session', 'qty', 'day_pl', 'change', 'value', 'pl', 'pl_pct'];

/** Columns of a set width, and their widths. */
const FIXED: Readonly<Record<Exclude<'symbol' | ColumnName, 'name' | 'trend'>, number>> = {
  symbol: 8,
  price: 9,
  change: 8,
  session: 8,
  volume: 6,
  age: 3,
  qty: 7,
  value: 10,
  day_pl: 9,
  pl: 10,
  pl_pct: 8,
};

/** The columns of a set width, in the order they are laid out when chosen. */
const FIXED_COLUMNS = ['price', 'change', 'session', 'volume', 'age', 'qty', 'value', 'day_pl', 'pl', 'pl_pct'] as const;

/** The columns that take what the name and the trend leave, in turn, one at a time. */
const WIDENED = ['symbol', 'price', 'volume', 'session', 'change'] as const;

const TREND_MIN = 7;
const TREND_MAX = 16;
const NAME_MIN = 9;

/**
 * Column widths for the pane's inner width and the columns chosen: the name and trend only when
 * there is room (the trend first), fixed columns dropped in DROP_ORDER when even they do not fit,
 * and every column left over given to the others, so a row is never shorter than its pane.
 */
export function watchlistColumns(width: number, chosen: readonly ColumnName[] = MARKET_COLUMNS): WatchlistColumns {
  let fixed = FIXED_COLUMNS.filter((c) => c === 'price' || chosen.includes(c));
  // The symbol, then each column shown after a space.
  const widthOf = (shown: readonly (keyof typeof FIXED)[]) => FIXED.symbol + shown.reduce((sum, c) => sum + FIXED[c] + 1, 0);
  for (const column of DROP_ORDER) {
    if (widthOf(fixed) <= width) break;
    fixed = fixed.filter((c) => c !== column);
  }
  const room = Math.max(0, width - widthOf(fixed));
  const trend = chosen.includes('trend') && room >= TREND_MIN ? Math.min(TREND_MAX, room - 1) : 0;
  const afterTrend = room - (trend ? trend + 1 : 0);
  const name = chosen.includes('name') && afterTrend >= NAME_MIN ? afterTrend - 1 : 0;
  const columns: WatchlistColumns = { symbol: FIXED.symbol, name, price: 0, change: 0, session: 0, volume: 0, trend, age: 0, qty: 0, value: 0, day_pl: 0, pl: 0, pl_pct: 0 };
  for (const c of fixed) columns[c] = FIXED[c];
  let spare = afterTrend - (name ? name + 1 : 0);
  const widened = WIDENED.filter((c) => columns[c] > 0);
  for (let i = 0; spare > 0; i++, spare--) columns[widened[i % widened.length]!] += 1;
  return columns;
}

/** The columns drawn, in the list's order after the symbol: those chosen that have room. */
export const shownColumns = (widths: WatchlistColumns, chosen: readonly ColumnName[]): ColumnName[] =>
  chosen.filter((c) => widths[c] > 0);
