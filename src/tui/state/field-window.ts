// What a one-line text field shows of its value: a window of whole characters that keeps the
// cursor in view, scrolling only when the cursor would leave it. Pure, so it is tested alone.
import stringWidth from 'string-width';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The value as the characters a cursor steps over. */
export const characters = (value: string): string[] => Array.from(segmenter.segment(value), ({ segment }) => segment);

export interface FieldWindow {
  /** Index of the first character shown; the next window starts from it. */
  start: number;
  before: string;
  /** The character under the cursor, or a space after the last one. */
  atCursor: string;
  after: string;
}

/**
 * The window of `columns` columns over `chars` with the cursor (an index, 0 to chars.length)
 * inside it, moved as little as it must from the last window's `start`.
 */
export function fieldWindow(chars: readonly string[], cursor: number, columns: number, start = 0): FieldWindow {
  const at = Math.max(0, Math.min(cursor, chars.length));
  const cellWidth = (i: number): number => (i < chars.length ? Math.max(1, stringWidth(chars[i]!)) : 1);
  const room = Math.max(1, columns);
  let first = Math.max(0, Math.min(start, at));
  const span = (from: number) => {
    let used = 0;
    for (let i = from; i <= at; i++) used += cellWidth(i);
    return used;
  };
  while (first < at && span(first) > room) first++;
  // Text after the cursor fills the rest, whole characters only.
  let used = span(first);
  let end = at + 1;
  while (end < chars.length && used + cellWidth(end) <= room) {
    used += cellWidth(end);
    end++;
  }
  // Scrolled back from the end with room to spare (text deleted): show more of the start.
  while (first > 0 && end >= chars.length && used + cellWidth(first - 1) <= room) {
    first--;
    used += cellWidth(first);
  }
  return {
    start: first,
    before: chars.slice(first, at).join(''),
    atCursor: at < chars.length ? chars[at]! : ' ',
    after: chars.slice(at + 1, end).join(''),
  };
}
