// The help screen's layout: every key exactly once and in order, columns that fit, no heading
// stranded at the foot of a column, and pages when the screen is too small for all of it.
import { describe, expect, it } from 'vitest';
import { HELP_COLUMN_GAP, helpLines, layoutHelp, type HelpLayout, type HelpLine } from '../../src/tui/chrome/help-layout.js';
import { width } from '../../src/text/width.js';

const lines = helpLines();
const entries = lines.filter((l) => !l.heading);

const allColumns = (layout: HelpLayout): HelpLine[][] => layout.pages.flat();

function checkInvariants(layout: HelpLayout, columns: number, rows: number): void {
  const where = `${columns}x${rows}`;
  // Every entry once, in keymap order, and nothing else but headings.
  expect(allColumns(layout).flat().filter((l) => !l.heading), where).toEqual(entries);
  for (const page of layout.pages) {
    expect(page.length, where).toBeGreaterThan(0);
    if (page.length > 1) {
      expect(page.length * layout.columnWidth + (page.length - 1) * HELP_COLUMN_GAP, where).toBeLessThanOrEqual(columns);
    }
  }
  for (const column of allColumns(layout)) {
    expect(column.length, where).toBeGreaterThan(0);
    expect(column.length, where).toBeLessThanOrEqual(Math.max(1, rows));
    if (rows >= 2) expect(column.at(-1)!.heading, `${where}: a column ends with a heading`).toBe(false);
  }
  // A second page only when the first is full: every column of it as tall as the space.
  if (layout.pages.length > 1) {
    for (const column of layout.pages[0]!) expect(column.length, where).toBeGreaterThanOrEqual(Math.max(1, rows) - 1);
  }
}

describe('layoutHelp', () => {
  it('at 120x40 every key fits on two pages, in columns wide enough that nothing is cut', () => {
    const layout = layoutHelp(lines, 116, 34);
    checkInvariants(layout, 116, 34);
    // Alerts and holdings brought the keys past one page's 102 lines; three columns a page stay.
    expect(layout.pages).toHaveLength(2);
    expect(layout.pages[0]).toHaveLength(3);
    for (const line of entries) expect(layout.keyWidth + 1 + width(line.text)).toBeLessThanOrEqual(layout.columnWidth);
    for (const line of entries) expect(width(line.key)).toBeLessThanOrEqual(layout.keyWidth);
  });

  it('at the smallest terminal it turns pages instead of cutting entries short', () => {
    // 60x16: 56 columns inside the border, 9 rows under the title.
    const layout = layoutHelp(lines, 56, 9);
    checkInvariants(layout, 56, 9);
    expect(layout.pages.length).toBeGreaterThan(1);
    for (const line of entries) expect(layout.keyWidth + 1 + width(line.text)).toBeLessThanOrEqual(layout.columnWidth);
  });

  it('a group that goes on in the next column repeats its heading there, marked (cont.)', () => {
    const layout = layoutHelp(lines, 56, 9);
    const columns = allColumns(layout);
    let continued = 0;
    for (let i = 1; i < columns.length; i++) {
      const first = columns[i]![0]!;
      const previous = columns[i - 1]!;
      const lastHeading = [...previous].reverse().find((l) => l.heading)!;
      if (first.heading && first.key.endsWith(' (cont.)')) {
        continued++;
        expect(first.key).toBe(`${lastHeading.key.replace(/ \(cont\.\)$/, '')} (cont.)`);
      } else {
        // A column that does not continue a group starts a new one.
        expect(first.heading, `column ${i} starts with ${first.key}`).toBe(true);
      }
    }
    expect(continued).toBeGreaterThan(0);
  });

  it('holds together at every size from tiny to huge', () => {
    for (let columns = 10; columns <= 240; columns += 7) {
      for (let rows = 1; rows <= 50; rows += 3) checkInvariants(layoutHelp(lines, columns, rows), columns, rows);
    }
  });
});
