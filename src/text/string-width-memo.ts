// string-width, remembered. A frame measures the same texts every time it is drawn (each row,
// each border line, each character of them in Ink's output), and a text that is not plain ASCII
// goes through Intl.Segmenter and the emoji and East Asian Width tables each time: measured at
// 120x40, string-width was the first thing in a key press's profile. Ink and the libraries it
// draws with are given this module in place of string-width by the bundle (scripts/bundle.mjs);
// our own code imports it directly. Texts whose characters are each a grapheme of their own are
// summed from a table instead (simple-width.ts); the rest are remembered.
import QuickLRU from 'quick-lru';
import stringWidth, { type Options } from 'string-width';
import { remembered } from './remembered.js';
import { simpleWidth } from './simple-width.js';

/**
 * Texts remembered, per generation (quick-lru keeps up to two): a 120x40 frame has some hundreds
 * of distinct rows, cells and glyphs, so a few frames' worth fit, and a week of ticking prices
 * does not grow it.
 */
export const WIDTH_CACHE_SIZE = 4000;
/** Longer texts (a paste, a whole wrapped paragraph) are measured each time, not kept. */
export const WIDTH_CACHE_LONGEST = 512;

const widths = new QuickLRU<string, number>({ maxSize: WIDTH_CACHE_SIZE });

/** The same answer as string-width's: the columns a terminal draws `input` in. */
export default function memoStringWidth(input: string, options?: Options): number {
  if (options !== undefined && (options.ambiguousIsNarrow !== undefined || options.countAnsiEscapeCodes !== undefined)) {
    return stringWidth(input, options);
  }
  if (typeof input !== 'string') return stringWidth(input);
  // Most texts (ASCII, borders, blocks, CJK) are summed from a table, faster than a lookup here.
  const simple = simpleWidth(input);
  if (simple !== undefined) return simple;
  if (input.length > WIDTH_CACHE_LONGEST) return stringWidth(input);
  return remembered(widths, input, () => stringWidth(input));
}

/** How many texts are remembered now (for the test of the bound). */
export const rememberedWidths = (): number => widths.size;
