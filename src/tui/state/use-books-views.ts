// The two views of what the history file keeps besides prices: the alerts view and the holdings
// editor. Both read and change the books (state/books-write.ts); the alerts view asks a price of
// the ticker first, and of the server for a symbol it does not show.
import { useMemo } from 'react';
import type { TickbookClient } from '../../api/client.js';
import type { HistoryService } from '../../store/price-recorder.js';
import { localToday } from '../../text/time.js';
import { useAlertsView } from '../alerts/use-alerts-view.js';
import { useHoldingsEditor } from '../holdings/use-holdings-editor.js';
import type { TickerState } from '../ticker/ticker-state.js';
import type { StatusBoard } from './status.js';

export function useBooksViews(history: HistoryService | undefined, getTicker: () => TickerState, client: TickbookClient, status: StatusBoard) {
  const booksOwner = useMemo(
    () => ({ books: () => history?.books(), unavailable: () => (history ? history.unavailable : 'prices are not recorded in this run') }),
    [history],
  );
  const alertsOwner = useMemo(
    () => ({
      ...booksOwner,
      priceOf: async (symbol: string) => {
        const row = getTicker().rows[symbol];
        if (row) return { price: row.price, unknown: false };
        const result = await client.realtimePricing([symbol]);
        return { price: result.quotes.find((q) => q.symbol === symbol)?.price, unknown: result.unknown.includes(symbol) };
      },
    }),
    [booksOwner, getTicker, client],
  );
  const holdingsOwner = useMemo(
    () => ({
      ...booksOwner,
      unknown: (symbol: string) => getTicker().unknown.has(symbol),
      today: () => localToday(),
    }),
    [booksOwner, getTicker],
  );
  return { alertsView: useAlertsView(alertsOwner, status), holdingsEditor: useHoldingsEditor(holdingsOwner, status) };
}
