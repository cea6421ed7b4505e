// The watchlist as a table: price, tick change with arrows, session change, volume, sparkline
// and age; stale rows dimmed, unknown symbols said so in their row.
import { Box, Text } from 'ink';
import { compactNumber, formatChange, formatPrice, shortAge, signedPercent } from '../../text/numbers.js';
import { drawn } from '../../text/sanitize.js';
import { fit, width as textWidth } from '../../text/width.js';
import { type ListCommands, useMouseArea } from '../mouse/mouse-areas.js';
import { usePagerTop } from '../state/scroll.js';
import { isStale, sessionChange, type SortOrder, type SymbolRow } from './ticker-state.js';
import { BOLD_OFF, BOLD_ON, INVERSE_OFF, INVERSE_ON } from '../style/attributes.js';
import { useGlyphs } from '../style/glyphs.js';
import { changeColor, painted, useTheme } from '../style/theme.js';
import { sparkline } from './Sparkline.js';
import { type ColumnName, MARKET_COLUMNS, shownColumns, watchlistColumns } from './watchlist-columns.js';
import type { HoldingsColumn } from '../../market/watchlists.js';
import { foldedTotals, isHoldingsColumn, tableRows } from './ticker-rows.js';
import { dayKnown, type Position, type Total } from '../../market/holdings.js';
import type { Currency } from '../../market/listing.js';
import { type Exact, fixedText, formatMoney } from '../../market/money.js';

export { watchlistColumns };

export interface WatchlistTableProps {
  symbols: readonly string[];
  rows: Readonly<Record<string, SymbolRow>>;
  unknown: ReadonlySet<string>;
  /** Symbols whose last record was not a price, with why. */
  rejected: ReadonlyMap<string, string>;
  names: ReadonlyMap<string, string>;
  cursor: number;
  width: number;
  height: number;
  intervalS: number;
  now: number;
  focused: boolean;
  /** What a click, a double-click and the wheel run on its rows. */
  mouse?: ListCommands | undefined;
  /** The column sorted by is marked in the header with the direction of its order. */
  sort?: SortOrder | undefined;
  descending?: boolean | undefined;
  /** The digits a new price changed are shown bold in its direction's colour for a moment. */
  motion?: boolean | undefined;
  /** The list's columns, in order, after the symbol (default: all). */
  columns?: readonly ColumnName[] | undefined;
  /** When an alert on a symbol last fired: its row stands out for ALERT_FLASH_MS. */
  alerted?: ReadonlyMap<string, number> | undefined;
  holdings?: HoldingsShown | undefined;
}

/** How long a row whose alert fired stands out (until the first age frame after it). */
export const ALERT_FLASH_MS = 3000;

const TITLES: Record<'symbol' | ColumnName, string> = {
  symbol: 'SYMBOL',
  name: 'NAME',
  price: 'PRICE',
  change: 'TICK',
  session: 'SESSION',
  volume: 'VOLUME',
  trend: 'TREND',
  age: 'AGE',
  qty: 'QTY',
  value: 'VALUE',
  day_pl: 'DAY P/L',
  pl: 'P/L',
  pl_pct: 'P/L%',
};
const RIGHT: ReadonlySet<string> = new Set(['price', 'change', 'session', 'volume', 'age', 'qty', 'value', 'day_pl', 'pl', 'pl_pct']);

/** The positions of the list's symbols and their totals, one row per currency. */
export interface HoldingsShown {
  positions: ReadonlyMap<string, Position>;
  totals: readonly Total[];
  /** The money is hidden (for sharing a screen): quantities, values and P/L show as dots. */
  hidden: boolean;
  /** Each symbol's first recorded price today, the day's P/L measured from. */
  dayOpens: ReadonlyMap<string, number>;
}

/** Titles short enough to keep the sort's arrow in a column at its narrowest. */
const SHORT_TITLES: Partial<Record<'symbol' | ColumnName, string>> = { volume: 'VOL', session: 'SESS' };

/** How long changed digits stand out: until the frame that counts the price's first second. */
const FLASH_MS = 1000;

/** Where `now` and `before`, written alike in a cell, first differ: the digits that changed follow. */
export function changedFrom(now: string, before: string): number {
  let i = 0;
  while (i < now.length && now[i] === before[i]) i++;
  return i;
}

/** The header column each sort orders by. */
const SORTED_COLUMN: Partial<Record<SortOrder, 'symbol' | ColumnName>> = { symbol: 'symbol', price: 'price', change: 'change', session: 'session', volume: 'volume' };

export function WatchlistTable(props: WatchlistTableProps) {
  const theme = useTheme();
  const glyphs = useGlyphs();
  const cut = glyphs.ellipsis;
  const chosen = props.columns ?? MARKET_COLUMNS;
  const columns = watchlistColumns(props.width, chosen);
  const order = shownColumns(columns, chosen);
  // A to Z reads as up, largest first as down; a flipped sort the other way.
  const sorted = props.sort === undefined ? undefined : SORTED_COLUMN[props.sort];
  const ascending = props.sort === 'symbol' ? !props.descending : Boolean(props.descending);
  const title = (column: 'symbol' | ColumnName) => {
    if (column !== sorted) return TITLES[column];
    const arrow = ascending ? glyphs.up : glyphs.down;
    const full = `${TITLES[column]}${arrow}`;
    return textWidth(full) <= columns[column] ? full : `${SHORT_TITLES[column] ?? TITLES[column]}${arrow}`;
  };
  const header = (['symbol', ...order] as const).map((c) => fit(title(c), columns[c], RIGHT.has(c) ? 'right' : 'left'));
  const holdings = props.holdings;
  // A totals row per currency, under the rows, when a holdings column is shown; folded into one
  // line when the rows would give a symbol's place to them.
  const allTotals = holdings && order.some(isHoldingsColumn) ? holdings.totals : [];
  const share = tableRows(props.height, props.symbols.length, allTotals.length);
  const totals = share.folded ? [] : allTotals.slice(0, share.totals);
  const symbolRows = share.symbols;
  const top = usePagerTop(props.symbols.length, props.cursor, symbolRows);
  const shown = props.symbols.slice(top, top + symbolRows);
  const ref = useMouseArea(props.mouse && { kind: 'rows', first: 1, top, rows: symbolRows, cursor: props.cursor, count: props.symbols.length, commands: props.mouse });
  const dots = glyphs.masked;
  /** A money cell: the amount (signed and coloured for a gain or loss), dots when hidden, blank when unknown. */
  const moneyCell = (column: HoldingsColumn, amount: Exact | undefined, currency: Currency, signed: boolean): string => {
    if (amount === undefined) return fit('', columns[column]);
    if (holdings?.hidden) return fit(dots, columns[column], 'right');
    const text = fit(formatMoney(amount, currency, signed), columns[column], 'right', cut);
    return painted(text, signed ? changeColor(theme, amount) : undefined);
  };
  /** The totals on one line: each currency's figures of the columns shown (not QTY), as many as fit. */
  const foldedLine = (): string => {
    const figures = (total: Total): string[] =>
      order.flatMap((c) => {
        const money = (amount: Exact | undefined, signed: boolean) => (amount === undefined ? [] : [holdings?.hidden ? dots : formatMoney(amount, total.currency, signed)]);
        if (c === 'value') return money(total.value, false);
        if (c === 'day_pl') return money(dayKnown(total) ? total.day : undefined, true);
        if (c === 'pl') return money(total.gain, true);
        if (c === 'pl_pct') return total.percent === undefined ? [] : [signedPercent(total.percent)];
        return [];
      });
    return foldedTotals(
      allTotals.map((total) => [total.currency.code, ...figures(total), ...(total.unpriced > 0 ? [`${total.unpriced} unpriced`] : [])]),
      props.width,
      { sum: glyphs.unicode ? 'Σ' : '=', separator: glyphs.separator, ellipsis: cut, text: glyphs.text },
    );
  };
  const percentCell = (value: number | undefined): string => {
    if (value === undefined) return fit('', columns.pl_pct);
    return painted(fit(signedPercent(value), columns.pl_pct, 'right', cut), changeColor(theme, value));
  };
  const holdingsCells = (figures: Pick<Position, 'value' | 'day' | 'gain' | 'percent' | 'currency'> & { quantity?: bigint }): Record<HoldingsColumn, () => string> => ({
    qty: () =>
      figures.quantity === undefined ? fit('', columns.qty) : holdings?.hidden ? fit(dots, columns.qty, 'right') : fit(fixedText(figures.quantity), columns.qty, 'right', cut),
    value: () => moneyCell('value', figures.value, figures.currency, false),
    day_pl: () => moneyCell('day_pl', figures.day, figures.currency, true),
    pl: () => moneyCell('pl', figures.gain, figures.currency, true),
    pl_pct: () => percentCell(figures.percent),
  });
  /**
   * A row's cells run together as one string, colours written into it (`painted`): a tick
   * redraws every row, and each nested Text was several nodes more for React and Ink. A cell
   * with nothing (no lots, no name) is blank at its width.
   */
  const joined = (head: string, cells: Partial<Record<ColumnName, () => string | undefined>>, tail: string): string => {
    let text = head;
    for (const c of order) text += ` ${cells[c]?.() ?? fit('', columns[c])}`;
    return text + tail;
  };

  return (
    <Box ref={ref} flexDirection="column" height={props.height + 1}>
      <Text bold wrap="truncate-end" {...(theme.muted && { color: theme.muted })}>
        {header.join(' ')}
      </Text>
      {props.symbols.length === 0 ? (
        <Text {...(theme.muted && { color: theme.muted })}>the watchlist is empty: press / to add symbols</Text>
      ) : null}
      {shown.map((symbol, i) => {
        const selected = props.focused && top + i === props.cursor;
        const row = props.rows[symbol];
        const name = order.includes('name') ? [fit(drawn(props.names.get(symbol) ?? ''), columns.name, 'left', cut)] : [];
        const rejected = props.rejected.get(symbol);
        if (!row) {
          const note = props.unknown.has(symbol) ? 'unknown symbol' : rejected ? `no price: ${drawn(rejected)}` : glyphs.ellipsis;
          return (
            <Text key={symbol} wrap="truncate-end" {...(theme.muted && { color: theme.muted })}>
              {selected ? INVERSE_ON : ''}
              {fit([fit(drawn(symbol), columns.symbol, 'left', cut), ...name, note].join(' '), props.width, 'left', cut)}
              {selected ? INVERSE_OFF : ''}
            </Text>
          );
        }
        const ageMs = props.now - row.updatedAt;
        const stale = isStale(row, props.now, props.intervalS);
        const tick = row.previous === undefined ? 0 : row.price - row.previous;
        const arrow = tick > 0 ? glyphs.up : tick < 0 ? glyphs.down : glyphs.flat;
        const tickText = row.previous === undefined ? '' : `${arrow}${formatChange(Math.abs(tick), row.price)}`;
        const session = sessionChange(row);
        const sessionText = glyphs.text(signedPercent(session));
        const tickColor = changeColor(theme, tick);
        const priceCell = fit(formatPrice(row.price), columns.price, 'right', cut);
        const flashing = props.motion === true && tick !== 0 && !stale && ageMs < FLASH_MS;
        const flashAt = flashing ? changedFrom(priceCell, fit(formatPrice(row.previous!), columns.price, 'right', cut)) : priceCell.length;
        const sessionColor = changeColor(theme, session);
        const position = holdings?.positions.get(symbol);
        const cells: Partial<Record<ColumnName, () => string | undefined>> = {
          ...(position && holdingsCells(position)),
          name: () => name[0],
          price: () => (flashAt < priceCell.length ? priceCell.slice(0, flashAt) + painted(`${BOLD_ON}${priceCell.slice(flashAt)}${BOLD_OFF}`, tickColor) : priceCell),
          change: () => painted(fit(tickText, columns.change, 'right', cut), stale ? undefined : tickColor),
          session: () => painted(fit(sessionText, columns.session, 'right', cut), stale ? undefined : sessionColor),
          volume: () => fit(compactNumber(row.volume), columns.volume, 'right', cut),
          trend: () => sparkline(row.history, columns.trend, glyphs.bars),
          age: () => fit(shortAge(ageMs), columns.age, 'right'),
        };
        const alertedAt = props.alerted?.get(symbol);
        const flaring = alertedAt !== undefined && props.now - alertedAt < ALERT_FLASH_MS;
        const parts = joined(
          `${selected ? INVERSE_ON : ''}${flaring ? BOLD_ON : ''}${fit(drawn(symbol), columns.symbol, 'left', cut)}`,
          cells,
          `${flaring ? BOLD_OFF : ''}${selected ? INVERSE_OFF : ''}`,
        );
        return (
          <Text key={symbol} dimColor={stale && !flaring} wrap="truncate-end" {...(flaring && theme.warning && { color: theme.warning })}>
            {parts}
          </Text>
        );
      })}
      {share.folded ? (
        <Text key="totals" bold wrap="truncate-end">
          {foldedLine()}
        </Text>
      ) : null}
      {totals.map((total) => {
        const unpriced = total.unpriced > 0 ? `${total.unpriced} unpriced` : '';
        const cells: Partial<Record<ColumnName, () => string>> = {
          ...holdingsCells(total),
          // The day's P/L of a total is only what is known: none known, none shown.
          day_pl: () => moneyCell('day_pl', dayKnown(total) ? total.day : undefined, total.currency, true),
          name: () => fit(unpriced, columns.name, 'left', cut),
        };
        return (
          <Text key={total.currency.code} bold wrap="truncate-end">
            {joined(fit(`${glyphs.unicode ? 'Σ' : '='} ${total.currency.code}`, columns.symbol, 'left', cut), cells, '')}
          </Text>
        );
      })}
    </Box>
  );
}
