// A field typed into for a screen reader is echoed as a shell's line editor echoes it: what is
// typed is written after the cursor, a Backspace moves back over one character and blanks it, and
// nothing else on the line is written again. A reader then speaks the character typed or deleted,
// never the whole line. Only backspaces, text and spaces are sent: no cursor addressing, so it
// works where TERM is dumb or the reader follows only the text written (Emacspeak, speakup).
import type { FieldText } from '../state/field-text.js';
import { characters, fieldWindow } from '../state/field-window.js';
import { width as stringWidth } from '../../text/width.js';

/**
 * Columns as a terminal moves its cursor over them: each code point by itself (wcwidth), as xterm,
 * VTE, tmux and the Linux console count. A cluster string-width counts as one (a Devanagari
 * conjunct, a joined emoji) takes the sum of its code points on those terminals, and a backspace
 * moves one column whatever was drawn there.
 */
const width = (text: string): number => {
  let columns = 0;
  for (const point of text) columns += stringWidth(point);
  return columns;
};

const back = (columns: number): string => '\b'.repeat(Math.max(0, columns));

/**
 * The bytes that turn the line showing `before` (the terminal's cursor at its cursor) into one
 * showing `after`, its cursor left at after's cursor. `shown` is how a character is drawn (ASCII
 * where the terminal has no Unicode).
 */
export function fieldEcho(before: FieldText, after: FieldText, shown: (text: string) => string = (t) => t): string {
  const was = characters(before.value).map(shown);
  const now = characters(after.value).map(shown);
  let same = 0;
  while (same < was.length && same < now.length && was[same] === now[same]) same++;
  const columns = (chars: readonly string[], from: number, to: number) => width(chars.slice(from, to).join(''));
  // Only the cursor moved: back over characters, or through them writing them again.
  if (same === was.length && same === now.length) {
    return after.cursor < before.cursor ? back(columns(now, after.cursor, before.cursor)) : now.slice(before.cursor, after.cursor).join('');
  }
  let bytes = '';
  // To where the two differ: back over what is behind, or through what is the same ahead.
  if (before.cursor > same) bytes += back(columns(was, same, before.cursor));
  else bytes += now.slice(before.cursor, same).join('');
  const tail = now.slice(same).join('');
  bytes += tail;
  // What the old line held past the new one's end is blanked, and the cursor comes back.
  const left = columns(was, same, was.length) - width(tail);
  if (left > 0) bytes += ' '.repeat(left) + back(left);
  return bytes + back(columns(now, after.cursor, now.length));
}

/** What of a field is on the terminal's line: the first character shown, and the text shown with its cursor. */
export interface DrawnField {
  start: number;
  shown: FieldText;
}

/**
 * The bytes that bring the line from `drawn` (undefined: a fresh line) to `field`, a field longer
 * than the line scrolling sideways as a dumb terminal's line editor does: only the part around the
 * cursor is on the line, `columns` wide at most (less a margin for characters a terminal counts
 * wider). Within that part the echo is a shell's; when the part moves, the line is written again
 * from its start (a carriage return, never a move up).
 */
export function fieldStep(drawn: DrawnField | undefined, field: FieldText, columns: number, shown: (text: string) => string = (t) => t): { bytes: string; drawn: DrawnField } {
  const room = Math.max(8, columns - 3);
  const window = fieldWindow(characters(field.value), field.cursor, room, drawn?.start ?? 0);
  const cursorShown = field.cursor < characters(field.value).length ? window.atCursor : '';
  const visible: FieldText = { value: window.before + cursorShown + window.after, cursor: characters(window.before).length };
  const next = { start: window.start, shown: visible };
  if (!drawn) return { bytes: fieldEcho(EMPTY, visible, shown), drawn: next };
  if (drawn.start === window.start) return { bytes: fieldEcho(drawn.shown, visible, shown), drawn: next };
  return { bytes: `\r${fieldEcho({ value: drawn.shown.value, cursor: 0 }, visible, shown)}`, drawn: next };
}

const EMPTY: FieldText = { value: '', cursor: 0 };
