// A list with one row highlighted, drawn from the cursor it is given and nothing else. It takes no
// keys (the key router moves the cursor, so typing j or 1 in the search field types), and it shows
// a window around the highlight instead of rotating a ring. It keeps no highlight of its own:
// ink-select-input's, which this once wrapped, went back to the first row whenever the rows
// changed order under an unchanged cursor (`k` and Space in one read in the columns editor), so
// the row shown highlighted was not the one the next key acted on.
import { Box, Text } from 'ink';
import { inverse } from '../attributes.js';
import { useGlyphs } from '../glyphs.js';
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
  const shown = items.slice(top, top + rows);
  const ref = useMouseArea(mouse && { kind: 'rows', first: 0, top, rows, cursor, count: items.length, commands: mouse });
  const blank = ' '.repeat(pointer.length);
  return (
    <Box ref={ref} flexDirection="column">
      {shown.map((item, i) => {
        const selected = top + i === cursor;
        return (
          <Box key={item.key}>
            <Text>{selected ? pointer : blank}</Text>
            <Text wrap="truncate-end" {...(selected && highlightColor && { color: highlightColor })}>
              {selected ? inverse(item.label) : item.label}
            </Text>
          </Box>
        );
      })}
    </Box>
  );
}
