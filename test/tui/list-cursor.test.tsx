// The list editors keep the highlight on what was just changed, also when the keys that moved
// it and changed it come in one read (`k` and Space typed fast): the row drawn highlighted is
// the row the next key acts on. And the symbol picker's field is empty after Enter adds a
// symbol, ready for the next one. Through the real Dashboard and a real in-process sandbox.
import { afterEach, describe, expect, it } from 'vitest';
import { type ColumnName, newList, type Watchlists } from '../../src/market/watchlists.js';
import { Dashboard, type DashboardProps } from '../../src/tui/Dashboard.js';
import { StatusBoard } from '../../src/tui/state/status.js';
import { drive, renderDashboard, unmountAll, type DashboardHarness } from '../helpers/dashboard.js';
import { inverseSegments } from '../helpers/ink.js';
import { KEY } from '../helpers/keys.js';
import { setUpRecorder } from '../helpers/recorder.js';
import { setUpSandbox } from '../helpers/sandbox.js';

const SIZE = { columns: 120, rows: 40 };

afterEach(unmountAll);

interface Harness extends DashboardHarness {
  saved: Watchlists[];
}

async function mount(props: Omit<DashboardProps, 'status' | 'target' | 'intervalS'>): Promise<Harness> {
  const saved: Watchlists[] = [];
  const full: DashboardProps = {
    status: new StatusBoard(),
    target: 'sandbox (list cursor test)',
    intervalS: 2,
    persistWatchlist: (lists) => {
      saved.push(structuredClone(lists));
    },
    size: SIZE,
    ...props,
  };
  const h = drive(await renderDashboard(<Dashboard {...full} />, SIZE.columns));
  await h.until((f) => /AAPL .*\d+\.\d\d/.test(f), 'the first prices');
  return { ...h, saved };
}

/** The ticker pane's lines (right of the contacts pane). */
const tickerLines = (frame: string): string[] =>
  frame.split('\n').flatMap((line) => {
    const at = /[│┃][│┃]/.exec(line);
    return at ? [line.slice(at.index + 2).replace(/[│┃]\s*$/, '').trim()] : [];
  });

/** The row the pointer is on, and the highlighted (inverse) text in the ticker pane: both must say the same. */
function highlighted(h: DashboardHarness): { pointer: string | undefined; inverse: string[] } {
  const pointer = tickerLines(h.frame()).find((line) => line.startsWith('❯'));
  return { pointer: pointer?.replace(/^❯\s*/, ''), inverse: inverseSegments(h.raw()).map((s) => s.trim()).filter((s) => s.startsWith('[') || /^\d+ /.test(s)) };
}

const columnsOf = (h: Harness): ColumnName[] => h.saved.at(-1)!.lists[h.saved.at(-1)!.active]!.columns;

describe('the columns editor (C): keys that come together', () => {
  const ctx = setUpSandbox();

  it('k and Space in one read hide the column above and the highlight stays on it, so the next Space shows it again', async () => {
    const h = await mount({ client: ctx.client, watchlist: { lists: [newList('Watchlist', ['AAPL'])], active: 0 } });
    await h.press(KEY.tab, 'C');
    await h.until((f) => f.includes('Columns, after SYMBOL, in this order:'), 'the editor');
    // Down to AGE, the last column shown.
    await h.press('j', 'j', 'j', 'j', 'j', 'j');
    expect(highlighted(h).pointer).toMatch(/^\[x\] AGE/);
    // Up to TREND and hide it, in one read: TREND goes below AGE, where the highlight was.
    await h.type('k ');
    await h.until((f) => /\[ \] TREND/.test(f), 'TREND hidden');
    expect(columnsOf(h)).toEqual(['name', 'price', 'change', 'session', 'volume', 'age']);
    let shown = highlighted(h);
    expect(shown.pointer).toMatch(/^\[ \] TREND/);
    expect(shown.inverse).toEqual([expect.stringMatching(/^\[ \] TREND/)]);
    // The next Space acts on the row shown highlighted.
    await h.press(' ');
    await h.until((f) => /\[x\] TREND/.test(f), 'TREND shown again');
    expect(columnsOf(h)).toEqual(['name', 'price', 'change', 'session', 'volume', 'trend', 'age']);
    shown = highlighted(h);
    expect(shown.pointer).toMatch(/^\[x\] TREND/);
    expect(shown.inverse).toEqual([expect.stringMatching(/^\[x\] TREND/)]);
  });

  it('j and Space in one read show the column below, back in its place, the highlight on it', async () => {
    const list = { ...newList('Watchlist', ['AAPL']), columns: ['name', 'price', 'change', 'session', 'volume', 'age'] as ColumnName[] };
    const h = await mount({ client: ctx.client, watchlist: { lists: [list], active: 0 } });
    await h.press(KEY.tab, 'C');
    await h.until((f) => f.includes('Columns, after SYMBOL, in this order:'), 'the editor');
    // On AGE; TREND, hidden, is the row under it.
    await h.press('j', 'j', 'j', 'j', 'j');
    expect(highlighted(h).pointer).toMatch(/^\[x\] AGE/);
    await h.type('j ');
    await h.until((f) => /\[x\] TREND/.test(f), 'TREND shown');
    expect(columnsOf(h)).toEqual(['name', 'price', 'change', 'session', 'volume', 'trend', 'age']);
    const shown = highlighted(h);
    expect(shown.pointer).toMatch(/^\[x\] TREND/);
    expect(shown.inverse).toEqual([expect.stringMatching(/^\[x\] TREND/)]);
  });
});

describe('the watchlists menu (w)', () => {
  const ctx = setUpSandbox();

  it('a list renamed keeps the highlight, and Enter shows the list highlighted', async () => {
    const h = await mount({ client: ctx.client, watchlist: { lists: [newList('Watchlist', ['AAPL']), newList('Tech', ['MSFT']), newList('Banks', ['JPM'])], active: 0 } });
    await h.press(KEY.tab, 'w', 'j', 'j', 'e');
    await h.until((f) => /Rename/i.test(f) && /Banks/.test(f), 'the name field');
    await h.press(KEY.ctrlU);
    await h.type('Lenders');
    await h.press(KEY.enter);
    await h.until((f) => f.includes('renamed to Lenders'), 'the rename');
    expect(highlighted(h).pointer).toMatch(/^3 +Lenders/);
    expect(inverseSegments(h.raw()).filter((s) => /Lenders|Watchlist|Tech/.test(s))).toEqual([expect.stringMatching(/^3 +Lenders/)]);
    await h.press(KEY.enter);
    await h.until((f) => /Ticker · Lenders/.test(f), 'Lenders shown');
  });
});

describe('the symbol picker', () => {
  const ctx = setUpSandbox();

  it('after Enter adds a symbol the field is empty: what is typed next is a new query', async () => {
    const h = await mount({ client: ctx.client, watchlist: { lists: [newList('Watchlist', ['AAPL'])], active: 0 } });
    await h.press(KEY.tab, '/');
    await h.until((f) => f.includes('Add symbol:') && /\d+ matches/.test(f), 'the picker with the catalogue');
    await h.type('msft');
    await h.until((f) => /❯ +MSFT /.test(f), 'MSFT first');
    await h.press(KEY.enter);
    await h.until((f) => f.includes('added MSFT'), 'MSFT added');
    expect(h.frame()).not.toContain('Add symbol: msft');
    expect(h.saved.at(-1)!.lists[0]!.symbols).toEqual(['AAPL', 'MSFT']);
    // Nothing chosen yet: Enter adds nothing until something is typed or browsed.
    await h.type('nvda');
    let frame = await h.until((f) => /❯ +NVDA /.test(f), 'NVDA first');
    expect(frame).toContain('Add symbol: nvda');
    await h.press(KEY.enter);
    await h.until((f) => f.includes('added NVDA'), 'NVDA added');
    expect(h.saved.at(-1)!.lists[0]!.symbols).toEqual(['AAPL', 'MSFT', 'NVDA']);
    // A symbol already there keeps its query: the notice says why nothing was added.
    await h.type('aapl');
    await h.until((f) => /❯ ✓ AAPL /.test(f), 'AAPL, on the list');
    await h.press(KEY.enter);
    frame = await h.until((f) => f.includes('AAPL is already on the watchlist'), 'the notice');
    expect(frame).toContain('Add symbol: aapl');
  });
});

describe('the alerts view (A)', () => {
  const ctx = setUpSandbox();
  const files = setUpRecorder('sandbox', 'tickbook-list-cursor-');

  it('j and p in one read pause the second alert, the highlight on it', async () => {
    const history = files.recorder;
    const books = history.books()!;
    books.alerts.add(books.source, 'AAPL', { kind: 'above', price: 9999 }, { price: 100, at: Date.now(), oneShot: false });
    books.alerts.add(books.source, 'MSFT', { kind: 'above', price: 9999 }, { price: 100, at: Date.now(), oneShot: false });
    books.alerts.add(books.source, 'NVDA', { kind: 'above', price: 9999 }, { price: 100, at: Date.now(), oneShot: false });
    const h = await mount({ client: ctx.client, watchlist: { lists: [newList('Watchlist', ['AAPL'])], active: 0 }, history });
    await h.press(KEY.tab, 'A');
    await h.until((f) => /Alerts · 3/.test(f), 'the alerts view');
    await h.type('jp');
    const frame = await h.until((f) => /MSFT .* paused/.test(f), 'MSFT paused');
    expect(frame).not.toMatch(/AAPL .* paused/);
    expect(inverseSegments(h.raw()).filter((s) => /AAPL|MSFT|NVDA/.test(s))).toEqual([expect.stringMatching(/MSFT .* paused/)]);
  });
});
