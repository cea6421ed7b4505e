// A text field as the state that owns it holds it (field-text.ts): every key and paste as a pure
// function of the value and the cursor, over whole characters (what the cursor steps over), the
// typed text cleaned, cut to the field's limit in code points (what the server counts), and the
// same object back when nothing changed, so a reducer keeps its state and nothing is drawn again.
import { describe, expect, it } from 'vitest';
import { EMPTY_FIELD, fieldAtEnd, fieldInput, type FieldInput, type FieldText } from '../../../src/tui/state/field-text.js';
import type { LineEdit } from '../../../src/tui/state/line-edit.js';

const type = (text: string): FieldInput => ({ kind: 'type', text });
const BACKSPACE: FieldInput = { kind: 'backspace' };
const edit = (name: LineEdit): FieldInput => ({ kind: 'edit', edit: name });
const field = (value: string, cursor: number): FieldText => ({ value, cursor });
/** The field after each input in turn. */
const after = (start: FieldText, ...inputs: FieldInput[]): FieldText => inputs.reduce((f, input) => fieldInput(f, input), start);

/** One character on screen, five code points. */
const FAMILY = '👨\u200d👩\u200d👧';

describe('typing', () => {
  it('inserts at the cursor, wherever it is, and leaves the cursor after what was typed', () => {
    expect(fieldInput(field('held', 2), type('x'))).toEqual(field('hexld', 3));
    expect(fieldInput(field('held', 0), type('x'))).toEqual(field('xheld', 1));
    expect(fieldInput(field('held', 4), type('x'))).toEqual(field('heldx', 5));
    // A paste is one text, in place.
    expect(fieldInput(field('ab', 1), type('XYZ'))).toEqual(field('aXYZb', 4));
    expect(after(EMPTY_FIELD, type('Zo'), type('ë'))).toEqual(field('Zoë', 3));
  });

  it('types at the end when the cursor is past it (a value set shorter elsewhere)', () => {
    expect(fieldInput(field('ab', 9), type('c'))).toEqual(field('abc', 3));
  });
});

describe('backspace', () => {
  it('does nothing at the start, and gives back the same field', () => {
    const start = field('abc', 0);
    expect(fieldInput(start, BACKSPACE)).toBe(start);
    expect(fieldInput(EMPTY_FIELD, BACKSPACE)).toBe(EMPTY_FIELD);
  });

  it('deletes the character before the cursor, mid-value or at the end', () => {
    expect(fieldInput(field('abc', 2), BACKSPACE)).toEqual(field('ac', 1));
    expect(fieldInput(field('abc', 3), BACKSPACE)).toEqual(field('ab', 2));
  });
});

describe('every LineEdit through edit', () => {
  // Record<LineEdit, …>: an edit added to LineEdit and left out here does not compile.
  const cases: Record<LineEdit, [FieldText, FieldText]> = {
    left: [field('abc', 2), field('abc', 1)],
    right: [field('abc', 1), field('abc', 2)],
    start: [field('abc', 2), field('abc', 0)],
    end: [field('abc', 1), field('abc', 3)],
    'word-left': [field('one two', 7), field('one two', 4)],
    'word-right': [field('one two', 0), field('one two', 3)],
    'delete-forward': [field('abc', 1), field('ac', 1)],
    'kill-end': [field('abc', 1), field('a', 1)],
    'kill-start': [field('abc', 1), field('bc', 0)],
    'delete-word-back': [field('one two', 7), field('one ', 4)],
  };
  it.each(Object.entries(cases))('%s', (name, [start, expected]) => {
    expect(fieldInput(start, edit(name as LineEdit))).toEqual(expected);
  });

  // Where each edit has nothing to do: the same object back.
  const idle: Record<LineEdit, FieldText> = {
    left: field('abc', 0),
    right: field('abc', 3),
    start: field('abc', 0),
    end: field('abc', 3),
    'word-left': field('abc', 0),
    'word-right': field('abc', 3),
    'delete-forward': field('abc', 3),
    'kill-end': field('abc', 3),
    'kill-start': field('abc', 0),
    'delete-word-back': field('abc', 0),
  };
  it.each(Object.entries(idle))('%s that changes nothing gives back the same field', (name, start) => {
    expect(fieldInput(start, edit(name as LineEdit))).toBe(start);
  });
});

describe('whole characters', () => {
  it('the cursor steps over an emoji ZWJ sequence as one character, and deletes it whole', () => {
    const start = field(`a${FAMILY}b`, 1);
    expect(fieldInput(start, edit('right'))).toEqual(field(`a${FAMILY}b`, 2));
    expect(fieldInput(field(`a${FAMILY}b`, 2), edit('left'))).toEqual(start);
    expect(fieldInput(start, edit('delete-forward'))).toEqual(field('ab', 1));
    expect(fieldInput(field(`a${FAMILY}b`, 2), BACKSPACE)).toEqual(field('ab', 1));
    // Pasted whole, it is one step of the cursor.
    expect(fieldInput(field('ab', 1), type(FAMILY))).toEqual(field(`a${FAMILY}b`, 2));
    expect(fieldAtEnd(`a${FAMILY}`)).toEqual(field(`a${FAMILY}`, 2));
  });

  it('a combining mark typed after its letter joins it, and the cursor stays after the joined character', () => {
    expect(after(EMPTY_FIELD, type('e'), type('\u0301'))).toEqual(field('e\u0301', 1));
    // Mid-value: the mark joins the letter before the cursor, not the one after.
    const joined = fieldInput(field('eb', 1), type('\u0301'));
    expect(joined).toEqual(field('e\u0301b', 1));
    expect(fieldInput(joined, BACKSPACE)).toEqual(field('b', 0));
    // Typed with its letter in one text, the same.
    expect(fieldInput(field('b', 0), type('e\u0301'))).toEqual(field('e\u0301b', 1));
  });

  it('an emoji built up key by key (a ZWJ, a skin tone) joins into one character', () => {
    expect(after(EMPTY_FIELD, type('👨'), type('\u200d'), type('👩'), type('\u200d'), type('👧'))).toEqual(field(FAMILY, 1));
    expect(after(field('x', 1), type('👍'), type('🏽'))).toEqual(field('x👍🏽', 2));
  });

  it('a mark, a ZWJ or a skin tone with nothing before it to join draws as nothing: it types nothing', () => {
    for (const alone of ['\u0301', '\u200d', '🏽']) {
      const start = field('ab', 0);
      expect(fieldInput(start, type(alone)), JSON.stringify(alone)).toBe(start);
    }
  });
});

describe('typed text is cleaned; the value held is not', () => {
  it('drops controls, escape sequences, line breaks and tabs', () => {
    expect(fieldInput(EMPTY_FIELD, type('a\u001b[31mb\u0007c\r\n\td\u001b]0;title\u0007'))).toEqual(field('abcd', 4));
    expect(fieldInput(EMPTY_FIELD, type('x\u0085\u0099y'))).toEqual(field('xy', 2));
  });

  it('drops bidi overrides and isolates, and what draws as nothing (ZWSP, RLM, BOM, U+FFFD)', () => {
    expect(fieldInput(EMPTY_FIELD, type('\u202eevil\u202c \u2066x\u2069'))).toEqual(field('evil x', 6));
    expect(fieldInput(EMPTY_FIELD, type('\u200bZed\u200f\ufeff\ufffd'))).toEqual(field('Zed', 3));
  });

  it('text that is all controls types nothing: the same field back', () => {
    const start = field('ab', 1);
    expect(fieldInput(start, type('\u001b[A'))).toBe(start);
    expect(fieldInput(start, type('\u0007\u202e'))).toBe(start);
    expect(fieldInput(start, type(''))).toBe(start);
  });

  it('keeps what the value already holds exactly, since it is what will be saved', () => {
    expect(fieldInput(field('a\u200bb', 3), type('c\u200b'))).toEqual(field('a\u200bbc', 4));
  });
});

describe('maxLength, in code points', () => {
  it('keeps a key that fits as it is', () => {
    expect(fieldInput(field('abc', 2), type('X'), 5)).toEqual(field('abXc', 3));
  });

  it('a key past the limit types nothing, wherever the cursor is, and loses nothing already there', () => {
    for (const cursor of [0, 2, 5]) {
      const full = field('abcde', cursor);
      expect(fieldInput(full, type('X'), 5)).toBe(full);
    }
  });

  it('a paste that does not fit keeps its start, in place', () => {
    expect(fieldInput(field('ab', 1), type('XYZW'), 4)).toEqual(field('aXYb', 3));
    expect(fieldInput(EMPTY_FIELD, type('📚📚📚'), 2)).toEqual(field('📚📚', 2));
  });

  it('counts code points, as the server does, and never types half a character', () => {
    expect(fieldInput(field('陳美', 2), type('玲'), 3)).toEqual(field('陳美玲', 3));
    expect(fieldInput(field('a', 1), type(FAMILY), 6)).toEqual(field(`a${FAMILY}`, 2));
    // Five code points into four of room: none of it, nor what comes after it.
    const a = field('a', 1);
    expect(fieldInput(a, type(`${FAMILY}b`), 5)).toBe(a);
    expect(fieldInput(a, type(`${FAMILY}b`), 2)).toBe(a);
    expect(fieldInput(EMPTY_FIELD, type(`x${FAMILY}`), 3)).toEqual(field('x', 1));
    // A mark is a code point too: at the limit it does not join.
    const e = field('e', 1);
    expect(fieldInput(e, type('\u0301'), 1)).toBe(e);
  });

  it('counts what is left after cleaning: escapes do not use up the room', () => {
    expect(fieldInput(EMPTY_FIELD, type('\u001b[31mab\u001b[0m'), 2)).toEqual(field('ab', 2));
  });

  it('lets a value already too long (set elsewhere) get shorter, and types nothing into it', () => {
    const long = field('abcdef', 6);
    expect(fieldInput(long, BACKSPACE, 4)).toEqual(field('abcde', 5));
    expect(fieldInput(long, type('x'), 4)).toBe(long);
  });

  it('with no limit, takes all of it', () => {
    expect(fieldInput(EMPTY_FIELD, type('n'.repeat(500)))).toEqual(field('n'.repeat(500), 500));
  });
});

describe('fieldAtEnd', () => {
  it('fieldAtEnd opens a field with its cursor after its last character', () => {
    expect(fieldAtEnd('陳美玲')).toEqual(field('陳美玲', 3));
    expect(fieldAtEnd('')).toEqual(EMPTY_FIELD);
  });
});
