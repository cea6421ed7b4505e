// The symbol picker: a search field over the whole catalogue and the ranked matches, symbols
// already on the watchlist marked, exchange suffixes shown as a badge.
import { Box, Text } from 'ink';
import type { SymbolInfo } from '../../api/types.js';
import { sanitize } from '../../text/sanitize.js';
import { fit } from '../../text/width.js';
import { SelectList } from '../components/SelectList.js';
import { Spinner } from '../components/Spinner.js';
import { TextField } from '../components/TextField.js';
import { exchangeBadge } from '../state/picker.js';
import { useTheme } from '../theme.js';

export interface SymbolPickerProps {
  query: string;
  onQueryChange: (query: string) => void;
  matches: readonly SymbolInfo[] | undefined;
  cursor: number;
  watchlist: ReadonlySet<string>;
  width: number;
  rows: number;
}

export function pickerRow(info: SymbolInfo, onList: boolean, width: number): string {
  const badge = exchangeBadge(info.symbol);
  const mark = onList ? '✓' : ' ';
  const symbol = fit(sanitize(info.symbol), 9);
  const badgeText = fit(badge ? `[${sanitize(badge)}]` : '', 8);
  return fit(`${mark} ${symbol} ${badgeText} ${sanitize(info.name)}`, Math.max(1, width));
}

export function SymbolPicker(props: SymbolPickerProps) {
  const theme = useTheme();
  const muted = theme.muted ? { color: theme.muted } : {};
  return (
    <Box flexDirection="column">
      <Box>
        <Text bold {...(theme.accent && { color: theme.accent })}>Add symbol: </Text>
        <TextField value={props.query} onChange={props.onQueryChange} focus placeholder="symbol or company name" />
      </Box>
      {props.matches === undefined ? (
        <Text>
          <Spinner {...(theme.accent && { color: theme.accent })} /> loading the symbols catalogue…
        </Text>
      ) : props.matches.length === 0 ? (
        <Text {...muted}>no symbol or company matches "{props.query}"</Text>
      ) : (
        <>
          <SelectList
            items={props.matches.map((info) => ({
              key: info.symbol,
              label: pickerRow(info, props.watchlist.has(info.symbol), props.width - 2),
            }))}
            cursor={props.cursor}
            rows={props.rows}
            highlightColor={theme.accent}
          />
          <Text {...muted}>
            {`${props.matches.length} match${props.matches.length === 1 ? '' : 'es'} · ✓ on the watchlist · Enter adds, Esc closes`}
          </Text>
        </>
      )}
    </Box>
  );
}
