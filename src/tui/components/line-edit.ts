// One line of text being edited, as ink-text-input edits it (the cursor counts UTF-16 units, as
// its own does), plus the readline keys it lacks. Pure, so TextField can apply keys itself when
// ink-text-input would apply them to a value that is out of date.

export interface Line {
  value: string;
  /** 0 (before the first character) to value.length (after the last). */
  cursor: number;
}

export type LineKey =
  | { kind: 'insert'; text: string }
  | { kind: 'backspace' }
  | { kind: 'left' }
  | { kind: 'right' }
  /** Ctrl-U: the whole line. */
  | { kind: 'clear' }
  /** Ctrl-W: the word before the cursor and the spaces after it. */
  | { kind: 'delete-word' };

/** UTF-16 units of the character that ends at `index` (2 for an emoji or other astral one). */
function unitsBefore(text: string, index: number): number {
  const low = text.charCodeAt(index - 1);
  const high = text.charCodeAt(index - 2);
  return index >= 2 && low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? 2 : Math.min(1, index);
}

/** UTF-16 units of the character that starts at `index`. */
const unitsAt = (text: string, index: number): number =>
  index >= text.length ? 0 : (text.codePointAt(index) ?? 0) > 0xffff ? 2 : 1;

export function editLine(line: Line, key: LineKey): Line {
  const cursor = Math.max(0, Math.min(line.cursor, line.value.length));
  const before = line.value.slice(0, cursor);
  const after = line.value.slice(cursor);
  switch (key.kind) {
    case 'insert':
      return { value: before + key.text + after, cursor: cursor + key.text.length };
    case 'backspace': {
      const units = unitsBefore(line.value, cursor);
      return { value: before.slice(0, cursor - units) + after, cursor: cursor - units };
    }
    case 'left':
      return { value: line.value, cursor: cursor - unitsBefore(line.value, cursor) };
    case 'right':
      return { value: line.value, cursor: cursor + unitsAt(line.value, cursor) };
    case 'clear':
      return { value: '', cursor: 0 };
    case 'delete-word': {
      const kept = before.replace(/\S*\s*$/, '');
      return { value: kept + after, cursor: kept.length };
    }
  }
}

/** Applies a chunk of typed keys (typed faster than they were read) to a line, as editing would. */
export function applyTyped(line: Line, chunk: string): Line {
  let next = line;
  for (const char of chunk) {
    if (char === '\r' || char === '\n') break; // Enter: the router submits.
    if (char === '\u0015') next = editLine(next, { kind: 'clear' });
    else if (char === '\u0017') next = editLine(next, { kind: 'delete-word' });
    else if (char === '\u007f' || char === '\b') next = editLine(next, { kind: 'backspace' });
    // eslint-disable-next-line no-control-regex
    else if (!/[\u0000-\u001f]/.test(char)) next = editLine(next, { kind: 'insert', text: char });
  }
  return next;
}

/**
 * Where the cursor is after an edit that turned `before` into `after`: just past what changed,
 * found from the longest common start and end of the two.
 */
export function cursorAfterEdit(before: string, after: string): number {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++;
  return after.length - end;
}
