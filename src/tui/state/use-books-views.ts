// The two views of what the history file keeps besides prices: the alerts view and the holdings
// editor. Both read and change the books (state/books-controller.ts); the alerts view asks a price
// of the ticker first, and of the server for a symbol it does not show (state/books-owners.ts).
import { useMemo } from 'react';
import type { TickbookClient } from '../../api/client.js';
import type { HistoryService } from '../../store/price-recorder.js';
import { useAlertsView } from '../alerts/use-alerts-view.js';
import { useHoldingsEditor } from '../holdings/use-holdings-editor.js';
import type { TickerState } from '../ticker/ticker-state.js';
import { alertsOwnerOf, holdingsOwnerOf } from './books-owners.js';
import type { StatusBoard } from './status.js';

export function useBooksViews(history: HistoryService | undefined, getTicker: () => TickerState, client: TickbookClient, status: StatusBoard) {
  const alertsOwner = useMemo(() => alertsOwnerOf(history, getTicker, client), [history, getTicker, client]);
  const holdingsOwner = useMemo(() => holdingsOwnerOf(history, getTicker), [history, getTicker]);
  return { alertsView: useAlertsView(alertsOwner, status), holdingsEditor: useHoldingsEditor(holdingsOwner, status) };
}
