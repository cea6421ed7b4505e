// Several named watchlists in the dashboard as a user drives them (ink-testing-library, against a
// real in-process sandbox): the lists menu (w: j/k, Enter, c new, e rename, d delete after
// asking), 1-9 and [ ] to switch, M to move the highlighted symbol to another list, s/S sorting
// remembered per list, every change handed to persistWatchlist, and a poll under way for a list
// left behind dropped. The reducer's part (quotes for symbols not on the list make no rows) is
// checked as plain functions at the end.
import { afterEach, describe, expect, it } from 'vitest';
import type { TickbookClient } from '../../../src/api/client.js';
import type { PricingResult } from '../../../src/api/types.js';
import { newList, type Watchlist, type Watchlists } from '../../../src/market/watchlists.js';
import { Dashboard, type DashboardProps } from '../../../src/tui/Dashboard.js';
import { StatusBoard } from '../../../src/tui/state/status.js';
import { displayOrder, initialTickerState, type TickerAction, tickerReducer, type TickerState } from '../../../src/tui/ticker/ticker-state.js';
import { drive, renderDashboard, unmountAll, type DashboardHarness } from '../../helpers/dashboard.js';
import { inAct, pause, waitFor } from '../../helpers/ink.js';
import { setUpSandbox } from '../../helpers/sandbox.js';
import { KEY } from '../../helpers/keys.js';


interface Saved {
  lists: Watchlist[];
  active: number;
  intervalS: number;
}

interface Harness extends DashboardHarness {
  /** Every call of persistWatchlist, deep-copied as it was given. */
  persisted: Saved[];
  /** The last one. */
  lastSaved(): Saved;
  status: StatusBoard;
}

afterEach(unmountAll);

/** Three lists: the first with prices for AAPL, MSFT and NVDA; Tech with IBM; Banks with JPM. */
const THREE = (): Watchlists => ({
  lists: [newList('Watchlist', ['AAPL', 'MSFT', 'NVDA']), newList('Tech', ['IBM']), newList('Banks', ['JPM'])],
  active: 0,
});

async function mount(client: TickbookClient, watchlist: Watchlists | string[], intervalS = 2): Promise<Harness> {
  const size = { columns: 120, rows: 40 };
  const persisted: Saved[] = [];
  const status = new StatusBoard();
  const props: DashboardProps = {
    client,
    status,
    target: 'sandbox (watchlists test)',
    watchlist,
    intervalS,
    persistWatchlist: (lists, interval) => {
      persisted.push({ ...structuredClone(lists), intervalS: interval });
    },
    size,
    undoWindowMs: 300,
  };
  const h = drive(await renderDashboard(<Dashboard {...props} />, size.columns));
  return {
    ...h,
    persisted,
    status,
    lastSaved: () => {
      expect(persisted.length, 'nothing was saved').toBeGreaterThan(0);
      return persisted.at(-1)!;
    },
  };
}

/** The ticker pane's inner lines: the right pane, after the contacts pane's right border. */
function tickerLines(frame: string): string[] {
  return frame.split('\n').flatMap((line) => {
    const at = /[│┃][│┃]/.exec(line);
    return at ? [line.slice(at.index + 2).replace(/[│┃]\s*$/, '').trim()] : [];
  });
}

/** The list shown, from the pane title `▸ Ticker · NAME`. */
function shownList(frame: string): string | undefined {
  return /Ticker · (.+?)(?:\s{2,}|$)/m.exec(frame)?.[1];
}

/** The symbols of the ticker's rows, top to bottom (a row: symbol, then a price, … while none came, or why not). */
function tickerRows(frame: string): string[] {
  return tickerLines(frame).flatMap((line) => {
    const m = /^([A-Z][A-Z0-9.]*)\s+(?:\d|…|unknown|no price)/.exec(line);
    return m ? [m[1]!] : [];
  });
}

const priced = (symbol: string) => (frame: string) => tickerLines(frame).some((line) => new RegExp(`^${symbol.replace('.', '\\.')}\\s+\\d+\\.\\d\\d`).test(line));

/** Waits until the pane shows `name` with prices for every one of `symbols`. */
async function untilShown(h: Harness, name: string, symbols: string[]): Promise<string> {
  return h.until(
    (f) => shownList(f) === name && symbols.every((s) => priced(s)(f)) && tickerRows(f).length === symbols.length,
    `list ${name} with prices for ${symbols.join(', ') || 'nothing'}`,
  );
}

const names = (saved: Saved) => saved.lists.map((l) => l.name);
const symbolsOf = (saved: Saved, name: string) => saved.lists.find((l) => l.name === name)?.symbols;

// ---------------------------------------------------------------------------------------------

describe('making and naming lists', () => {
  const ctx = setUpSandbox();

  it('w c Tech Enter makes an empty list named Tech and shows it (title, empty message, notice), and saves both lists', async () => {
    const h = await mount(ctx.client, ['AAPL', 'MSFT', 'NOPE1']);
    await h.until((f) => /AAPL\s+\d+\.\d\d/.test(f), 'the first prices');
    await h.press(KEY.tab);
    await h.until((f) => /▸ Ticker · Watchlist/.test(f), 'the ticker focused, titled with its list');
    expect(h.persisted).toHaveLength(0);

    await h.press('w');
    let frame = await h.until((f) => /Watchlists:/.test(f), 'the lists menu');
    expect(frame).toMatch(/❯ 1 ✓ Watchlist\s+3 symbols/);
    // (The hint's separators are padded twice, "  ·  ", and its end is cut at this width: reported.)
    expect(frame).toMatch(/Enter shows it\s+·\s+c new\s+·\s+e rename/);

    await h.press('c');
    await h.until((f) => /New list:/.test(f), 'the name field');
    await h.type('Tech');
    await h.until((f) => /New list: Tech/.test(f), 'the name typed');
    await h.press(KEY.enter);
    frame = await h.until((f) => shownList(f) === 'Tech', 'Tech shown');
    expect(frame).toContain('made the list Tech');
    expect(frame).toContain('the watchlist is empty: press / to add symbols');
    expect(frame).toMatch(/0 symbols · watchlist order/);
    expect(frame).not.toMatch(/Watchlists:/);
    expect(tickerRows(frame)).toEqual([]);

    const saved = h.lastSaved();
    expect(names(saved)).toEqual(['Watchlist', 'Tech']);
    expect(saved.active).toBe(1);
    expect(symbolsOf(saved, 'Watchlist')).toEqual(['AAPL', 'MSFT', 'NOPE1']);
    expect(saved.lists[1]).toMatchObject({ name: 'Tech', symbols: [], sort: 'watchlist', descending: false });
    expect(saved.intervalS).toBe(2);

    // The menu lists both, the one shown marked.
    await h.press('w');
    frame = await h.until((f) => /Watchlists:/.test(f), 'the menu again');
    expect(frame).toMatch(/1 {3}Watchlist\s+3 symbols/);
    expect(frame).toMatch(/❯ 2 ✓ Tech\s+0 symbols/);
  });

  it('a bad name is said under the field, which keeps the text; editing clears the problem; Esc leaves the field, then the menu', async () => {
    const h = await mount(ctx.client, { lists: [newList('Watchlist', ['AAPL']), newList('Tech', ['MSFT'])], active: 0 });
    await h.until((f) => /AAPL\s+\d+\.\d\d/.test(f), 'the first prices');
    await h.press(KEY.tab, 'w', 'c');
    await h.until((f) => /New list:/.test(f), 'the name field');

    await h.type('tech');
    await h.press(KEY.enter);
    let frame = await h.until((f) => /there is already a list named Tech/.test(f), 'the duplicate refused');
    expect(frame).toMatch(/✗ there is already a list named Tech/);
    expect(frame).toMatch(/New list: tech/);
    expect(shownList(frame)).toBe('Watchlist');
    expect(h.persisted).toHaveLength(0);

    // Typing on clears the problem; a comma is its own problem.
    await h.type(',x');
    await h.until((f) => /New list: tech,x/.test(f) && !/already a list/.test(f), 'the problem cleared by typing');
    await h.press(KEY.enter);
    await h.until((f) => /✗ a list name cannot hold a comma/.test(f) && /New list: tech,x/.test(f), 'the comma refused');

    // Nothing at all: a list needs a name.
    await h.press(KEY.ctrlU);
    await h.until((f) => /New list:/.test(f) && !/New list: \S/.test(f), 'the field cleared');
    await h.press(KEY.enter);
    await h.until((f) => /✗ a list needs a name/.test(f), 'the empty name refused');

    // Esc leaves the field for the menu (nothing made); Esc again closes the menu.
    await h.press(KEY.esc);
    frame = await h.until((f) => /Watchlists:/.test(f) && !/New list:/.test(f), 'back to the menu');
    expect(tickerLines(frame).filter((l) => /^(❯ )?\d [✓ ] /.test(l))).toHaveLength(2);
    await h.press(KEY.esc);
    frame = await h.until((f) => !/Watchlists:/.test(f) && priced('AAPL')(f), 'the menu closed');
    expect(shownList(frame)).toBe('Watchlist');
    expect(h.persisted).toHaveLength(0);
  });

  it('e renames the highlighted list in place: the title follows, the menu stays open, and the rename is saved', async () => {
    const h = await mount(ctx.client, THREE());
    await untilShown(h, 'Watchlist', ['AAPL', 'MSFT', 'NVDA']);
    await h.press(KEY.tab, 'w', 'e');
    await h.until((f) => /Rename to: Watchlist/.test(f), 'the rename field, holding the name');
    await h.press(KEY.ctrlU);
    await h.type('Core');
    await h.press(KEY.enter);
    let frame = await h.until((f) => shownList(f) === 'Core', 'the title renamed');
    expect(frame).toContain('renamed to Core');
    expect(frame).toMatch(/❯ 1 ✓ Core\s+3 symbols/);
    expect(names(h.lastSaved())).toEqual(['Core', 'Tech', 'Banks']);
    expect(h.lastSaved().active).toBe(0);

    // Another list, renamed to a different case of its own name: allowed.
    await h.press('j', 'e', KEY.ctrlU);
    await h.type('TECH');
    await h.press(KEY.enter);
    frame = await h.until((f) => /renamed to TECH/.test(f), 'Tech renamed to TECH');
    expect(shownList(frame)).toBe('Core');
    expect(names(h.lastSaved())).toEqual(['Core', 'TECH', 'Banks']);
    // But not to another list's name.
    await h.press('e', KEY.ctrlU);
    await h.type('banks');
    await h.press(KEY.enter);
    await h.until((f) => /✗ there is already a list named Banks/.test(f) && /Rename to: banks/.test(f), 'the clash refused');
  });
});

describe('switching lists', () => {
  const ctx = setUpSandbox();

  it('1-9 show list N, ] and [ go round; each switch says so, asks its prices at once and is saved', async () => {
    const h = await mount(ctx.client, THREE(), 30);
    await untilShown(h, 'Watchlist', ['AAPL', 'MSFT', 'NVDA']);
    await h.press(KEY.tab);
    const t0 = Date.now();

    await h.press('2');
    let frame = await untilShown(h, 'Tech', ['IBM']);
    // Polled every 30 s: a price this soon was asked for by the switch.
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(frame).toContain('showing Tech');
    expect(h.lastSaved().active).toBe(1);

    await h.press('3');
    frame = await untilShown(h, 'Banks', ['JPM']);
    expect(frame).toContain('showing Banks');
    await h.press('1');
    frame = await untilShown(h, 'Watchlist', ['AAPL', 'MSFT', 'NVDA']);
    expect(tickerRows(frame)).toEqual(['AAPL', 'MSFT', 'NVDA']);
    expect(h.lastSaved().active).toBe(0);

    await h.press(']');
    await untilShown(h, 'Tech', ['IBM']);
    await h.press(']');
    await untilShown(h, 'Banks', ['JPM']);
    await h.press(']');
    await untilShown(h, 'Watchlist', ['AAPL', 'MSFT', 'NVDA']);
    await h.press('[');
    await untilShown(h, 'Banks', ['JPM']);
    await h.press('[');
    await untilShown(h, 'Tech', ['IBM']);
    expect(h.persisted.map((s) => s.active)).toEqual([1, 2, 0, 1, 2, 0, 2, 1]);
    // Switching saves which list is shown, never changes the lists themselves.
    expect(h.persisted.every((s) => JSON.stringify(s.lists) === JSON.stringify(THREE().lists))).toBe(true);

    // A number past the lists says how many there are; the list shown stays.
    await h.press('9');
    frame = await h.until((f) => /there are 3 lists: press w to make more/.test(f), 'the notice for list 9');
    expect(shownList(frame)).toBe('Tech');
    // The list shown again: nothing happens, nothing saved.
    const count = h.persisted.length;
    await h.press('2');
    await pause(100);
    expect(h.persisted).toHaveLength(count);
  });

  it('in the menu, j/k move and Enter shows the highlighted list', async () => {
    const h = await mount(ctx.client, THREE());
    await untilShown(h, 'Watchlist', ['AAPL', 'MSFT', 'NVDA']);
    await h.press(KEY.tab, 'w', 'j', 'j');
    await h.until((f) => /❯ 3 {3}Banks/.test(f), 'Banks highlighted');
    await h.press('k');
    await h.until((f) => /❯ 2 {3}Tech/.test(f), 'Tech highlighted');
    await h.press(KEY.enter);
    const frame = await untilShown(h, 'Tech', ['IBM']);
    expect(frame).not.toMatch(/Watchlists:/);
    // q closes the menu, it does not quit.
    await h.press('w');
    await h.until((f) => /Watchlists:/.test(f), 'the menu');
    await h.press('q');
    await h.until((f) => !/Watchlists:/.test(f), 'the menu closed by q');
    expect(h.exited()).toBe(false);
  });

  it('s and S are remembered per list across switches, and saved with the list', async () => {
    const h = await mount(ctx.client, {
      lists: [newList('Watchlist', ['MSFT', 'AAPL', 'NVDA']), newList('Tech', ['IBM', 'AAPL', 'NVDA'])],
      active: 0,
    });
    await untilShown(h, 'Watchlist', ['MSFT', 'AAPL', 'NVDA']);
    await h.press(KEY.tab, 's');
    let frame = await h.until((f) => /3 symbols · by symbol\b/.test(f), 'sorted by symbol');
    expect(tickerRows(frame)).toEqual(['AAPL', 'MSFT', 'NVDA']);
    expect(frame).toMatch(/SYMBOL▲/);
    await h.press('S');
    frame = await h.until((f) => /by symbol, Z to A/.test(f), 'the sort flipped');
    expect(tickerRows(frame)).toEqual(['NVDA', 'MSFT', 'AAPL']);
    expect(frame).toMatch(/SYMBOL▼/);

    await h.press('2');
    frame = await untilShown(h, 'Tech', ['IBM', 'AAPL', 'NVDA']);
    expect(frame).toMatch(/3 symbols · watchlist order/);
    expect(tickerRows(frame)).toEqual(['IBM', 'AAPL', 'NVDA']);
    await h.press('s', 's');
    frame = await h.until((f) => /3 symbols · by price\b/.test(f), 'Tech by price');
    expect(frame).toMatch(/PRICE▼/);

    await h.press('1');
    frame = await untilShown(h, 'Watchlist', ['MSFT', 'AAPL', 'NVDA']);
    expect(frame).toMatch(/by symbol, Z to A/);
    expect(tickerRows(frame)).toEqual(['NVDA', 'MSFT', 'AAPL']);
    await h.press('2');
    frame = await untilShown(h, 'Tech', ['IBM', 'AAPL', 'NVDA']);
    expect(frame).toMatch(/by price\b/);
    // Largest price first.
    const prices = tickerLines(frame).flatMap((l) => {
      const m = /^[A-Z]+\s+([\d,]+\.\d\d)/.exec(l);
      return m ? [Number(m[1]!.replace(/,/g, ''))] : [];
    });
    expect(prices).toHaveLength(3);
    expect([...prices].sort((a, b) => b - a)).toEqual(prices);

    const saved = h.lastSaved();
    expect(saved.active).toBe(1);
    expect(saved.lists.map(({ name, sort, descending }) => ({ name, sort, descending }))).toEqual([
      { name: 'Watchlist', sort: 'symbol', descending: true },
      { name: 'Tech', sort: 'price', descending: false },
    ]);
    // The order as listed is kept under any sort.
    expect(symbolsOf(saved, 'Watchlist')).toEqual(['MSFT', 'AAPL', 'NVDA']);
  });
});

describe('moving a symbol to another list (M)', () => {
  const ctx = setUpSandbox();

  it('M on AAPL, then Tech: AAPL leaves the shown list and goes at the end of Tech; saved', async () => {
    const h = await mount(ctx.client, THREE());
    await untilShown(h, 'Watchlist', ['AAPL', 'MSFT', 'NVDA']);
    await h.press(KEY.tab, 'M');
    let frame = await h.until((f) => /Move AAPL to:/.test(f), 'the move menu for AAPL');
    expect(frame).toMatch(/Enter moves it there/);
    expect(frame).toMatch(/❯ 1 ✓ Watchlist\s+3 symbols/);
    // Its own list: said, and the menu stays.
    await h.press(KEY.enter);
    frame = await h.until((f) => /AAPL is on Watchlist already: choose another list/.test(f), 'the own list refused');
    expect(frame).toMatch(/Move AAPL to:/);
    expect(h.persisted).toHaveLength(0);

    await h.press('j', KEY.enter);
    frame = await h.until((f) => /moved AAPL to Tech/.test(f) && !/Move AAPL to:/.test(f), 'AAPL moved');
    expect(shownList(frame)).toBe('Watchlist');
    await h.until((f) => tickerRows(f).join() === 'MSFT,NVDA', 'AAPL gone from list 1');
    expect(h.frame()).toMatch(/2 symbols/);
    let saved = h.lastSaved();
    expect(saved.active).toBe(0);
    expect(symbolsOf(saved, 'Watchlist')).toEqual(['MSFT', 'NVDA']);
    expect(symbolsOf(saved, 'Tech')).toEqual(['IBM', 'AAPL']);
    expect(symbolsOf(saved, 'Banks')).toEqual(['JPM']);

    await h.press('2');
    frame = await untilShown(h, 'Tech', ['IBM', 'AAPL']);
    expect(tickerRows(frame)).toEqual(['IBM', 'AAPL']);

    // The highlighted row is the one moved: j to AAPL, M, then Banks (two down from Tech).
    await h.press('j', 'M');
    await h.until((f) => /Move AAPL to:/.test(f), 'the move menu for the second row');
    await h.press('j', KEY.enter);
    await h.until((f) => /moved AAPL to Banks/.test(f) && tickerRows(f).join() === 'IBM', 'AAPL moved on to Banks');
    saved = h.lastSaved();
    expect(symbolsOf(saved, 'Tech')).toEqual(['IBM']);
    expect(symbolsOf(saved, 'Banks')).toEqual(['JPM', 'AAPL']);
  });

  it('to a list that holds it already: taken off this one, there once; with one list, M says there is nowhere to go', async () => {
    const h = await mount(ctx.client, { lists: [newList('Watchlist', ['AAPL', 'MSFT']), newList('Tech', ['MSFT'])], active: 0 });
    await untilShown(h, 'Watchlist', ['AAPL', 'MSFT']);
    await h.press(KEY.tab, 'j', 'M');
    await h.until((f) => /Move MSFT to:/.test(f), 'the move menu for MSFT');
    await h.press('j', KEY.enter);
    await h.until((f) => /MSFT was on Tech already: taken off this list/.test(f) && tickerRows(f).join() === 'AAPL', 'MSFT taken off');
    expect(symbolsOf(h.lastSaved(), 'Tech')).toEqual(['MSFT']);

    await unmountAll();
    const one = await mount(ctx.client, ['AAPL']);
    await one.until(priced('AAPL'), 'a price');
    await one.press(KEY.tab, 'M');
    const frame = await one.until((f) => /there is no other list to move it to: press w, then c to make one/.test(f), 'the notice');
    expect(frame).not.toMatch(/Move AAPL to:/);
  });
});

describe('deleting lists', () => {
  const ctx = setUpSandbox();

  it('d asks; n (or Esc) keeps the list, y deletes it; the shown list stays shown when another goes', async () => {
    const h = await mount(ctx.client, THREE());
    await untilShown(h, 'Watchlist', ['AAPL', 'MSFT', 'NVDA']);
    await h.press(KEY.tab, 'w', 'j', 'd');
    let frame = await h.until((f) => /Delete the list Tech/.test(f), 'the question');
    expect(frame).toMatch(/Delete the list Tech and its 1 symbols?\? y: delete\s+·\s+N/);

    await h.press('n');
    frame = await h.until((f) => !/Delete the list/.test(f) && /Watchlists:/.test(f), 'kept');
    expect(frame).toMatch(/❯ 2 {3}Tech/);
    await h.press('d');
    await h.until((f) => /Delete the list Tech/.test(f), 'asked again');
    await h.press(KEY.esc);
    await h.until((f) => !/Delete the list/.test(f) && /Watchlists:/.test(f), 'kept by Esc');
    expect(h.persisted).toHaveLength(0);

    await h.press('d');
    await h.until((f) => /Delete the list Tech/.test(f), 'asked a third time');
    await h.press('y');
    frame = await h.until((f) => /deleted the list Tech/.test(f), 'Tech deleted');
    expect(frame).not.toMatch(/\bTech\b\s+\d+ symbol/);
    expect(frame).toMatch(/2 {3}Banks/);
    expect(shownList(frame)).toBe('Watchlist');
    const saved = h.lastSaved();
    expect(names(saved)).toEqual(['Watchlist', 'Banks']);
    expect(saved.active).toBe(0);
  });

  it('deleting the shown list shows the next; the last list cannot be deleted', async () => {
    const h = await mount(ctx.client, { lists: [newList('Watchlist', ['AAPL']), newList('Tech', ['MSFT'])], active: 0 });
    await untilShown(h, 'Watchlist', ['AAPL']);
    await h.press(KEY.tab, 'w', 'd');
    await h.until((f) => /Delete the list Watchlist/.test(f), 'the question');
    await h.press('y');
    await h.until((f) => /deleted the list Watchlist/.test(f) && shownList(f) === 'Tech', 'Tech shown');
    expect(names(h.lastSaved())).toEqual(['Tech']);
    expect(h.lastSaved().active).toBe(0);

    await h.press('d');
    const frame = await h.until((f) => /the last list cannot be deleted; empty it instead/.test(f), 'the refusal');
    expect(frame).not.toMatch(/Delete the list/);
    await h.press('y');
    await pause(50);
    expect(names(h.lastSaved())).toEqual(['Tech']);
    await h.press(KEY.esc);
    await untilShown(h, 'Tech', ['MSFT']);
  });
});

describe('a switch drops the answer still coming for the list left behind', () => {
  const ctx = setUpSandbox();

  it('a held poll for list 1 answers after list 2 is shown: its prices are not drawn, its request was aborted, list 2 was asked at once', async () => {
    const FAKE = 12345.67;
    const held: { symbols: string[]; signal: AbortSignal | undefined; release: () => void }[] = [];
    let holding = true;
    const asked: string[][] = [];
    // The real client, but a pricing call for list 1 is held (whatever its signal says) until
    // released, and then answers MSFT at a price the sandbox never gives.
    const client = new Proxy(ctx.client, {
      get(target, prop) {
        if (prop === 'realtimePricing') {
          return async (symbols: readonly string[], options: { signal?: AbortSignal } = {}): Promise<PricingResult> => {
            asked.push([...symbols]);
            const result = await target.realtimePricing(symbols);
            if (!holding || !symbols.includes('AAPL')) return result;
            await new Promise<void>((release) => held.push({ symbols: [...symbols], signal: options.signal, release }));
            return { ...result, quotes: result.quotes.map((q) => (q.symbol === 'MSFT' ? { ...q, price: FAKE } : q)) };
          };
        }
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    }) as TickbookClient;

    const h = await mount(client, { lists: [newList('Watchlist', ['AAPL', 'MSFT']), newList('Tech', ['MSFT', 'NVDA'])], active: 0 }, 30);
    await waitFor(() => held.length === 1, 5000, 'the first poll to be held');
    expect(tickerRows(h.frame())).toEqual(['AAPL', 'MSFT']);
    expect(priced('AAPL')(h.frame())).toBe(false);

    await h.press(KEY.tab, '2');
    await untilShown(h, 'Tech', ['MSFT', 'NVDA']);
    expect(asked.at(-1)).toEqual(['MSFT', 'NVDA']);
    expect(held[0]!.signal?.aborted, 'the poll under way was aborted').toBe(true);

    // The list-1 answer lands now: nothing of it is drawn on Tech.
    await inAct(() => held[0]!.release());
    await pause(300);
    let frame = h.frame();
    expect(shownList(frame)).toBe('Tech');
    expect(frame).not.toMatch(/12,?345\.67/);
    expect(tickerRows(frame)).toEqual(['MSFT', 'NVDA']);

    // Back on list 1, its prices are asked again, at once, and drawn.
    holding = false;
    await h.press('1');
    frame = await untilShown(h, 'Watchlist', ['AAPL', 'MSFT']);
    expect(frame).not.toMatch(/12,?345\.67/);
    expect(asked.at(-1)).toEqual(['AAPL', 'MSFT']);
  });
});

// ---------------------------------------------------------------------------------------------
// The reducer

const run = (state: TickerState, ...actions: TickerAction[]): TickerState => actions.reduce(tickerReducer, state);
const answer = (quotes: [string, number][], at = 1000): TickerAction => ({
  type: 'poll-succeeded',
  at,
  result: {
    symbols: quotes.map(([s]) => s),
    quotes: quotes.map(([symbol, price]) => ({ symbol, price, volume: 100 })),
    unknown: [],
    rejected: [],
    requestTime: new Date(at),
  },
});

describe('the ticker reducer with lists', () => {
  const two = (): Watchlists => ({ lists: [newList('Watchlist', ['AAPL', 'MSFT']), { ...newList('Tech', ['NVDA', 'IBM']), sort: 'price', descending: true }], active: 0 });

  it('starts on the list given, its symbols and sort; an array of symbols is one list named Watchlist', () => {
    const s = initialTickerState({ ...two(), active: 1 }, 2);
    expect(s.active).toBe(1);
    expect(s.watchlist).toEqual(['NVDA', 'IBM']);
    expect(s.sort).toBe('price');
    expect(s.descending).toBe(true);
    const plain = initialTickerState(['AAPL'], 2);
    expect(plain.lists).toMatchObject([{ name: 'Watchlist', symbols: ['AAPL'], sort: 'watchlist', descending: false }]);
    expect(plain.active).toBe(0);
  });

  it('quotes for symbols not on the shown list make no rows (an answer for the list left behind)', () => {
    let s = run(initialTickerState(two(), 2), answer([['AAPL', 10], ['MSFT', 20]]));
    s = run(s, { type: 'lists-changed', lists: { lists: s.lists, active: 1 } });
    expect(s.watchlist).toEqual(['NVDA', 'IBM']);
    s = run(s, answer([['AAPL', 11], ['MSFT', 21]], 2000));
    expect(Object.keys(s.rows)).toEqual([]);
    s = run(s, answer([['AAPL', 12], ['NVDA', 30]], 3000));
    expect(Object.keys(s.rows)).toEqual(['NVDA']);
    expect(s.rows.NVDA!.price).toBe(30);
  });

  it('a switch takes the new list\'s sort and starts at its top; the old list keeps what it had', () => {
    let s = run(initialTickerState(two(), 2), { type: 'sort-cycled' }, { type: 'sort-flipped' }, { type: 'cursor-moved', by: 1 });
    expect(s.cursor).toBe(1);
    s = run(s, { type: 'lists-changed', lists: { lists: s.lists, active: 1 } });
    expect(s.sort).toBe('price');
    expect(s.descending).toBe(true);
    expect(s.cursor).toBe(0);
    expect(s.lists[0]).toMatchObject({ sort: 'symbol', descending: true });
    s = run(s, { type: 'lists-changed', lists: { lists: s.lists, active: 0 } });
    expect([s.sort, s.descending]).toEqual(['symbol', true]);
  });

  it('the list shown is the one on screen: adding, removing and reordering reach lists[active]', () => {
    let s = run(initialTickerState(two(), 2), { type: 'symbol-added', symbol: 'TSLA' }, { type: 'symbol-moved', by: 1 }, { type: 'cursor-to', index: 'last' }, { type: 'symbol-removed' });
    expect(s.watchlist).toEqual(['MSFT', 'AAPL']);
    expect(s.lists[0]!.symbols).toEqual(['MSFT', 'AAPL']);
    expect(s.lists[1]!.symbols).toEqual(['NVDA', 'IBM']);
    s = run(s, { type: 'removal-undone' });
    expect(s.lists[0]!.symbols).toEqual(['MSFT', 'AAPL', 'TSLA']);
    expect(displayOrder(s)).toEqual(['MSFT', 'AAPL', 'TSLA']);
  });

  // Was a bug: renaming the shown list counts as a switch in 'lists-changed' (it compares
  // names), so the highlight jumps to the top and the undo of a removal just made is lost.
  it('renaming the shown list keeps the highlight and the undo of the last removal', () => {
    let s = run(initialTickerState({ lists: [newList('A', ['X', 'Y', 'Z']), newList('B')], active: 0 }, 2), { type: 'cursor-moved', by: 2 }, { type: 'symbol-removed' });
    expect(s.cursor).toBe(1);
    expect(s.removed).toEqual({ symbol: 'Z', index: 2 });
    const renamed = { lists: s.lists.map((l, i) => (i === 0 ? { ...l, name: 'AA' } : l)), active: 0 };
    s = run(s, { type: 'lists-changed', lists: renamed });
    expect(s.cursor).toBe(1);
    expect(s.removed).toEqual({ symbol: 'Z', index: 2 });
  });

  // Was a bug: deleting a list before the shown one moves the shown one's index down, which
  // 'lists-changed' takes for a switch: highlight to the top, undo lost (and "showing C" said).
  it('deleting an earlier list keeps the shown list\'s highlight and undo', () => {
    let s = run(
      initialTickerState({ lists: [newList('A'), newList('B'), newList('C', ['X', 'Y', 'Z'])], active: 2 }, 2),
      { type: 'cursor-moved', by: 2 },
      { type: 'symbol-removed' },
    );
    s = run(s, { type: 'lists-changed', lists: { lists: s.lists.slice(1), active: 1 } });
    expect(s.watchlist).toEqual(['X', 'Y']);
    expect(s.cursor).toBe(1);
    expect(s.removed).toEqual({ symbol: 'Z', index: 2 });
  });
});

describe('the delete question in words', () => {
  const ctx = setUpSandbox();

  // Was a bug: "Delete the list Tech and its 1 symbols?" (ListsMenu.tsx has no singular).
  it('a list of one symbol is asked about as "its 1 symbol"', async () => {
    const h = await mount(ctx.client, THREE());
    await untilShown(h, 'Watchlist', ['AAPL', 'MSFT', 'NVDA']);
    await h.press(KEY.tab, 'w', 'j', 'd');
    const frame = await h.until((f) => /Delete the list Tech/.test(f), 'the question');
    expect(frame).toMatch(/Delete the list Tech and its 1 symbol\?/);
  });
});

describe('what a hand-edited config can put in a list name', () => {
  const ctx = setUpSandbox();

  // Was a bug: the config reader accepts any non-blank name, and the pane title draws the
  // list's name as it is (the lists menu and the status line pass names through drawn()): an
  // escape sequence in a name reaches the terminal, a newline splits the title row.
  it('the pane title never writes a list name\'s escape sequences or line breaks to the terminal', async () => {
    const h = await mount(ctx.client, { lists: [newList('Evil\u001b]0;pwned\u0007\u001b[31m', ['AAPL']), newList('Two\nLines', ['MSFT'])], active: 0 });
    await h.until(priced('AAPL'), 'a price');
    expect(h.raw()).not.toContain('\u001b]0;pwned');
    await h.press(KEY.tab, '2');
    const frame = await h.until(priced('MSFT'), 'list 2');
    expect(frame.split('\n')[1]).toMatch(/Ticker · Two.Lines\s+every 2s/);
  });
});

describe('the columns editor (C)', () => {
  const ctx = setUpSandbox();

  it('Space hides and shows a column, K/J move it, Esc closes; the table and the saved list follow, per list', async () => {
    const h = await mount(ctx.client, THREE());
    await untilShown(h, 'Watchlist', ['AAPL', 'MSFT', 'NVDA']);
    await h.press(KEY.tab, 'C');
    let frame = await h.until((f) => f.includes('Columns, after SYMBOL, in this order:'), 'the editor');
    expect(frame).toContain('[x] NAME');
    // Down to TICK, hide it: it goes below the shown ones, the highlight with it.
    await h.press('j', 'j', ' ');
    await h.until((f) => /\[ \] TICK/.test(f), 'TICK hidden');
    expect(h.lastSaved().lists[0]!.columns).toEqual(['name', 'price', 'session', 'volume', 'trend', 'age']);
    // Price cannot go.
    await h.press('k', 'k', 'k', 'k', 'k', 'k', 'j', ' ');
    await h.until((f) => f.includes('the price is always shown'), 'the refusal');
    // AGE moved left twice, then the editor closed: the header follows the order.
    await h.press('j', 'j', 'j', 'j', 'K', 'K', KEY.esc);
    frame = await h.until((f) => tickerLines(f).some((l) => /^SYMBOL +PRICE +SESSION +AGE +VOLUME/.test(l)), 'the new header');
    expect(frame).not.toMatch(/ TICK /);
    expect(h.lastSaved().lists[0]!.columns).toEqual(['name', 'price', 'session', 'age', 'volume', 'trend']);
    // Another list keeps its own columns.
    await h.press('2');
    await h.until((f) => shownList(f) === 'Tech' && tickerLines(f).some((l) => /^SYMBOL +PRICE +TICK +SESSION +VOLUME/.test(l)), 'Tech with every column');
    expect(h.lastSaved().lists[1]!.columns).toEqual(['name', 'price', 'change', 'session', 'volume', 'trend', 'age']);
  });
});
