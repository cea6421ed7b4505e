// The ticker pane: the watchlist table, or the symbol picker over it.
import { Box, Text } from 'ink';
import type { FieldText } from '../state/field-text.js';
import { useState } from 'react';
import type { SymbolInfo } from '../../api/types.js';
import { Pane } from '../chrome/Pane.js';
import { displayOrder, failingSince, retryInSeconds, type TickerState } from './ticker-state.js';
import { useRenderAt } from '../state/use-now.js';
import { duration } from '../../text/time.js';
import { drawn } from '../../text/sanitize.js';
import { fitEntries, width as textWidth } from '../../text/width.js';
import { useGlyphs } from '../style/glyphs.js';
import { useTheme } from '../style/theme.js';
import { SymbolPicker } from './SymbolPicker.js';
import { WatchlistTable } from './WatchlistTable.js';
import { ListsMenu } from '../lists/ListsMenu.js';
import { ColumnsEditor } from './ColumnsEditor.js';
import type { ListsMenu as ListsMenuState } from '../lists/lists-controller.js';
import type { HoldingsShown } from './WatchlistTable.js';
import { LIST_COMMANDS } from '../mouse/mouse-areas.js';
import { HoldingsEditor, type HoldingsEditorProps } from '../holdings/HoldingsEditor.js';
import { showsHoldings, tickerPaneRows } from './ticker-rows.js';
import { SORT_LABEL } from './sort-label.js';

export interface TickerPaneProps {
  state: TickerState;
  names: ReadonlyMap<string, string>;
  picker: { open: boolean; query: FieldText; cursor: number; matches: readonly SymbolInfo[] | undefined };
  /** The watchlists menu, when open, and where a name typed in it goes. */
  listsMenu?: ListsMenuState | undefined;
  onListName?: ((draft: string) => void) | undefined;
  motion?: boolean | undefined;
  /** The columns editor's highlighted row, while it is open. */
  columnsCursor?: number | undefined;
  /** The positions of the list's symbols, for the holdings columns. */
  holdings?: HoldingsShown | undefined;
  /** A symbol's lots being looked at or edited. */
  holdingsEditor?: Omit<HoldingsEditorProps, 'width' | 'rows'> | undefined;
  focused: boolean;
  width: number;
  height: number;
}

/** Rows of symbols that fit a pane of `height`: borders, title, header and bottom line aside. */
export const tickerRowsFor = (height: number): number => Math.max(1, height - 5);

/** How late past a second an age may turn over: time for a poll due then to draw it instead. */
const AGE_SLACK_MS = 150;

export function TickerPane({ state, names, picker, listsMenu, motion = true, columnsCursor, holdings, holdingsEditor, focused, width, height }: TickerPaneProps) {
  const columns = state.lists[state.active]?.columns;
  const theme = useTheme();
  const glyphs = useGlyphs();
  const [mounted] = useState(Date.now);
  // The ages count every second, whatever the polls do: a slow interval or a request that hangs
  // must not leave a price looking fresher than it is. A frame is due just after each second
  // since the last prices; a poll that lands first draws it, and the timer moves on (polled every
  // second, the pane is drawn once a second, not twice).
  const now = Date.now();
  const since = state.lastSuccessAt ?? mounted;
  useRenderAt(since + (Math.floor((now - since) / 1000) + 1) * 1000 + AGE_SLACK_MS);
  const inner = Math.max(10, width - 4);
  const rows = tickerRowsFor(height);
  const interval = state.paused ? `paused${glyphs.separator}every ${state.intervalS}s` : `every ${state.intervalS}s`;
  const symbols = displayOrder(state);
  const totals = holdings && columns && showsHoldings(inner, columns) ? holdings.totals.length : 0;
  // The symbols' rows first: when they do not all fit, the status line goes up to the title row.
  const table = tickerPaneRows(height, symbols.length, totals);

  const retryIn = retryInSeconds(state, now);
  // When the next prices are asked: a 429's wait or a failure's backoff reads as a retry.
  const nextIn = state.nextPollAt === undefined ? undefined : Math.max(0, Math.ceil((state.nextPollAt - now) / 1000));
  const when = state.paused
    ? 'paused: Space resumes'
    : retryIn !== undefined
      ? `retry in ${duration(retryIn)}`
      : nextIn !== undefined && state.watchlist.length > 0
        ? `next in ${duration(nextIn)}`
        : '';
  // What matters most stays when the pane is narrow: the wait, then how old the prices are.
  const count = state.watchlist.length;
  const statusEntries = [
    { text: `${count} symbol${count === 1 ? '' : 's'}`, rank: 3 },
    { text: SORT_LABEL[state.sort][state.descending ? 1 : 0], rank: 4 },
    { text: glyphs.text(failingSince(state, now) ?? ''), rank: 2 },
    { text: when, rank: 1 },
  ];
  const title = `Ticker${glyphs.separator}${drawn(state.lists[state.active]?.name ?? '')}`;
  const editing = picker.open || listsMenu?.open || columnsCursor !== undefined || holdingsEditor !== undefined;
  const statusOnTitle = table.statusOnTitle && !editing;
  // On the title row, what is left of it beside the title (the pane's focus marker, the title, a space).
  const bottom = statusOnTitle ? '' : fitEntries(statusEntries, inner, glyphs.separator, glyphs.ellipsis);
  const info = statusOnTitle
    ? fitEntries([...statusEntries, { text: interval, rank: 5 }], Math.max(1, inner - textWidth(glyphs.focusMarker) - textWidth(title) - 1), glyphs.separator, glyphs.ellipsis)
    : interval;

  return (
    <Pane title={title} info={info} focused={focused} width={width} height={height} area={{ kind: 'pane', focused }}>
      <Box flexDirection="column" flexGrow={1}>
        {holdingsEditor ? (
          <HoldingsEditor {...holdingsEditor} width={inner} rows={rows + 2} />
        ) : columnsCursor !== undefined && columns ? (
          <ColumnsEditor columns={columns} cursor={columnsCursor} width={inner} rows={rows} />
        ) : listsMenu?.open ? (
          <ListsMenu menu={listsMenu} lists={state.lists} active={state.active} width={inner} rows={rows} />
        ) : picker.open ? (
          <SymbolPicker
            query={picker.query}
            matches={picker.matches}
            cursor={picker.cursor}
            watchlist={new Set(state.watchlist)}
            width={inner}
            rows={Math.max(1, rows - 1)}
          />
        ) : (
          <WatchlistTable
            symbols={symbols}
            rows={state.rows}
            unknown={state.unknown}
            rejected={state.rejected}
            names={names}
            cursor={state.cursor}
            width={inner}
            height={table.table}
            intervalS={state.intervalS}
            now={now}
            focused={focused}
            sort={state.sort}
            descending={state.descending}
            motion={motion}
            columns={columns}
            alerted={state.alerted}
            holdings={holdings}
            mouse={LIST_COMMANDS.watchlist}
          />
        )}
      </Box>
      {editing || statusOnTitle ? null : (
        <Text wrap="truncate-end" {...(state.failures > 0 ? theme.warning && { color: theme.warning } : theme.muted && { color: theme.muted })}>
          {bottom}
        </Text>
      )}
    </Pane>
  );
}
