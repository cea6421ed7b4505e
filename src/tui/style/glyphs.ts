// Which characters the dashboard draws with: Unicode (box drawing, arrows, block sparklines)
// where the terminal can draw it, plain ASCII where it cannot (a locale that is not UTF-8, the
// Linux console, a VT100). Every non-ASCII character the TUI draws comes from here.
import type { BoxProps } from 'ink';
import { createContext, useContext } from 'react';
import stringWidth from 'string-width';
import { localeIsUtf8 } from '../../text/locale.js';
import { GLYPH_VALUES } from '../../config/display-settings.js';

export { localeIsUtf8 };

export type GlyphSetting = (typeof GLYPH_VALUES)[number];
export const GLYPH_SETTINGS: readonly GlyphSetting[] = GLYPH_VALUES;

/** A border drawn with our own characters (Ink takes these as well as style names). */
export type BoxStyle = Exclude<BoxProps['borderStyle'], string | undefined>;

type Env = Readonly<Record<string, string | undefined>>;

export interface Glyphs {
  unicode: boolean;
  /** Ends text cut to fit. */
  ellipsis: string;
  /** Between the entries of a line ("page 2 · more"). */
  separator: string;
  /** Between the pane's keys and the global ones in the footer. */
  bar: string;
  /** Before the focused pane's title. */
  focusMarker: string;
  /** Before the focused field of a form. */
  fieldMarker: string;
  /** Before the highlighted match of a list. */
  pointer: string;
  /** Before the row being renamed. */
  edit: string;
  /** Symbols already on the watchlist. */
  check: string;
  /** Before an error. */
  cross: string;
  /** Before a notice in the message log. */
  dot: string;
  /** In place of an amount hidden for sharing a screen ($). */
  masked: string;
  /** A price tick: up, down, unchanged. */
  up: string;
  down: string;
  flat: string;
  /** Sparkline levels, lowest first. */
  bars: readonly string[];
  spinner: readonly string[];
  /** Ink border styles: a pane, the focused pane, an overlay. */
  border: { pane: BoxStyle; focused: BoxStyle; overlay: BoxStyle };
  /** Fixed text (key labels "j/↓", "more →", "40×10") as this set draws it. */
  text: (text: string) => string;
}

const box = (corner: string, horizontal: string, vertical: string): BoxStyle => ({
  topLeft: corner,
  top: horizontal,
  topRight: corner,
  right: vertical,
  bottomRight: corner,
  bottom: horizontal,
  bottomLeft: corner,
  left: vertical,
});

const ROUND: BoxStyle = { topLeft: '╭', top: '─', topRight: '╮', right: '│', bottomRight: '╯', bottom: '─', bottomLeft: '╰', left: '│' };
const BOLD: BoxStyle = { topLeft: '┏', top: '━', topRight: '┓', right: '┃', bottomRight: '┛', bottom: '━', bottomLeft: '┗', left: '┃' };
const DOUBLE: BoxStyle = { topLeft: '╔', top: '═', topRight: '╗', right: '║', bottomRight: '╝', bottom: '═', bottomLeft: '╚', left: '║' };

export const UNICODE: Glyphs = {
  unicode: true,
  ellipsis: '…',
  separator: ' · ',
  bar: ' │ ',
  focusMarker: '▸ ',
  fieldMarker: '›',
  pointer: '❯ ',
  edit: '✎ ',
  check: '✓',
  cross: '✗',
  dot: '·',
  masked: '•••',
  up: '▲',
  down: '▼',
  flat: '·',
  bars: [...'▁▂▃▄▅▆▇█'],
  spinner: [...'⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏'],
  border: { pane: ROUND, focused: BOLD, overlay: DOUBLE },
  text: (text) => text,
};

/** An ASCII look-alike of the same width for each non-ASCII character the dashboard uses. */
const LOOK_ALIKE: Readonly<Record<string, string>> = {
  '…': '.',
  '·': '-',
  '▸': '>',
  '›': '>',
  '❯': '>',
  '✎': '>',
  '✓': '*',
  '✗': 'x',
  '▲': '^',
  '▼': 'v',
  '↑': '^',
  '↓': 'v',
  '←': '<',
  '→': '>',
  '×': 'x',
  '–': '-',
  '—': '-',
  '±': '+',
};

/** Where there is room to say more: fixed text is fitted after it is turned into ASCII. */
const SPELLED_OUT: Readonly<Record<string, string>> = { '…': '...', '±': '+-', '→': '->', '←': '<-' };

// Box drawing (U+2500–257F) and blocks (U+2580–259F) as the shape they stand for.
function boxLookAlike(char: string): string | undefined {
  const code = char.codePointAt(0)!;
  if (code >= 0x2580 && code <= 0x259f) return '#';
  if (code < 0x2500 || code > 0x257f) return undefined;
  if ('─━═┄┅┈┉╌╍╴╶╸╺╼╾'.includes(char)) return '-';
  if ('│┃║┆┇┊┋╎╏╵╷╹╻╽╿'.includes(char)) return '|';
  return '+';
}

const ALL_ASCII = /^[\u0000-\u007f]*$/;

function asciiWith(text: string, table: Readonly<Record<string, string>>): string {
  if (ALL_ASCII.test(text)) return text;
  let out = '';
  for (const { segment } of segmenter.segment(text)) {
    if (ALL_ASCII.test(segment)) out += segment;
    else out += table[segment] ?? LOOK_ALIKE[segment] ?? boxLookAlike(segment) ?? '?'.repeat(stringWidth(segment));
  }
  return out;
}

/** Fixed text in ASCII: "…" spelled "...", arrows as look-alikes, anything else as "?". */
export const toAscii = (text: string): string => asciiWith(text, SPELLED_OUT);

/**
 * A drawn line in ASCII, column for column: each character as a look-alike of its own width,
 * any other (a CJK name, say) as "?" in each column it takes, so the layout holds. The last
 * guard where the terminal cannot draw Unicode: nothing else reaches it.
 */
export const asciiLine = (line: string): string => asciiWith(line, {});

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

export const ASCII: Glyphs = {
  unicode: false,
  ellipsis: '...',
  separator: ' - ',
  bar: ' | ',
  focusMarker: '> ',
  fieldMarker: '>',
  pointer: '> ',
  edit: '> ',
  check: '*',
  cross: 'x',
  dot: '-',
  masked: '***',
  up: '^',
  down: 'v',
  flat: '=',
  bars: [...'_.,-=+*#'],
  spinner: ['|', '/', '-', '\\'],
  border: { pane: box('+', '-', '|'), focused: box('#', '=', '#'), overlay: box('#', '=', '#') },
  text: toAscii,
};


/** Terminals whose font has no box drawing or arrows: the Linux console and the VTs. */
const ASCII_TERMINALS = /^(?:linux|vt\d+|cons\d+|ansi|dumb)(?:-|$)/;

export function isGlyphSetting(value: unknown): value is GlyphSetting {
  return typeof value === 'string' && (GLYPH_SETTINGS as readonly string[]).includes(value);
}

/**
 * The glyph set: TICKBOOK_GLYPHS, else the config's "glyphs", else (auto) Unicode only for a
 * UTF-8 locale on a terminal that can draw it.
 */
export function glyphsFor(env: Env, configured: GlyphSetting = 'auto'): Glyphs {
  const setting = isGlyphSetting(env.TICKBOOK_GLYPHS) ? env.TICKBOOK_GLYPHS : configured;
  if (setting === 'unicode') return UNICODE;
  if (setting === 'ascii') return ASCII;
  return localeIsUtf8(env) && !ASCII_TERMINALS.test(env.TERM ?? '') ? UNICODE : ASCII;
}

export const GlyphsContext = createContext<Glyphs>(UNICODE);

export const useGlyphs = (): Glyphs => useContext(GlyphsContext);
