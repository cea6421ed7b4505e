// The holdings editor's controller alone, with no React and so no render between commands: each
// acts on what the one before it left. Its lots are kept by a real PriceRecorder on a temp history
// file, through the owner the dashboard gives it (state/books-owners.ts).
import { describe, expect, it } from 'vitest';
import { checkLot } from '../../../src/market/holdings.js';
import { fixedText } from '../../../src/market/money.js';
import { HoldingsController } from '../../../src/tui/holdings/holdings-controller.js';
import { holdingsOwnerOf } from '../../../src/tui/state/books-owners.js';
import { StatusBoard } from '../../../src/tui/state/status.js';
import { initialTickerState, type TickerState } from '../../../src/tui/ticker/ticker-state.js';
import { setUpRecorder } from '../../helpers/recorder.js';

const SOURCE = 'holdings-controller-test';

describe('HoldingsController', () => {
  const files = setUpRecorder(SOURCE, 'tickbook-holdings-controller-');

  function make(ticker: TickerState = initialTickerState(['AAPL', 'MSFT'], 5)) {
    const status = new StatusBoard();
    const controller = new HoldingsController({ owner: holdingsOwnerOf(files.recorder, () => ticker), status });
    return { controller, said: () => status.getSnapshot().history.map((h) => h.text) };
  }
  const lots = () => files.recorder.books()!.holdings.list(SOURCE).map((lot) => [lot.symbol, lot.number, fixedText(lot.quantity), fixedText(lot.cost), lot.bought]);

  it('lots typed, saved, moved through and deleted with no render between: each command acts on what the one before left', () => {
    const { controller, said } = make();
    // No lots yet: h opens straight on a new lot's form.
    controller.open('AAPL');
    controller.editField({ kind: 'type', text: '10' });
    controller.moveField(1);
    controller.editField({ kind: 'type', text: '150.25' });
    controller.submit();
    controller.add();
    controller.editField({ kind: 'type', text: '2.5' });
    controller.moveField(1);
    controller.editField({ kind: 'type', text: '99' });
    controller.moveField(1);
    controller.editField({ kind: 'type', text: '2024-02-29' });
    controller.submit();
    expect(lots()).toEqual([
      ['AAPL', 1, '10', '150.25', undefined],
      ['AAPL', 2, '2.5', '99', '2024-02-29'],
    ]);
    expect(controller.current()).toMatchObject({ open: true, symbol: 'AAPL', cursor: 1, lot: 2, form: undefined });
    // k, d, y: the first lot.
    controller.move(-1);
    controller.askDelete();
    controller.confirmDelete();
    expect(lots()).toEqual([['AAPL', 2, '2.5', '99', '2024-02-29']]);
    expect(said().at(-1)).toBe('AAPL: lot 1, 10 at 150.25, deleted');
    expect(controller.current()).toMatchObject({ open: true, cursor: 0, lot: 2, confirmDelete: false });
    // e then a changed cost, saved: the same lot.
    controller.edit();
    controller.moveField(1);
    controller.editField({ kind: 'edit', edit: 'kill-start' });
    controller.editField({ kind: 'type', text: '101' });
    controller.submit();
    expect(lots()).toEqual([['AAPL', 2, '2.5', '101', '2024-02-29']]);
    expect(controller.getState().version).toBe(4);
  });

  it('a lot another process removed meanwhile: the delete says so, and the highlight moves to what is there', () => {
    const books = files.recorder.books()!;
    const checked = checkLot({ quantity: '1', cost: '1', date: '' }, '2026-01-01');
    if (!('lot' in checked)) throw new Error('a good lot refused');
    const { lot } = checked;
    for (let i = 0; i < 2; i++) books.holdings.add(SOURCE, 'MSFT', lot, 0);
    const { controller, said } = make();
    controller.open('MSFT');
    controller.askDelete();
    books.holdings.remove(SOURCE, 'MSFT', 1);
    controller.confirmDelete();
    expect(said().at(-1)).toBe('no lot 1 of MSFT: it was removed');
    expect(controller.current()).toMatchObject({ open: true, cursor: 0, lot: 2 });
  });

  it('reads the owner it was told last: what the server does not know, and today', () => {
    const ticker = initialTickerState(['AAPL', 'NOPE1'], 5);
    const { controller, said } = make(ticker);
    controller.owner = holdingsOwnerOf(files.recorder, () => ({ ...ticker, unknown: new Set(['NOPE1']) }));
    controller.open('NOPE1');
    expect(said().at(-1)).toBe('NOPE1 is not known to the server: no holdings can be kept for it');
    expect(controller.isOpen()).toBe(false);
    controller.owner = { ...controller.owner, today: () => '2025-01-01' };
    controller.open('AAPL');
    controller.moveField(2);
    controller.editField({ kind: 'type', text: '2025-01-02' });
    const view = controller.current();
    expect(view.open && view.form?.problems.date).toMatch(/future/);
  });
});
