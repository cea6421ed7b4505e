// How a short ticker pane shares its lines: the symbols' rows first, the status line up on the
// title row when they do not all fit, and the totals folded into one line. The rules, and the
// table drawn by them.
import { render } from 'ink-testing-library';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { currencyOf } from '../../../src/market/listing.js';
import type { Total } from '../../../src/market/holdings.js';
import { width as textWidth } from '../../../src/text/width.js';
import { ASCII, UNICODE } from '../../../src/tui/style/glyphs.js';
import { foldedTotals, showsHoldings, tableRows, tickerPaneRows } from '../../../src/tui/ticker/ticker-rows.js';
import { WatchlistTable } from '../../../src/tui/ticker/WatchlistTable.js';

describe('tickerPaneRows', () => {
  it('keeps the status line under the table while every row fits there', () => {
    expect(tickerPaneRows(37, 12, 4)).toEqual({ table: 32, statusOnTitle: false });
    expect(tickerPaneRows(10, 5, 0)).toEqual({ table: 5, statusOnTitle: false });
  });

  it('moves it up to the title row when the rows do not all fit, giving the table its line', () => {
    // 80x24: the ticker pane is 11 lines, 12 symbols, 4 currencies.
    expect(tickerPaneRows(11, 12, 4)).toEqual({ table: 7, statusOnTitle: true });
    expect(tickerPaneRows(10, 6, 0)).toEqual({ table: 6, statusOnTitle: true });
    expect(tickerPaneRows(5, 3, 0)).toEqual({ table: 1, statusOnTitle: true });
  });
});

describe('tableRows', () => {
  it('a row per currency when every symbol fits above them', () => {
    expect(tableRows(32, 12, 4)).toEqual({ symbols: 28, totals: 4, folded: false });
    expect(tableRows(7, 3, 4)).toEqual({ symbols: 3, totals: 4, folded: false });
  });

  it('else the totals on one line, under as many symbols as the rest holds', () => {
    expect(tableRows(7, 12, 4)).toEqual({ symbols: 6, totals: 1, folded: true });
    expect(tableRows(5, 4, 2)).toEqual({ symbols: 4, totals: 1, folded: true });
    expect(tableRows(2, 12, 4)).toEqual({ symbols: 1, totals: 1, folded: true });
    // One currency: its row as it is.
    expect(tableRows(5, 12, 1)).toEqual({ symbols: 4, totals: 1, folded: false });
  });

  it('a table of one row is the symbol\'s; no totals, no row for them', () => {
    expect(tableRows(1, 12, 4)).toEqual({ symbols: 1, totals: 0, folded: false });
    expect(tableRows(7, 12, 0)).toEqual({ symbols: 7, totals: 0, folded: false });
  });
});

describe('showsHoldings', () => {
  it('is whether a holdings column is left at that width', () => {
    expect(showsHoldings(76, ['price', 'change', 'qty', 'value', 'pl'])).toBe(true);
    expect(showsHoldings(76, ['price', 'change', 'session'])).toBe(false);
    // Too narrow for anything but the price.
    expect(showsHoldings(20, ['price', 'qty'])).toBe(false);
  });
});

describe('foldedTotals', () => {
  const glyphs = (set: typeof UNICODE) => ({ sum: set.unicode ? 'Σ' : '=', separator: set.separator, ellipsis: set.ellipsis, text: set.text });
  const four = [
    ['JPY', '285,076', '+35,076'],
    ['USD', '2,040.90', '+540.90'],
    ['EUR', '2,468.50', '+968.50'],
    ['GBP', '2,710.48', '+210.48'],
  ];

  it('every figure of every currency when they fit', () => {
    expect(foldedTotals(four, 120, glyphs(UNICODE)).trimEnd()).toBe('Σ JPY 285,076 +35,076 · USD 2,040.90 +540.90 · EUR 2,468.50 +968.50 · GBP 2,710.48 +210.48');
  });

  it('each currency\'s value alone where that shows more currencies, then as many as fit and how many more', () => {
    expect(foldedTotals(four, 76, glyphs(UNICODE)).trimEnd()).toBe('Σ JPY 285,076 · USD 2,040.90 · EUR 2,468.50 · GBP 2,710.48');
    expect(foldedTotals(four, 56, glyphs(UNICODE)).trimEnd()).toBe('Σ JPY 285,076 · USD 2,040.90 · EUR 2,468.50 · +1 more');
    const narrow = foldedTotals(four, 20, glyphs(UNICODE));
    expect(textWidth(narrow)).toBeLessThanOrEqual(20);
    expect(narrow.startsWith('Σ JPY 285,076')).toBe(true);
  });

  it('in ASCII, = and " - "', () => {
    expect(foldedTotals(four.slice(0, 2), 80, glyphs(ASCII)).trimEnd()).toBe('= JPY 285,076 +35,076 - USD 2,040.90 +540.90');
  });
});

describe('WatchlistTable in a short pane', () => {
  const now = Date.now();
  const symbols = ['AAPL', 'MSFT', 'NVDA', 'AMZN', 'GOOGL', 'META', 'TSLA', 'JPM', 'SHEL.L', 'SAP.DE', '7203.T', 'SHOP.TO'];
  const row = { price: 100, previous: 99, first: 98, volume: 1000, history: [1, 2], updatedAt: now };
  /** `major` whole units of what the symbol is priced in (pence for .L; Exact amounts are at 12 decimals). */
  const total = (symbol: string, major: bigint): Total => ({
    currency: currencyOf(symbol),
    cost: (major * 10n ** 12n) / 2n,
    value: major * 10n ** 12n,
    day: 0n,
    gain: (major * 10n ** 12n) / 2n,
    percent: 100,
    positions: 1,
    unpriced: 0,
    dayUnknown: 1,
  });

  it('at 80x24 (a 7-row table): six symbols, then every currency on one line', () => {
    const { lastFrame, unmount } = render(
      <WatchlistTable
        symbols={symbols}
        rows={Object.fromEntries(symbols.map((s) => [s, row]))}
        unknown={new Set()}
        rejected={new Map()}
        names={new Map()}
        cursor={0}
        width={76}
        height={7}
        intervalS={60}
        now={now}
        focused
        columns={['price', 'change', 'qty', 'value', 'pl']}
        holdings={{
          positions: new Map(),
          totals: [total('AAPL', 2040n), total('SHEL.L', 271_000n), total('SAP.DE', 2468n), total('7203.T', 285_100n)],
          hidden: false,
          dayOpens: new Map(),
        }}
      />,
    );
    const lines = stripVTControlCharacters(lastFrame() ?? '').split('\n');
    unmount();
    expect(lines).toHaveLength(8);
    expect(lines.slice(1, 7).map((l) => l.split(' ')[0])).toEqual(symbols.slice(0, 6));
    expect(lines[7]).toMatch(/^Σ USD 2,040\.00 · GBP 2,710\.00 · EUR 2,468\.00 · JPY 285,100 *$/);
  });
});
