// The width of a text whose every character is a grapheme of its own, summed from a table, with
// string-width's answer for each character; and such a text's graphemes, each with its width.
// string-width takes every text that is not plain ASCII through Intl.Segmenter and three
// Unicode-property regexes per grapheme (~50-75 us for a short line; measured at start, the help's
// texts cost ~11 ms, and a tick's new sparklines and arrows most of a frame's measuring). Box drawing, blocks, arrows, accented letters and CJK
// are such characters: ASCII's shortcut, extended.
//
// Whether a character joins a neighbour is asked of the same segmenter string-width uses, once
// per character: one that joins neither the letter before it, nor the one after it, nor itself
// has the grapheme break property Other (or is a precomposed Hangul syllable, which joins only
// jamo, and jamo join themselves), so in a text of such characters every one is its own grapheme
// and the sums are string-width's. Colours and styles (SGR: ESC [ digits and semicolons m) take
// no columns, as string-width strips them; other controls and escape sequences, and anything
// outside the Basic Multilingual Plane, are left to string-width.
import stringWidth from 'string-width';
import { BMP_WIDTHS } from './bmp-widths.js';

const segmenter = new Intl.Segmenter();
/** Not asked yet. */
const UNKNOWN = -2;
/** Joins a neighbour, or is a control or half of a surrogate pair: string-width decides. */
export const NOT_SIMPLE = -1;

/** string-width's width for the UTF-16 code unit `unit` when it is a grapheme of its own, else NOT_SIMPLE. */
export function classifyUnit(unit: number): number {
  const control = unit < 0x20 || (unit >= 0x7f && unit < 0xa0);
  const surrogate = unit >= 0xd800 && unit <= 0xdfff;
  if (control || surrogate) return NOT_SIMPLE;
  const character = String.fromCharCode(unit);
  let graphemes = 0;
  for (const _ of segmenter.segment(`a${character}${character}a`)) graphemes++;
  return graphemes === 4 ? stringWidth(character) : NOT_SIMPLE;
}

/**
 * The table from `runs` (start, width, start, width, …: each width holds from its start to the
 * next start), or undefined when it was made for another Unicode version than this Node's: the
 * segmenter and string-width's property regexes may answer otherwise here.
 */
export function tableFromRuns(widths: { unicode: string; runs: readonly number[] }, unicode = process.versions.unicode): Int8Array | undefined {
  if (widths.unicode !== unicode) return undefined;
  const table = new Int8Array(0x10000);
  for (let i = 0; i < widths.runs.length; i += 2) table.fill(widths.runs[i + 1]!, widths.runs[i]!, widths.runs[i + 2] ?? 0x10000);
  return table;
}

/**
 * One per UTF-16 code unit, 64 KB: made at build time (bmp-widths.ts), since asking string-width
 * the first time compiles its Unicode-property regexes (~20 ms of the first frame); filled as
 * characters are first seen when the table is for another Unicode version.
 */
const table = tableFromRuns(BMP_WIDTHS) ?? new Int8Array(0x10000).fill(UNKNOWN);

function widthOf(unit: number): number {
  let width = table[unit]!;
  if (width === UNKNOWN) table[unit] = width = classifyUnit(unit);
  return width;
}

const ESC = 0x1b;
const LEFT_BRACKET = 0x5b;
const SEMICOLON = 0x3b;
const COLON = 0x3a;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const M = 0x6d;

/** string-width's width for the UTF-16 code unit `unit` when it is a grapheme of its own wherever it stands, else NOT_SIMPLE. */
const unitWidth = (unit: number): number => (unit >= 0x20 && unit < 0x7f ? 1 : widthOf(unit));

/**
 * Where the SGR sequence starting at `start` (ESC) ends, one past its m; -1 if it is not one.
 * With `colons`, parameters may hold ':' too (`4:3`, `38:2::1:2:3`), as terminals read them.
 */
export function sgrEnd(text: string, start: number, colons = false): number {
  if (text.charCodeAt(start + 1) !== LEFT_BRACKET) return -1;
  for (let i = start + 2; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit === M) return i + 1;
    if (unit !== SEMICOLON && (unit < DIGIT_0 || unit > DIGIT_9) && !(colons && unit === COLON)) return -1;
  }
  return -1;
}

/** string-width's answer for `text` when every character in it is a grapheme of its own, else undefined. */
export function simpleWidth(text: string): number | undefined {
  let total = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit === ESC) {
      const end = sgrEnd(text, i);
      if (end === -1) return undefined;
      i = end - 1;
      continue;
    }
    const width = unitWidth(unit);
    if (width === NOT_SIMPLE) return undefined;
    total += width;
  }
  return total;
}

/**
 * Each character of `text` with string-width's width for it, when every one is a grapheme of its
 * own: what cutting it into grapheme clusters gives, without the segmenter. Else undefined.
 */
export function ownGraphemes(text: string): (readonly [character: string, width: number])[] | undefined {
  const clusters: (readonly [string, number])[] = [];
  for (let i = 0; i < text.length; i++) {
    const width = unitWidth(text.charCodeAt(i));
    if (width === NOT_SIMPLE) return undefined;
    clusters.push([text[i]!, width]);
  }
  return clusters;
}
