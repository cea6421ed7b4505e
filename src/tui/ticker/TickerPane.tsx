// The ticker pane: the watchlist table, or the symbol picker over it.
import { Box, Text } from 'ink';
import type { SymbolInfo } from '../../api/types.js';
import { Pane } from '../chrome/Pane.js';
import { displayOrder, failingSince, retryInSeconds, type TickerState } from '../state/ticker.js';
import { useNow } from '../state/use-now.js';
import { useTheme } from '../theme.js';
import { SymbolPicker } from './SymbolPicker.js';
import { WatchlistTable } from './WatchlistTable.js';

export interface TickerPaneProps {
  state: TickerState;
  names: ReadonlyMap<string, string>;
  picker: { open: boolean; query: string; cursor: number; matches: readonly SymbolInfo[] | undefined };
  onPickerQuery: (query: string) => void;
  focused: boolean;
  width: number;
  height: number;
}

const SORT_LABEL = { watchlist: 'watchlist order', symbol: 'by symbol', change: 'by session change', volume: 'by volume' };

/** Rows of symbols that fit a pane of `height`: borders, title, header and bottom line aside. */
export const tickerRowsFor = (height: number): number => Math.max(1, height - 5);

export function TickerPane({ state, names, picker, onPickerQuery, focused, width, height }: TickerPaneProps) {
  const theme = useTheme();
  // Healthy, every poll redraws the pane, which is often enough for the ages; paused or failing,
  // a clock keeps the ages and the retry countdown moving.
  const clockNeeded = state.paused || state.failures > 0;
  useNow(1000, clockNeeded);
  const now = Date.now();
  const inner = Math.max(10, width - 4);
  const rows = tickerRowsFor(height);
  const info = state.paused ? `paused · every ${state.intervalS}s` : `every ${state.intervalS}s`;

  const retryIn = retryInSeconds(state, now);
  const when = state.paused ? 'paused: Space resumes' : retryIn !== undefined ? `retry in ${retryIn}s` : '';
  const bottom = [`${state.watchlist.length} symbols`, SORT_LABEL[state.sort], failingSince(state, now), when].filter(Boolean).join(' · ');

  return (
    <Pane title="Ticker" info={info} focused={focused} width={width} height={height}>
      <Box flexDirection="column" flexGrow={1}>
        {picker.open ? (
          <SymbolPicker
            query={picker.query}
            onQueryChange={onPickerQuery}
            matches={picker.matches}
            cursor={picker.cursor}
            watchlist={new Set(state.watchlist)}
            width={inner}
            rows={Math.max(1, rows - 1)}
          />
        ) : (
          <WatchlistTable
            symbols={displayOrder(state)}
            rows={state.rows}
            unknown={state.unknown}
            names={names}
            cursor={state.cursor}
            width={inner}
            height={rows}
            intervalS={state.intervalS}
            now={now}
            focused={focused}
          />
        )}
      </Box>
      {picker.open ? null : (
        <Text wrap="truncate-end" {...(state.failures > 0 ? theme.warning && { color: theme.warning } : theme.muted && { color: theme.muted })}>
          {bottom}
        </Text>
      )}
    </Pane>
  );
}
