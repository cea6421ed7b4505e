// The price chart is lines of text from points and a size: known inputs are asserted as exact
// braille strings, and as dots (decoded here from the cells' bits) where a picture says more.
import { describe, expect, it } from 'vitest';
import { type ChartPoint, chartLines, plotDots, visiblePoints } from '../../src/market/chart.js';
import { sequence } from '../../src/server/random.js';

// A braille cell's bit for its dot [column][row]: dots 1-2-3-7 down the left, 4-5-6-8 down the right.
const BITS = [
  [0x01, 0x02, 0x04, 0x40],
  [0x08, 0x10, 0x20, 0x80],
] as const;

/** Dot (x, y) of braille lines, y down from the top; a space is a cell without dots. */
function isSet(lines: readonly string[], x: number, y: number): boolean {
  const char = lines[Math.floor(y / 4)]?.[Math.floor(x / 2)];
  if (char === undefined || char === ' ') return false;
  const code = char.charCodeAt(0);
  if (code < 0x2800 || code > 0x28ff) throw new Error(`not a braille cell: ${JSON.stringify(char)}`);
  return ((code - 0x2800) & BITS[x % 2]![y % 4]!) !== 0;
}

/** Braille lines as rows of dots, '#' set and '.' not, to compare with a drawn picture. */
function picture(lines: readonly string[]): string[] {
  const cols = lines[0]?.length ?? 0;
  return Array.from({ length: lines.length * 4 }, (_, y) =>
    Array.from({ length: cols * 2 }, (_, x) => (isSet(lines, x, y) ? '#' : '.')).join(''),
  );
}

const dotCount = (lines: readonly string[]): number => picture(lines).join('').split('#').length - 1;

const at = (t: number, price: number): ChartPoint => ({ t, price });

// Dots are t across and 7 - price down: [0, 7] on 8 dots each way, with no rounding to think about.
const square = { cols: 4, rows: 2, from: 0, to: 7, low: 0, high: 7, unicode: true };

const NINE_THIRTY = Date.UTC(2025, 10, 26, 9, 30);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('plotDots', () => {
  it('draws a rising line as a diagonal of dots', () => {
    const lines = plotDots([at(0, 0), at(7, 7)], square);
    expect(lines).toEqual(['  ⡠⠊', '⡠⠊  ']);
    expect(picture(lines)).toEqual([
      '.......#',
      '......#.',
      '.....#..',
      '....#...',
      '...#....',
      '..#.....',
      '.#......',
      '#.......',
    ]);
  });

  it('draws a V, down to its point and back up', () => {
    const lines = plotDots([at(0, 6), at(3, 3), at(6, 6)], square);
    expect(lines).toEqual(['⠢⡀⡠⠂', ' ⠈  ']);
    expect(picture(lines).slice(0, 5)).toEqual(['........', '#.....#.', '.#...#..', '..#.#...', '...#....']);
  });

  it('draws a flat series as one row of dots', () => {
    expect(plotDots([at(0, 2), at(7, 2)], { ...square, rows: 1, high: 3 })).toEqual(['⠒⠒⠒⠒']);
  });

  it('draws a single point as one dot', () => {
    const lines = plotDots([at(3, 5)], square);
    expect(dotCount(lines)).toBe(1);
    expect(isSet(lines, 3, 2)).toBe(true);
  });

  it('draws every point that falls in one dot column, up and down within it', () => {
    const lines = plotDots([at(2, 1), at(2, 6), at(2, 3)], square);
    expect(picture(lines).map((row) => row[2])).toEqual(['.', '#', '#', '#', '#', '#', '#', '.']);
    expect(dotCount(lines)).toBe(6);
  });

  it('does not join two points further apart than gapMs', () => {
    const points = [at(0, 0), at(2, 2), at(5, 2), at(7, 0)];
    const area = { ...square, rows: 1, high: 3 };
    const gapped = plotDots(points, { ...area, gapMs: 2 });
    expect(gapped).toEqual(['⡠⠂⠐⢄']);
    expect(picture(gapped)).toEqual(['........', '..#..#..', '.#....#.', '#......#']);
    // Without it the two are one line, across the columns the gap left empty.
    const joined = plotDots(points, area);
    expect(isSet(joined, 3, 1) && isSet(joined, 4, 1)).toBe(true);
    // A gap of exactly gapMs is joined: "further apart than".
    expect(plotDots(points, { ...area, gapMs: 3 })).toEqual(joined);
  });

  it('draws levels as every other dot, under the price line, and only within the range', () => {
    const area = { ...square, rows: 1, high: 3, levels: [1, 5, -1] };
    expect(plotDots([], area)).toEqual(['⠄⠄⠄⠄']);
    expect(plotDots([at(0, 2), at(7, 2)], area)).toEqual(['⠖⠖⠖⠖']);
    expect(plotDots([at(0, 1), at(7, 1)], area)).toEqual(['⠤⠤⠤⠤']);
  });

  it('draws one dot per cell in ASCII: * for the line, - for a level under it', () => {
    const area = { cols: 6, rows: 3, from: 0, to: 5, low: 0, high: 2, unicode: false, levels: [1] };
    expect(plotDots([at(0, 0), at(2, 2), at(5, 2)], area)).toEqual(['  ****', '-*----', '*     ']);
    expect(plotDots([at(0, 0), at(7, 7)], { ...square, cols: 8, rows: 8, unicode: false })).toEqual([
      '       *',
      '      * ',
      '     *  ',
      '    *   ',
      '   *    ',
      '  *     ',
      ' *      ',
      '*       ',
    ]);
  });

  it('starts the line at the left edge from the last point before the span, unless that is a gap', () => {
    // From (-7, 0) to (7, 7) the line crosses t = 0 at 3.5, rounded to dot row 4 (7 - 3.5 = 3.5).
    const points = [at(-20, 6), at(-7, 0), at(7, 7), at(9, 0)];
    const lines = plotDots(points, square);
    expect(picture(lines).map((row) => row[0])).toEqual(['.', '.', '.', '.', '#', '.', '.', '.']);
    expect(isSet(lines, 7, 0)).toBe(true);
    expect(visiblePoints(points, 0, 7)).toEqual([at(0, 3.5), at(7, 7)]);
    // 14 ms from the one before to the first inside is a gap at gapMs 10: the span starts with a dot.
    const gapped = plotDots(points, { ...square, gapMs: 10 });
    expect(dotCount(gapped)).toBe(1);
    expect(isSet(gapped, 7, 0)).toBe(true);
  });

  it('ignores points after the span and points that are not numbers', () => {
    const lines = plotDots([at(0, 0), at(7, 7), at(8, 0), at(Number.NaN, 3), at(4, Number.POSITIVE_INFINITY)], square);
    expect(lines).toEqual(['  ⡠⠊', '⡠⠊  ']);
  });
});

describe('chartLines', () => {
  const hour = { from: NINE_THIRTY, to: NINE_THIRTY + HOUR, timeZone: 'UTC' };

  it('draws a flat series across the middle row with its price beside it', () => {
    const points = [at(hour.from, 100), at(hour.from + HOUR / 2, 100), at(hour.to, 100)];
    expect(chartLines(points, { ...hour, width: 20, height: 4, unicode: true })).toEqual([
      ' '.repeat(20),
      `${'⠤'.repeat(13)} 100.00`,
      ' '.repeat(20),
      `09:30   10:30${' '.repeat(7)}`,
    ]);
  });

  it('labels the high at the top row, the middle, and the low at the bottom plot row, clear of the edges', () => {
    const lines = chartLines([at(hour.from, 10), at(hour.to, 20)], { ...hour, width: 20, height: 4, unicode: true });
    expect(lines.map((line) => line.slice(14))).toEqual([' 20.00', ' 15.00', ' 10.00', '      ']);
    const plot = lines.slice(0, 3).map((line) => line.slice(0, 14));
    // 14 columns of 2 dots, 3 rows of 4: the line runs from dot row 10 to dot row 1, one in from each edge.
    expect(isSet(plot, 0, 10)).toBe(true);
    expect(isSet(plot, 27, 1)).toBe(true);
    expect(picture(plot)[0]).not.toContain('#');
    expect(picture(plot)[11]).not.toContain('#');
  });

  it('draws in ASCII with the same layout', () => {
    const lines = chartLines([at(hour.from, 10), at(hour.to, 20)], { ...hour, width: 20, height: 5, unicode: false });
    expect(lines).toEqual([
      '           *** 20.00',
      '       ****         ',
      '   ****        15.00',
      '***            10.00',
      '09:30    10:30      ',
    ]);
  });

  it('gives the label column the width of the widest price', () => {
    const points = [at(hour.from, 9.5), at(hour.to, 12345.67)];
    const lines = chartLines(points, { ...hour, width: 30, height: 4, unicode: true });
    // "12345.67" sets the column's width: 8, after a space, beside 21 columns of plot.
    expect(lines[0]!.slice(21)).toBe(' 12345.67');
    expect(lines[2]!.slice(21)).toBe('     9.50');
    expect(lines.every((line) => line.length === 30)).toBe(true);
    // At 12 columns the plot would be 3 wide beside its labels: nothing worth drawing.
    expect(chartLines(points, { ...hour, width: 12, height: 4, unicode: true })).toEqual(Array(4).fill(' '.repeat(12)));
  });

  it('writes clock times in the given zone for a day or less, evenly spaced where they fit', () => {
    const day = { from: Date.UTC(2025, 10, 26, 14, 0), to: Date.UTC(2025, 10, 27, 14, 0) };
    const points = [at(day.from, 5), at(day.to, 6)];
    const axis = (timeZone: string, width: number): string =>
      chartLines(points, { ...day, width, height: 3, unicode: false, timeZone }).at(-1)!;
    // 45 plot columns beside "5.00": five steps of 4.8 hours fit, two spaces apart at the closest.
    expect(axis('UTC', 50)).toBe('14:00  18:48    23:36   04:24    09:12  14:00     ');
    expect(axis('America/New_York', 50)).toBe('09:00  13:48    18:36   23:24    04:12  09:00     ');
    expect(axis('UTC', 20)).toBe('14:00     14:00     ');
    expect(axis('UTC', 14)).toBe('    14:00     ');
    // An unknown zone costs the zone, not the chart.
    expect(axis('Nowhere/Atlantis', 50)).toHaveLength(50);
  });

  it('writes dates past 36 hours, and month and year past a year', () => {
    const month = { from: Date.UTC(2025, 10, 1), to: Date.UTC(2025, 10, 30), timeZone: 'UTC', unicode: false };
    const points = [at(month.from, 10), at(month.to, 20)];
    expect(chartLines(points, { ...month, width: 40, height: 5 }).at(-1)).toBe('Nov 1   Nov 10     Nov 20   Nov 30      ');
    const years = { ...month, from: Date.UTC(2024, 0, 1) };
    expect(chartLines(points, { ...years, width: 40, height: 5 }).at(-1)).toBe('Jan 2024     Dec 2024     Nov 2025      ');
    // Five days on a wide axis: no date twice, though there would be room for more labels.
    const week = { ...month, to: month.from + 5 * DAY };
    const labels = chartLines(points, { ...week, width: 100, height: 5 }).at(-1)!.trim().split(/ {2,}/);
    expect(labels).toEqual([...new Set(labels)]);
    expect(labels[0]).toBe('Nov 1');
    expect(labels.at(-1)).toBe('Nov 6');
  });

  it('draws one point as one dot, with its price', () => {
    const lines = chartLines([at(hour.from + HOUR / 2, 50)], { ...hour, width: 20, height: 4, unicode: true });
    const plot = lines.slice(0, 3).map((line) => line.slice(0, 14));
    expect(dotCount(plot)).toBe(1);
    expect(isSet(plot, 14, 6)).toBe(true);
    expect(lines[1]!.endsWith(' 50.00')).toBe(true);
  });

  it('draws no points as an empty plot over the time axis, without a throw', () => {
    expect(chartLines([], { ...hour, width: 20, height: 3, unicode: true })).toEqual([
      ' '.repeat(20),
      ' '.repeat(20),
      '09:30   10:00  10:30',
    ]);
  });

  it('draws levels within the price range across the plot', () => {
    const lines = chartLines([at(hour.from, 10), at(hour.to, 20)], {
      ...hour,
      width: 20,
      height: 5,
      unicode: false,
      levels: [12, 99],
    });
    expect(lines.slice(0, 4)).toEqual([
      '           *** 20.00',
      '       ****         ',
      '---****------- 15.00',
      '***            10.00',
    ]);
  });

  it('returns blank rows of the right size for boxes too small to draw in', () => {
    const points = [at(hour.from, 1), at(hour.to, 2)];
    const blank = (width: number, height: number): string[] =>
      chartLines(points, { ...hour, width, height, unicode: true });
    expect(blank(11, 10)).toEqual(Array(10).fill(' '.repeat(11)));
    expect(blank(40, 2)).toEqual(Array(2).fill(' '.repeat(40)));
    expect(blank(0, 0)).toEqual([]);
    expect(blank(-5, 3)).toEqual(['', '', '']);
    expect(blank(30, -1)).toEqual([]);
    expect(chartLines(points, { ...hour, from: Number.NaN, width: 30, height: 5, unicode: true })).toEqual(
      Array(5).fill(' '.repeat(30)),
    );
  });

  it('fills exactly width x height, in braille and ASCII only, for any size and points', () => {
    // The sandbox's seeded generator: the same sizes and points on every run.
    const random = sequence(20251126);
    const pick = <T,>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const spans = [HOUR, DAY, 5 * DAY, 30 * DAY, 3 * 365 * DAY, 0, 1];

    for (let run = 0; run < 600; run++) {
      const width = Math.floor(random() * 110) - 3;
      const height = Math.floor(random() * 35) - 2;
      const span = pick(spans);
      const from = NINE_THIRTY - Math.floor(random() * 400 * DAY);
      const to = from + span;
      const scale = pick([0.00001, 0.5, 1, 150, 80_000]);
      const flat = random() < 0.15;
      const count = Math.floor(random() * 80);
      const points: ChartPoint[] = [];
      let price = scale * (1 + random());
      for (let i = 0; i < count; i++) {
        if (!flat) price = Math.max(0, price + (random() - 0.5) * scale * 0.1);
        points.push(at(from - span / 4 + random() * span * 1.5, price));
      }
      points.sort((a, b) => a.t - b.t);
      const unicode = random() < 0.6;
      const lines = chartLines(points, {
        width,
        height,
        from,
        to,
        unicode,
        timeZone: pick(['UTC', 'Asia/Kolkata', 'America/Los_Angeles']),
        gapMs: random() < 0.5 ? span * random() * 0.3 : undefined,
        levels: random() < 0.5 ? [scale, scale * 1.5, scale * 1.02] : undefined,
      });
      const context = JSON.stringify({ run, width, height, span, count, unicode });
      expect(lines, context).toHaveLength(Math.max(0, height));
      for (const line of lines) {
        expect(line.length, context).toBe(Math.max(0, width));
        expect(line, context).toMatch(unicode ? /^[\u2800-\u28ff -~]*$/ : /^[ -~]*$/);
      }
    }
  });
});
