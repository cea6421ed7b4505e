// A frame line as the terminal shows it, cell by cell, so the screen writer can send only the
// part of a line that changed. Pure: no terminal here, only text, columns and SGR states.
//
// A line is taken to start in the default SGR state: Ink closes every style at the end of its
// line, so each line stands alone. Lines come through `onlyStyles` (screen.ts) first: SGR
// sequences and printable text are all they hold.
import stringWidth from 'string-width';
import { ClearingMap, remembered } from '../../text/remembered.js';
import { ownGraphemes, sgrEnd } from '../../text/simple-width.js';

const CSI = '\u001b[';

// One bit per on/off attribute; the SGR code that sets it is the key of SGR_ON.
const BOLD = 1 << 0;
const DIM = 1 << 1;
const ITALIC = 1 << 2;
const BLINK = 1 << 3;
const RAPID_BLINK = 1 << 4;
const INVERSE = 1 << 5;
const HIDDEN = 1 << 6;
const STRIKE = 1 << 7;
const OVERLINE = 1 << 8;

const SGR_ON: ReadonlyMap<number, number> = new Map([
  [1, BOLD],
  [2, DIM],
  [3, ITALIC],
  [5, BLINK],
  [6, RAPID_BLINK],
  [7, INVERSE],
  [8, HIDDEN],
  [9, STRIKE],
  [53, OVERLINE],
]);
// The codes that turn attributes off: 22 and 25 each end two of them.
const SGR_OFF: ReadonlyMap<number, number> = new Map([
  [22, BOLD | DIM],
  [23, ITALIC],
  [25, BLINK | RAPID_BLINK],
  [27, INVERSE],
  [28, HIDDEN],
  [29, STRIKE],
  [55, OVERLINE],
]);
const SGR_SEQUENCE = /\u001b\[([0-9;:]*)m/g;
const ESC = '\u001b';
const FLAG_CODES = [...SGR_ON].map(([code, flag]) => ({ code, flag }));
const OFF_CODES = [...SGR_OFF].map(([code, flags]) => ({ code, flags }));

/** The SGR state in force for a cell. Two states are the same exactly when their keys are. */
export interface Style {
  readonly flags: number;
  /** The underline as it was set ('4', '21', '4:3'), '' for none. */
  readonly underline: string;
  /** Colours as they were set ('31', '38;5;208', '38:2::1:2:3'), '' for the default. */
  readonly fg: string;
  readonly bg: string;
  readonly underlineColor: string;
  /** Codes this module does not know (fonts, superscript, …), in order; only a reset ends them. */
  readonly other: string;
  /** The SGR parameters that set this state from the default one ('1;31'); '' is the default. */
  readonly key: string;
}

function style(parts: Omit<Style, 'key'>): Style {
  const key = [
    ...FLAG_CODES.filter(({ flag }) => parts.flags & flag).map(({ code }) => String(code)),
    parts.underline,
    parts.fg,
    parts.bg,
    parts.underlineColor,
    parts.other,
  ]
    .filter((part) => part !== '')
    .join(';');
  return { ...parts, key };
}

export const DEFAULT_STYLE: Style = style({ flags: 0, underline: '', fg: '', bg: '', underlineColor: '', other: '' });

/**
 * Reads an extended colour (38, 48, 58) starting at params[i]: the token as written and how many
 * parameters it took, or undefined when it is cut short.
 */
function extendedColour(params: readonly string[], i: number): { token: string; used: number } | undefined {
  const head = params[i]!;
  // The colon form carries its arguments inside the one parameter.
  if (head.includes(':')) return { token: head, used: 1 };
  const kind = params[i + 1];
  const count = kind === '5' ? 1 : kind === '2' ? 3 : undefined;
  if (count === undefined || i + 2 + count > params.length) return undefined;
  return { token: params.slice(i, i + 2 + count).join(';'), used: 2 + count };
}

// A frame sets the same few states over and over: the states reached are kept, a bounded number.
const statesKept = new ClearingMap<string, Style>(1024);

/** The state after the SGR parameters `sequence` (the text between CSI and m) are applied to `from`. */
export function applySgr(from: Style, sequence: string): Style {
  return remembered(statesKept, `${from.key}m${sequence}`, () => reached(from, sequence));
}

function reached(from: Style, sequence: string): Style {
  let { flags, underline, fg, bg, underlineColor } = from;
  let other = from.other === '' ? [] : [from.other];
  const params = sequence.split(';');
  for (let i = 0; i < params.length; i++) {
    const param = params[i]!;
    const [main = '', ...subparams] = param.split(':');
    const code = main === '' ? 0 : Number(main);
    if (code === 0 && subparams.length === 0) {
      flags = 0;
      underline = fg = bg = underlineColor = '';
      other = [];
    } else if (SGR_ON.has(code) && subparams.length === 0) {
      flags |= SGR_ON.get(code)!;
    } else if (SGR_OFF.has(code) && subparams.length === 0) {
      flags &= ~SGR_OFF.get(code)!;
    } else if (code === 4) {
      underline = subparams[0] === '0' ? '' : param;
    } else if (code === 21) {
      underline = param;
    } else if (code === 24) {
      underline = '';
    } else if ((code >= 30 && code <= 37) || (code >= 90 && code <= 97)) {
      fg = param;
    } else if ((code >= 40 && code <= 47) || (code >= 100 && code <= 107)) {
      bg = param;
    } else if (code === 39) {
      fg = '';
    } else if (code === 49) {
      bg = '';
    } else if (code === 59) {
      underlineColor = '';
    } else if (code === 38 || code === 48 || code === 58) {
      const colour = extendedColour(params, i);
      if (colour === undefined) {
        // Cut short, what it does varies (xterm.js reads the missing numbers as 0s): no state
        // stands for it, and a line that holds one is written whole, as it came (`opaque`).
        other.push(`${OPAQUE}${params.slice(i).join(';')}`);
        break;
      }
      if (code === 38) fg = colour.token;
      else if (code === 48) bg = colour.token;
      else underlineColor = colour.token;
      i += colour.used - 1;
    } else {
      other.push(param);
    }
  }
  return style({ flags, underline, fg, bg, underlineColor, other: other.join(';') });
}

/** The state after a whole line (SGR and text) is written from state `from`. */
export function endStyle(line: string, from: Style): Style {
  let current = from;
  for (const match of line.matchAll(SGR_SEQUENCE)) current = applySgr(current, match[1]!);
  return current;
}

// Marks, in a state's unknown codes, a sequence the state cannot stand for. Not a digit, a
// semicolon or a colon, it cannot come from a sequence.
const OPAQUE = '?';

const sgr = (params: string): string => `${CSI}${params}m`;

/**
 * The shortest SGR sequence that takes the terminal from `from` (undefined: not known) to `to`:
 * what changed, or a reset and the whole of `to`, whichever is shorter.
 */
export function styleChange(from: Style | undefined, to: Style): string {
  if (from?.key === to.key) return '';
  if (from === undefined) return sgr(to.key === '' ? '0' : `0;${to.key}`);
  // Asked between every two cells of another style on every changed line: between the few states
  // a frame uses, each answer is kept with its states.
  // By the other state's key, not the state: a state holds no other alive.
  const kept = remembered(changesKept, from, () => new ClearingMap<string, string>(256));
  return remembered(kept, to.key, () => changeBetween(from, to));
}

const changesKept = new WeakMap<Style, ClearingMap<string, string>>();

function changeBetween(from: Style, to: Style): string {
  const whole = to.key === '' ? '0' : `0;${to.key}`;
  if (from.key === '') return sgr(to.key);
  // Codes this module does not know cannot be turned off one by one.
  if (from.other !== to.other) return sgr(whole);
  const params: string[] = [];
  let flags = from.flags;
  for (const { code, flags: ended } of OFF_CODES) {
    if (from.flags & ended & ~to.flags) {
      params.push(String(code));
      flags &= ~ended;
    }
  }
  // An off code may also have ended an attribute `to` keeps (22 ends bold and dim): set again.
  for (const { code, flag } of FLAG_CODES) if (to.flags & flag & ~flags) params.push(String(code));
  if (from.underline !== to.underline) params.push(to.underline === '' ? '24' : to.underline);
  if (from.fg !== to.fg) params.push(to.fg === '' ? '39' : to.fg);
  if (from.bg !== to.bg) params.push(to.bg === '' ? '49' : to.bg);
  if (from.underlineColor !== to.underlineColor) params.push(to.underlineColor === '' ? '59' : to.underlineColor);
  const changed = params.join(';');
  return sgr(changed.length < whole.length ? changed : whole);
}

/** What one cell shows: a character (with the marks that join it), its state and its columns. */
export interface Cell {
  readonly text: string;
  readonly style: Style;
  /** 1, 2 for a wide character; more only for a cluster string-width counts so. */
  readonly width: number;
}

export interface LineCells {
  readonly cells: readonly Cell[];
  /** The column each cell starts at. */
  readonly starts: readonly number[];
  /** Columns drawn. */
  readonly width: number;
  /** Holds an SGR sequence no state stands for: to be written whole, never in part. */
  readonly opaque: boolean;
}

const sameCell = (a: Cell, b: Cell): boolean => a.text === b.text && a.width === b.width && a.style.key === b.style.key;

const segmenter = new Intl.Segmenter();
// Lines come without control characters (onlyStyles): what is not printable ASCII is Unicode.
const isAscii = (unit: number): boolean => unit >= 0x20 && unit <= 0x7e;

// Cutting text into clusters and measuring them takes some ten microseconds a piece. Most pieces
// are characters that are each a cluster of their own (box drawing, blocks, arrows, accented
// letters, CJK), found from a table instead: a tick's new sparklines and arrows are new pieces
// every second. The clusters of a bounded number of the others (emoji, marks) are kept: a frame's
// are mostly the ones of the frame before.
type Clusters = readonly (readonly [cluster: string, width: number])[];
const clustersKept = new ClearingMap<string, Clusters>(1024);
function clustersOf(text: string): Clusters {
  return (
    ownGraphemes(text) ??
    // A wide character or an emoji is one cluster of two columns; a mark joins the one before.
    remembered(clustersKept, text, () => Array.from(segmenter.segment(text), ({ segment }) => [segment, stringWidth(segment)] as const))
  );
}

// Each changed line was taken apart into a new object a cell, a tick's rows most of what the
// screen writer allocated. The cells of a kept state are kept with it, by their text (which says
// their width), and handed out again: no one changes a cell.
const cellsKept = new WeakMap<Style, ClearingMap<string, Cell>>();
const keptCell = (style: Style, text: string, width: number): Cell =>
  remembered(
    remembered(cellsKept, style, () => new ClearingMap<string, Cell>(2048)),
    text,
    () => ({ text, style, width }),
  );

/** Splits a line (SGR and text only) into its cells, each with the state it is drawn in. */
export function parseLine(line: string): LineCells {
  const cells: Cell[] = [];
  const starts: number[] = [];
  let width = 0;
  let current = DEFAULT_STYLE;
  let opaque = false;
  // Marks before any character have no cell to join: they go in front of the first one, so they
  // are sent again whenever it is.
  let orphans = '';
  const add = (text: string, columns: number): void => {
    if (columns === 0) {
      const last = cells.length - 1;
      if (last < 0) orphans += text;
      else cells[last] = { ...cells[last]!, text: cells[last]!.text + text };
      return;
    }
    cells.push(orphans === '' ? keptCell(current, text, columns) : { text: orphans + text, style: current, width: columns });
    orphans = '';
    starts.push(width);
    width += columns;
  };
  const addText = (text: string): void => {
    // Printable ASCII never joins the ASCII character next to it, so only a stretch that is not
    // ASCII (stretches one ASCII character apart are one), with one character either side (a mark
    // after an e, an e after a prepended sign), is cut into grapheme clusters: the segmenter is
    // slow, most of a line is ASCII. Scanned by hand: a regular expression's matches were objects
    // a stretch, on every changed line of every frame.
    let at = 0;
    let i = 0;
    while (i < text.length) {
      if (isAscii(text.charCodeAt(i))) {
        i++;
        continue;
      }
      let end = i + 1;
      for (;;) {
        while (end < text.length && !isAscii(text.charCodeAt(end))) end++;
        if (end + 1 < text.length && !isAscii(text.charCodeAt(end + 1))) end += 2;
        else break;
      }
      const from = Math.max(0, i - 1);
      const to = Math.min(text.length, end + 1);
      for (let k = at; k < from; k++) add(text[k]!, 1);
      for (const [cluster, columns] of clustersOf(text.slice(from, to))) add(cluster, columns);
      at = to;
      i = to;
    }
    for (let k = at; k < text.length; k++) add(text[k]!, 1);
  };
  let at = 0;
  for (let esc = line.indexOf(ESC); esc !== -1; esc = line.indexOf(ESC, esc + 1)) {
    const end = sgrEnd(line, esc, true);
    if (end === -1) continue;
    if (esc > at) addText(line.slice(at, esc));
    current = applySgr(current, line.slice(esc + 2, end - 1));
    opaque ||= current.other.includes(OPAQUE);
    at = end;
    esc = end - 1;
  }
  if (at < line.length) addText(line.slice(at));
  if (orphans !== '' && cells.length === 0) {
    // Only marks: nothing takes a column, but the line is not the same as an empty one.
    return { cells: [{ text: orphans, style: current, width: 0 }], starts: [0], width: 0, opaque };
  }
  return { cells, starts, width, opaque };
}

/** The cell index covering each column, for comparing two lines column by column. */
function cover(line: LineCells): Int32Array {
  const owner = new Int32Array(line.width);
  line.cells.forEach((cell, i) => owner.fill(i, line.starts[i]!, line.starts[i]! + cell.width));
  return owner;
}

/** What of a line to write so that the terminal shows `next` where it showed `previous`. */
export interface Span {
  /** The column to start writing at: always where a cell starts, never inside a wide one. */
  readonly column: number;
  /** The cells of `next` to write, [first, end). */
  readonly first: number;
  readonly end: number;
  /** The column after the last one written. */
  readonly endColumn: number;
  /** `next` is narrower than `previous`: the columns from endColumn on are to be erased. */
  readonly erase: boolean;
}

/**
 * The columns that differ between two lines, widened to whole cells of `next`; undefined when
 * the two show the same.
 */
export function changedSpan(previous: LineCells, next: LineCells): Span | undefined {
  // From the left: the first cell that differs. Every cell before it is the same in both, so it
  // starts at the same column in both.
  let first = 0;
  const shorter = Math.min(previous.cells.length, next.cells.length);
  while (first < shorter && sameCell(previous.cells[first]!, next.cells[first]!)) first++;
  if (first === previous.cells.length && first === next.cells.length) return undefined;
  const column = next.starts[first] ?? next.width;

  // From the right: the last column that is not the same cell, starting at the same column, in
  // both. Comparing whole cells this way means a span never ends inside a wide character either.
  const before = cover(previous);
  const after = cover(next);
  let last = Math.max(previous.width, next.width) - 1;
  while (last > column && last < previous.width && last < next.width) {
    const a = before[last]!;
    const b = after[last]!;
    if (previous.starts[a] !== next.starts[b] || !sameCell(previous.cells[a]!, next.cells[b]!)) break;
    last--;
  }
  // Past the end of `next`, or no column at all (lines of marks alone): to the end of `next`.
  const end = last >= column && last < next.width ? after[last]! + 1 : next.cells.length;
  const endColumn = end > first ? next.starts[end - 1]! + next.cells[end - 1]!.width : column;
  return { column, first, end: Math.max(first, end), endColumn, erase: previous.width > next.width };
}

/** A run of cells of `next` to write, [first, end), starting at `column`. */
export interface CellRun {
  readonly column: number;
  /** The column after the last one written: where the cursor is after the run. */
  readonly endColumn: number;
  readonly first: number;
  readonly end: number;
}

/**
 * The span cut where a stretch of cells is the same cell at the same column in both lines and
 * writing it again would cost more bytes than `jump` (moving the cursor over it). A tick that
 * changes the price, the change and the age of a row writes those, not what lies between.
 */
export function changedRuns(previous: LineCells, next: LineCells, span: Span, jump: number): CellRun[] {
  const before = cover(previous);
  const unchanged = (i: number): boolean => {
    const column = next.starts[i]!;
    if (column >= previous.width) return false;
    const a = before[column]!;
    return previous.starts[a] === column && sameCell(previous.cells[a]!, next.cells[i]!);
  };
  const runs: CellRun[] = [];
  let first = span.first;
  let i = span.first;
  while (i < span.end) {
    if (!unchanged(i)) {
      i++;
      continue;
    }
    // A stretch of unchanged cells: cut there when writing it again (its characters and the
    // style changes among them) would cost more than jumping over it, and something follows.
    let j = i;
    while (j < span.end && unchanged(j)) j++;
    const rewrite = j < span.end && i > first ? Buffer.byteLength(drawCells(next, i, j, next.cells[i - 1]!.style).text) : 0;
    if (rewrite > jump) {
      runs.push({ column: next.starts[first]!, endColumn: next.starts[i]!, first, end: i });
      first = j;
    }
    i = j;
  }
  runs.push({ column: first === span.first ? span.column : next.starts[first]!, endColumn: span.endColumn, first, end: span.end });
  return runs;
}

/** The text of cells [first, end) of `line` with the SGR changes between them, from state `from`. */
export function drawCells(line: LineCells, first: number, end: number, from: Style | undefined): { text: string; style: Style | undefined } {
  let text = '';
  let current = from;
  for (let i = first; i < end; i++) {
    const cell = line.cells[i]!;
    text += styleChange(current, cell.style) + cell.text;
    current = cell.style;
  }
  return { text, style: current };
}
