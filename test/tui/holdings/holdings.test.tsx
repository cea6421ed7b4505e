// A symbol's holdings as a user keeps them from the dashboard: h on a ticker row opens its lots in
// the ticker pane (straight on a new-lot form when it has none), a/e/d add, edit and delete lots
// through a form that names the field that is wrong, and the watchlist's holdings columns value
// the lots at the prices on screen with a totals row per currency; $ hides the money. Through the
// real Dashboard, a real PriceRecorder on a temp history file (where lots are kept) and a real
// in-process sandbox. What is saved is read back from the store, and its exact decimal text from
// the file itself: money that is shown right but stored as 0.30000000000000004 is still wrong.
import { afterEach, describe, expect, it, vi } from 'vitest';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { dayStart } from '../../../src/market/bars.js';
import { type ColumnName, newList, type Watchlists } from '../../../src/market/watchlists.js';
import { Dashboard, type DashboardProps } from '../../../src/tui/Dashboard.js';
import { StatusBoard } from '../../../src/tui/state/status.js';
import { openHistoryStore } from '../../../src/store/history-store.js';
import { holdingsOf } from '../../../src/store/holdings-store.js';
import { drive, expectFramesFit, renderDashboard, unmountAll, type DashboardHarness } from '../../helpers/dashboard.js';
import { inverseSegments, waitFor } from '../../helpers/ink.js';
import { setUpSandbox } from '../../helpers/sandbox.js';
import { setUpRecorder } from '../../helpers/recorder.js';
import { KEY } from '../../helpers/keys.js';

const TARGET = 'sandbox (holdings test)';
const SOURCE = 'holdings-test';
const WATCHLIST = ['AAPL', 'MSFT', 'SHEL.L'];
/** The panel's tests: the size the dashboard is usually tested at. */
const SIZE = { columns: 120, rows: 40 };
/**
 * The columns' tests: wide enough for every holdings column. At 120 columns the ticker's inner
 * width is 56 and qty, value, pl and pl_pct with the price take 57: QTY is the first dropped.
 */
const WIDE = { columns: 160, rows: 40 };
const HOLDINGS_COLUMNS: ColumnName[] = ['price', 'qty', 'value', 'day_pl', 'pl', 'pl_pct'];

afterEach(unmountAll);


/** The status line: the row under the panes, after the target. */
const statusLine = (frame: string): string => frame.split('\n').find((line) => line.includes(TARGET)) ?? '';

/** What is inside the ticker pane on each line (the right pane, side by side). */
const tickerLines = (frame: string): string[] =>
  frame
    .split('\n')
    .map((line) => /[│┃]([^│┃]*)[│┃]$/.exec(line)?.[1] ?? '')
    .map((inner) => inner.replace(/^ /, '').trimEnd());

/** A price as drawn ("217.54", two decimals) in hundredths. */
const hundredths = (text: string): bigint => {
  expect(text).toMatch(/^\d+\.\d\d$/);
  return BigInt(text.replace('.', ''));
};

/** Hundredths written as money is: grouped by thousands, two decimals, signed when asked. */
function money(amount: bigint, signed = false): string {
  const negative = amount < 0n;
  const size = negative ? -amount : amount;
  const whole = (size / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const sign = negative ? '-' : signed && size > 0n ? '+' : '';
  return `${sign}${whole}.${(size % 100n).toString().padStart(2, '0')}`;
}

/** `part` of `whole` in percent, two decimals, half away from zero, signed: "+9.55%". */
function percent(part: bigint, whole: bigint): string {
  const hundredthsOf = (part * 10_000n * 2n + (part < 0n ? -whole : whole)) / (2n * whole);
  const size = hundredthsOf < 0n ? -hundredthsOf : hundredthsOf;
  const sign = hundredthsOf < 0n ? '-' : hundredthsOf > 0n ? '+' : '±';
  return `${sign}${size / 100n}.${(size % 100n).toString().padStart(2, '0')}%`;
}

describe('holdings in the dashboard', () => {
  const ctx = setUpSandbox();
  const files = setUpRecorder(SOURCE, 'tickbook-holdings-');

  const lots = () => files.recorder.books()!.holdings.list(SOURCE);
  /** The lots as the file keeps them: decimal text, not numbers. */
  function lotsInFile(): { symbol: string; quantity: string; cost: string; bought: string | null }[] {
    const db = new Database(join(files.dir, 'history.db'), { readonly: true });
    try {
      return db.prepare('SELECT symbol, quantity, cost, bought FROM lots ORDER BY id').all() as never;
    } finally {
      db.close();
    }
  }
  /** A lot put in the store directly, as `tickbook holdings add` would. */
  const addLot = (symbol: string, quantity: bigint, cost: bigint, bought?: string) =>
    files.recorder.books()!.holdings.add(SOURCE, symbol, { quantity: quantity * 1_000_000n, cost: cost * 1_000_000n, bought }, Date.now());

  async function mount(props: Partial<Omit<DashboardProps, 'status' | 'target' | 'client'>> = {}): Promise<DashboardHarness & { size: { columns: number; rows: number } }> {
    const size = props.size ?? SIZE;
    const full: DashboardProps = {
      client: ctx.client,
      status: new StatusBoard(),
      target: TARGET,
      undoWindowMs: 300,
      watchlist: WATCHLIST,
      // A poll a minute: no price moves under a test's arithmetic unless it asks (r).
      intervalS: 60,
      history: files.recorder,
      ...props,
      size,
    };
    const h = drive(await renderDashboard(<Dashboard {...full} />, size.columns));
    // Every list here starts with AAPL: its price is the first poll's answer.
    await h.until((f) => /AAPL\b.* \d+\.\d\d /.test(f), 'the first prices');
    await h.press(KEY.tab);
    await h.until((f) => /▸ Ticker/.test(f), 'the ticker focused');
    return { ...h, size };
  }

  /** A watchlist that shows the holdings columns. */
  const withColumns = (symbols: readonly string[], columns: ColumnName[] = HOLDINGS_COLUMNS): Watchlists => ({
    lists: [{ ...newList('Mine', symbols), columns }],
    active: 0,
  });

  /** The form's line for `label`, the cursor on it (›) or not. */
  const fieldLine = (frame: string, label: string): string | undefined => tickerLines(frame).find((line) => new RegExp(`^[› ] ${label} `).test(line));

  describe('the holdings panel (h)', () => {
    it('a symbol with no lots opens on a new-lot form, each wrong field named as it is typed; Enter on a wrong form saves nothing', async () => {
      const h = await mount();
      await h.press('h');
      let frame = await h.until((f) => /New lot of AAPL/.test(f), 'the new-lot form');
      expect(frame).toMatch(/Holdings of AAPL \(USD\) at \d+\.\d\d/);
      expect(frame).toMatch(/no lots yet/);
      expect(fieldLine(frame, 'quantity')).toMatch(/^› /);
      // Just opened: nothing is wrong yet, and the line under the form says what it needs, not
      // that Enter saves.
      expect(frame).not.toMatch(/✗/);
      expect(tickerLines(frame)).toContain('needs quantity and cost per share');
      expect(tickerLines(frame).join('\n')).not.toMatch(/✓|Enter saves/);

      await h.type('0');
      await h.until((f) => /✗ quantity must be greater than 0/.test(f), 'the quantity named');
      await h.press(KEY.tab);
      // On the cost, empty: its problem waits until it is typed into; the quantity left wrong is
      // still named.
      frame = await h.until((f) => /^› cost per share/.test(fieldLine(f, 'cost per share') ?? ''), 'the cursor on the cost');
      expect(frame).toMatch(/✗ quantity must be greater than 0/);
      expect(frame).not.toMatch(/✗ cost/);
      await h.type('abc');
      await h.until((f) => /✗ cost per share is not a number \("abc"\)/.test(f), 'the cost named');
      await h.press(KEY.down);
      const future = `${new Date().getFullYear() + 1}-01-01`;
      await h.type(future);
      await h.until((f) => new RegExp(`✗ date ${future} is in the future`).test(f), 'the date named');

      // Refused: the cursor goes to the first wrong field, which says why; nothing is kept.
      await h.press(KEY.enter);
      frame = await h.until((f) => /^› quantity/.test(fieldLine(f, 'quantity') ?? '') && /✗ quantity must be greater than 0/.test(f), 'refused on the quantity');
      expect(lots()).toEqual([]);
      expect(lotsInFile()).toEqual([]);
      expect(statusLine(frame)).not.toMatch(/added/);

      // Esc on the form of a symbol with no lots: nothing to show, the panel closes.
      await h.press(KEY.esc);
      await h.until((f) => !/Holdings of/.test(f) && /SYMBOL +PRICE/.test(f), 'the watchlist again');
      expect(lots()).toEqual([]);
      expectFramesFit(h.instance, h.size.columns, h.size.rows);
    });

    it('a good lot is saved and listed with its P/L; a second lot; e edits one with exact decimals; d asks, then deletes', async () => {
      const h = await mount();
      await h.press('h');
      await h.until((f) => /New lot of AAPL/.test(f), 'the new-lot form');
      await h.type('10');
      await h.until((f) => tickerLines(f).includes('needs cost per share'), 'the cost still needed');
      await h.press(KEY.tab);
      await h.type('150.25');
      await h.until((f) => tickerLines(f).includes('✓ Enter saves, Tab moves between the fields, Esc cancels'), 'ready to save');
      await h.press(KEY.tab);
      await h.type('2024-01-05');
      await h.press(KEY.enter);
      let frame = await h.until((f) => /AAPL: 10 at 150\.25 added/.test(statusLine(f)), 'the lot added');
      expect(lots()).toMatchObject([{ symbol: 'AAPL', quantity: 10_000_000n, cost: 150_250_000n, bought: '2024-01-05' }]);
      // The panel stays, listing the lot with its P/L at the price in its title.
      const price = hundredths(/Holdings of AAPL \(USD\) at (\d+\.\d\d)/.exec(frame)![1]!);
      const gain = 10n * price - 150_250n;
      const lot1 = tickerLines(frame).find((line) => /^ +1 +10 +150\.25 +2024-01-05/.test(line));
      expect(lot1, frame).toBeDefined();
      expect(lot1).toMatch(new RegExp(`${money(gain, true).replace(/[+.]/g, '\\$&')}$`));
      expect(frame).toContain(`10 sh · value ${money(10n * price)} · P/L ${money(gain, true)} (${percent(gain, 150_250n)})`);
      expect(frame).toMatch(/a add a lot · e edit · d delete · Esc close/);

      // A second lot, no date.
      await h.press('a');
      await h.until((f) => /New lot of AAPL/.test(f), 'a new form');
      await h.type('5');
      await h.press(KEY.tab);
      await h.type('100');
      await h.press(KEY.enter);
      frame = await h.until((f) => /AAPL: 5 at 100 added/.test(statusLine(f)), 'the second lot added');
      expect(frame).toContain('15 sh · value');
      expect(lots().map((l) => [l.quantity, l.cost, l.bought])).toEqual([
        [10_000_000n, 150_250_000n, '2024-01-05'],
        [5_000_000n, 100_000_000n, undefined],
      ]);
      // The cursor on the lot just added.
      expect(inverseSegments(h.raw()).find((s) => /^ +2 /.test(s))).toMatch(/^ +2 +5 +100\.00/);

      // e on it: the form filled in; changed to amounts binary floating point cannot hold.
      await h.press('e');
      frame = await h.until((f) => /Edit lot 2 of AAPL/.test(f), 'the edit form');
      expect(fieldLine(frame, 'quantity')).toMatch(/^› quantity +5$/);
      expect(fieldLine(frame, 'cost per share')).toMatch(/cost per share +100$/);
      await h.press(KEY.ctrlU);
      await h.type('0.1');
      await h.press(KEY.tab, KEY.ctrlU);
      await h.type('0.2');
      await h.press(KEY.enter);
      frame = await h.until((f) => /AAPL: 0\.1 at 0\.2 saved/.test(statusLine(f)), 'the lot saved');
      const [first, second] = lots();
      expect(second).toMatchObject({ quantity: 100_000n, cost: 200_000n });
      expect(lots()).toHaveLength(2);
      expect(lotsInFile()).toEqual([
        { symbol: 'AAPL', quantity: '10', cost: '150.25', bought: '2024-01-05' },
        { symbol: 'AAPL', quantity: '0.1', cost: '0.2', bought: null },
      ]);
      expect(first!.quantity).toBe(10_000_000n);
      // 10.1 shares, not 10.100000000000001.
      expect(frame).toContain('10.1 sh · value');

      // k, then e: the first lot's form.
      await h.press('k', 'e');
      frame = await h.until((f) => /Edit lot 1 of AAPL/.test(f), 'the first lot\'s form');
      expect(fieldLine(frame, 'bought on')).toMatch(/bought on +2024-01-05$/);
      // Esc on the form of a symbol with lots: back to the lots.
      await h.press(KEY.esc);
      await h.until((f) => !/Edit lot/.test(f) && /a add a lot · e edit/.test(f), 'the lots again');

      // d then n keeps; d then y deletes the lot highlighted (the first).
      await h.press('d');
      await h.until((f) => /Delete lot 1 \(10 at 150\.25\)\? y: delete · N: keep/.test(f), 'the question');
      await h.press('n');
      await h.until((f) => !/Delete lot/.test(f), 'kept');
      expect(lots()).toHaveLength(2);
      await h.press('d');
      await h.until((f) => /Delete lot 1/.test(f), 'asked again');
      await h.press('y');
      frame = await h.until((f) => /AAPL: lot 1, 10 at 150\.25, deleted/.test(statusLine(f)), 'deleted');
      expect(lotsInFile()).toEqual([{ symbol: 'AAPL', quantity: '0.1', cost: '0.2', bought: null }]);
      expect(frame).toContain('0.1 sh · value');

      // Esc, h and q each close the panel (q does not quit).
      for (const key of [KEY.esc, 'h', 'q']) {
        await h.press(key);
        await h.until((f) => !/Holdings of/.test(f) && /SYMBOL +PRICE/.test(f), `closed by ${JSON.stringify(key)}`);
        expect(h.exited()).toBe(false);
        await h.press('h');
        // It has a lot now: it opens on the list, not a form.
        frame = await h.until((f) => /Holdings of AAPL/.test(f), 'open again');
        expect(frame).not.toMatch(/New lot/);
      }
      expectFramesFit(h.instance, h.size.columns, h.size.rows);
    });

    it('a lot another process adds shows in the open panel at the next poll, with the sum', async () => {
      addLot('AAPL', 10n, 150n);
      const h = await mount({ intervalS: 1 });
      await h.press('h');
      await h.until((f) => /Holdings of AAPL/.test(f) && /10 sh · value/.test(f), 'the panel with one lot');
      // As `tickbook holdings add` would: nothing the dashboard did, so only a poll shows it.
      addLot('AAPL', 5n, 100n);
      const frame = await h.until((f) => /15 sh · value/.test(f), 'the second lot, at the next poll');
      expect(tickerLines(frame).some((line) => /^ +2 +5 +100\.00/.test(line)), frame).toBe(true);
    });

    it('the highlight stays on its lot, by number, when another process removes lots; d deletes that lot, and a lot removed meanwhile is said gone, no other deleted', async () => {
      addLot('AAPL', 10n, 100n);
      addLot('AAPL', 20n, 200n);
      addLot('AAPL', 30n, 300n);
      // Another process's connection to the same file, as `tickbook holdings rm` has.
      const other = openHistoryStore(join(files.dir, 'history.db'));
      try {
        const elsewhere = holdingsOf(other);
        const h = await mount({ intervalS: 1 });
        /** The lot highlighted, as drawn: "3 30 300.00". */
        const highlighted = () => inverseSegments(h.raw()).find((s) => /^ +\d+ +\d/.test(s))?.trim().split(/ +/).slice(0, 3).join(' ');
        await h.press('h');
        await h.until((f) => /Holdings of AAPL/.test(f) && /60 sh · value/.test(f), 'the panel with three lots');
        await h.press('j', 'j');
        await h.until(() => highlighted() === '3 30 300.00', 'lot 3 highlighted');

        // Lot 1 removed from the shell: at the next poll lot 3 is the second row, and still highlighted.
        elsewhere.remove(SOURCE, 'AAPL', 1);
        let frame = await h.until((f) => /50 sh · value/.test(f), 'lot 1 gone, at the next poll');
        expect(tickerLines(frame).filter((line) => /^ +\d+ +\d/.test(line)).map((line) => line.trim().split(/ +/)[0])).toEqual(['2', '3']);
        expect(highlighted()).toBe('3 30 300.00');
        await h.press('d');
        await h.until((f) => /Delete lot 3 \(30 at 300\)\? y: delete · N: keep/.test(f), 'the question about lot 3');
        await h.press('y');
        frame = await h.until((f) => /AAPL: lot 3, 30 at 300, deleted/.test(statusLine(f)), 'lot 3 deleted');
        expect(lotsInFile()).toEqual([{ symbol: 'AAPL', quantity: '20', cost: '200', bought: null }]);
        // The highlight on the lot left in its place.
        await h.until(() => highlighted() === '2 20 200.00', 'lot 2 highlighted');

        // Asked about lot 2, which another process removes before the answer (and adds lot 4):
        // y says so and deletes nothing else.
        await h.press('d');
        await h.until((f) => /Delete lot 2 \(20 at 200\)\?/.test(f), 'the question about lot 2');
        elsewhere.remove(SOURCE, 'AAPL', 2);
        elsewhere.add(SOURCE, 'AAPL', { quantity: 40_000_000n, cost: 400_000_000n, bought: undefined }, Date.now());
        await h.until((f) => /40 sh · value/.test(f), 'the change seen at the next poll');
        await h.press('y');
        await h.until((f) => /no lot 2 of AAPL: it was removed/.test(statusLine(f)), 'said gone');
        expect(lotsInFile()).toEqual([{ symbol: 'AAPL', quantity: '40', cost: '400', bought: null }]);
        expect(elsewhere.list(SOURCE).map((l) => l.number)).toEqual([4]);
      } finally {
        other.close();
      }
    });

    it('h on a symbol the server does not know says so and opens nothing', async () => {
      const h = await mount({ watchlist: ['AAPL', 'NOPE1'] });
      await h.press('j');
      await h.until(() => inverseSegments(h.raw()).some((s) => /NOPE1 +unknown symbol/.test(s)), 'NOPE1 highlighted, unknown');
      await h.press('h');
      const frame = await h.until((f) => /NOPE1 is not known to the server: no holdings can be kept for it/.test(statusLine(f)), 'said so');
      expect(frame).not.toMatch(/Holdings of|New lot/);
      // Keys are still the ticker's: k moves up.
      await h.press('k');
      await h.until(() => inverseSegments(h.raw()).some((s) => /^AAPL /.test(s)), 'AAPL highlighted');
      expect(lots()).toEqual([]);
    });
  });

  describe('the holdings columns and totals', () => {
    it('QTY and VALUE follow the price shown, with the P/L and P/L% of the lots and a totals row "Σ USD"', async () => {
      // A price recorded earlier today: the day's P/L is measured from it.
      const now = Date.now();
      files.recorder.record([{ symbol: 'AAPL', price: 200, volume: 1_000 }], Math.max(dayStart(now), now - 60_000));
      addLot('AAPL', 10n, 150n);
      addLot('AAPL', 2n, 180n);
      addLot('MSFT', 3n, 400n);
      const h = await mount({ watchlist: withColumns(WATCHLIST), size: WIDE });
      const frame = await h.until((f) => /Σ USD/.test(f) && /^AAPL +\d/m.test(tickerLines(f).join('\n')), 'the columns filled in');
      const lines = tickerLines(frame);
      expect(lines.find((l) => /^SYMBOL/.test(l))).toMatch(/^SYMBOL +PRICE +QTY +VALUE +DAY P\/L +P\/L +P\/L%$/);

      const cells = (symbol: string) => {
        const line = lines.find((l) => l.startsWith(`${symbol} `));
        expect(line, frame).toBeDefined();
        return line!.trim().split(/ +/);
      };
      const [, aaplPrice, aaplQty, aaplValue, aaplDay, aaplPl, aaplPct] = cells('AAPL');
      const a = hundredths(aaplPrice!);
      expect(aaplQty).toBe('12');
      expect(aaplValue).toBe(money(12n * a));
      // From 200.00, the price recorded first today.
      expect(aaplDay).toBe(money(12n * (a - 20_000n), true));
      const aaplCost = 10n * 15_000n + 2n * 18_000n;
      expect(aaplPl).toBe(money(12n * a - aaplCost, true));
      expect(aaplPct).toBe(percent(12n * a - aaplCost, aaplCost));

      const [, msftPrice, msftQty, msftValue, , msftPl, msftPct] = cells('MSFT');
      const m = hundredths(msftPrice!);
      expect(msftQty).toBe('3');
      expect(msftValue).toBe(money(3n * m));
      expect(msftPl).toBe(money(3n * m - 120_000n, true));
      expect(msftPct).toBe(percent(3n * m - 120_000n, 120_000n));

      // A symbol without lots: its holdings cells blank.
      expect(cells('SHEL.L')).toHaveLength(2);

      // One total, of the dollars: the value and P/L of both, exactly.
      const totals = lines.filter((l) => /^Σ /.test(l));
      expect(totals).toHaveLength(1);
      const [, code, value, , pl, pct] = totals[0]!.split(/ +/);
      expect(code).toBe('USD');
      expect(value).toBe(money(12n * a + 3n * m));
      const cost = aaplCost + 120_000n;
      expect(pl).toBe(money(12n * a + 3n * m - cost, true));
      expect(pct).toBe(percent(12n * a + 3n * m - cost, cost));
      expectFramesFit(h.instance, h.size.columns, h.size.rows);
    });

    it('lots in two currencies make two totals rows, never one sum', async () => {
      addLot('AAPL', 10n, 150n);
      // 100 shares of a London listing at 2,500 pence: £2,500.
      addLot('SHEL.L', 100n, 2500n);
      addLot('VOD.L', 1000n, 70n);
      const h = await mount({ watchlist: withColumns(['AAPL', 'SHEL.L', 'VOD.L']), size: WIDE });
      const frame = await h.until((f) => /Σ USD/.test(f) && /Σ GBP/.test(f), 'two totals');
      const lines = tickerLines(frame);
      const totals = lines.filter((l) => /^Σ /.test(l)).map((l) => l.split(/ +/));
      expect(totals.map((t) => t[1])).toEqual(['USD', 'GBP']);
      const priceOf = (symbol: string) => hundredths(lines.find((l) => l.startsWith(`${symbol} `))!.trim().split(/ +/)[1]!);
      const a = priceOf('AAPL');
      const shel = priceOf('SHEL.L');
      const vod = priceOf('VOD.L');
      // Dollars: AAPL alone, nothing of the pounds in it. Pounds: prices in pence, so 100 shares
      // at p pence are p pounds, and 1000 at v pence are 10v pounds.
      expect(totals[0]![2]).toBe(money(10n * a));
      expect(totals[1]![2]).toBe(money(shel + 10n * vod));
      expect(totals[1]![4]).toBe(money(shel + 10n * vod - (2500_00n + 700_00n), true));
      // The SHEL.L row's value, in pounds.
      expect(lines.find((l) => l.startsWith('SHEL.L '))!.trim().split(/ +/)[3]).toBe(money(shel));
      expectFramesFit(h.instance, h.size.columns, h.size.rows);
    });

    it('$ hides the money (quantities, values and P/L as dots, P/L% still shown) and saves the choice; $ again shows it', async () => {
      addLot('AAPL', 10n, 150n);
      const persist = vi.fn();
      const h = await mount({ watchlist: withColumns(WATCHLIST), size: WIDE, persistHideMoney: persist });
      let frame = await h.until((f) => /Σ USD/.test(f) && /^AAPL +\d/m.test(tickerLines(f).join('\n')), 'the columns filled in');
      const shown = tickerLines(frame).find((l) => l.startsWith('AAPL '))!.trim().split(/ +/);
      expect(shown[2]).toBe('10');
      await h.press('$');
      frame = await h.until((f) => /•••/.test(f), 'the money hidden');
      expect(persist).toHaveBeenCalledTimes(1);
      expect(persist).toHaveBeenLastCalledWith(true);
      expect(statusLine(frame)).toMatch(/money hidden: \$ shows it again/);
      const lines = tickerLines(frame);
      const row = lines.find((l) => l.startsWith('AAPL '))!.trim().split(/ +/);
      // Symbol, price, then qty, value, day, P/L as dots (the day, unknown at first, blank), P/L%.
      expect(row[1]).toBe(shown[1]);
      expect(row.filter((c) => c === '•••').length).toBeGreaterThanOrEqual(3);
      expect(row.slice(2, 4)).toEqual(['•••', '•••']);
      expect(row.at(-1)).toBe(shown.at(-1));
      expect(row.at(-1)).toMatch(/^[+\-±]\d+\.\d\d%$/);
      const total = lines.find((l) => /^Σ USD/.test(l))!.trim().split(/ +/);
      expect(total.slice(2, -1).every((c) => c === '•••')).toBe(true);
      expect(total.at(-1)).toMatch(/%$/);
      // No amount of money anywhere in the pane.
      expect(lines.join('\n')).not.toMatch(/\d,\d{3}\.\d\d|[+-]\d+\.\d\d(?!%)\b(?!\d)/);

      await h.press('$');
      frame = await h.until((f) => !/•••/.test(f), 'the money shown');
      expect(persist).toHaveBeenLastCalledWith(false);
      expect(statusLine(frame)).toMatch(/money shown/);
      expect(tickerLines(frame).find((l) => l.startsWith('AAPL '))!.trim().split(/ +/)[2]).toBe('10');
    });

    it('a choice that cannot be saved still hides the money for this session, and says it was not saved', async () => {
      addLot('AAPL', 10n, 150n);
      const persist = vi.fn(() => {
        throw new Error('config.json is read-only');
      });
      const h = await mount({ watchlist: withColumns(WATCHLIST), size: WIDE, persistHideMoney: persist });
      await h.until((f) => /Σ USD/.test(f), 'the totals');
      await h.press('$');
      const frame = await h.until((f) => /not saved/.test(statusLine(f)), 'the status line');
      expect(statusLine(frame)).toMatch(/money hidden for this session; not saved: config\.json is read-only/);
      expect(persist).toHaveBeenCalledWith(true);
      // Still hidden, now and after a poll (seen by the files.recorder it hands its prices to).
      expect(tickerLines(frame).find((l) => l.startsWith('AAPL '))).toMatch(/•••/);
      const record = vi.spyOn(files.recorder, 'record');
      await h.press('r');
      await waitFor(() => record.mock.calls.length > 0, 5000, 'a poll recorded');
      expect(tickerLines(h.frame()).find((l) => l.startsWith('AAPL '))).toMatch(/•••/);
      expect(persist).toHaveBeenCalledTimes(1);
    });

    it('hide_money set starts hidden', async () => {
      addLot('AAPL', 10n, 150n);
      const h = await mount({ watchlist: withColumns(WATCHLIST), size: WIDE, hideMoney: true });
      const frame = await h.until((f) => /Σ USD/.test(f) && /^AAPL +\d/m.test(tickerLines(f).join('\n')), 'the columns');
      expect(tickerLines(frame).find((l) => l.startsWith('AAPL '))!.trim().split(/ +/).slice(2, 4)).toEqual(['•••', '•••']);
    });

    it('a lot added in the panel shows in the columns at once, and its total', async () => {
      const h = await mount({ watchlist: withColumns(WATCHLIST), size: WIDE });
      let frame = h.frame();
      expect(frame).not.toMatch(/Σ USD/);
      await h.press('j', 'h');
      await h.until((f) => /New lot of MSFT/.test(f), 'the form on MSFT');
      await h.type('2');
      await h.press(KEY.tab);
      await h.type('300');
      await h.press(KEY.enter);
      await h.until((f) => /MSFT: 2 at 300 added/.test(statusLine(f)), 'added');
      await h.press(KEY.esc);
      frame = await h.until((f) => /Σ USD/.test(f), 'the totals row');
      const row = tickerLines(frame).find((l) => l.startsWith('MSFT '))!.trim().split(/ +/);
      expect(row[2]).toBe('2');
      expect(row[3]).toBe(money(2n * hundredths(row[1]!)));
      expectFramesFit(h.instance, h.size.columns, h.size.rows);
    });
  });
});
