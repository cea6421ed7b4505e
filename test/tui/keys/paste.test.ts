// A paste as one line for a field, and the end marks cut between reads.
import { describe, expect, it } from 'vitest';
import { partialMarkAtEnd, PASTE_END, pastedLine } from '../../../src/tui/keys/paste.js';

describe('pastedLine', () => {
  it('turns inner line breaks and tabs into one space each and drops those at the ends', () => {
    expect(pastedLine('New Name\rdy')).toBe('New Name dy');
    expect(pastedLine('a\r\nb\nc\td')).toBe('a b c d');
    expect(pastedLine('\n\nAlice Smith\r\n')).toBe('Alice Smith');
    expect(pastedLine('two\n\nlines')).toBe('two  lines');
  });

  it('drops escape sequences and other control characters, keeping the text whole', () => {
    expect(pastedLine('\u001b[1;31mred\u001b[0m text\u0007')).toBe('red text');
    expect(pastedLine('bell\u0007 del\u007f c1\u009b ok')).toBe('bell del c1 ok');
    expect(pastedLine('\u001b]8;;http://x\u0007link\u001b]8;;\u0007')).toBe('link');
    expect(pastedLine('陳美玲 🏄 e\u0301')).toBe('陳美玲 🏄 e\u0301');
  });
});

describe('partialMarkAtEnd', () => {
  it('finds the start of a mark cut off at the end of a read, and nothing else', () => {
    expect(partialMarkAtEnd('text\u001b[20', PASTE_END)).toBe(4);
    expect(partialMarkAtEnd('text\u001b', PASTE_END)).toBe(1);
    expect(partialMarkAtEnd('text', PASTE_END)).toBe(0);
    expect(partialMarkAtEnd('text\u001b[201', PASTE_END)).toBe(5);
    expect(partialMarkAtEnd('\u001b[2x', PASTE_END)).toBe(0);
  });
});
