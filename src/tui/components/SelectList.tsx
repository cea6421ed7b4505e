// A list whose highlight is our state's: the key router and the mouse move it (so typing j or 1 in
// the search field types), and the list shows a window around it. ink-select-input keeps its own
// highlight (set once, from initialIndex), rotates a ring when given a limit, and puts its
// highlight back on the first row whenever its rows change order: every list here has its cursor
// owned by a reducer (the columns editor, the symbol picker, the watchlists menu), so this draws
// the rows as ink-select-input laid them out (a pointer, then the row), from that cursor.
import { Box, Text } from 'ink';
import { inverse } from '../style/attributes.js';
import { useGlyphs } from '../style/glyphs.js';
import { usePagerTop } from '../state/scroll.js';
import { type ListCommands, useMouseArea } from '../mouse/mouse-areas.js';

export interface SelectListItem {
  key: string;
  /** The row, already fitted to the list's width. */
  label: string;
}

export interface SelectListProps {
  items: readonly SelectListItem[];
  cursor: number;
  rows: number;
  highlightColor?: string | undefined;
  /** What a click, a double-click and the wheel run on its rows. */
  mouse?: ListCommands | undefined;
}

export function SelectList({ items, cursor, rows, highlightColor, mouse }: SelectListProps) {
  const { pointer } = useGlyphs();
  const top = usePagerTop(items.length, cursor, rows);
  const ref = useMouseArea(mouse && { kind: 'rows', first: 0, top, rows, cursor, count: items.length, commands: mouse });
  return (
    <Box ref={ref} flexDirection="column">
      {items.slice(top, top + rows).map((item, index) => {
        const selected = top + index === cursor;
        return (
          <Box key={item.key}>
            <Text>{selected ? pointer : ' '.repeat(pointer.length)}</Text>
            <Text wrap="truncate-end" {...(selected && highlightColor && { color: highlightColor })}>
              {selected ? inverse(item.label) : item.label}
            </Text>
          </Box>
        );
      })}
    </Box>
  );
}
