// The echo is played into a model of a terminal line as xterm, VTE and tmux keep one (a backspace
// moves a column left; each code point takes its own wcwidth, a zero-width one joining the cell
// before) and the line and cursor compared with the field's.
import { describe, expect, it } from 'vitest';
import { fieldEcho, fieldStep } from '../../../src/tui/reader/field-echo.js';
import { EMPTY_FIELD, type FieldText, fieldInput, type FieldInput } from '../../../src/tui/state/field-text.js';
import { characters } from '../../../src/tui/state/field-window.js';
import { width } from '../../../src/text/width.js';

/** A terminal line: cells, and the column of the cursor. */
function play(bytes: string, line: string[] = [], cursor = 0): { line: string[]; cursor: number } {
  const cells = [...line];
  let at = cursor;
  for (const point of bytes) {
    if (point === '\b') {
      at = Math.max(0, at - 1);
      continue;
    }
    expect(point).not.toMatch(/[\u0000-\u0007\u0009-\u001f\u007f]/);
    const w = width(point);
    if (w === 0) {
      cells[Math.max(0, at - 1)] = (cells[Math.max(0, at - 1)] ?? '') + point;
      continue;
    }
    cells[at] = point;
    for (let i = 1; i < w; i++) cells[at + i] = '';
    at += w;
  }
  return { line: cells, cursor: at };
}

const terminalColumns = (text: string) => [...text].reduce((sum, point) => sum + width(point), 0);
const shownAs = (field: FieldText) => ({ text: field.value, column: terminalColumns(characters(field.value).slice(0, field.cursor).join('')) });
const text = (line: string[]) => line.join('').replace(/ +$/, '');

describe('a field echoed as a shell echoes it', () => {
  it('writes only the character typed at the end, and a backspace as back, blank, back', () => {
    const a = { value: 'Ad', cursor: 2 };
    expect(fieldEcho(a, { value: 'Ada', cursor: 3 })).toBe('a');
    expect(fieldEcho({ value: 'Ada', cursor: 3 }, a)).toBe('\b \b');
  });

  it('moves the cursor with backspaces and by writing what is already there', () => {
    expect(fieldEcho({ value: 'Ada', cursor: 3 }, { value: 'Ada', cursor: 0 })).toBe('\b\b\b');
    expect(fieldEcho({ value: 'Ada', cursor: 0 }, { value: 'Ada', cursor: 2 })).toBe('Ad');
  });

  it('inserting in the middle writes the rest of the line again and comes back', () => {
    expect(fieldEcho({ value: 'Aa', cursor: 1 }, { value: 'Ada', cursor: 2 })).toBe('da\b');
  });

  it('leaves the line and the cursor as the field has them, through every kind of edit, wide and combined characters too', () => {
    const inputs: FieldInput[] = [
      { kind: 'type', text: 'Ada ' },
      { kind: 'type', text: '世界' },
      { kind: 'edit', edit: 'left' },
      { kind: 'type', text: 'e\u0301' },
      { kind: 'edit', edit: 'start' },
      { kind: 'type', text: 'Dr ' },
      { kind: 'edit', edit: 'word-right' },
      { kind: 'backspace' },
      { kind: 'edit', edit: 'kill-end' },
      { kind: 'edit', edit: 'end' },
      { kind: 'type', text: '👩‍💻' },
      { kind: 'edit', edit: 'left' },
      { kind: 'type', text: 'क्ष' },
      { kind: 'edit', edit: 'start' },
      { kind: 'type', text: 'Z' },
      { kind: 'edit', edit: 'end' },
      { kind: 'backspace' },
      { kind: 'backspace' },
      { kind: 'edit', edit: 'delete-word-back' },
      { kind: 'edit', edit: 'delete-forward' },
      { kind: 'edit', edit: 'start' },
      { kind: 'edit', edit: 'delete-forward' },
      { kind: 'edit', edit: 'end' },
      { kind: 'edit', edit: 'kill-start' },
      { kind: 'type', text: 'Lovelace' },
    ];
    let field: FieldText = EMPTY_FIELD;
    let terminal = play(fieldEcho(EMPTY_FIELD, field));
    for (const input of inputs) {
      const next = fieldInput(field, input);
      terminal = play(fieldEcho(field, next), terminal.line, terminal.cursor);
      field = next;
      const want = shownAs(field);
      expect(text(terminal.line), JSON.stringify(input)).toBe(want.text.replace(/ +$/, ''));
      expect(terminal.cursor, JSON.stringify(input)).toBe(want.column);
    }
  });

  it('draws what the terminal can show, ASCII where it must', () => {
    expect(fieldEcho(EMPTY_FIELD, { value: 'Ivić', cursor: 4 }, (t) => t.normalize('NFD').replace(/[\u0300-\u036f]/g, ''))).toBe('Ivic');
  });

  it('scrolls a field longer than the line sideways: never past the line\'s end, the cursor always on it, only a carriage return to go back', () => {
    const columns = 20;
    const inputs: FieldInput[] = [
      { kind: 'type', text: 'https://avatars.example/people/ada-lovelace.png' },
      { kind: 'edit', edit: 'start' },
      { kind: 'edit', edit: 'word-right' },
      { kind: 'type', text: 'X' },
      { kind: 'edit', edit: 'end' },
      { kind: 'backspace' },
      { kind: 'edit', edit: 'kill-start' },
    ];
    let field: FieldText = EMPTY_FIELD;
    let step = fieldStep(undefined, field, columns);
    let terminal = play(step.bytes);
    for (const input of inputs) {
      field = fieldInput(field, input);
      const before = terminal;
      step = fieldStep(step.drawn, field, columns);
      expect(step.bytes).not.toMatch(/\u001b/);
      // A carriage return takes the cursor to the line's start.
      const [head, ...rest] = step.bytes.split('\r');
      terminal = play(head!, before.line, before.cursor);
      for (const part of rest) terminal = play(part, terminal.line, 0);
      const chars = characters(field.value);
      const shown = text(terminal.line);
      expect(terminal.line.length, JSON.stringify(input)).toBeLessThanOrEqual(columns);
      expect(field.value, JSON.stringify(input)).toContain(shown);
      // The character the cursor is on (or the end) is where the terminal's cursor is.
      const offset = field.value.indexOf(shown);
      expect(offset + terminal.cursor, JSON.stringify(input)).toBe(terminalColumns(chars.slice(0, field.cursor).join('')));
    }
  });
});

