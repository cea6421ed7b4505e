// Ink's frame output (ink/build/output.js) keeps caches of what it has taken apart (each line's
// styled characters, widths, clipped lines), but only for one frame: every frame takes every
// line apart again, though nearly all of them are the same as the frame before. Measured at
// 120x40, tokenising lines and slicing them for clipping were the first things in a key press's
// profile once widths were remembered. The bundle (scripts/bundle.mjs) has Ink's Output use one
// set of these for all frames instead: the same answers, kept from one frame to the next and no
// longer (frame-cache.ts), since a frame can only reuse what the frame before it drew. The styles
// lines set, and each one's cells, are kept across frames, bounded by count (simpleStyledChars).
import { type AnsiCode, ansiCodesToString, diffAnsiCodes, reduceAnsiCodesIncremental, styledCharsFromTokens, tokenize, type StyledChar } from '@alcalzone/ansi-tokenize';
import isFullwidthCodePoint from 'is-fullwidth-code-point';
import QuickLRU from 'quick-lru';
import sliceAnsi from 'slice-ansi';
import { ClearingMap, remembered } from '../text/remembered.js';
import { isOwnGrapheme, sgrEnd } from '../text/simple-width.js';
import stringWidth from '../text/string-width-memo.js';
import { FrameCache } from './frame-cache.js';

/** What Ink's Output asks of its caches, and the slice it clips lines with. */
export class OutputCaches {
  readonly blockWidths = new FrameCache<string, number>();
  readonly styledChars = new FrameCache<string, StyledChar[]>();
  readonly slices = new FrameCache<string, string>();

  /** Ink makes an Output for each frame it draws: what the frame before last used is let go. */
  nextFrame(): this {
    for (const cache of [this.blockWidths, this.styledChars, this.slices]) cache.nextFrame();
    return this;
  }

  /** Ink places these objects in its grid and only reads them, so one array serves every frame. */
  getStyledChars(line: string): StyledChar[] {
    return remembered(this.styledChars, line, () => simpleStyledChars(line) ?? styledCharsFromTokens(tokenize(line)));
  }

  /** string-width remembers widths already (string-width-memo.ts): no second cache of them here. */
  getStringWidth(text: string): number {
    return stringWidth(text);
  }

  getWidestLine(text: string): number {
    return remembered(this.blockWidths, text, () => text.split('\n').reduce((widest, line) => Math.max(widest, stringWidth(line)), 0));
  }

  /**
   * sliceAnsi(line, from, to), remembered; a line that fits its box whole is its own slice. Every
   * ticking row missed the cache, and slice-ansi took it apart with the segmenter to make the same
   * cells: the first thing in a tick's profile after GC (9% of its time, 20% of what it allocated).
   * Over 20,000 random styled lines the cells differ only where bold and dim are on together:
   * slice-ansi keeps the later of the two, the line keeps both, as Ink draws it when not clipped.
   */
  getSlice(line: string, from: number, to: number): string {
    if (from === 0 && to >= stringWidth(line)) return line;
    return remembered(this.slices, `${from}:${to}:${line}`, () => sliceAnsi(line, from, to));
  }
}

/** The styles each SGR sequence stands for, as ansi-tokenize reads them: a frame uses a few dozen. */
const sgrCodes = new QuickLRU<string, AnsiCode[]>({ maxSize: 256 });

// A frame's lines set the same few styles over and over, and a tick's changed rows were each
// taken apart into new style lists and new cells: a third of what a tick allocated went on its
// changed rows, and each tick's garbage was a young-generation collection. The style lists
// simpleStyledChars makes are kept instead (2 × STYLES_KEPT, by their codes), and with each the
// cells of the characters drawn in it; none is ever changed (Ink only reads them). What a kept
// style knows of others it holds by their keys, never the lists themselves: a list the cache
// lets go of is gone once no frame draws it.
const styleKey = (styles: readonly AnsiCode[]): string => styles.map((style) => `${style.code}\u0000${style.endCode}`).join('\u0001');
const STYLES_KEPT = 256;
const CHARS_KEPT = 2048;
interface KeptStyle {
  readonly key: string;
  /** The key of the style each SGR sequence makes of this one. */
  readonly after: ClearingMap<string, string>;
  /** This style's cells, by character. */
  readonly chars: ClearingMap<string, StyledChar>;
  /** The SGR text that goes from this style to each other kept one, by its key (cellsToString). */
  readonly to: ClearingMap<string, string>;
}
const stylesByKey = new QuickLRU<string, AnsiCode[]>({ maxSize: STYLES_KEPT });
const keptStyles = new WeakMap<readonly AnsiCode[], KeptStyle>();
const keptStyle = (key: string): KeptStyle => ({
  key,
  after: new ClearingMap(STYLES_KEPT),
  chars: new ClearingMap(CHARS_KEPT),
  to: new ClearingMap(STYLES_KEPT),
});
/** The default style: the kept list for no codes, which the blank cell has too. */
const NO_STYLES = Object.freeze([]) as unknown as AnsiCode[];
keptStyles.set(NO_STYLES, keptStyle(''));

/** The kept list for these codes (by key, when known): the one made first, while it is kept. */
function keptList(styles: AnsiCode[], key = styleKey(styles)): AnsiCode[] {
  const kept = key === '' ? NO_STYLES : stylesByKey.get(key);
  if (kept) return kept;
  stylesByKey.set(key, styles);
  keptStyles.set(styles, keptStyle(key));
  return styles;
}

/** The style after an SGR sequence is applied to `styles` (a kept list), kept. */
function stylesAfter(styles: AnsiCode[], sequence: string): AnsiCode[] {
  const kept = keptStyles.get(styles);
  const knownKey = kept?.after.get(sequence);
  const known = knownKey === undefined ? undefined : knownKey === '' ? NO_STYLES : stylesByKey.get(knownKey);
  if (known) return known;
  const codes = remembered(sgrCodes, sequence, () => tokenize(sequence) as AnsiCode[]);
  const next = keptList(reduceAnsiCodesIncremental(styles, codes));
  kept?.after.set(sequence, keptStyles.get(next)!.key);
  return next;
}

/** The cell of `value` in `styles` (a kept list): the same object each time while both are kept. */
function keptChar(styles: AnsiCode[], value: string, unit: number): StyledChar {
  const chars = keptStyles.get(styles)?.chars;
  const known = chars?.get(value);
  if (known) return known;
  const char: StyledChar = { type: 'char', value, fullWidth: isFullwidthCodePoint(unit), styles };
  chars?.set(value, char);
  return char;
}

/**
 * What styledCharsFromTokens(tokenize(line)) gives, made without Intl.Segmenter, for a line of
 * characters that are each a grapheme of their own (simple-width.ts) and SGR sequences; undefined
 * for any other line (ansi-tokenize takes it). A tick's changed rows were ~130 us each through
 * ansi-tokenize, which asks the segmenter of every character. Cells of one style share its kept
 * styles array, as Ink's covered cells share their character's, and the same character in the
 * same style is the same cell.
 */
export function simpleStyledChars(line: string): StyledChar[] | undefined {
  const chars: StyledChar[] = [];
  let styles = NO_STYLES;
  for (let i = 0; i < line.length; i++) {
    const unit = line.charCodeAt(i);
    if (unit === 0x1b) {
      const end = sgrEnd(line, i);
      if (end === -1) return undefined;
      styles = stylesAfter(styles, line.slice(i, end));
      i = end - 1;
      continue;
    }
    if (!isOwnGrapheme(unit)) return undefined;
    chars.push(keptChar(styles, line[i]!, unit));
  }
  return chars;
}

/**
 * The blank cell every frame starts from, one object for all: Ink only replaces cells, never
 * changes one, and a row of the same cells is then the same objects frame after frame.
 */
export const BLANK_CELL: StyledChar = Object.freeze({ type: 'char', value: ' ', fullWidth: false, styles: NO_STYLES }) as StyledChar;

const covered = new WeakMap<StyledChar, StyledChar>();

/**
 * The empty cell that stands for the second column of a wide character, one per character
 * object (as long as it lives), so a row with CJK or emoji is the same objects frame after frame too.
 */
export function coveredBy(wide: StyledChar): StyledChar {
  return remembered(covered, wide, () => Object.freeze({ type: 'char', value: '', fullWidth: false, styles: wide.styles }) as StyledChar);
}

/** Whether two reduced style lists are the same codes in the same order (diffAnsiCodes reads only code and endCode). */
function sameStyles(a: readonly AnsiCode[], b: readonly AnsiCode[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]!.code !== b[i]!.code || a[i]!.endCode !== b[i]!.endCode) return false;
  return true;
}

/** The SGR text that goes from one style to another, as styledCharsToString writes it; kept between kept styles. */
function transition(from: readonly AnsiCode[], to: readonly AnsiCode[]): string {
  const kept = keptStyles.get(from);
  const toKey = keptStyles.get(to)?.key;
  const known = toKey === undefined ? undefined : kept?.to.get(toKey);
  if (known !== undefined) return known;
  const text = ansiCodesToString(diffAnsiCodes(from as AnsiCode[], to as AnsiCode[]));
  if (toKey !== undefined) kept?.to.set(toKey, text);
  return text;
}

/**
 * styledCharsToString(chars), the same text, without asking diffAnsiCodes between two cells of
 * the same style (it answers none then, after building three Sets and two arrays), and between
 * two kept styles only once: a changed row allocated ~37% of all a tick did, most of it there.
 */
export function cellsToString(chars: readonly StyledChar[]): string {
  let text = '';
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i]!;
    if (i === 0) text += transition(NO_STYLES, char.styles);
    else {
      const before = chars[i - 1]!.styles;
      if (!sameStyles(before, char.styles)) text += transition(before, char.styles);
    }
    text += char.value;
    if (i === chars.length - 1 && char.styles.length > 0) text += transition(char.styles, NO_STYLES);
  }
  return text;
}

/** The rows of the last frames, by row: their cells and the text made of them. Bounded by the screen's height. */
const rowsDrawn: { cells: readonly (StyledChar | undefined)[]; text: string }[] = [];

/**
 * A row of Ink's frame as text: the text made last time when the row holds the very same cell
 * objects (the shared blank, and the styled characters the caches hand out), else made afresh.
 * A tick changes a few rows; the rest were serialised cell by cell on every frame before.
 */
export function rowText(y: number, cells: readonly (StyledChar | undefined)[]): string {
  const kept = rowsDrawn[y];
  if (kept && kept.cells.length === cells.length && cells.every((cell, x) => cell === kept.cells[x])) return kept.text;
  const text = cellsToString(cells.filter((cell): cell is StyledChar => cell !== undefined)).trimEnd();
  rowsDrawn[y] = { cells, text };
  return text;
}

let shared: OutputCaches | undefined;

/** The one set of caches every frame's Output uses, turned to a new frame: Ink's Output calls it as it is made. */
export const nextFrameOutputCaches = (): OutputCaches => (shared ??= new OutputCaches()).nextFrame();
