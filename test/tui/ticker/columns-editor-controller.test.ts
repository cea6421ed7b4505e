// The columns editor's controller without React, on the ticker's controller as the dashboard
// gives it: commands run in a row, with no render between them, act on the highlight and the
// columns the one before left, and every change is the list's at once.
import { afterEach, describe, expect, it } from 'vitest';
import { MARKET_COLUMNS } from '../../../src/market/watchlists.js';
import { StatusBoard } from '../../../src/tui/state/status.js';
import { ColumnsEditorController, editorRows } from '../../../src/tui/ticker/columns-editor-controller.js';
import { TickerController } from '../../../src/tui/ticker/ticker-controller.js';
import { setUpSandbox } from '../../helpers/sandbox.js';

describe('ColumnsEditorController', () => {
  const ctx = setUpSandbox({ demoData: false });
  let ticker: TickerController | undefined;
  afterEach(() => ticker?.dispose());

  function editor() {
    const status = new StatusBoard();
    ticker = new TickerController(ctx.client, status, { watchlist: ['AAPL'], intervalS: 60 });
    ticker.start();
    const t = ticker;
    const columns = new ColumnsEditorController({ columns: () => t.getState().lists[t.getState().active]!.columns, change: t.setColumns }, status);
    const shown = () => t.getState().lists[0]!.columns;
    return { columns, shown, notices: () => status.getSnapshot().history.map((m) => m.text) };
  }

  it('hides a column and moves another in one go, the highlight staying on the column it was on', () => {
    const { columns, shown } = editor();
    expect(columns.isOpen()).toBe(false);
    columns.open();
    columns.move(2);
    columns.toggle();
    expect(shown()).toEqual(MARKET_COLUMNS.filter((c) => c !== 'change'));
    expect(editorRows(shown())[columns.getState()!]).toBe('change');
    columns.move(-5);
    columns.shift(1);
    columns.shift(1);
    expect(shown()).toEqual(['name', 'session', 'volume', 'price', 'trend', 'age']);
    expect(columns.getState()).toBe(3);
    columns.close();
    expect(columns.isOpen()).toBe(false);
  });

  it('says why the price cannot be hidden and a hidden column cannot move', () => {
    const { columns, shown, notices } = editor();
    columns.open();
    columns.move(1);
    columns.toggle();
    columns.move(1);
    columns.toggle();
    columns.shift(-1);
    expect(shown()).toEqual(MARKET_COLUMNS.filter((c) => c !== 'change'));
    expect(notices()).toEqual(['the price is always shown', 'change is hidden: Space shows it']);
  });
});
