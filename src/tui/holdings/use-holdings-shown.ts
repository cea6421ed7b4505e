// What the watchlist shows of the holdings: the positions of the list's symbols at the prices on
// screen, their day measured from each symbol's first recorded price today, and the totals per
// currency. The lots are read when they change (the store reads the file only then), the day's
// opens once a poll.
import { useMemo } from 'react';
import { portfolioOf } from '../../market/holdings.js';
import type { HistoryService } from '../../store/price-recorder.js';
import { readBooks } from '../state/books-write.js';
import type { TickerState } from '../ticker/ticker-state.js';
import type { HoldingsShown } from '../ticker/WatchlistTable.js';

export function useHoldingsShown(history: HistoryService | undefined, state: TickerState, version: number, hidden: boolean): HoldingsShown | undefined {
  // A file that cannot be read says so where it is written to (the editor), not every poll.
  // Another process's change is seen at the next poll; this one's own at once (version). The file
  // changes outside React: the stamp kept with the lots says when they were read, and when again.
  const readAt = `${version} ${state.lastSuccessAt}`;
  const { lots } = useMemo(() => ({ readAt, lots: readBooks(history?.books(), (books) => books.holdings.list(books.source), []) }), [history, readAt]);
  // A new list of lots at each read, so the day's opens are read again with them, once a poll.
  const opens = useMemo(() => (lots.length > 0 && history ? history.dayOpens(Date.now()) : new Map<string, number>()), [history, lots]);
  return useMemo(() => {
    if (lots.length === 0) return undefined;
    const listed = new Set(state.watchlist);
    const { positions, totals } = portfolioOf(
      lots.filter((lot) => listed.has(lot.symbol)),
      (symbol) => state.rows[symbol]?.price,
      (symbol) => opens.get(symbol),
    );
    return { positions: new Map(positions.map((p) => [p.symbol, p])), totals, hidden, dayOpens: opens };
  }, [lots, opens, state.rows, state.watchlist, hidden]);
}
