// How a ticker pane shares its lines: the symbols' rows come first. When they do not all fit, the
// pane's status line (symbols, sort, next poll) moves up onto its title row, and the totals per
// currency fold into one line, so that a short pane (the stacked layout at 80x24) still shows
// six symbols, not one symbol over four currencies' totals.
import { HOLDINGS_COLUMNS, type HoldingsColumn } from '../../market/watchlists.js';
import { fit, width as textWidth } from '../../text/width.js';
import { type ColumnName, shownColumns, watchlistColumns } from './watchlist-columns.js';

export const isHoldingsColumn = (c: ColumnName): c is HoldingsColumn => (HOLDINGS_COLUMNS as readonly string[]).includes(c);

/** Lines of a pane around its table: two borders, the title row and the table's header. */
const FRAME_LINES = 4;

export interface TickerPaneRows {
  /** Rows under the table's header: symbols and totals. */
  table: number;
  /** The status line is on the title row, its place given to a row of the table. */
  statusOnTitle: boolean;
}

/**
 * The table's rows in a pane `height` lines tall that lists `symbols` symbols and `totals`
 * currencies' totals (0 when no holdings column is shown): the status line under the table while
 * everything fits with it there, else on the title row.
 */
export function tickerPaneRows(height: number, symbols: number, totals: number): TickerPaneRows {
  const withStatus = height - FRAME_LINES - 1;
  if (symbols + totals <= withStatus) return { table: Math.max(1, withStatus), statusOnTitle: false };
  return { table: Math.max(1, height - FRAME_LINES), statusOnTitle: true };
}

export interface TableRows {
  /** Rows for symbols. */
  symbols: number;
  /** Rows for totals: one per currency, or one line for them all (`folded`), or none. */
  totals: number;
  folded: boolean;
}

/**
 * A table of `rows` rows shared between `symbols` symbols and `totals` currencies' totals: a row
 * per currency when every symbol fits above them, else the totals on one line under as many
 * symbols as the rest holds (none in a table of one row: the symbol comes first).
 */
export function tableRows(rows: number, symbols: number, totals: number): TableRows {
  if (totals === 0 || rows < 2) return { symbols: Math.max(1, rows), totals: 0, folded: false };
  if (symbols + totals <= rows) return { symbols: rows - totals, totals, folded: false };
  return { symbols: rows - 1, totals: 1, folded: totals > 1 };
}

/** Whether the list's columns at this inner width show one of the holdings (then totals are drawn). */
export function showsHoldings(width: number, chosen: readonly ColumnName[]): boolean {
  return shownColumns(watchlistColumns(width, chosen), chosen).some(isHoldingsColumn);
}

export interface FoldGlyphs {
  /** What heads the line: Σ (or = in ASCII). */
  sum: string;
  separator: string;
  ellipsis: string;
  /** The text as the terminal can draw it (ASCII where it must be). */
  text: (text: string) => string;
}

/**
 * The totals on one line of `width` columns: `Σ USD 2,052.00 +552.00 · EUR 2,496.20 +996.20`,
 * each currency given as its code and figures. Every figure while every currency fits so, else
 * each currency's first figure (its value) when that shows more of them; then as many currencies
 * as fit, and how many more there are.
 */
export function foldedTotals(currencies: readonly (readonly string[])[], width: number, glyphs: FoldGlyphs): string {
  const line = (parts: readonly string[], shown: number): string => {
    const more = shown < parts.length ? `${glyphs.separator}+${parts.length - shown} more` : '';
    return glyphs.text(`${glyphs.sum} ${parts.slice(0, shown).join(glyphs.separator)}${more}`);
  };
  /** How many currencies of `parts` fit, at least one. */
  const fitting = (parts: readonly string[]): number => {
    let shown = parts.length;
    while (shown > 1 && textWidth(line(parts, shown)) > width) shown--;
    return shown;
  };
  const whole = currencies.map((figures) => figures.join(' '));
  const first = currencies.map((figures) => figures.slice(0, 2).join(' '));
  const parts = fitting(whole) >= fitting(first) ? whole : first;
  return fit(line(parts, fitting(parts)), width, 'left', glyphs.ellipsis);
}
