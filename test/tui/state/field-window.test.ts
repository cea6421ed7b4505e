// A one-line field's window over its value: the cursor always in view, whole characters only,
// never wider than the field.
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { characters, fieldWindow } from '../../../src/tui/state/field-window.js';

const shownWidth = (w: { before: string; atCursor: string; after: string }) => stringWidth(w.before + w.atCursor + w.after);

describe('fieldWindow', () => {
  it('shows a short value whole, the cursor after it', () => {
    expect(fieldWindow(characters('abc'), 3, 10)).toEqual({ start: 0, before: 'abc', atCursor: ' ', after: '' });
    expect(fieldWindow(characters('abc'), 1, 10)).toEqual({ start: 0, before: 'a', atCursor: 'b', after: 'c' });
  });

  it('a 300-character value: the end and the cursor in view, exactly the field wide', () => {
    const value = `${'abcdefghij'.repeat(29)}0123456789`;
    const chars = characters(value);
    const w = fieldWindow(chars, chars.length, 20);
    expect(w.before).toBe(value.slice(-19));
    expect(w.atCursor).toBe(' ');
    expect(shownWidth(w)).toBe(20);
  });

  it('moving left scrolls only as the cursor goes, and the text shown is the value', () => {
    const value = 'abcdefghijklmnopqrstuvwxyz';
    const chars = characters(value);
    let start = fieldWindow(chars, chars.length, 10).start;
    for (let cursor = chars.length; cursor >= 0; cursor--) {
      const w = fieldWindow(chars, cursor, 10, start);
      expect(w.before + (cursor < chars.length ? w.atCursor : '') + w.after).toBe(value.slice(w.start, w.start + (w.before + w.after).length + (cursor < chars.length ? 1 : 0)));
      expect(w.before.length).toBe(cursor - w.start);
      expect(shownWidth(w)).toBeLessThanOrEqual(10);
      // Never back the other way, and no further than the cursor made it (or the text let it).
      expect(w.start).toBeLessThanOrEqual(start);
      expect(w.start).toBeGreaterThanOrEqual(Math.min(cursor, start - 1));
      start = w.start;
    }
    expect(start).toBe(0);
  });

  it('wide characters are never cut: the window stops short of one that does not fit', () => {
    const chars = characters('田中健二田中健二');
    for (let columns = 1; columns <= 18; columns++) {
      for (let cursor = 0; cursor <= chars.length; cursor++) {
        const w = fieldWindow(chars, cursor, columns);
        expect(shownWidth(w), `${columns} columns, cursor ${cursor}`).toBeLessThanOrEqual(Math.max(columns, 2));
        expect(w.before.length + w.start).toBe(cursor);
      }
    }
  });

  it('an emoji or a letter with its accent is one step of the cursor', () => {
    expect(characters('a📚e\u0301')).toEqual(['a', '📚', 'e\u0301']);
  });
});
