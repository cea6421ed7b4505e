// The alerts view's controller alone, with no React and so no render between commands: each acts
// on what the one before it left. Its books are a real PriceRecorder's on a temp history file, and
// a price it asks of the server comes from a real sandbox through the real client, by the owner
// the dashboard gives it (state/books-owners.ts).
import { describe, expect, it } from 'vitest';
import { AlertsController } from '../../../src/tui/alerts/alerts-controller.js';
import { alertsOwnerOf } from '../../../src/tui/state/books-owners.js';
import { StatusBoard } from '../../../src/tui/state/status.js';
import { initialTickerState } from '../../../src/tui/ticker/ticker-state.js';
import { setUpRecorder } from '../../helpers/recorder.js';
import { setUpSandbox } from '../../helpers/sandbox.js';

const SOURCE = 'alerts-controller-test';
const NOW = Date.UTC(2026, 0, 5, 15, 0);

describe('AlertsController', () => {
  const ctx = setUpSandbox({ demoData: false });
  const files = setUpRecorder(SOURCE, 'tickbook-alerts-controller-');

  /** A controller as the dashboard makes one, over a ticker that shows no price yet (so the server is asked). */
  function make() {
    const status = new StatusBoard();
    const ticker = initialTickerState(['AAPL', 'MSFT'], 5);
    const owner = alertsOwnerOf(files.recorder, () => ticker, ctx.client);
    return { controller: new AlertsController({ owner, status, now: () => NOW }), status, said: () => status.getSnapshot().history.map((h) => h.text) };
  }
  const stored = () => files.recorder.books()!.alerts.list(SOURCE);
  const add = (symbol: string) => files.recorder.books()!.alerts.add(SOURCE, symbol, { kind: 'above', price: 9999 }, { price: 100, at: NOW, oneShot: false });

  it('keys in a row act on what the one before left: j then p pauses the second alert, j d y deletes the third', () => {
    for (const symbol of ['AAPL', 'MSFT', 'NVDA']) add(symbol);
    const { controller } = make();
    let told = 0;
    controller.subscribe(() => told++);
    controller.open();
    controller.move(1);
    controller.pause();
    expect(stored().map((a) => [a.symbol, a.paused])).toEqual([
      ['AAPL', false],
      ['MSFT', true],
      ['NVDA', false],
    ]);
    controller.move(1);
    controller.askDelete();
    expect(controller.current()).toMatchObject({ open: true, cursor: 2, confirmDelete: true });
    controller.confirmDelete();
    expect(stored().map((a) => a.symbol)).toEqual(['AAPL', 'MSFT']);
    // The highlight kept on the list, now one shorter.
    expect(controller.current()).toMatchObject({ open: true, cursor: 1, confirmDelete: false });
    // Each write is counted, for what is drawn from the file to be read again.
    expect(controller.getState().version).toBe(2);
    expect(told).toBeGreaterThan(0);
  });

  it('the fired log\'s highlight stops at its last firing: held j past the end, one k is one firing up', () => {
    add('AAPL');
    const books = files.recorder.books()!;
    // Two crossings, two firings.
    books.alerts.evaluate(SOURCE, new Map([['AAPL', { price: 10_000, pollsWithout: 0, now: NOW }]]), () => undefined);
    books.alerts.evaluate(SOURCE, new Map([['AAPL', { price: 9_000, pollsWithout: 0, now: NOW + 1 }]]), () => undefined);
    books.alerts.evaluate(SOURCE, new Map([['AAPL', { price: 10_000, pollsWithout: 0, now: NOW + 2 }]]), () => undefined);
    const firings = books.alerts.firings(SOURCE).length;
    expect(firings).toBeGreaterThan(1);
    const { controller } = make();
    controller.open();
    controller.toggleSection();
    for (let i = 0; i < 10; i++) controller.move(1);
    expect(controller.current()).toMatchObject({ section: 'log', logCursor: firings - 1 });
    controller.move(-1);
    expect(controller.current()).toMatchObject({ logCursor: firings - 2 });
  });

  it('z twice snoozes two hours from now by its clock; Z wakes it', () => {
    add('AAPL');
    const { controller, said } = make();
    controller.open();
    controller.snooze();
    controller.snooze();
    expect(stored()[0]!.snoozedUntil).toBe(NOW + 2 * 60 * 60_000);
    controller.wake();
    expect(stored()[0]!.snoozedUntil).toBeUndefined();
    expect(said().at(-1)).toBe('alert 1 woken');
  });

  it('a new alert typed and saved with no render between: set with the price the sandbox gives, and the view closed', async () => {
    const { controller, said } = make();
    controller.newAlert('MSFT');
    controller.editField({ kind: 'type', text: 'above 99999' });
    controller.editField({ kind: 'type', text: ' once' });
    await controller.submit();
    const [alert] = stored();
    expect(alert).toMatchObject({ id: 1, symbol: 'MSFT', condition: { kind: 'above', price: 99999 }, oneShot: true, setAt: NOW });
    // The ticker shows no price: this is the sandbox's.
    expect(alert!.setPrice).toBeGreaterThan(0);
    expect(said().at(-1)).toBe('alert 1 set: MSFT above 99999.00, once');
    expect(controller.current()).toEqual({ open: false });
  });

  it('a symbol the sandbox does not know is refused on its field, and nothing is saved', async () => {
    const { controller } = make();
    controller.open();
    controller.newAlert();
    controller.editField({ kind: 'type', text: 'NOPE1' });
    controller.moveField(1);
    controller.editField({ kind: 'type', text: 'above 5' });
    await controller.submit();
    expect(stored()).toEqual([]);
    const view = controller.current();
    expect(view.open && view.form).toMatchObject({ field: 'symbol', saving: false, problems: { symbol: 'symbol: NOPE1 is not known to the server' } });
  });

  it('reads the owner it was told last: with the history gone, a save says why and keeps the form', async () => {
    const { controller, said } = make();
    controller.owner = alertsOwnerOf(undefined, () => initialTickerState(['AAPL'], 5), ctx.client);
    controller.newAlert('AAPL');
    controller.editField({ kind: 'type', text: 'below 1' });
    await controller.submit();
    expect(said().at(-1)).toBe('alert not set: alerts are kept with the price history, which is not available (prices are not recorded in this run)');
    const view = controller.current();
    expect(view.open && view.form).toMatchObject({ saving: false, values: { symbol: 'AAPL', condition: 'below 1' } });
    expect(stored()).toEqual([]);
  });
});
