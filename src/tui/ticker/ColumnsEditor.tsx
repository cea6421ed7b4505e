// The columns editor in the ticker pane: every column, those shown first in their order.
import { Box, Text } from 'ink';
import type { ColumnName } from '../../market/watchlists.js';
import { fit } from '../../text/width.js';
import { LIST_COMMANDS } from '../mouse/mouse-areas.js';
import { SelectList } from '../components/SelectList.js';
import { useGlyphs } from '../style/glyphs.js';
import { useTheme } from '../style/theme.js';
import { editorRows } from './columns-editor-controller.js';

const WHAT: Record<ColumnName, string> = {
  name: 'NAME     the company',
  price: 'PRICE    the last price (always shown)',
  change: 'TICK     change since the tick before',
  session: 'SESSION  change since the session began',
  volume: 'VOLUME   the day\'s volume',
  trend: 'TREND    a sparkline of this session',
  age: 'AGE      how old the price is',
  qty: 'QTY      shares held (h edits the lots)',
  value: 'VALUE    what they are worth now',
  day_pl: 'DAY P/L  their change since the day\'s open',
  pl: 'P/L      profit or loss on what they cost',
  pl_pct: 'P/L%     that as a share of the cost',
};

export function ColumnsEditor({ columns, cursor, width, rows }: { columns: readonly ColumnName[]; cursor: number; width: number; rows: number }) {
  const theme = useTheme();
  const glyphs = useGlyphs();
  const items = editorRows(columns).map((c) => ({ key: c, label: fit(`[${columns.includes(c) ? 'x' : ' '}] ${WHAT[c]}`, Math.max(1, width - 2), 'left', glyphs.ellipsis) }));
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end" {...(theme.accent && { color: theme.accent })}>
        {fit('Columns, after SYMBOL, in this order:', width, 'left', glyphs.ellipsis)}
      </Text>
      <SelectList items={items} cursor={cursor} rows={Math.max(1, rows - 2)} highlightColor={theme.accent} mouse={LIST_COMMANDS.columns} />
      <Text wrap="truncate-end" {...(theme.muted && { color: theme.muted })}>
        {fit(glyphs.text(['Space show/hide', 'J/K move', 'Esc done', 'narrow panes drop NAME, TREND, AGE, VOLUME, SESSION, QTY, DAY P/L, TICK, VALUE, P/L in turn'].join(glyphs.separator)), width, 'left', glyphs.ellipsis)}
      </Text>
    </Box>
  );
}
