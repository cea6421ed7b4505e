// What the alerts view and the holdings editor ask of the dashboard: the books of the price
// history (or why there are none), a symbol's price now (the ticker's, else the server's), what
// the server does not know, and today.
import type { TickbookClient } from '../../api/client.js';
import type { HistoryService } from '../../store/price-recorder.js';
import { localToday } from '../../text/time.js';
import type { AlertsOwner } from '../alerts/alerts-controller.js';
import type { HoldingsOwner } from '../holdings/holdings-controller.js';
import type { TickerState } from '../ticker/ticker-state.js';
import type { BooksOwner } from './books-write.js';

const booksOwnerOf = (history: HistoryService | undefined): BooksOwner => ({
  books: () => history?.books(),
  unavailable: () => (history ? history.unavailable : 'prices are not recorded in this run'),
});

export const alertsOwnerOf = (history: HistoryService | undefined, getTicker: () => TickerState, client: TickbookClient): AlertsOwner => ({
  ...booksOwnerOf(history),
  priceOf: async (symbol) => {
    const row = getTicker().rows[symbol];
    if (row) return { price: row.price, unknown: false };
    const result = await client.realtimePricing([symbol]);
    return { price: result.quotes.find((q) => q.symbol === symbol)?.price, unknown: result.unknown.includes(symbol) };
  },
});

export const holdingsOwnerOf = (history: HistoryService | undefined, getTicker: () => TickerState): HoldingsOwner => ({
  ...booksOwnerOf(history),
  unknown: (symbol) => getTicker().unknown.has(symbol),
  today: () => localToday(),
});
