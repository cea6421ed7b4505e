// The benchmark's baseline: a minimal Ink app from the same ink and react, rendered the standard
// way (plain render()). A screen-high list of 300 items whose reverse-video highlight moves on
// Down/Up (and j/k) pager-style, the rows shifting only at the edge, above 12 rows whose numbers
// change every second; q quits. tui.bench.ts bundles it with esbuild, as tickbook is bundled.
import { Box, render, Text, useApp, useInput, useWindowSize } from 'ink';
import { useEffect, useReducer, useState } from 'react';

const ITEMS = 300;
const TICKING_ROWS = 12;
const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima'];

interface Pager {
  cursor: number;
  top: number;
}

/** Moves the highlight by `by` within a window of `rows`; the window moves only at its edges. */
function move(state: Pager, by: number, rows: number): Pager {
  const cursor = Math.max(0, Math.min(ITEMS - 1, state.cursor + by));
  const top = cursor < state.top ? cursor : cursor >= state.top + rows ? cursor - rows + 1 : state.top;
  return cursor === state.cursor && top === state.top ? state : { cursor, top };
}

const itemText = (i: number, width: number): string =>
  `Item ${String(i).padStart(4, '0')}  ${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} ${i * 37}`.padEnd(width).slice(0, width);

/** A number that changes every second for each ticking row. */
const price = (row: number, second: number): string => (100 + row * 10 + ((second * (row + 3) * 7919) % 1000) / 100).toFixed(2);

function Baseline() {
  const { exit } = useApp();
  const { columns, rows } = useWindowSize();
  // One line shorter than the terminal: Ink clears the whole screen for a frame as tall as it.
  const listRows = Math.max(1, rows - 1 - TICKING_ROWS);
  const [pager, dispatch] = useReducer((state: Pager, by: number) => move(state, by, listRows), { cursor: 0, top: 0 });
  const [second, setSecond] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setSecond((s) => s + 1), 1000);
    return () => clearInterval(timer);
  }, []);
  useInput((input, key) => {
    if (input === 'q') exit();
    else if (key.downArrow || input === 'j') dispatch(1);
    else if (key.upArrow || input === 'k') dispatch(-1);
  });
  const shown = Array.from({ length: Math.min(listRows, ITEMS - pager.top) }, (_, i) => pager.top + i);
  return (
    <Box flexDirection="column" width={columns}>
      {shown.map((i) => (
        <Text key={i} inverse={i === pager.cursor} wrap="truncate-end">
          {itemText(i, columns)}
        </Text>
      ))}
      {Array.from({ length: TICKING_ROWS }, (_, row) => (
        <Text key={`tick-${row}`} wrap="truncate-end">
          {`TICK${String(row).padStart(2, '0')}  ${price(row, second).padStart(8)}  ${price(row + 12, second).padStart(8)}`}
        </Text>
      ))}
    </Box>
  );
}

render(<Baseline />);
