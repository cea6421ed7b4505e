// The watchlist's columns fill the pane: what the name and the sparkline cannot use goes to the
// other columns, never to blank space at the right (at 110 columns the TREND column goes).
import { render } from 'ink-testing-library';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { changedFrom, WatchlistTable, watchlistColumns } from '../../../src/tui/ticker/WatchlistTable.js';
import { DROP_ORDER, shownColumns } from '../../../src/tui/ticker/watchlist-columns.js';
import { width as textWidth } from '../../../src/text/width.js';

const lineWidth = (c: ReturnType<typeof watchlistColumns>): number => {
  const shown = Object.values(c).filter((w) => w > 0);
  return shown.reduce((a, b) => a + b, 0) + shown.length - 1;
};

describe('watchlistColumns', () => {
  it('every inner width from the narrowest up takes the whole width', () => {
    for (let width = 47; width <= 200; width++) expect(lineWidth(watchlistColumns(width)), `width ${width}`).toBe(width);
  });

  it('at 110 columns (a 51-column inner ticker) the spare columns widen symbol and price', () => {
    const c = watchlistColumns(51);
    expect(c.trend).toBe(0);
    expect(c.name).toBe(0);
    expect(c.symbol).toBeGreaterThan(8);
    expect(c.price).toBeGreaterThan(9);
  });
});

describe('WatchlistTable at 110 columns', () => {
  it('the header and the rows reach the right edge', () => {
    const now = Date.now();
    const row = { price: 123.45, previous: 120, first: 100, volume: 1_234_567, history: [1, 2, 3], updatedAt: now };
    const { lastFrame, unmount } = render(
      <WatchlistTable
        symbols={['SHEL.L', 'AAPL']}
        rows={{ 'SHEL.L': row, AAPL: row }}
        unknown={new Set()}
        rejected={new Map()}
        names={new Map()}
        cursor={0}
        width={51}
        height={5}
        intervalS={2}
        now={now}
        focused={false}
      />,
    );
    const lines = (lastFrame() ?? '').split('\n').slice(0, 3);
    for (const line of lines) expect(textWidth(line.trimEnd()), line).toBe(51);
    unmount();
  });
});

describe('a new price', () => {
  const table = (row: { price: number; previous: number | undefined; updatedAt: number }, now: number, motion: boolean) =>
    render(
      <WatchlistTable
        symbols={['AAPL']}
        rows={{ AAPL: { ...row, first: 100, volume: 1000, history: [1, 2] } }}
        unknown={new Set()}
        rejected={new Map()}
        names={new Map()}
        cursor={0}
        width={60}
        height={3}
        intervalS={2}
        now={now}
        focused={false}
        motion={motion}
      />,
    );

  it('finds where the digits that changed begin', () => {
    expect(changedFrom('  102.35', '  102.29')).toBe(6);
    expect(changedFrom('  102.35', '   99.35')).toBe(2);
    expect(changedFrom('  102.35', '  102.35')).toBe(8);
  });

  it('shows the digits that changed in bold for a moment, and not at all with motion off', () => {
    const now = Date.now();
    const bold = /\u001b\[1m[^\u001b]*?35/;
    const flashing = table({ price: 102.35, previous: 102.29, updatedAt: now - 200 }, now, true);
    const line = (flashing.lastFrame() ?? '').split('\n')[1]!;
    // Only "35" is bold: the unchanged "102." is not.
    expect(line).toMatch(/102\.(\u001b\[\d+m)*\u001b\[1m(\u001b\[\d+m)*35/);
    flashing.unmount();
    const later = table({ price: 102.35, previous: 102.29, updatedAt: now - 1500 }, now, true);
    expect((later.lastFrame() ?? '').split('\n')[1]).not.toMatch(bold);
    later.unmount();
    const still = table({ price: 102.35, previous: 102.29, updatedAt: now - 200 }, now, false);
    expect((still.lastFrame() ?? '').split('\n')[1]).not.toMatch(bold);
    still.unmount();
  });
});

describe('the columns a list chooses', () => {
  it('are drawn in its order, each as wide as before, and fill the width', () => {
    const chosen = ['age', 'price', 'volume'] as const;
    for (let width = 30; width <= 160; width++) {
      const c = watchlistColumns(width, chosen);
      const shown = shownColumns(c, chosen);
      const used = c.symbol + shown.reduce((sum, name) => sum + c[name] + 1, 0);
      expect(used, `width ${width}`).toBe(width);
      expect(c.name + c.trend + c.change + c.session).toBe(0);
    }
    expect(shownColumns(watchlistColumns(60, chosen), chosen)).toEqual(['age', 'price', 'volume']);
  });

  it('narrow panes give up NAME, TREND, AGE, VOLUME, SESSION, TICK in that order, never the price', () => {
    const all = ['name', 'price', 'change', 'session', 'volume', 'trend', 'age'] as const;
    const dropped = (width: number) => all.filter((c) => watchlistColumns(width, all)[c] === 0);
    expect(dropped(200)).toEqual([]);
    expect(dropped(60)).toEqual(['name']);
    expect(dropped(47)).toEqual(['name', 'trend']);
    expect(dropped(40)).toEqual(['name', 'volume', 'trend', 'age']); // listed in the table's order
    expect(dropped(10)).toEqual(['name', 'change', 'session', 'volume', 'trend', 'age']);
    expect(DROP_ORDER).toEqual(['name', 'trend', 'age', 'volume', 'session', 'qty', 'day_pl', 'change', 'value', 'pl', 'pl_pct']);
  });

  it('the table draws the header and the cells in the list\'s order', () => {
    const now = Date.now();
    const row = { price: 123.45, previous: 120, first: 100, volume: 1_234_567, history: [1, 2, 3], updatedAt: now - 5000 };
    const { lastFrame, unmount } = render(
      <WatchlistTable
        symbols={['AAPL']}
        rows={{ AAPL: row }}
        unknown={new Set()}
        rejected={new Map()}
        names={new Map()}
        cursor={0}
        width={40}
        height={3}
        intervalS={2}
        now={now}
        focused={false}
        columns={['volume', 'price']}
      />,
    );
    // Without the colour codes a terminal with colour would get.
    const [header, line] = stripVTControlCharacters(lastFrame() ?? '').split('\n');
    expect(header).toMatch(/^SYMBOL +VOLUME +PRICE$/);
    expect(line).toMatch(/^AAPL +1\.2M +123\.45$/);
    unmount();
  });
});

describe('the sorted column', () => {
  it('keeps its arrow at its narrowest: VOLUME becomes VOL▼', () => {
    const now = Date.now();
    const row = { price: 1, previous: 1, first: 1, volume: 10, history: [1], updatedAt: now };
    const { lastFrame, unmount } = render(
      <WatchlistTable symbols={['A']} rows={{ A: row }} unknown={new Set()} rejected={new Map()} names={new Map()} cursor={0} width={47} height={2} intervalS={2} now={now} focused={false} sort="volume" />,
    );
    const header = (lastFrame() ?? '').split('\n')[0]!;
    expect(header).toMatch(/ VOL▼ /);
    expect(header).not.toMatch(/…/);
    unmount();
  });
});

describe('a row whose alert fired', () => {
  it('stands out in bold for a moment, then not', () => {
    const now = Date.now();
    const row = { price: 123.45, previous: 123.4, first: 100, volume: 1, history: [1], updatedAt: now };
    const table = (alertedAt: number) =>
      render(
        <WatchlistTable symbols={['AAPL', 'MSFT']} rows={{ AAPL: row, MSFT: row }} unknown={new Set()} rejected={new Map()} names={new Map()} cursor={0} width={60} height={3} intervalS={2} now={now} focused={false} alerted={new Map([['AAPL', alertedAt]])} />,
      );
    const fresh = table(now - 500);
    const [, aapl, msft] = (fresh.lastFrame() ?? '').split('\n');
    expect(aapl).toMatch(/^(\u001b\[\d+m)*\u001b\[1mAAPL/);
    expect(msft).not.toContain('\u001b[1m');
    fresh.unmount();
    const later = table(now - 5_000);
    expect((later.lastFrame() ?? '').split('\n')[1]).not.toMatch(/\u001b\[1mAAPL/);
    later.unmount();
  });
});
