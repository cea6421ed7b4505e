// One symbol open over the panes: opening it from the ticker, stepping to the next symbol, and
// the chart's span.
import { commandsOf } from '../keys/commands.js';
import type { DetailCommands } from './detail-controller.js';

export interface DetailCommandsDeps {
  detail: DetailCommands;
  /** The symbol highlighted in the ticker, and the watchlist's symbols in the order shown. */
  selectedSymbol: () => string | undefined;
  shownOrder: () => readonly string[];
  /** Back on the watchlist, the highlight is on the symbol last looked at. */
  select: (symbol: string) => void;
  /** The catalogue, for the company's name. */
  ensureSymbols: () => void;
}

export function detailCommands({ detail, selectedSymbol, shownOrder, select, ensureSymbols }: DetailCommandsDeps) {
  const step = (by: number) => {
    detail.stepSymbol(by, shownOrder());
    const open = detail.current();
    if (open) select(open.symbol);
  };
  return commandsOf({
    'ticker.open': () => {
      const symbol = selectedSymbol();
      if (symbol === undefined) return;
      ensureSymbols();
      detail.open(symbol);
    },
    'detail.close': () => detail.close(),
    'detail.next': (_, count) => step(count),
    'detail.previous': (_, count) => step(-count),
    'detail.span-longer': (_, count) => detail.stepSpan(count),
    'detail.span-shorter': (_, count) => detail.stepSpan(-count),
    'detail.span-1h': () => detail.span('1h'),
    'detail.span-1d': () => detail.span('1d'),
    'detail.span-5d': () => detail.span('5d'),
    'detail.span-1m': () => detail.span('1m'),
    'detail.span-all': () => detail.span('all'),
  });
}
