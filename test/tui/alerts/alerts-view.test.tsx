// The alerts view as a user drives it: `a` on the ticker (or over an open symbol) opens a form on
// the symbol highlighted, checked as it is typed; `A` lists every alert with its state, where p
// pauses, z snoozes, Z wakes, e edits, d deletes and Tab shows the fired log. Through the real
// Dashboard at 120x40, a real PriceRecorder on a temp history file (where alerts are kept) and a
// real in-process sandbox; what is saved is checked in the store, not only on screen, because a
// form that looks saved but wrote nothing (or wrote twice) is the failure that costs a person an
// alert they relied on.
import { afterEach, describe, expect, it } from 'vitest';
import type { AlertCondition } from '../../../src/market/alerts.js';
import type { StoredAlert } from '../../../src/store/alerts-store.js';
import { Dashboard, type DashboardProps } from '../../../src/tui/Dashboard.js';
import { StatusBoard } from '../../../src/tui/state/status.js';
import { drive, expectFramesFit, renderDashboard, unmountAll, type DashboardHarness } from '../../helpers/dashboard.js';
import { inAct, waitFor } from '../../helpers/ink.js';
import { setUpSandbox } from '../../helpers/sandbox.js';
import { setUpRecorder } from '../../helpers/recorder.js';
import { KEY } from '../../helpers/keys.js';

const TARGET = 'sandbox (alerts view test)';
const SOURCE = 'alerts-view-test';
const WATCHLIST = ['AAPL', 'MSFT', 'SHEL.L'];
const SIZE = { columns: 120, rows: 40 };
const ALERTS_TITLE = /▸ Alerts · (\d+)/;

const two = (n: number) => String(n).padStart(2, '0');
const clock = (t: number) => `${two(new Date(t).getHours())}:${two(new Date(t).getMinutes())}`;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

afterEach(unmountAll);


/** The line of the frame that lists alert `id` (its id right-aligned, then its symbol). */
const alertRow = (frame: string, id: number): string | undefined =>
  frame.split('\n').find((line) => new RegExp(`^┃ +${id}  [A-Z0-9.]+ `).test(line));

/** The status line: the row under the panes, after the target. */
const statusLine = (frame: string): string => frame.split('\n').find((line) => line.includes(TARGET)) ?? '';

describe('the alerts view', () => {
  const ctx = setUpSandbox();
  const files = setUpRecorder(SOURCE, 'tickbook-alerts-view-');

  const stored = (): StoredAlert[] => files.recorder.books()!.alerts.list(SOURCE);
  /** An alert put in the store directly, as `tickbook alerts add` (another process) would. */
  const addStored = (symbol: string, condition: AlertCondition, price: number | undefined, oneShot = false): StoredAlert =>
    files.recorder.books()!.alerts.add(SOURCE, symbol, condition, { price, at: Date.now(), oneShot });

  async function mount(props: Partial<Omit<DashboardProps, 'target' | 'size' | 'client'>> = {}): Promise<DashboardHarness> {
    const full: DashboardProps = {
      client: ctx.client,
      status: new StatusBoard(),
      target: TARGET,
      size: SIZE,
      undoWindowMs: 300,
      watchlist: WATCHLIST,
      // A poll a minute: the polls a test needs it asks for with r, so none comes unbidden.
      intervalS: 60,
      history: files.recorder,
      ...props,
    };
    const h = drive(await renderDashboard(<Dashboard {...full} />, SIZE.columns));
    await h.until((f) => /AAPL\b.* \d+\.\d\d /.test(f) && /MSFT\b.* \d+\.\d\d /.test(f), 'the first prices');
    return h;
  }

  async function focusTicker(h: DashboardHarness): Promise<void> {
    await h.press(KEY.tab);
    await h.until((f) => /▸ Ticker/.test(f), 'the ticker focused');
  }

  /** A on the ticker: the view, with `count` alerts in its title. */
  async function openView(h: DashboardHarness, count: number): Promise<string> {
    await h.press('A');
    return h.until((f) => ALERTS_TITLE.exec(f)?.[1] === String(count), `the alerts view listing ${count}`);
  }

  /** The view closed: the panes are back. */
  const panesBack = (f: string) => /Contacts/.test(f) && /▸ Ticker/.test(f) && !ALERTS_TITLE.test(f);

  it('a on the ticker opens the form on the highlighted symbol; a wrong condition is named as it is typed, and refused; a good one saves and closes back to the ticker', async () => {
    const h = await mount();
    await focusTicker(h);
    // MSFT highlighted, not the first row: the form is on the symbol the cursor is on.
    await h.press('j');
    await h.press('a');
    let frame = await h.until((f) => /New alert/.test(f), 'the new alert form');
    expect(frame).toMatch(/^┃ {3}symbol +MSFT +┃$/m);
    // The cursor on the condition, empty (its placeholder shown), and not yet wrong.
    expect(frame).toMatch(/^┃ › condition +above 200 +┃$/m);
    expect(frame).not.toMatch(/✗/);
    expect(frame).toMatch(ALERTS_TITLE);
    // The line under it says what it needs (with the conditions there are), not that Enter saves.
    expect(frame).toMatch(/^┃ needs condition: above 200 · below 150 · move -5/m);
    expect(frame).not.toMatch(/✓|Enter saves/);

    await h.type('above 2');
    await h.until((f) => /✓ fires on MSFT above 2\.00: Enter saves/.test(f), 'what "above 2" would set');
    await h.type('x');
    frame = await h.until((f) => /› condition +above 2x/.test(f), '"above 2x" typed');
    expect(frame).toMatch(/✗ condition: the price must be a positive number, not "2x"/);

    // Enter refuses: nothing is saved, the form stays with its problem shown.
    await h.press(KEY.enter);
    frame = await h.until((f) => /✗ condition: the price must be a positive number/.test(f) && /New alert/.test(f), 'the save refused');
    expect(stored()).toEqual([]);
    expect(statusLine(frame)).not.toMatch(/alert \d+ set/);

    // Fixed: the 2x taken back, a price and "once".
    await h.press(KEY.backspace, KEY.backspace);
    await h.type('99999 once');
    await h.until((f) => /✓ fires on MSFT above 99999\.00, once: Enter saves/.test(f), 'the fixed condition');
    await h.press(KEY.enter);
    await h.until(panesBack, 'back on the ticker');
    const saved = stored();
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({ symbol: 'MSFT', condition: { kind: 'above', price: 99999 }, oneShot: true, armed: true, paused: false, done: false });
    expect(saved[0]!.setPrice).toBeGreaterThan(0);
    frame = await h.until((f) => new RegExp(`alert ${saved[0]!.id} set: MSFT above 99999\\.00, once`).test(statusLine(f)), 'the status line saying so');
    // Not waiting for a crossing: the price is far below.
    expect(statusLine(frame)).not.toMatch(/it holds now/);

    // A lists it, armed.
    frame = await openView(h, 1);
    expect(alertRow(frame, saved[0]!.id)).toMatch(/MSFT +above 99999\.00, once +armed/);
    expectFramesFit(h.instance, SIZE.columns);
  });

  it('an alert that holds already is set waiting for the price back across its line, and says so and what it waits for', async () => {
    const h = await mount();
    await focusTicker(h);
    await h.press('a');
    await h.until((f) => /^┃ {3}symbol +AAPL +┃$/m.test(f), 'the form on AAPL');
    await h.type('below 99999');
    await h.until((f) => /✓ fires on AAPL below 99999\.00: Enter saves/.test(f), 'the condition typed');
    await h.press(KEY.enter);
    await h.until(
      (f) => panesBack(f) && /alert 1 set: AAPL below 99999\.00 \(it holds now: it waits for a price above 99999\.00\)/.test(statusLine(f)),
      'saved, waiting',
    );
    expect(stored()).toMatchObject([{ id: 1, symbol: 'AAPL', armed: false, band: false, oneShot: false }]);
    const frame = await openView(h, 1);
    expect(alertRow(frame, 1)).toMatch(/AAPL +below 99999\.00 +waits for a price above 99999\.00/);
  });

  it('a move from the open set in the form while it holds (the open recorded earlier today) says so, and the next poll does not fire it; one it cannot tell says that', async () => {
    // Today's open, as a dashboard or watch earlier today recorded it: AAPL is far above it now.
    files.recorder.record([{ symbol: 'AAPL', price: 1, volume: 1 }], Date.now());
    const status = new StatusBoard();
    const h = await mount({ status });
    await focusTicker(h);
    await h.press('a');
    await h.until((f) => /^┃ {3}symbol +AAPL +┃$/m.test(f), 'the form on AAPL');
    await h.type('move +5');
    await h.until((f) => /✓ fires on AAPL move \+5% from open: Enter saves/.test(f), 'the condition typed');
    await h.press(KEY.enter);
    // Before, it was set armed, said nothing, and fired at the next poll.
    // Said in full (the status line cuts it at this test's long target name; `m` shows it all).
    const said = () => status.getSnapshot().history.at(-1)?.text;
    await h.until((f) => panesBack(f) && /alert 1 set: AAPL move \+5% from open \(it holds now/.test(statusLine(f)), 'saved, waiting');
    expect(said()).toBe('alert 1 set: AAPL move +5% from open (it holds now: it waits for a move below +5% from open)');
    expect(stored()).toMatchObject([{ id: 1, armed: false, band: false }]);
    // A poll, recorded (and its alerts stepped right after): the move still holds, which is no crossing.
    const lastPoll = () => files.recorder.day('AAPL', Date.now())!.lastT;
    const polledAt = lastPoll();
    await h.press('r');
    await waitFor(() => lastPoll() > polledAt, 2000, 'the next poll recorded');
    expect(files.recorder.books()!.alerts.firings(SOURCE)).toEqual([]);
    expect(statusLine(h.frame())).not.toMatch(/alert: AAPL/);
    // A move from a close, with no earlier day of MSFT recorded: it says it cannot tell, and waits alike.
    await h.press('j');
    await h.press('a');
    await h.until((f) => /^┃ {3}symbol +MSFT +┃$/m.test(f), 'the form on MSFT');
    await h.type('move -5 from close');
    await h.until((f) => /✓ fires on MSFT move -5% from close: Enter saves/.test(f), 'the condition typed');
    await h.press(KEY.enter);
    await h.until((f) => panesBack(f) && /alert 2 set: MSFT move -5% from close \(cannot tell/.test(statusLine(f)), 'saved, waiting');
    expect(said()).toBe('alert 2 set: MSFT move -5% from close (cannot tell if it holds now: it waits for a move above -5% from close)');
    expect(stored()).toMatchObject([{ id: 1, armed: false }, { id: 2, armed: false, band: false }]);
    // Edited afresh, it is checked again, and says so.
    const frame = await openView(h, 2);
    expect(alertRow(frame, 1)).toMatch(/AAPL +move \+5% from open +waits for a move below \+5% from open/);
    await h.press('e');
    await h.until((f) => /Edit alert 1/.test(f), 'the edit form');
    await h.press(KEY.ctrlU);
    await h.type('move +10');
    await h.until((f) => /✓ fires on AAPL move \+10% from open: Enter saves/.test(f), 'the new condition');
    await h.press(KEY.enter);
    await h.until((f) => /alert 1 is now AAPL move \+10% from open \(it holds now/.test(statusLine(f)), 'changed, waiting');
    expect(said()).toBe('alert 1 is now AAPL move +10% from open (it holds now: it waits for a move below +10% from open)');
    expectFramesFit(h.instance, SIZE.columns);
  });

  it('keys typed in one write with the a that opens the form go into its field (a fast typist, a paste of keys)', async () => {
    const h = await mount();
    await focusTicker(h);
    await h.type('aabove 99999');
    await h.until((f) => /✓ fires on AAPL above 99999\.00: Enter saves/.test(f), 'the condition typed ahead');
    await h.press(KEY.enter);
    await h.until((f) => panesBack(f) && /alert 1 set: AAPL above 99999\.00/.test(statusLine(f)), 'saved');
    expect(stored()).toMatchObject([{ id: 1, symbol: 'AAPL', condition: { kind: 'above', price: 99999 }, oneShot: false }]);
  });

  it('Esc on a form opened from the ticker cancels it and closes the view; nothing is saved', async () => {
    const h = await mount();
    await focusTicker(h);
    await h.press('a');
    await h.until((f) => /New alert/.test(f), 'the form');
    await h.type('above 300');
    await h.until((f) => /fires on AAPL above 300\.00/.test(f), 'typed');
    await h.press(KEY.esc);
    await h.until(panesBack, 'back on the ticker');
    expect(stored()).toEqual([]);
    // Keys are the ticker's again: j moves its cursor, not a form's.
    await h.press('j');
    await h.press('a');
    await h.until((f) => /^┃ {3}symbol +MSFT +┃$/m.test(f), 'the form again, on MSFT');
  });

  it('a in the view opens an empty form on the symbol field; Tab/↓ and S-Tab/↑ move between the fields; Esc goes back to the list', async () => {
    const h = await mount();
    await focusTicker(h);
    await openView(h, 0);
    await h.press('a');
    let frame = await h.until((f) => /New alert/.test(f), 'the form in the view');
    expect(frame).toMatch(/^┃ › symbol +AAPL +┃$/m); // the placeholder, empty
    expect(frame).toMatch(/^┃ needs symbol and condition: above 200 · below 150/m);
    // The symbol typed is upper-cased when saved; what the form says it will do shows it so.
    await h.type('ibm');
    await h.until((f) => /^┃ needs condition: above 200/m.test(f), 'the condition still needed');
    await h.press(KEY.tab);
    await h.type('below 1');
    frame = await h.until((f) => /✓ fires on IBM below 1\.00: Enter saves/.test(f), 'both fields typed');
    expect(frame).toMatch(/^┃ › condition +below 1 +┃$/m);
    await h.press(KEY.shiftTab);
    await h.until((f) => /^┃ › symbol +ibm +┃$/m.test(f), 'S-Tab back on the symbol');
    await h.press(KEY.down);
    await h.until((f) => /^┃ › condition +below 1 +┃$/m.test(f), '↓ on the condition');
    await h.press(KEY.up);
    await h.until((f) => /^┃ › symbol +ibm +┃$/m.test(f), '↑ on the symbol');
    // Esc: the list, still open (the form was opened in the view).
    await h.press(KEY.esc);
    frame = await h.until((f) => !/New alert/.test(f) && ALERTS_TITLE.test(f), 'the list again');
    expect(frame).toMatch(/no alerts yet/);
    expect(stored()).toEqual([]);
    // Saved from the view, it stays open on the alert saved.
    await h.press('c');
    await h.type('IBM');
    await h.press(KEY.tab);
    await h.type('below 1');
    await h.until((f) => /✓ fires on IBM below 1\.00/.test(f), 'typed again');
    await h.press(KEY.enter);
    frame = await h.until((f) => ALERTS_TITLE.exec(f)?.[1] === '1' && !/New alert/.test(f), 'saved, the list');
    expect(alertRow(frame, 1)).toMatch(/IBM +below 1\.00 +armed/);
    expect(stored()).toMatchObject([{ id: 1, symbol: 'IBM', condition: { kind: 'below', price: 1 } }]);
    expectFramesFit(h.instance, SIZE.columns);
  });

  it('a symbol the server does not know is refused on the symbol field, and nothing saved', async () => {
    const h = await mount();
    await focusTicker(h);
    await openView(h, 0);
    await h.press('a');
    await h.until((f) => /New alert/.test(f), 'the form');
    await h.type('NOPE1');
    await h.press(KEY.tab);
    await h.type('above 5');
    await h.until((f) => /✓ fires on NOPE1 above 5\.00/.test(f), 'typed');
    await h.press(KEY.enter);
    const frame = await h.until((f) => /✗ symbol: NOPE1 is not known to the server/.test(f), 'the symbol refused');
    expect(frame).toMatch(/^┃ › symbol +NOPE1 +┃$/m);
    expect(stored()).toEqual([]);
  });

  it('p pauses and resumes, z snoozes an hour more each press, Z wakes: in the row and in the store', async () => {
    const alert = addStored('AAPL', { kind: 'above', price: 99999 }, 200);
    const h = await mount();
    await focusTicker(h);
    let frame = await openView(h, 1);
    expect(alertRow(frame, alert.id)).toMatch(/AAPL +above 99999\.00 +armed/);

    await h.press('p');
    frame = await h.until((f) => /paused\s*┃$/m.test(alertRow(f, alert.id) ?? ''), 'paused in the row');
    expect(statusLine(frame)).toMatch(new RegExp(`alert ${alert.id} paused`));
    expect(stored()[0]!.paused).toBe(true);
    // Paused, it is not asked for at each poll.
    expect(files.recorder.alertSymbols()).toEqual([]);
    await h.press(KEY.space);
    frame = await h.until((f) => /armed\s*┃$/m.test(alertRow(f, alert.id) ?? ''), 'resumed in the row');
    expect(statusLine(frame)).toMatch(new RegExp(`alert ${alert.id} resumed`));
    expect(stored()[0]!.paused).toBe(false);

    const before = Date.now();
    await h.press('z');
    frame = await h.until((f) => /snoozed until \d\d:\d\d/.test(alertRow(f, alert.id) ?? ''), 'snoozed in the row');
    const after = Date.now();
    const until = stored()[0]!.snoozedUntil!;
    expect(until).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(until).toBeLessThanOrEqual(after + 3_600_000);
    expect(alertRow(frame, alert.id)).toContain(`snoozed until ${clock(until)}`);
    expect(statusLine(frame)).toContain(`alert ${alert.id} snoozed until ${clock(until)} (Z wakes it)`);
    // An hour more from when it would wake, not from now.
    await h.press('z');
    await waitFor(() => stored()[0]!.snoozedUntil === until + 3_600_000, 2000, 'snoozed two hours');
    await h.until((f) => (alertRow(f, alert.id) ?? '').includes(`snoozed until ${clock(until + 3_600_000)}`), 'two hours in the row');

    await h.press('Z');
    frame = await h.until((f) => /armed\s*┃$/m.test(alertRow(f, alert.id) ?? ''), 'woken in the row');
    expect(statusLine(frame)).toMatch(new RegExp(`alert ${alert.id} woken`));
    expect(stored()[0]!.snoozedUntil).toBeUndefined();
    // Woken, Z again says there is nothing to wake.
    await h.press('Z');
    await h.until((f) => new RegExp(`alert ${alert.id} is not snoozed`).test(statusLine(f)), 'not snoozed');
    expectFramesFit(h.instance, SIZE.columns);
  });

  it('j/k choose the alert the keys act on', async () => {
    const first = addStored('AAPL', { kind: 'above', price: 99999 }, 200);
    const second = addStored('MSFT', { kind: 'below', price: 1 }, 400);
    const h = await mount();
    await focusTicker(h);
    await openView(h, 2);
    await h.press('j', 'p');
    await h.until((f) => /paused/.test(alertRow(f, second.id) ?? ''), 'the second paused');
    expect(stored().map((a) => [a.id, a.paused])).toEqual([
      [first.id, false],
      [second.id, true],
    ]);
    // j stops at the last; k goes back to the first.
    await h.press('j', 'k', 'p');
    await h.until((f) => /paused/.test(alertRow(f, first.id) ?? ''), 'the first paused');
    expect(stored().map((a) => a.paused)).toEqual([true, true]);
  });

  it('e edits the condition: the same alert (id, symbol) with the new condition, in the store', async () => {
    const alert = addStored('AAPL', { kind: 'above', price: 99999 }, 200, true);
    const h = await mount();
    await focusTicker(h);
    await openView(h, 1);
    await h.press('e');
    let frame = await h.until((f) => new RegExp(`Edit alert ${alert.id}`).test(f), 'the edit form');
    // The line it was set with, to change; the symbol is its own.
    expect(frame).toMatch(/^┃ › condition +above 99999 once +┃$/m);
    expect(frame).toMatch(/^┃ {3}symbol +AAPL +┃$/m);
    await h.press(KEY.ctrlU);
    await h.until((f) => /^┃ › condition +above 200 +┃$/m.test(f), 'the condition cleared (its placeholder shown)');
    await h.type('move -5 from set');
    await h.until((f) => /✓ fires on AAPL move -5% from set: Enter saves/.test(f), 'the new condition');
    await h.press(KEY.enter);
    frame = await h.until((f) => !/Edit alert/.test(f) && /move -5% from set/.test(alertRow(f, alert.id) ?? ''), 'the row changed');
    expect(statusLine(frame)).toMatch(new RegExp(`alert ${alert.id} is now AAPL move -5% from set`));
    const after = stored();
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: alert.id, symbol: 'AAPL', condition: { kind: 'move', percent: 5, direction: 'down', from: 'set' }, oneShot: false });
    // Set afresh at the price now: the reference of "from set".
    expect(after[0]!.setPrice).toBeGreaterThan(100);
    expect(after[0]!.setPrice).not.toBe(200);
    // The view stays open after an edit (it was not opened for the form).
    expect(frame).toMatch(ALERTS_TITLE);
  });

  it('d asks first: n keeps the alert, y deletes it', async () => {
    const first = addStored('AAPL', { kind: 'above', price: 99999 }, 200);
    const second = addStored('MSFT', { kind: 'below', price: 1 }, 400);
    const h = await mount();
    await focusTicker(h);
    await openView(h, 2);
    await h.press('j', 'd');
    await h.until((f) => new RegExp(`Delete alert ${second.id} \\(MSFT\\)\\? y: delete · N: keep`).test(f), 'the question');
    await h.press('n');
    let frame = await h.until((f) => !/Delete alert/.test(f), 'kept');
    expect(stored().map((a) => a.id)).toEqual([first.id, second.id]);
    expect(frame).toMatch(/▸ Alerts · 2/);

    await h.press('d');
    await h.until((f) => /Delete alert/.test(f), 'asked again');
    await h.press('y');
    frame = await h.until((f) => ALERTS_TITLE.exec(f)?.[1] === '1', 'one alert left');
    expect(stored().map((a) => a.id)).toEqual([first.id]);
    expect(alertRow(frame, second.id)).toBeUndefined();
    expect(alertRow(frame, first.id)).toMatch(/AAPL/);
    expect(statusLine(frame)).toMatch(new RegExp(`alert ${second.id} deleted: MSFT below 1\\.00`));
  });

  it('Tab goes to the fired log and back; Esc, A and q each close the view', async () => {
    addStored('AAPL', { kind: 'above', price: 99999 }, 200);
    const h = await mount();
    await focusTicker(h);
    let frame = await openView(h, 1);
    expect(frame).toMatch(/Tab: the fired log/);
    expect(frame).toMatch(/nothing has fired yet/);
    await h.press(KEY.tab);
    frame = await h.until((f) => /the fired log: Tab for the alerts/.test(f), 'the log focused');
    expect(frame).toMatch(/Fired · the last 0 of at most 100/);
    // The alert keys say where they work from here.
    await h.press('p');
    await h.until((f) => /Tab goes back to the alerts/.test(statusLine(f)), 'p in the log');
    expect(stored()[0]!.paused).toBe(false);
    await h.press(KEY.tab);
    await h.until((f) => /Tab: the fired log/.test(f), 'the alerts again');

    for (const key of [KEY.esc, 'A', 'q']) {
      await h.press(key);
      await h.until(panesBack, `closed by ${JSON.stringify(key)}`);
      // q closed the view; it did not quit.
      expect(h.exited()).toBe(false);
      await openView(h, 1);
    }
  });

  it('an alert crossed at a poll fires: the status line says what crossed what, and the log lists it', async () => {
    const h = await mount();
    // Asked inside act: the dashboard's clock ticks while the answer comes.
    const { quotes } = await inAct(() => ctx.checker.realtimePricing(['AAPL']));
    const price = quotes[0]!.price;
    // Lines well inside the walk's reach of the price now, each set where it did not hold (so
    // armed): the next poll crosses both.
    const above = Math.round(price * 0.5 * 100) / 100;
    const below = Math.round(price * 2 * 100) / 100;
    const up = addStored('AAPL', { kind: 'above', price: above }, above / 2);
    const down = addStored('AAPL', { kind: 'below', price: below }, below * 2, true);
    expect(stored().map((a) => a.armed)).toEqual([true, true]);
    await focusTicker(h);
    await h.press('r');
    const fired = new RegExp(`alert: AAPL at \\d+\\.\\d\\d crossed (above ${escape(above.toFixed(2))}|below ${escape(below.toFixed(2))})`);
    await h.until((f) => fired.test(statusLine(f)), 'the firing in the status line');
    await waitFor(() => files.recorder.books()!.alerts.firings(SOURCE).length === 2, 2000, 'both firings recorded');

    let frame = await openView(h, 2);
    // Fired, it waits for the price back under its line by the band: 0.25% under it.
    expect(alertRow(frame, up.id)).toMatch(/waits for a price below \d+\.\d+/);
    expect(alertRow(frame, down.id)).toMatch(/below [\d.]+, once +done \(fired once\)/);
    await h.press(KEY.tab);
    frame = await h.until((f) => /Fired · the last 2 of at most 100/.test(f), 'the log of two');
    expect(frame).not.toMatch(/nothing has fired yet/);
    const logLines = frame.split('\n').filter((line) => /\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}#\d+ AAPL at /.test(line));
    expect(logLines).toHaveLength(2);
    expect(logLines.join('\n')).toMatch(new RegExp(`#${up.id} AAPL at \\d+\\.\\d\\d crossed above ${escape(above.toFixed(2))}`));
    expect(logLines.join('\n')).toMatch(new RegExp(`#${down.id} AAPL at \\d+\\.\\d\\d crossed below ${escape(below.toFixed(2))}`));
    // Another poll does not fire them again: one waits for the price to come back, one is done.
    await h.press(KEY.esc);
    await h.until(panesBack, 'closed');
    await h.press('r');
    await waitFor(() => stored().every((a) => !a.armed), 2000, 'still unarmed');
    expect(files.recorder.books()!.alerts.firings(SOURCE)).toHaveLength(2);
    // Removed (as `tickbook alerts rm` in a shell would), its firing stays in the log as a removed alert's.
    files.recorder.books()!.alerts.remove(SOURCE, up.id);
    await openView(h, 1);
    await h.press(KEY.tab);
    frame = await h.until((f) => new RegExp(`#${up.id} \\(removed\\) AAPL at `).test(f), 'the removed alert\'s firing in the log');
    expect(frame).toMatch(new RegExp(`#${down.id} AAPL at `));
    expectFramesFit(h.instance, SIZE.columns);
  });

  it('an alert on a symbol the server does not know says so in its row once a poll has asked for it', async () => {
    const h = await mount();
    // Added after the first poll, as another process would: that poll did not ask for NOPE1.
    const gone = addStored('NOPE1', { kind: 'above', price: 10 }, undefined);
    addStored('AAPL', { kind: 'above', price: 99999 }, 200);
    await focusTicker(h);
    let frame = await openView(h, 2);
    // Set with no price, whether it holds cannot be told: it waits for a price under its line.
    expect(alertRow(frame, gone.id)).toMatch(/NOPE1 +above 10\.00 +waits for a price below 10\.00/);
    expect(frame).not.toMatch(/no longer serves/);
    await h.press(KEY.esc);
    await h.until(panesBack, 'closed');
    // The ticker asks for the alerts' symbols besides its list.
    expect(files.recorder.alertSymbols()).toContain('NOPE1');
    await h.press('r');
    await openView(h, 2);
    frame = await h.until((f) => /✗ the server no longer serves NOPE1/.test(alertRow(f, gone.id) ?? ''), 'the note in its row');
    // Only in its own row; the watchlist does not grow a row for it.
    expect(frame.split('\n').filter((line) => /no longer serves/.test(line))).toHaveLength(1);
    await h.press(KEY.esc);
    frame = await h.until(panesBack, 'closed');
    expect(frame).not.toMatch(/NOPE1/);
    expectFramesFit(h.instance, SIZE.columns);
  });

  it('an alert another process adds while the view is open is listed at the next poll (the file is read again then)', async () => {
    // A poll a second: r is not the ticker's while the view is open.
    const h = await mount({ intervalS: 1 });
    await focusTicker(h);
    await openView(h, 0);
    const added = addStored('MSFT', { kind: 'below', price: 1 }, 200);
    const frame = await h.until((f) => ALERTS_TITLE.exec(f)?.[1] === '1', 'the alert added elsewhere, listed');
    expect(alertRow(frame, added.id)).toMatch(/MSFT +below 1\.00/);
    expectFramesFit(h.instance, SIZE.columns);
  });

  it('a and A over the open symbol: the form is on that symbol, and saving goes back to its chart', async () => {
    const h = await mount();
    await focusTicker(h);
    await h.press('j', KEY.enter);
    await h.until((f) => /MSFT · Microsoft/.test(f), 'MSFT open');
    await h.press('a');
    let frame = await h.until((f) => /New alert/.test(f), 'the form');
    expect(frame).toMatch(/^┃ {3}symbol +MSFT +┃$/m);
    await h.type('stale 3 once');
    await h.until((f) => /✓ fires on MSFT no price for 3 polls, once: Enter saves/.test(f), 'typed');
    await h.press(KEY.enter);
    frame = await h.until((f) => /MSFT · Microsoft/.test(f) && !ALERTS_TITLE.test(f), 'back on the chart');
    expect(statusLine(frame)).toMatch(/alert 1 set: MSFT no price for 3 polls, once/);
    expect(stored()).toMatchObject([{ id: 1, symbol: 'MSFT', condition: { kind: 'stale', polls: 3 }, oneShot: true }]);
    await h.press('A');
    frame = await h.until((f) => ALERTS_TITLE.exec(f)?.[1] === '1', 'the view over the chart');
    expect(alertRow(frame, 1)).toMatch(/MSFT +no price for 3 polls, once/);
    await h.press(KEY.esc);
    await h.until((f) => /MSFT · Microsoft/.test(f) && !ALERTS_TITLE.test(f), 'the chart again');
    expectFramesFit(h.instance, SIZE.columns);
  });
});
