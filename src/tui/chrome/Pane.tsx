// A bordered pane with a title row; the focused one says so with its border and title.
import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import { fit, width as textWidth } from '../../text/width.js';
import { useGlyphs } from '../style/glyphs.js';
import { useTheme } from '../style/theme.js';
import { type MouseArea, useMouseArea } from '../mouse/mouse-areas.js';

export interface PaneProps {
  title: string;
  /** Right-aligned on the title row: page number, interval, … */
  info?: string;
  focused: boolean;
  width: number;
  height: number;
  children: ReactNode;
  /** What the mouse does in it (a pane it focuses, a view the wheel steps through). */
  area?: MouseArea | undefined;
}

export function Pane({ title, info = '', focused, width, height, children, area }: PaneProps) {
  const theme = useTheme();
  const ref = useMouseArea(area);
  const glyphs = useGlyphs();
  const inner = Math.max(0, width - 4);
  const marker = focused ? glyphs.focusMarker : '  ';
  const left = `${marker}${title}`;
  const shownInfo = glyphs.text(info);
  const right = shownInfo !== '' && textWidth(left) + 1 + textWidth(shownInfo) <= inner ? shownInfo : '';
  const leftWidth = inner - (right ? textWidth(right) + 1 : 0);
  return (
    <Box
      ref={ref}
      flexDirection="column"
      width={width}
      height={height}
      borderStyle={focused ? glyphs.border.focused : glyphs.border.pane}
      {...((focused ? theme.focusBorder : theme.border) && { borderColor: focused ? theme.focusBorder : theme.border })}
      paddingX={1}
      overflow="hidden"
    >
      <Text wrap="truncate-end">
        <Text bold={focused} {...(focused && theme.accent && { color: theme.accent })}>
          {fit(left, leftWidth, 'left', glyphs.ellipsis)}
        </Text>
        {right ? <Text {...(theme.muted && { color: theme.muted })}>{` ${right}`}</Text> : null}
      </Text>
      {children}
    </Box>
  );
}
