// How the ticker's sort is said, on the pane's status line and to a screen reader: in words, each
// order and its flip (S).
import type { SortOrder } from './ticker-state.js';

export const SORT_LABEL: Readonly<Record<SortOrder, readonly [string, string]>> = {
  watchlist: ['watchlist order', 'watchlist order, reversed'],
  symbol: ['by symbol', 'by symbol, Z to A'],
  price: ['by price', 'by price, lowest first'],
  change: ['by tick change', 'by tick change, lowest first'],
  session: ['by session change', 'by session change, lowest first'],
  volume: ['by volume', 'by volume, lowest first'],
};
