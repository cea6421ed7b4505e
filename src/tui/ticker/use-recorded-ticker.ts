// The ticker with the price history beside it: every poll's prices recorded, the alerts they
// cross said in the status line and told to whoever owns the terminal, and the symbols alerts
// watch polled with the watchlist's.
import type { TickbookClient } from '../../api/client.js';
import type { Firing } from '../../store/alerts-store.js';
import type { HistoryService } from '../../store/price-recorder.js';
import type { StatusBoard } from '../state/status.js';
import type { TickerOptions } from './ticker-controller.js';
import { useTicker } from './use-ticker.js';

export interface RecordedTickerOptions extends Omit<TickerOptions, 'onPrices' | 'extraSymbols'> {
  history: HistoryService | undefined;
  onAlert: ((firing: Firing) => void) | undefined;
}

export function useRecordedTicker(client: TickbookClient, status: StatusBoard, { history, onAlert, ...options }: RecordedTickerOptions) {
  const ticker = useTicker(client, status, {
    ...options,
    onPrices:
      history &&
      ((asked, quotes, at) => {
        if (quotes) history.record(quotes, at);
        // What crossed what, in the status line (and the log), and to the terminal.
        for (const firing of history.alertsOnPoll(asked, quotes, at)) {
          status.notice(`alert: ${firing.text}`);
          ticker.commands.alerted(firing.symbol, firing.at);
          onAlert?.(firing);
        }
      }),
    extraSymbols: history && (() => history.alertSymbols()),
  });
  return ticker;
}
