// The message log over the panes: the latest messages, newest first, whole.
import { useMouseArea } from '../mouse/mouse-areas.js';
import { WHEEL_ROWS } from '../mouse/mouse-steps.js';
import { Box, Text } from 'ink';
import { fit } from '../../text/width.js';
import { useGlyphs } from '../style/glyphs.js';
import { useTheme } from '../style/theme.js';
import type { LogLine } from './message-log.js';

export interface MessageLogProps {
  width: number;
  height: number;
  lines: readonly LogLine[];
  /** The first line shown. */
  top: number;
}

/** Lines of messages that fit a log of `height`: the border and the title line aside. */
export const messageLogRows = (height: number): number => Math.max(1, height - 3);

export function MessageLog({ width, height, lines, top }: MessageLogProps) {
  const theme = useTheme();
  const glyphs = useGlyphs();
  const rows = messageLogRows(height);
  const shown = lines.slice(top, top + rows);
  const more = lines.length > rows ? ` · ${top + 1}–${Math.min(lines.length, top + rows)} of ${lines.length} lines · j/k scroll` : '';
  // The wheel as its keys.
  const ref = useMouseArea({ kind: 'wheel', up: 'messages.up', down: 'messages.down', step: WHEEL_ROWS });
  return (
    <Box ref={ref} flexDirection="column" width={width} height={height} borderStyle={glyphs.border.overlay} paddingX={1} {...(theme.focusBorder && { borderColor: theme.focusBorder })}>
      <Text bold wrap="truncate-end" {...(theme.accent && { color: theme.accent })}>
        {glyphs.text(`Messages, newest first · Esc closes${more}`)}
      </Text>
      {lines.length === 0 ? <Text {...(theme.muted && { color: theme.muted })}>no messages yet</Text> : null}
      {shown.map((line, i) => (
        <Text key={top + i} wrap="truncate-end" {...(line.kind === 'error' ? theme.error && { color: theme.error } : theme.muted && { color: theme.muted })}>
          {fit(glyphs.text(line.text), Math.max(1, width - 4), 'left', glyphs.ellipsis)}
        </Text>
      ))}
    </Box>
  );
}
