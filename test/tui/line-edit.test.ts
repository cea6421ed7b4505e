import { describe, expect, it } from 'vitest';
import { applyTyped, cursorAfterEdit, editLine, type Line } from '../../src/tui/components/line-edit.js';

const at = (value: string, cursor = value.length): Line => ({ value, cursor });

describe('editLine', () => {
  it('inserts and deletes at the cursor', () => {
    expect(editLine(at('abd', 2), { kind: 'insert', text: 'c' })).toEqual(at('abcd', 3));
    expect(editLine(at('abcd', 3), { kind: 'backspace' })).toEqual(at('abd', 2));
    expect(editLine(at('abc', 0), { kind: 'backspace' })).toEqual(at('abc', 0));
    expect(editLine(at('abc', 1), { kind: 'left' })).toEqual(at('abc', 0));
    expect(editLine(at('abc', 0), { kind: 'left' })).toEqual(at('abc', 0));
    expect(editLine(at('abc', 3), { kind: 'right' })).toEqual(at('abc', 3));
  });

  it('treats an emoji as one character, never half of one', () => {
    expect(editLine(at('hi 📚'), { kind: 'backspace' })).toEqual(at('hi ', 3));
    expect(editLine(at('📚x', 2), { kind: 'left' })).toEqual(at('📚x', 0));
    expect(editLine(at('📚x', 0), { kind: 'right' })).toEqual(at('📚x', 2));
  });

  it('Ctrl-U clears the line; Ctrl-W removes the word before the cursor', () => {
    expect(editLine(at('new york', 4), { kind: 'clear' })).toEqual(at('', 0));
    expect(editLine(at('new york'), { kind: 'delete-word' })).toEqual(at('new ', 4));
    expect(editLine(at('new york  '), { kind: 'delete-word' })).toEqual(at('new ', 4));
    expect(editLine(at('new york', 4), { kind: 'delete-word' })).toEqual(at('york', 0));
  });
});

describe('applyTyped', () => {
  it('applies a chunk key by key and stops at Enter', () => {
    expect(applyTyped(at('bank'), '\u0015appl')).toEqual(at('appl'));
    expect(applyTyped(at('abc'), '\u007f\u007fx')).toEqual(at('ax'));
    expect(applyTyped(at('new york'), '\u0017jersey')).toEqual(at('new jersey'));
    expect(applyTyped(at('a'), 'b\rc')).toEqual(at('ab'));
    expect(applyTyped(at('a'), 'b\u0007c')).toEqual(at('abc'));
  });
});

describe('cursorAfterEdit', () => {
  it('is just past what changed', () => {
    expect(cursorAfterEdit('abd', 'abcd')).toBe(3);
    expect(cursorAfterEdit('abcd', 'abd')).toBe(2);
    expect(cursorAfterEdit('ab', 'abc')).toBe(3);
    expect(cursorAfterEdit('aaa', 'aaaa')).toBe(4);
    expect(cursorAfterEdit('', 'x')).toBe(1);
  });
});
