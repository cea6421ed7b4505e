// The remembering string-width: string-width's answers, a bound however many texts go through,
// and a bundle in which Ink really measures with it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import memoStringWidth, { rememberedWidths, WIDTH_CACHE_LONGEST, WIDTH_CACHE_SIZE } from '../../src/text/string-width-memo.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
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

  it('is what the bundle measures with: Ink, and the libraries it draws with, import it in place of string-width', () => {
    const chunks = join(root, 'dist/bundle/chunks');
    const maps = [readdirSync(chunks).filter((file) => file.endsWith('.map')).map((file) => join(chunks, file)), [join(root, 'dist/bundle/dashboard.cjs.map')]];
    // The ES modules' chunks, and the dashboard's script.
    for (const bundle of maps) {
      const sources = bundle.flatMap((file) => (JSON.parse(readFileSync(file, 'utf8')) as { sources: string[] }).sources);
      expect(sources.some((source) => source.endsWith('src/text/string-width-memo.ts'))).toBe(true);
      // string-width itself is still in, once, behind the memo (wrap-ansi keeps a version of its own).
      const top = sources.filter((source) => /node_modules\/string-width\/index\.js$/.test(source) && !/node_modules\/[^/]+\/node_modules\//.test(source));
      expect(new Set(top).size).toBe(1);
    }
  });
});
