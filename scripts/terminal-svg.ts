// A terminal's screen as an SVG picture: each cell's character in its colours and attributes, on
// a dark background, in a monospace font the viewer has (no fonts or anything else fetched). Small
// enough to commit: a run of cells that look alike is one <text>, a run of one background colour
// one <rect>. Each <text> is spaced out to exactly its cells (textLength), so a font whose glyphs
// are a little wider or narrower than the cell (or a fallback font for braille or CJK) keeps every
// column where the terminal put it.
import type { CellColour, StyledCell } from '../test/bench/pty-app.js';

/**
 * Where cells go, in user units: a 10-unit font, each cell 0.6 em wide and 1.2 em high (so box
 * drawing joins), its text's baseline 9 below its top, the screen `pad` in from the picture's edge.
 */
export const GEOMETRY = { cellWidth: 6, cellHeight: 12, baseline: 9, pad: 6 } as const;
const { cellWidth: CELL_W, cellHeight: CELL_H, baseline: BASELINE, pad: PAD } = GEOMETRY;
const FONT_SIZE = 10;
/** Shown at 1.4 times the user units: a 14 px font. */
const SCALE = 1.4;
/** A gap of more blank cells than this ends a run of text: the next starts at its own x. */
const JOIN_BLANKS = 4;
const FONTS = `ui-monospace, 'SFMono-Regular', 'Cascadia Mono', 'DejaVu Sans Mono', Menlo, Consolas, 'Liberation Mono', monospace`;

/** The default colours and the 16 ANSI colours (xterm.js's, which are Tango's), on a dark background. */
const DEFAULT_FG = '#d3d7cf';
const DEFAULT_BG = '#1d1f21';
const ANSI = [
  '#2e3436', '#cc0000', '#4e9a06', '#c4a000', '#3465a4', '#75507b', '#06989a', '#d3d7cf',
  '#555753', '#ef2929', '#8ae234', '#fce94f', '#729fcf', '#ad7fa8', '#34e2e2', '#eeeeec',
];

const hex = (n: number): string => n.toString(16).padStart(2, '0');

/** Palette index 0-255 as xterm draws it: the 16 ANSI colours, the 6x6x6 cube, the 24 greys. */
export function paletteColour(index: number): string {
  if (index < 16) return ANSI[index]!;
  if (index < 232) {
    const levels = [0, 95, 135, 175, 215, 255];
    const i = index - 16;
    return `#${hex(levels[Math.floor(i / 36)]!)}${hex(levels[Math.floor(i / 6) % 6]!)}${hex(levels[i % 6]!)}`;
  }
  const grey = 8 + (index - 232) * 10;
  return `#${hex(grey)}${hex(grey)}${hex(grey)}`;
}

/** What a run of text is drawn with; `fg` undefined is the default colour. */
interface Look {
  fg: string | undefined;
  bold: boolean;
  dim: boolean;
  italic: boolean;
  underline: boolean;
}

const lookKey = (look: Look): string => `${look.fg ?? ''}/${+look.bold}${+look.dim}${+look.italic}${+look.underline}`;

/**
 * A cell's colours as drawn: bold makes the first 8 ANSI colours bright (xterm.js's default), and
 * inverse swaps foreground and background, defaults included.
 */
function resolve(cell: StyledCell): { fg: string | undefined; bg: string | undefined } {
  const colour = (c: CellColour, bold: boolean): string | undefined =>
    c === undefined ? undefined : typeof c === 'string' ? c : paletteColour(bold && c < 8 ? c + 8 : c);
  const fg = colour(cell.fg, cell.bold);
  const bg = colour(cell.bg, false);
  if (!cell.inverse) return { fg, bg };
  return { fg: bg ?? DEFAULT_BG, bg: fg ?? DEFAULT_FG };
}

export const escapeXml = (text: string): string =>
  text.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));

/** Short numbers: user units are whole but for the scaled size. */
const num = (n: number): string => String(Math.round(n * 100) / 100);

export interface SvgOptions {
  /** What the picture shows, for a screen reader and a hover (the <title>). */
  title: string;
}

/** The rows of cells (PtyApp.styledRows) as an SVG document. */
export function terminalSvg(rows: readonly (readonly StyledCell[])[], options: SvgOptions): string {
  const columns = Math.max(0, ...rows.map((row) => row.length));
  const width = columns * CELL_W + 2 * PAD;
  const height = rows.length * CELL_H + 2 * PAD;
  const classes = new Map<string, { name: string; look: Look }>();
  const className = (look: Look): string | undefined => {
    if (look.fg === undefined && !look.bold && !look.dim && !look.italic && !look.underline) return undefined;
    const key = lookKey(look);
    let entry = classes.get(key);
    if (!entry) {
      entry = { name: classNameAt(classes.size), look };
      classes.set(key, entry);
    }
    return entry.name;
  };

  const rects: string[] = [];
  const texts: string[] = [];
  rows.forEach((row, y) => {
    const top = PAD + y * CELL_H;
    // Backgrounds: a rect per run of one colour other than the default.
    let bgStart = 0;
    let bgColour: string | undefined;
    const flushBg = (end: number) => {
      if (bgColour !== undefined && end > bgStart) {
        rects.push(`<rect x="${PAD + bgStart * CELL_W}" y="${top}" width="${(end - bgStart) * CELL_W}" height="${CELL_H}" fill="${bgColour}"/>`);
      }
    };
    // Text: a run of cells that look alike; a few blanks (not underlined) fit any run, and none starts one.
    let run: { start: number; end: number; text: string; look: Look; key: string } | undefined;
    const flushText = () => {
      if (!run) return;
      const cls = className(run.look);
      texts.push(
        `<text x="${PAD + run.start * CELL_W}" y="${top + BASELINE}" textLength="${(run.end - run.start) * CELL_W}"${cls ? ` class="${cls}"` : ''}>${escapeXml(run.text)}</text>`,
      );
      run = undefined;
    };
    let pendingBlanks = '';
    row.forEach((cell, x) => {
      const { fg, bg } = resolve(cell);
      if (bg !== bgColour) {
        flushBg(x);
        bgStart = x;
        bgColour = bg;
      }
      if (cell.width === 0) return;
      const blank = cell.invisible || cell.text.trim() === '';
      if (blank && !cell.underline) {
        if (run) pendingBlanks += ' '.repeat(cell.width);
        return;
      }
      const look: Look = { fg, bold: cell.bold, dim: cell.dim, italic: cell.italic, underline: cell.underline };
      const key = lookKey(look);
      const text = blank ? ' ' : cell.text;
      if (run && run.key === key && pendingBlanks.length <= JOIN_BLANKS) {
        run.text += pendingBlanks + text;
        run.end = x + cell.width;
      } else {
        flushText();
        run = { start: x, end: x + cell.width, text, look, key };
      }
      pendingBlanks = '';
    });
    flushText();
    flushBg(row.length);
  });

  const css = [...classes.values()]
    .map(({ name, look }) => {
      const rules = [
        look.fg !== undefined && `fill:${look.fg}`,
        look.bold && 'font-weight:bold',
        look.dim && 'opacity:.5',
        look.italic && 'font-style:italic',
        look.underline && 'text-decoration:underline',
      ].filter(Boolean);
      return `.${name}{${rules.join(';')}}`;
    })
    .join('');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${num(width * SCALE)}" height="${num(height * SCALE)}" xml:space="preserve" role="img" aria-label="${escapeXml(options.title)}">`,
    `<title>${escapeXml(options.title)}</title>`,
    `<style>text{white-space:pre;font-family:${FONTS};font-size:${FONT_SIZE}px;fill:${DEFAULT_FG}}${css}</style>`,
    `<rect width="100%" height="100%" fill="${DEFAULT_BG}" rx="4"/>`,
    ...rects,
    ...texts,
    '</svg>',
    '',
  ].join('\n');
}

/** a … z, then aa, ab …: the classes, in the order their looks first appear. */
function classNameAt(i: number): string {
  let name = '';
  let n = i;
  do {
    name = String.fromCharCode(97 + (n % 26)) + name;
    n = Math.floor(n / 26) - 1;
  } while (n >= 0);
  return name;
}
