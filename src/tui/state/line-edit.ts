// Cursor motion and deletion in a one-line field, over whole characters, as readline does them:
// pure, so the field's keys are tested without a terminal.
import { characters } from './field-window.js';

const isSpace = (char: string): boolean => /^\s+$/u.test(char);

/** The cursor after Alt-B: the start of the word it is in or, at a word's start, the one before. */
export function wordLeft(chars: readonly string[], at: number): number {
  let i = Math.min(at, chars.length);
  while (i > 0 && isSpace(chars[i - 1]!)) i--;
  while (i > 0 && !isSpace(chars[i - 1]!)) i--;
  return i;
}

/** The cursor after Alt-F: the end of the word it is in or, between words, of the next one. */
export function wordRight(chars: readonly string[], at: number): number {
  let i = Math.max(0, at);
  while (i < chars.length && isSpace(chars[i]!)) i++;
  while (i < chars.length && !isSpace(chars[i]!)) i++;
  return i;
}

export type LineEdit =
  | 'left'
  | 'right'
  | 'start'
  | 'end'
  | 'word-left'
  | 'word-right'
  | 'delete-forward'
  | 'kill-end'
  /** Ctrl-U: everything before the cursor (readline's unix-line-discard). */
  | 'kill-start'
  /** Ctrl-W: the word before the cursor and the spaces after it (readline's unix-word-rubout). */
  | 'delete-word-back';

/** A field's value and cursor (in characters) after one edit. */
export function applyLineEdit(value: string, cursor: number, edit: LineEdit): { value: string; cursor: number } {
  const chars = characters(value);
  const at = Math.max(0, Math.min(cursor, chars.length));
  switch (edit) {
    case 'left':
      return { value, cursor: Math.max(0, at - 1) };
    case 'right':
      return { value, cursor: Math.min(chars.length, at + 1) };
    case 'start':
      return { value, cursor: 0 };
    case 'end':
      return { value, cursor: chars.length };
    case 'word-left':
      return { value, cursor: wordLeft(chars, at) };
    case 'word-right':
      return { value, cursor: wordRight(chars, at) };
    case 'delete-forward':
      return { value: [...chars.slice(0, at), ...chars.slice(at + 1)].join(''), cursor: at };
    case 'kill-end':
      return { value: chars.slice(0, at).join(''), cursor: at };
    case 'kill-start':
      return { value: chars.slice(at).join(''), cursor: 0 };
    case 'delete-word-back': {
      const from = wordLeft(chars, at);
      return { value: [...chars.slice(0, from), ...chars.slice(at)].join(''), cursor: from };
    }
  }
}

/** Characters as the server counts them: code points (an emoji ZWJ sequence is several). */
export const codePointCount = (text: string): number => [...text].length;

/** The first whole characters of `chars` that fit in `room` code points. */
export function fitting(chars: readonly string[], room: number): string[] {
  const fit: string[] = [];
  let left = room;
  for (const char of chars) {
    left -= codePointCount(char);
    if (left < 0) break;
    fit.push(char);
  }
  return fit;
}
