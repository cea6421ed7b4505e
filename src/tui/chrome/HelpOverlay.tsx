// Every key, grouped by where it works, one page of the layout help-layout.ts worked out.
import { useMouseArea } from '../mouse/mouse-areas.js';
import { Box, Text } from 'ink';
import { fit } from '../../text/width.js';
import { useGlyphs } from '../style/glyphs.js';
import { useTheme } from '../style/theme.js';
import { HELP_COLUMN_GAP, type HelpLayout } from './help-layout.js';

export function HelpOverlay({ width, height, layout, page }: { width: number; height: number; layout: HelpLayout; page: number }) {
  const theme = useTheme();
  const glyphs = useGlyphs();
  const pages = layout.pages.length;
  const shown = layout.pages[Math.min(page, pages - 1)] ?? [];
  // The wheel as its keys.
  const ref = useMouseArea({ kind: 'wheel', up: 'help.previous-page', down: 'help.next-page', step: 1 });
  return (
    <Box ref={ref} flexDirection="column" width={width} height={height} borderStyle={glyphs.border.overlay} paddingX={1} {...(theme.focusBorder && { borderColor: theme.focusBorder })}>
      <Text bold wrap="truncate-end" {...(theme.accent && { color: theme.accent })}>
        {glyphs.text(`tickbook keys · Esc closes${pages > 1 ? ` · page ${Math.min(page, pages - 1) + 1}/${pages} · PgDn/PgUp` : ''}`)}
      </Text>
      <Box>
        {shown.map((column, c) => (
          <Box key={c} flexDirection="column" width={layout.columnWidth} marginRight={c < shown.length - 1 ? HELP_COLUMN_GAP : 0}>
            {column.map((line, i) => (
              <Text key={i} wrap="truncate-end" bold={line.heading}>
                {line.heading ? glyphs.text(line.key) : `${fit(glyphs.text(line.key), layout.keyWidth, 'left', glyphs.ellipsis)} ${glyphs.text(line.text)}`}
              </Text>
            ))}
          </Box>
        ))}
      </Box>
    </Box>
  );
}
