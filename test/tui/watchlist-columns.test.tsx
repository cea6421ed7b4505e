// The watchlist's columns fill the pane: what the name and the sparkline cannot use goes to the
// other columns, never to blank space at the right (at 110 columns the TREND column goes).
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { WatchlistTable, watchlistColumns } from '../../src/tui/ticker/WatchlistTable.js';
import { width as textWidth } from '../../src/text/width.js';

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
    expect(c.spark).toBe(0);
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
