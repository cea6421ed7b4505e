// The caches Ink's Output keeps between frames in our bundle: the same answers as what they
// stand for, a bound however many lines go through, and a bundle that really uses them.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { styledCharsFromTokens, styledCharsToString, tokenize, type StyledChar } from '@alcalzone/ansi-tokenize';
import sliceAnsi from 'slice-ansi';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { FRAME_CACHE_LIMIT, FrameCache } from '../../src/tui/frame-cache.js';
import { BLANK_CELL, cellsToString, coveredBy, OutputCaches, rowText, simpleStyledChars } from '../../src/tui/ink-output-caches.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const LINES = ['', 'AAPL  210.00', '┃ ▸ Contacts ━━━┓', '\u001b[7m陳美玲 and 김민지\u001b[27m', 'Thiago 🏄 Santos', '\u001b[1mbold\u001b[22m \u001b[31mred\u001b[39m', 'e\u0301 x'];

/** Random lines of simple characters (ASCII, box drawing, blocks, CJK, accented), joining ones and escapes. */
function randomLines(count: number, seed: number): string[] {
  const pool = ['a', 'Z', ' ', '1', '.', '━', '┃', '▲', '▁', '█', '陳', '김', 'é', 'Ａ', '…', '·', '\u00AD', 'e\u0301', '🏄', '\u200D', '\t',
    '\u001b[31m', '\u001b[39m', '\u001b[1m', '\u001b[2m', '\u001b[22m', '\u001b[7m', '\u001b[27m', '\u001b[0m', '\u001b[m', '\u001b[1;31m',
    '\u001b[38;5;208m', '\u001b[38;2;1;2;3m', '\u001b[48;5;17m', '\u001b[49m', '\u001b[90m', '\u001b[', '\u001b]8;;x\u0007', '\u009b31m'];
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: count }, () => Array.from({ length: Math.floor(next() * 30) }, () => pool[Math.floor(next() * pool.length)]).join(''));
}

describe('styled characters without the segmenter', () => {
  it("are ansi-tokenize's for every line of simple characters and SGR sequences, and none for the rest", () => {
    let simple = 0;
    for (const line of [...LINES, ...randomLines(5_000, 11)]) {
      const fast = simpleStyledChars(line);
      if (fast === undefined) continue;
      simple++;
      expect(fast, JSON.stringify(line)).toEqual(styledCharsFromTokens(tokenize(line)));
      // Serialised back, the same text Ink would have made of ansi-tokenize's.
      expect(styledCharsToString(fast)).toBe(styledCharsToString(styledCharsFromTokens(tokenize(line))));
    }
    expect(simple).toBeGreaterThan(200);
    for (const line of ['e\u0301', 'x\ty', 'Thiago 🏄 Santos', '\u001b]8;;https://x\u0007link', '\u001b[31', '\u009b31mx']) {
      expect(simpleStyledChars(line), JSON.stringify(line)).toBeUndefined();
    }
  });
});

describe('kept styles and cells', () => {
  it('hand out one style list a style and one cell a character in it, whatever line they come from', () => {
    const [a, b, plain] = simpleStyledChars('\u001b[1;31mab\u001b[22;39mc')!;
    const [b2, a2] = simpleStyledChars('\u001b[1m\u001b[31mba\u001b[0m')!;
    expect(a2).toBe(a);
    expect(b2).toBe(b);
    expect(b!.styles).toBe(a!.styles);
    expect(plain!.styles).toEqual([]);
    // Frozen by no one, changed by no one: what Ink reads back is what was made.
    expect(a).toEqual({ type: 'char', value: 'a', fullWidth: false, styles: styledCharsFromTokens(tokenize('\u001b[1;31ma'))[0]!.styles });
  });

  it("write the same text between kept styles, asked again, as between lists made afresh", () => {
    const kept = simpleStyledChars('\u001b[1mx\u001b[31my\u001b[22mz\u001b[39m')!;
    const fresh = styledCharsFromTokens(tokenize('\u001b[1mx\u001b[31my\u001b[22mz\u001b[39m'));
    for (let i = 0; i < 3; i++) {
      expect(cellsToString(kept)).toBe(styledCharsToString(fresh));
      expect(cellsToString(fresh)).toBe(styledCharsToString(fresh));
      expect(cellsToString([...fresh.slice(0, 1), ...kept.slice(1)])).toBe(styledCharsToString(fresh));
    }
  });
});

describe('a row of cells as text', () => {
  it("is styledCharsToString's, for rows of shared and of copied style lists, blanks and covered cells among them", () => {
    const lines = [...LINES, ...randomLines(3_000, 23)];
    let seed = 5;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let n = 0; n < 3_000; n++) {
      // A row as Ink makes it: pieces of lines, either way into cells, with blanks between.
      const row: StyledChar[] = [];
      for (let piece = 0; piece < 1 + Math.floor(next() * 4); piece++) {
        const line = lines[Math.floor(next() * lines.length)]!;
        const cells = (next() < 0.5 && simpleStyledChars(line)) || styledCharsFromTokens(tokenize(line));
        for (const cell of cells) row.push(next() < 0.1 ? coveredBy(cell) : cell);
        for (let blank = Math.floor(next() * 3); blank > 0; blank--) row.push(BLANK_CELL);
      }
      expect(cellsToString(row)).toBe(styledCharsToString(row));
    }
    expect(cellsToString([])).toBe('');
  });
});

describe('the output caches kept between frames', () => {
  it('answer as tokenising, measuring and slicing each time would', () => {
    const caches = new OutputCaches();
    for (let pass = 0; pass < 2; pass++) {
      for (const line of LINES) {
        expect(caches.getStyledChars(line)).toEqual(styledCharsFromTokens(tokenize(line)));
        expect(caches.getStringWidth(line)).toBe(stringWidth(line));
        expect(caches.getWidestLine(`${line}\nab\n${line}${line}`)).toBe(Math.max(2, stringWidth(line + line)));
        for (const [from, to] of [[0, 3], [2, 8], [1, 40], [0, stringWidth(line)]] as const) {
          const slice = caches.getSlice(line, from, to);
          // A line cut is slice-ansi's very text; one that fits whole is itself, with slice-ansi's cells.
          if (from > 0 || to < stringWidth(line)) expect(slice, `${JSON.stringify(line)} ${from}-${to}`).toBe(sliceAnsi(line, from, to));
          else expect(caches.getStyledChars(slice), JSON.stringify(line)).toEqual(styledCharsFromTokens(tokenize(sliceAnsi(line, from, to))));
        }
      }
    }
  });

  it("give a line that fits its box whole as its own slice: slice-ansi's cells, but for bold and dim together", () => {
    const caches = new OutputCaches();
    const styles = ['\u001b[31m', '\u001b[39m', '\u001b[1m', '\u001b[2m', '\u001b[22m', '\u001b[7m', '\u001b[27m', '\u001b[0m', '\u001b[38;5;208m', '\u001b[44m', '\u001b[49m', '\u001b[4m', '\u001b[24m'];
    const texts = ['abc', '│', '━', '▲0.05', '陳', ' ', '…', '⠋'];
    let seed = 3;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const pick = <T,>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
    // The cells with bold and dim left out of their styles: the one thing slice-ansi does differently.
    const looks = (line: string) =>
      styledCharsFromTokens(tokenize(line)).map((char) => [char.value, char.styles.map((style) => style.code).filter((code) => !/^\u001b\[[12]m$/.test(code))]);
    for (let n = 0; n < 3_000; n++) {
      const line = Array.from({ length: 1 + Math.floor(next() * 8) }, () => (next() < 0.5 ? pick(styles) : pick(texts))).join('');
      const width = stringWidth(line);
      expect(caches.getSlice(line, 0, width)).toBe(line);
      expect(looks(line), JSON.stringify(line)).toEqual(looks(sliceAnsi(line, 0, width)));
    }
    // Bold and dim at once: both kept, as the line says (slice-ansi keeps the dim alone).
    const both = '\u001b[1m\u001b[2mx\u001b[22m';
    expect(caches.getStyledChars(caches.getSlice(both, 0, 1))[0]!.styles.map((style) => style.code)).toEqual(['\u001b[1m', '\u001b[2m']);
    // A line cut short, or from its second column, is still sliced.
    expect(caches.getSlice('\u001b[31mabc\u001b[39m', 0, 2)).toBe(sliceAnsi('\u001b[31mabc\u001b[39m', 0, 2));
    expect(caches.getSlice('\u001b[31mabc\u001b[39m', 1, 3)).toBe(sliceAnsi('\u001b[31mabc\u001b[39m', 1, 3));
  });

  // slice-ansi 8 let a wide character that crossed the clip's right edge in, a column past the
  // box (over its border or the pane beside it); slice-ansi 10 leaves it out, a column short.
  it('clip a wide character that crosses the right edge out of the slice, never a column past it', () => {
    const caches = new OutputCaches();
    expect(caches.getSlice('陳陳陳', 0, 3)).toBe('陳');
    expect(caches.getSlice('a陳b', 0, 2)).toBe('a');
    expect(caches.getSlice('\u001b[31m│陳\u001b[39m│', 0, 2)).toBe('\u001b[31m│\u001b[39m');
    // One that begins before the left edge is left out too, as before.
    expect(caches.getSlice('陳ab', 1, 4)).toBe('ab');
    for (const [line, from, to] of [['陳陳陳', 1, 4], ['ab👍🏽c', 1, 3], ['x中文y', 0, 4]] as const) {
      expect(stringWidth(caches.getSlice(line, from, to)), `${line} ${from}-${to}`).toBeLessThanOrEqual(to - from);
    }
  });

  it('keep what the last frame and this one drew, and let go of older lines however many are drawn', () => {
    const caches = new OutputCaches();
    const sizes = () => [caches.blockWidths.size, caches.styledChars.size, caches.slices.size];
    const frame = (lines: readonly string[]) => {
      caches.nextFrame();
      for (const line of lines) {
        caches.getStyledChars(line);
        caches.getWidestLine(line);
        caches.getSlice(line, 0, 4);
      }
    };
    // A ticking row: a new price every frame, beside a header that never changes.
    for (let tick = 0; tick < 500; tick++) frame(['Symbol  Last', `AAPL ${tick} ▲`]);
    for (const size of sizes()) expect(size).toBeLessThanOrEqual(4);
    const header = caches.getStyledChars('Symbol  Last');
    frame(['Symbol  Last']);
    expect(caches.getStyledChars('Symbol  Last')).toBe(header);
  });

  it('keep a line through the next frame, not the one after it unless it is drawn again', () => {
    const cache = new FrameCache<string, number>();
    cache.set('kept', 1);
    cache.set('once', 2);
    cache.nextFrame();
    expect(cache.get('kept')).toBe(1);
    cache.nextFrame();
    expect(cache.get('kept')).toBe(1);
    expect(cache.get('once')).toBeUndefined();
    cache.nextFrame();
    cache.nextFrame();
    expect(cache.get('kept')).toBeUndefined();
  });

  it(`keep at most ${FRAME_CACHE_LIMIT} entries a frame, should a frame draw without end`, () => {
    const cache = new FrameCache<number, number>();
    for (let i = 0; i <= FRAME_CACHE_LIMIT; i++) cache.set(i, i);
    expect(cache.size).toBe(FRAME_CACHE_LIMIT);
    expect(cache.get(FRAME_CACHE_LIMIT)).toBeUndefined();
    cache.nextFrame();
    for (let i = 0; i <= FRAME_CACHE_LIMIT; i++) cache.set(-1 - i, i);
    expect(cache.size).toBe(2 * FRAME_CACHE_LIMIT);
  });

  it('make a row the same text as serialising its cells would, kept while the row holds the same cells', () => {
    const caches = new OutputCaches();
    // A row as Ink builds it: blanks, then a styled line written at column 2, a wide character's
    // second column, and a hole (undefined) Ink filters out.
    const rowOf = (line: string): (StyledChar | undefined)[] => {
      const row: (StyledChar | undefined)[] = Array.from({ length: 30 }, () => BLANK_CELL);
      let x = 2;
      for (const char of caches.getStyledChars(line)) {
        row[x] = char;
        if (caches.getStringWidth(char.value) > 1) row[++x] = coveredBy(char);
        x++;
      }
      row[29] = undefined;
      return row;
    };
    const serialised = (row: (StyledChar | undefined)[]) => styledCharsToString(row.filter((c): c is StyledChar => c !== undefined)).trimEnd();
    for (const line of LINES) {
      const row = rowOf(line);
      expect(rowText(3, row), JSON.stringify(line)).toBe(serialised(row));
      // The next frame's row: a new array of the very same cells.
      expect(rowText(3, [...row])).toBe(serialised(row));
    }
    const before = rowOf('AAPL  210.00');
    expect(rowText(4, before)).toBe(serialised(before));
    const after = rowOf('AAPL  211.25');
    expect(rowText(4, after)).toBe(serialised(after));
    expect(rowText(4, after)).not.toBe(rowText(5, before));
  });

  it('hand out one frozen cell per wide character for its second column, and one frozen blank', () => {
    const [wide] = new OutputCaches().getStyledChars('\u001b[31m陳\u001b[39m');
    expect(coveredBy(wide!)).toBe(coveredBy(wide!));
    expect(coveredBy(wide!)).toMatchObject({ value: '', styles: wide!.styles });
    expect(Object.isFrozen(coveredBy(wide!))).toBe(true);
    expect(Object.isFrozen(BLANK_CELL)).toBe(true);
  });

  it("are what the bundle's Ink uses: its own per-frame caches are gone from the dashboard chunk", () => {
    const chunks = join(root, 'dist/bundle/chunks');
    const chunk = readdirSync(chunks).find((file) => file.startsWith('dashboard-') && file.endsWith('.mjs'))!;
    // The dashboard runs from the script (dist/bundle/dashboard.cjs); the chunk serves `node dist/bundle/tickbook.mjs`.
    for (const path of [join(chunks, chunk), join(root, 'dist/bundle/dashboard.cjs')]) {
      const { sources } = JSON.parse(readFileSync(`${path}.map`, 'utf8')) as { sources: string[] };
      expect(sources.some((source) => source.endsWith('src/tui/ink-output-caches.ts')), path).toBe(true);
      // Ink's Output clips with the remembered slice, which only the edited output.js calls.
      expect(readFileSync(path, 'utf8'), path).toMatch(/\.caches\.getSlice\(/);
    }
  });
});
