// The watchlist as a table: price, tick change with arrows, session change, volume, sparkline
// and age; stale rows dimmed, unknown symbols said so in their row.
import { Box, Text } from 'ink';
import { compactNumber, formatChange, formatPrice, shortAge, signedPercent } from '../../text/numbers.js';
import { drawn } from '../../text/sanitize.js';
import { fit, width as textWidth } from '../../text/width.js';
import { usePagerTop } from '../state/scroll.js';
import { isStale, sessionChange, type SortOrder, type SymbolRow } from '../state/ticker.js';
import { BOLD_OFF, BOLD_ON, INVERSE_OFF, INVERSE_ON } from '../attributes.js';
import { useGlyphs } from '../glyphs.js';
import { useTheme } from '../theme.js';
import { sparkline } from './Sparkline.js';
import { Fragment, type ReactNode } from 'react';
import { COLUMN_NAMES, type ColumnName, shownColumns, watchlistColumns } from './watchlist-columns.js';

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
  /** The column sorted by is marked in the header with the direction of its order. */
  sort?: SortOrder | undefined;
  descending?: boolean | undefined;
  /** The digits a new price changed are shown bold in its direction's colour for a moment. */
  motion?: boolean | undefined;
  /** The list's columns, in order, after the symbol (default: all). */
  columns?: readonly ColumnName[] | undefined;
  /** When an alert on a symbol last fired: its row stands out for ALERT_FLASH_MS. */
  alerted?: ReadonlyMap<string, number> | undefined;
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
};
const RIGHT: ReadonlySet<string> = new Set(['price', 'change', 'session', 'volume', 'age']);
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
  const chosen = props.columns ?? COLUMN_NAMES;
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
  const top = usePagerTop(props.symbols.length, props.cursor, props.height);
  const shown = props.symbols.slice(top, top + props.height);

  return (
    <Box flexDirection="column" height={props.height + 1}>
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
        const tickColor = tick > 0 ? theme.up : tick < 0 ? theme.down : undefined;
        const priceCell = fit(formatPrice(row.price), columns.price, 'right', cut);
        const flashing = props.motion === true && tick !== 0 && !stale && ageMs < FLASH_MS;
        const flashAt = flashing ? changedFrom(priceCell, fit(formatPrice(row.previous!), columns.price, 'right', cut)) : priceCell.length;
        const sessionColor = session > 0 ? theme.up : session < 0 ? theme.down : undefined;
        const cells: Record<ColumnName, () => ReactNode> = {
          name: () => name[0],
          price: () =>
            flashAt < priceCell.length ? (
              <>
                {priceCell.slice(0, flashAt)}
                <Text {...(tickColor && { color: tickColor })}>{`${BOLD_ON}${priceCell.slice(flashAt)}${BOLD_OFF}`}</Text>
              </>
            ) : (
              priceCell
            ),
          change: () => <Text {...(tickColor && !stale && { color: tickColor })}>{fit(tickText, columns.change, 'right', cut)}</Text>,
          session: () => <Text {...(sessionColor && !stale && { color: sessionColor })}>{fit(sessionText, columns.session, 'right', cut)}</Text>,
          volume: () => fit(compactNumber(row.volume), columns.volume, 'right', cut),
          trend: () => sparkline(row.history, columns.trend, glyphs.bars),
          age: () => fit(shortAge(ageMs), columns.age, 'right'),
        };
        // Plain cells run together as one string: a tick redraws every row, and each node costs.
        const parts: ReactNode[] = [];
        const alertedAt = props.alerted?.get(symbol);
        const flaring = alertedAt !== undefined && props.now - alertedAt < ALERT_FLASH_MS;
        let text = `${selected ? INVERSE_ON : ''}${flaring ? BOLD_ON : ''}${fit(drawn(symbol), columns.symbol, 'left', cut)}`;
        for (const c of order) {
          const cell = cells[c]();
          if (typeof cell === 'string') text += ` ${cell}`;
          else {
            parts.push(`${text} `, <Fragment key={c}>{cell}</Fragment>);
            text = '';
          }
        }
        parts.push(`${text}${flaring ? BOLD_OFF : ''}${selected ? INVERSE_OFF : ''}`);
        return (
          <Text key={symbol} dimColor={stale && !flaring} wrap="truncate-end" {...(flaring && theme.warning && { color: theme.warning })}>
            {parts}
          </Text>
        );
      })}
    </Box>
  );
}
