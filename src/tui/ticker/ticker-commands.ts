// The ticker pane's commands: moving through the watchlist, pausing and pacing the polls,
// sorting, reordering and removing symbols, adding them with the symbol picker, the columns
// editor, and hiding the money columns.
import type { SymbolInfo } from '../../api/types.js';
import type { OpenFields } from '../components/field-commands.js';
import { commandsOf } from '../keys/commands.js';
import type { StatusBoard } from '../state/status.js';
import { type PickerAction, type PickerState, rankSymbols } from './picker-state.js';
import type { ColumnsEditorController } from './columns-editor-controller.js';
import type { TickerController } from './ticker-controller.js';

export interface TickerCommandsDeps {
  ticker: TickerController;
  picker: { get: () => PickerState; dispatch: (action: PickerAction) => void };
  /** The catalogue as loaded so far, and a load asked for if it is not. */
  symbols: { catalogue: readonly SymbolInfo[] | undefined; ensure: () => void };
  columns: ColumnsEditorController;
  /** $: the money columns hidden or shown, and the choice kept. */
  toggleMoney: () => void;
  status: StatusBoard;
}

export function tickerCommands({ ticker: t, picker, symbols, columns, toggleMoney, status }: TickerCommandsDeps) {
  // The matches as the query stands after the keys before this one, not as last drawn.
  const matches = () => (symbols.catalogue ? rankSymbols(symbols.catalogue, picker.get().query.value) : undefined);
  return commandsOf({
    'ticker.down': (_, count) => t.down(count),
    'ticker.up': (_, count) => t.up(count),
    'ticker.first': () => t.first(),
    'ticker.last': () => t.last(),
    'ticker.pause': () => t.togglePause(),
    'ticker.faster': () => t.changeInterval(-1),
    'ticker.slower': () => t.changeInterval(1),
    'ticker.sort': () => t.cycleSort(),
    'ticker.flip-sort': () => t.flipSort(),
    'ticker.move-down': () => t.moveSymbol(1),
    'ticker.move-up': () => t.moveSymbol(-1),
    'ticker.remove': () => t.remove(),
    'ticker.undo': () => t.undo(),
    'ticker.refresh': () => t.refresh(),
    'ticker.privacy': () => toggleMoney(),
    'ticker.edit-columns': () => columns.open(),
    'columns.down': (_, count) => columns.move(count),
    'columns.up': (_, count) => columns.move(-count),
    'columns.toggle': () => columns.toggle(),
    'columns.left': () => columns.shift(-1),
    'columns.right': () => columns.shift(1),
    'columns.close': () => columns.close(),
    'ticker.picker': () => {
      symbols.ensure();
      picker.dispatch({ type: 'opened' });
    },
    'picker.down': (_, count) => picker.dispatch({ type: 'cursor-moved', by: count, count: matches()?.length ?? 0 }),
    'picker.up': (_, count) => picker.dispatch({ type: 'cursor-moved', by: -count, count: matches()?.length ?? 0 }),
    'picker.add': () => {
      // An empty query highlights the catalogue's first entry, which nobody chose.
      if (!picker.get().chosen) return status.notice('type a symbol or company name (or ↓ to browse), then Enter adds it');
      const chosen = matches()?.[picker.get().cursor];
      if (!chosen) return status.notice(`no symbol matches ${JSON.stringify(picker.get().query.value.trim())}`);
      if (!t.add(chosen.symbol)) return status.notice(`${chosen.symbol} is already on the watchlist`);
      // Added: what is typed next is the next symbol, not more of this one's query.
      picker.dispatch({ type: 'added' });
    },
  });
}

/** The symbol picker's query. */
export function pickerFields(picker: TickerCommandsDeps['picker']): OpenFields {
  return {
    'ticker.picker': {
      input: (input) => picker.dispatch({ type: 'query-edited', input }),
      cancel: () => picker.dispatch({ type: 'closed' }),
    },
  };
}
