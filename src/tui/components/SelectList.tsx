// ink-select-input, wrapped: it never takes keys itself (the key router moves the highlight, so
// typing j or 1 in the search field types), it shows a window around the highlight instead of
// rotating a ring, and its highlight is always ours: it keeps a selection of its own and puts it
// back on the first row whenever its rows change order, so it is remounted, starting at our
// cursor, whenever the window, the cursor or the rows' order changes (`k` and Space in one read in
// the columns editor move the cursor and reorder the rows in one render).
import { Box, Text } from 'ink';
import SelectInput from 'ink-select-input';
import type { ReactNode } from 'react';
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

function Indicator({ isSelected }: { isSelected?: boolean }): ReactNode {
  const { pointer } = useGlyphs();
  return <Text>{isSelected ? pointer : ' '.repeat(pointer.length)}</Text>;
}

export function SelectList({ items, cursor, rows, highlightColor, mouse }: SelectListProps) {
  const top = usePagerTop(items.length, cursor, rows);
  const shown = items.slice(top, top + rows).map((item) => ({ key: item.key, label: item.label, value: item.key }));
  const ref = useMouseArea(mouse && { kind: 'rows', first: 0, top, rows, cursor, count: items.length, commands: mouse });
  const Item = ({ isSelected, label }: { isSelected?: boolean; label: string }) => (
    <Text wrap="truncate-end" {...(isSelected && highlightColor && { color: highlightColor })}>
      {isSelected ? inverse(label) : label}
    </Text>
  );
  return (
    <Box ref={ref} flexDirection="column">
      <SelectInput
        key={`${top}:${cursor}:${shown.map((item) => item.key).join('\u0000')}`}
        items={shown}
        initialIndex={Math.max(0, cursor - top)}
        isFocused={false}
        indicatorComponent={Indicator}
        itemComponent={Item}
      />
    </Box>
  );
}
