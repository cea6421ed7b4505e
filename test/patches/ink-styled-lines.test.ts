// patches/ink+8.0.0.patch adds ink/build/styled-lines.js (docs/patches.md): Ink's output takes a
// text's styled characters and a row's text from it instead of ansi-tokenize, without the
// segmenter where every character is a grapheme of its own. Its answers must be ansi-tokenize's,
// cell for cell and byte for byte: checked over seeded random lines of the characters and styles a
// dashboard draws, and the characters that join others (marks, joiners, flags, emoji, jamo).
import { styledCharsFromTokens, styledCharsToString, tokenize, type StyledChar } from '@alcalzone/ansi-tokenize';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

interface StyledLines {
  simpleStyledChars(line: string): StyledChar[] | undefined;
  cellsToString(chars: readonly StyledChar[]): string;
  isOwnGrapheme(unit: number): boolean;
}

const inkBuild = dirname(createRequire(import.meta.url).resolve('ink'));
const lines = (await import(pathToFileURL(join(inkBuild, 'styled-lines.js')).href)) as StyledLines;

const STYLES = ['\u001b[31m', '\u001b[39m', '\u001b[1m', '\u001b[2m', '\u001b[22m', '\u001b[7m', '\u001b[27m', '\u001b[0m', '\u001b[38;5;208m', '\u001b[48;2;10;20;30m', '\u001b[49m', '\u001b[4m', '\u001b[24m', '\u001b[1;32m'];
// What the dashboard draws most: ASCII, box drawing, arrows, blocks, accented letters, CJK.
const SIMPLE = [...'abcXYZ 019.,:-|', '│', '─', '╭', '▲', '▼', '▁', '▅', '█', '…', 'é', 'ß', '陳', '김', '€', '→'];
// Characters that join a neighbour, or are dropped (soft hyphen, zero-width space), or are not one UTF-16 unit.
const JOINING = ['\u0301', '\u200d', '\ufe0f', '\u00ad', '\u200b', '🇫🇷', '👩‍💻', '\u1100', '\u1161', '😀', '\t'];

/** A seeded generator (mulberry32): the same lines every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function line(next: () => number, joining: boolean): string {
  let text = '';
  const length = Math.floor(next() * 40);
  for (let i = 0; i < length; i++) {
    const roll = next();
    if (roll < 0.2) text += STYLES[Math.floor(next() * STYLES.length)];
    else if (joining && roll < 0.3) text += JOINING[Math.floor(next() * JOINING.length)];
    else text += SIMPLE[Math.floor(next() * SIMPLE.length)];
  }
  return text;
}

const tokenized = (text: string): StyledChar[] => styledCharsFromTokens(tokenize(text));

describe("Ink's styled lines (patches/ink+8.0.0.patch)", () => {
  it('gives the cells ansi-tokenize gives, for lines of characters that are each a grapheme', () => {
    const next = random(39);
    for (let i = 0; i < 3000; i++) {
      const text = line(next, false);
      const cells = lines.simpleStyledChars(text);
      expect(cells, JSON.stringify(text)).toBeDefined();
      expect(cells, JSON.stringify(text)).toEqual(tokenized(text));
    }
  });

  it('leaves a line with a character that joins a neighbour, or is dropped, to ansi-tokenize', () => {
    for (const character of JOINING) expect(lines.simpleStyledChars(`a${character}b`), JSON.stringify(character)).toBeUndefined();
    // An escape sequence other than a colour or style too.
    expect(lines.simpleStyledChars('a\u001b]8;;https://example.com\u0007b')).toBeUndefined();
    expect(lines.simpleStyledChars('a\u001b[2Kb')).toBeUndefined();
  });

  it('writes a row of cells as ansi-tokenize writes it, whichever way the cells were made', () => {
    const next = random(40);
    for (let i = 0; i < 3000; i++) {
      const text = line(next, true);
      const cells = lines.simpleStyledChars(text) ?? tokenized(text);
      // A row mixes the cells of several texts, as Ink's grid does.
      const row = [...cells, ...tokenized(line(next, true)), ...(lines.simpleStyledChars(line(next, false)) ?? [])];
      expect(lines.cellsToString(row), JSON.stringify(text)).toBe(styledCharsToString(row));
    }
  });

  it('asks the segmenter once for each character, and answers as it does', () => {
    const segmenter = new Intl.Segmenter();
    for (const character of [...SIMPLE, '\u0301', '\u200d', '\u1100', '\u1161', '\uac00']) {
      const unit = character.charCodeAt(0);
      const own = [...segmenter.segment(`a${character}${character}a`)].length === 4 && !/^\p{Default_Ignorable_Code_Point}$/u.test(character);
      expect(lines.isOwnGrapheme(unit), JSON.stringify(character)).toBe(own && unit >= 0x20);
    }
  });
});
