// The symbol picker: a search field over the whole catalogue and the ranked matches, symbols
// already on the watchlist marked, exchange suffixes shown as a badge.
import { Box, Text } from 'ink';
import type { FieldText } from '../state/field-text.js';
import type { SymbolInfo } from '../../api/types.js';
import { drawn } from '../../text/sanitize.js';
import { fit, width as textWidth } from '../../text/width.js';
import { LIST_COMMANDS } from '../mouse/mouse-areas.js';
import { SelectList } from '../components/SelectList.js';
import { Spinner } from '../components/Spinner.js';
import { TextField } from '../components/TextField.js';
import { exchangeBadge } from '../../market/listing.js';
import { type Glyphs, UNICODE, useGlyphs } from '../style/glyphs.js';
import { useTheme } from '../style/theme.js';

export interface SymbolPickerProps {
  query: FieldText;
  matches: readonly SymbolInfo[] | undefined;
  cursor: number;
  watchlist: ReadonlySet<string>;
  width: number;
  rows: number;
}

export function pickerRow(info: SymbolInfo, onList: boolean, width: number, glyphs: Glyphs = UNICODE): string {
  const badge = exchangeBadge(info.symbol);
  const mark = onList ? glyphs.check : ' ';
  const symbol = fit(drawn(info.symbol), 9);
  const badgeText = fit(badge ? `[${drawn(badge)}]` : '', 8);
  return fit(`${mark} ${symbol} ${badgeText} ${drawn(info.name)}`, Math.max(1, width), 'left', glyphs.ellipsis);
}

export function SymbolPicker(props: SymbolPickerProps) {
  const theme = useTheme();
  const glyphs = useGlyphs();
  const label = 'Add symbol: ';
  const muted = theme.muted ? { color: theme.muted } : {};
  return (
    <Box flexDirection="column">
      <Box>
        <Text bold {...(theme.accent && { color: theme.accent })}>{label}</Text>
        <TextField value={props.query.value} cursor={props.query.cursor} focus placeholder="symbol or company name" width={props.width - textWidth(label)} />
      </Box>
      {props.matches === undefined ? (
        <Text>
          <Spinner {...(theme.accent && { color: theme.accent })} /> {glyphs.text('loading the symbols catalogue…')}
        </Text>
      ) : props.matches.length === 0 ? (
        <Text {...muted} wrap="truncate-end">{fit(`no symbol or company matches "${props.query.value}"`, props.width, 'left', glyphs.ellipsis)}</Text>
      ) : (
        <>
          <SelectList
            items={props.matches.map((info) => ({
              key: info.symbol,
              label: pickerRow(info, props.watchlist.has(info.symbol), props.width - 2, glyphs),
            }))}
            cursor={props.cursor}
            rows={props.rows}
            highlightColor={theme.accent}
            mouse={LIST_COMMANDS.picker}
          />
          <Text {...muted}>
            {glyphs.text(`${props.matches.length} match${props.matches.length === 1 ? '' : 'es'} · ${glyphs.check} on the watchlist · Enter adds, Esc closes`)}
          </Text>
        </>
      )}
    </Box>
  );
}
