// A symbol's recorded prices as a line chart made of text, for the detail view: braille cells give
// each column 2 dots across and 4 down, so a 60x12 chart has 120x44 dots to draw with. Pure
// (points and a size in, lines out) so it is tested without a terminal; the view decides what to
// say when there is too little to draw, this only promises never to throw and to fill its box.

import { formatPrice } from '../text/numbers.js';
import { DAY_MS, HOUR_MS } from './bars.js';

/** A recorded price; t in ms since the Unix epoch. Points are sorted by t. */
export interface ChartPoint {
  readonly t: number;
  readonly price: number;
}

export interface ChartOptions {
  /** Columns of the whole chart, price labels included. */
  width: number;
  /** Rows of the whole chart, time axis included. */
  height: number;
  /** The time span shown (ms): [from, to] maps onto the plot's dots left to right. */
  from: number;
  to: number;
  /** False when the terminal cannot draw braille (ASCII locale, TERM=linux/vt100). */
  unicode: boolean;
  /** IANA zone for the time labels; the system's when absent or unknown. */
  timeZone?: string;
  /** Consecutive points further apart than this are not joined: the data is missing between them. */
  gapMs?: number;
  /** Prices drawn as a dotted horizontal line across the plot, when within its range. */
  levels?: readonly number[];
}

/** The plot alone and the scale it is drawn to, as chartLines chooses it (see plotDots). */
export interface PlotArea {
  cols: number;
  rows: number;
  from: number;
  to: number;
  /** The prices of the bottom and the top dot rows. */
  low: number;
  high: number;
  unicode: boolean;
  gapMs?: number;
  levels?: readonly number[];
}

/** Below these, rows of spaces: no room for a plot beside its labels and above its time axis. */
export const MIN_CHART_WIDTH = 12;
export const MIN_CHART_HEIGHT = 3;

/** The narrowest plot worth drawing once the price labels have their column. */
const MIN_PLOT_COLS = 4;

interface Cell {
  /** Dots across and down in one character cell. */
  readonly x: number;
  readonly y: number;
  /** Dot rows left empty above the high and below the low, so the line does not run along an edge. */
  readonly inset: number;
}

// In ASCII a dot is a whole row, and an empty row there would be the price label's row lost.
const BRAILLE: Cell = { x: 2, y: 4, inset: 1 };
const ASCII: Cell = { x: 1, y: 1, inset: 0 };

// A braille cell's bit for its dot [column][row]: dots 1-2-3-7 down the left, 4-5-6-8 down the right.
const DOT_BITS: readonly (readonly number[])[] = [
  [0x01, 0x02, 0x04, 0x40],
  [0x08, 0x10, 0x20, 0x80],
];
const BRAILLE_BLANK = 0x2800;

/** Up to this span the axis reads clock times; past it, dates. */
const CLOCK_SPAN = 36 * HOUR_MS;
/** Past this span "Nov 26" could be any year's: the axis reads "Nov 2025" instead. */
const DAY_SPAN = 366 * DAY_MS;
/** Spaces kept between two time labels. */
const LABEL_GAP = 2;

const whole = (n: number): number => (Number.isFinite(n) ? Math.max(0, Math.floor(n)) : 0);
const clamp = (n: number, low: number, high: number): number => Math.min(high, Math.max(low, n));
const blankRows = (rows: number, cols: number): string[] => Array.from({ length: rows }, () => ' '.repeat(cols));

/**
 * The points drawn for [from, to]: those inside it, led by one at `from` itself on the way from the
 * last point before it, so the line starts at the left edge instead of wherever the span's first
 * recording happens to fall (not when that way is a gap longer than gapMs: there was no data).
 */
export function visiblePoints(points: readonly ChartPoint[], from: number, to: number, gapMs?: number): ChartPoint[] {
  const inside: ChartPoint[] = [];
  let before: ChartPoint | undefined;
  for (const point of points) {
    if (!Number.isFinite(point.t) || !Number.isFinite(point.price)) continue;
    if (point.t < from) {
      if (before === undefined || point.t >= before.t) before = point;
    } else if (point.t <= to) {
      inside.push(point);
    }
  }
  const first = inside[0];
  if (before !== undefined && first !== undefined && first.t > from && !(first.t - before.t > (gapMs ?? Infinity))) {
    const share = (from - before.t) / (first.t - before.t);
    inside.unshift({ t: from, price: before.price + (first.price - before.price) * share });
  }
  return inside;
}

const dotX = (t: number, from: number, to: number, dotCols: number): number => {
  const share = to > from ? (t - from) / (to - from) : 1;
  return clamp(Math.round((Number.isFinite(share) ? share : 1) * (dotCols - 1)), 0, dotCols - 1);
};

const dotY = (price: number, low: number, high: number, dotRows: number): number => {
  const share = (high - price) / (high - low);
  return clamp(Math.round((high > low && Number.isFinite(share) ? share : 0.5) * (dotRows - 1)), 0, dotRows - 1);
};

/**
 * The plot alone: `rows` strings of `cols` cells, the points of [from, to] (see visiblePoints)
 * joined dot to dot, with the price `high` on the top dot row and `low` on the bottom one. Levels
 * are dotted lines under the price line. Empty cells are spaces, not U+2800, which some fonts draw
 * as a faint pattern.
 */
export function plotDots(points: readonly ChartPoint[], area: PlotArea): string[] {
  const cols = whole(area.cols);
  const rows = whole(area.rows);
  const cell = area.unicode ? BRAILLE : ASCII;
  const dotCols = cols * cell.x;
  const dotRows = rows * cell.y;
  if (dotCols === 0 || dotRows === 0) return blankRows(rows, cols);

  // Kept apart from the line so that in ASCII the line's `*` wins a cell both want.
  const line = new Uint8Array(dotCols * dotRows);
  const level = new Uint8Array(dotCols * dotRows);

  for (const price of area.levels ?? []) {
    if (!(price >= area.low && price <= area.high)) continue;
    const y = dotY(price, area.low, area.high, dotRows);
    // Every other dot in braille: a solid row of dots would read as part of the price line.
    for (let x = 0; x < dotCols; x += area.unicode ? 2 : 1) level[y * dotCols + x] = 1;
  }

  let previous: { x: number; y: number; t: number } | undefined;
  for (const point of visiblePoints(points, area.from, area.to, area.gapMs)) {
    const x = dotX(point.t, area.from, area.to, dotCols);
    const y = dotY(point.price, area.low, area.high, dotRows);
    if (previous !== undefined && !(point.t - previous.t > (area.gapMs ?? Infinity))) {
      drawLine(line, dotCols, previous.x, previous.y, x, y);
    } else {
      line[y * dotCols + x] = 1;
    }
    previous = { x, y, t: point.t };
  }

  const out: string[] = [];
  for (let row = 0; row < rows; row++) {
    let text = '';
    for (let col = 0; col < cols; col++) {
      if (!area.unicode) {
        const at = row * dotCols + col;
        text += line[at] ? '*' : level[at] ? '-' : ' ';
        continue;
      }
      let bits = 0;
      for (let dx = 0; dx < 2; dx++) {
        for (let dy = 0; dy < 4; dy++) {
          const at = (row * 4 + dy) * dotCols + col * 2 + dx;
          if (line[at] || level[at]) bits |= DOT_BITS[dx]![dy]!;
        }
      }
      text += bits ? String.fromCharCode(BRAILLE_BLANK + bits) : ' ';
    }
    out.push(text);
  }
  return out;
}

/** Bresenham's line: every dot between the two ends, one per step along the longer axis. */
function drawLine(dots: Uint8Array, dotCols: number, x0: number, y0: number, x1: number, y1: number): void {
  const dx = Math.abs(x1 - x0);
  const dy = -Math.abs(y1 - y0);
  const sx = x0 < x1 ? 1 : -1;
  const sy = y0 < y1 ? 1 : -1;
  let err = dx + dy;
  let x = x0;
  let y = y0;
  for (;;) {
    dots[y * dotCols + x] = 1;
    if (x === x1 && y === y1) return;
    const twice = 2 * err;
    if (twice >= dy) {
      err += dy;
      x += sx;
    }
    if (twice <= dx) {
      err += dx;
      y += sy;
    }
  }
}

interface Scale {
  low: number;
  high: number;
  /** The lowest and highest price drawn; equal for a flat series. */
  min: number;
  max: number;
}

/**
 * The prices of the plot's bottom and top dot rows: the points' min and max, moved out by `inset`
 * dots. A flat series gets ±0.5% around its price (±0.01 at zero), which puts it in the middle.
 */
function priceScale(prices: readonly number[], dotRows: number, inset: number): Scale | undefined {
  if (prices.length === 0) return undefined;
  // A loop, not Math.min(...prices): a long history would overflow the stack as arguments.
  let min = Infinity;
  let max = -Infinity;
  for (const price of prices) {
    min = Math.min(min, price);
    max = Math.max(max, price);
  }
  // Rounding noise in one recorded price would otherwise fill the plot's height with a zigzag.
  if (max - min <= Math.abs(max) * 1e-12) {
    const half = Math.abs(max) * 0.005 || 0.01;
    return { low: max - half, high: max + half, min: max, max };
  }
  const span = dotRows - 1 - 2 * inset;
  const pad = span > 0 ? ((max - min) * inset) / span : 0;
  return { low: min - pad, high: max + pad, min, max };
}

/**
 * The chart: `height` rows of exactly `width` columns. The plot fills the left, the prices of its
 * high (top row), low (bottom plot row) and middle (when there is a row between them) stand
 * right-aligned in a column on the right, and the last row is the time axis. The high and low are
 * of the line as drawn, so they include the price it starts with at the left edge (visiblePoints).
 * Too small a box, or a span that is not a time, gives rows of spaces.
 */
export function chartLines(points: readonly ChartPoint[], options: ChartOptions): string[] {
  const width = whole(options.width);
  const height = whole(options.height);
  const { from, to, unicode } = options;
  if (width < MIN_CHART_WIDTH || height < MIN_CHART_HEIGHT || !Number.isFinite(from) || !Number.isFinite(to)) {
    return blankRows(height, width);
  }
  const rows = height - 1;
  const cell = unicode ? BRAILLE : ASCII;
  const dotRows = rows * cell.y;

  const visible = visiblePoints(points, from, to, options.gapMs);
  const scale = priceScale(
    visible.map((p) => p.price),
    dotRows,
    cell.inset,
  );
  const labels = new Map<number, string>();
  if (scale !== undefined) {
    const rowOf = (price: number): number => Math.floor(dotY(price, scale.low, scale.high, dotRows) / cell.y);
    const label = (price: number): void => {
      const row = rowOf(price);
      if (!labels.has(row)) labels.set(row, formatPrice(price));
    };
    label(scale.max);
    label(scale.min);
    label((scale.min + scale.max) / 2);
  }
  const labelWidth = Math.max(0, ...[...labels.values()].map((text) => text.length));
  const cols = labelWidth > 0 ? width - labelWidth - 1 : width;
  if (cols < MIN_PLOT_COLS) return blankRows(height, width);

  const plot = plotDots(points, {
    cols,
    rows,
    from,
    to,
    low: scale?.low ?? 0,
    high: scale?.high ?? 1,
    unicode,
    gapMs: options.gapMs,
    levels: scale === undefined ? [] : options.levels,
  });
  const lines = plot.map((row, i) => (labelWidth > 0 ? `${row} ${(labels.get(i) ?? '').padStart(labelWidth)}` : row));
  lines.push(timeAxis(from, to, cols, cell.x, options.timeZone).padEnd(width));
  return lines;
}

/**
 * The time axis under a plot of `cols` columns: the start at the left, the end at the right, and
 * between them as many evenly spaced times as fit with LABEL_GAP spaces around each, each centred
 * on the column it names. Times that would read the same as their neighbour (12 labels over 5
 * days) are not worth the room, so fewer are shown instead.
 */
function timeAxis(from: number, to: number, cols: number, dotsPerCol: number, timeZone: string | undefined): string {
  const label = timeLabeller(from, to, timeZone);
  const dotCols = cols * dotsPerCol;
  const place = (t: number): { text: string; start: number } => {
    const text = label(t);
    const centre = Math.floor(dotX(t, from, to, dotCols) / dotsPerCol);
    return { text, start: clamp(centre - Math.floor(text.length / 2), 0, cols - text.length) };
  };
  const draw = (placed: readonly { text: string; start: number }[]): string => {
    let axis = ' '.repeat(cols);
    for (const { text, start } of placed) axis = axis.slice(0, start) + text + axis.slice(start + text.length);
    return axis;
  };

  const widest = Math.max(label(from).length, label(to).length);
  if (widest === 0 || widest > cols) return ' '.repeat(cols);
  for (let n = Math.floor(cols / (widest + LABEL_GAP)); n >= 1; n--) {
    const placed = Array.from({ length: n + 1 }, (_, k) => place(k === n ? to : from + ((to - from) * k) / n));
    const fits = placed.every((here, k) => {
      const before = placed[k - 1];
      if (here.text === '' || here.text.length > cols) return false;
      if (before === undefined) return true;
      // The start and end of a day both read 14:00, and both are worth showing.
      return (n === 1 || here.text !== before.text) && here.start >= before.start + before.text.length + LABEL_GAP;
    });
    if (fits) return draw(placed);
  }
  // Room for one label, or a span of one instant: the end, which is usually now.
  return draw([place(to)]);
}

/** Labels for times across [from, to]: "14:05" for a day and a half or less, else "Nov 26" (or "Nov 2025"). */
function timeLabeller(from: number, to: number, timeZone: string | undefined): (t: number) => string {
  const span = to - from;
  const fields: Intl.DateTimeFormatOptions =
    span <= CLOCK_SPAN
      ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }
      : span <= DAY_SPAN
        ? { month: 'short', day: 'numeric' }
        : { month: 'short', year: 'numeric' };
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', { ...fields, timeZone });
  } catch {
    // An unknown zone (a typo in the config) costs the zone, not the chart.
    format = new Intl.DateTimeFormat('en-US', fields);
  }
  return (t) => {
    const date = new Date(t);
    if (Number.isNaN(date.getTime())) return '';
    const parts = format.formatToParts(date);
    const part = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '';
    // Put together from the parts so no locale's spacing character (U+202F) gets into an ASCII axis.
    if (span <= CLOCK_SPAN) return `${part('hour')}:${part('minute')}`;
    return `${part('month')} ${span <= DAY_SPAN ? part('day') : part('year')}`;
  };
}
