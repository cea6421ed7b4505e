// Which rows of a long list are shown. A pager, not a re-centring list: the highlight moves over
// rows that stay put, and they shift only when it would leave the window, so a key that moves it
// redraws two rows, not the pane (and the eye keeps its place).
import { useRef } from 'react';

/** The first row shown: the one shown before, moved only as far as keeps the cursor in view. */
export function pagerTop(previous: number, count: number, cursor: number, rows: number): number {
  const last = Math.max(0, count - Math.max(1, rows));
  let top = Math.min(Math.max(0, previous), last);
  if (cursor < top) top = cursor;
  else if (cursor >= top + rows) top = cursor - rows + 1;
  return Math.max(0, Math.min(top, last));
}

/** The first row shown, remembered between renders of one list. */
export function usePagerTop(count: number, cursor: number, rows: number): number {
  const top = useRef(0);
  top.current = pagerTop(top.current, count, cursor, rows);
  return top.current;
}
