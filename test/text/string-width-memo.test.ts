// The remembering string-width: string-width's answers, and a bound however many texts go through.
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import memoStringWidth, { rememberedWidths, WIDTH_CACHE_LONGEST, WIDTH_CACHE_SIZE } from '../../src/text/string-width-memo.js';

const TEXTS = ['', 'AAPL', '┃ ▸ Contacts ━━━┓', '陳美玲 and 김민지', 'Thiago 🏄‍♂️ Santos', 'e\u0301\u200b', '\u001b[31mred\u001b[39m', '▁▂▃▅▇', 'x'.repeat(WIDTH_CACHE_LONGEST + 1)];

describe('memoStringWidth', () => {
  it('answers as string-width does, the first time and from memory, with and without options', () => {
    for (const text of TEXTS) {
      expect(memoStringWidth(text), JSON.stringify(text)).toBe(stringWidth(text));
      expect(memoStringWidth(text), JSON.stringify(text)).toBe(stringWidth(text));
      expect(memoStringWidth(text, { countAnsiEscapeCodes: true })).toBe(stringWidth(text, { countAnsiEscapeCodes: true }));
      expect(memoStringWidth(text, { ambiguousIsNarrow: false })).toBe(stringWidth(text, { ambiguousIsNarrow: false }));
    }
  });

  it('remembers at most two generations of WIDTH_CACHE_SIZE texts, however many distinct ones are measured', () => {
    // A combining accent: not summed from the table (simple-width.ts), so remembered.
    const text = (i: number) => `AAPL ${i} e\u0301`;
    for (let i = 0; i < WIDTH_CACHE_SIZE * 5; i++) memoStringWidth(text(i));
    expect(rememberedWidths()).toBeGreaterThan(0);
    expect(rememberedWidths()).toBeLessThanOrEqual(2 * WIDTH_CACHE_SIZE);
    expect(memoStringWidth(text(WIDTH_CACHE_SIZE * 5 - 1))).toBe(stringWidth(text(WIDTH_CACHE_SIZE * 5 - 1)));
  });
});
