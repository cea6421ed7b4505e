// The watchlists menu's controller without React, on the ticker's controller as the dashboard
// gives it (the real sandbox prices the lists): commands run in a row, with no render between
// them, act on the menu and the lists the one before left.
import { afterEach, describe, expect, it } from 'vitest';
import { newList, type Watchlists } from '../../../src/market/watchlists.js';
import { ListsController } from '../../../src/tui/lists/lists-controller.js';
import { StatusBoard } from '../../../src/tui/state/status.js';
import { TickerController } from '../../../src/tui/ticker/ticker-controller.js';
import { setUpSandbox } from '../../helpers/sandbox.js';

const THREE = (): Watchlists => ({
  lists: [newList('Watchlist', ['AAPL', 'MSFT']), newList('Tech', ['IBM']), newList('Banks', ['JPM'])],
  active: 0,
});

describe('ListsController', () => {
  const ctx = setUpSandbox({ demoData: false });
  let ticker: TickerController | undefined;
  afterEach(() => ticker?.dispose());

  function menu() {
    const status = new StatusBoard();
    ticker = new TickerController(ctx.client, status, { watchlist: THREE(), intervalS: 60 });
    ticker.start();
    const lists = new ListsController({ lists: ticker.lists, change: ticker.changeLists }, status);
    return { ticker, lists, notices: () => status.getSnapshot().history.map((m) => m.text) };
  }

  it('w, j, j, Enter in one go shows the third list', () => {
    const { ticker, lists, notices } = menu();
    lists.openSwitch();
    lists.move(1);
    lists.move(1);
    lists.choose();
    expect(lists.current()).toEqual({ open: false });
    expect(ticker.getState().active).toBe(2);
    expect(ticker.getState().watchlist).toEqual(['JPM']);
    expect(notices()).toEqual(['showing Banks']);
  });

  it('a list made, named and shown, then the symbol moved to another, each on what the last left', () => {
    const { ticker, lists, notices } = menu();
    lists.openSwitch();
    lists.startCreate();
    lists.editName({ kind: 'type', text: 'Energy' });
    lists.submitName();
    expect(ticker.lists().active).toBe(3);
    ticker.add('XOM');
    lists.openMove('XOM');
    lists.move(-3);
    lists.choose();
    expect(ticker.lists().lists.map((l) => [l.name, l.symbols])).toEqual([
      ['Watchlist', ['AAPL', 'MSFT', 'XOM']],
      ['Tech', ['IBM']],
      ['Banks', ['JPM']],
      ['Energy', []],
    ]);
    expect(notices()).toEqual(['showing Energy', 'made the list Energy', 'added XOM to Energy', 'moved XOM to Watchlist']);
  });

  it('a name that is taken is said under the field, kept while the cursor moves, and gone once the name changes', () => {
    const { lists } = menu();
    lists.openSwitch();
    lists.startRename();
    lists.editName({ kind: 'edit', edit: 'start' });
    lists.editName({ kind: 'type', text: 'Banks' });
    lists.editName({ kind: 'edit', edit: 'kill-end' });
    lists.submitName();
    const named = () => {
      const m = lists.current();
      return m.open ? m.name : undefined;
    };
    expect(named()).toMatchObject({ kind: 'rename', draft: { value: 'Banks' }, problem: 'there is already a list named Banks' });
    lists.editName({ kind: 'edit', edit: 'left' });
    expect(named()?.problem).toBe('there is already a list named Banks');
    lists.editName({ kind: 'type', text: 'x' });
    expect(named()).toMatchObject({ draft: { value: 'Bankxs' }, problem: undefined });
  });

  it('d, y deletes the highlighted list, and the cursor stays on a list there is', () => {
    const { ticker, lists, notices } = menu();
    lists.openSwitch();
    lists.move(2);
    lists.askDelete();
    lists.confirmDelete();
    expect(ticker.lists().lists.map((l) => l.name)).toEqual(['Watchlist', 'Tech']);
    expect(lists.current()).toMatchObject({ open: true, cursor: 1, confirmDelete: false });
    expect(notices()).toEqual(['deleted the list Banks']);
  });

  it('a cursor left on a list deleted elsewhere acts on the last list there is', () => {
    const { ticker, lists } = menu();
    lists.openSwitch();
    lists.move(2);
    // Another window deleted Banks: the ticker takes its lists in.
    ticker.changeLists({ lists: THREE().lists.slice(0, 2), active: 0 });
    lists.choose();
    expect(ticker.lists().active).toBe(1);
  });
});
