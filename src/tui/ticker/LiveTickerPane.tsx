// The ticker pane as the ticker's live state has it now. A poll draws this pane again, and the
// dashboard that holds it not at all: the dashboard selects from that state only what it shows.
// And a key in the contacts pane draws the dashboard again but not this pane (memo: its props
// hold still while the ticker's part of the screen does).
import { memo } from 'react';
import type { Lot } from '../../market/holdings.js';
import type { HistoryService } from '../../store/price-recorder.js';
import type { TickerState } from './ticker-state.js';
import { type Selectable, useSelected, wholeState } from '../state/external-state.js';
import { useHoldingsShown } from '../holdings/use-holdings-shown.js';
import { TickerPane, type TickerPaneProps } from './TickerPane.js';

export interface LiveTickerPaneProps extends Omit<TickerPaneProps, 'state' | 'holdings' | 'holdingsEditor'> {
  ticker: Selectable<TickerState>;
  /** Where the lots are kept, their version (a change made here), and whether money is hidden. */
  history: HistoryService | undefined;
  holdingsVersion: number;
  moneyHidden: boolean;
  /**
   * A symbol's lots being looked at or edited. The lots, its price and its day's open are read
   * here, at each poll: another process may change the lots, as it may the prices.
   */
  holdingsEditor?: (Omit<NonNullable<TickerPaneProps['holdingsEditor']>, 'price' | 'dayOpen' | 'lots'> & { lotsOf: (symbol: string) => readonly Lot[] }) | undefined;
}

export const LiveTickerPane = memo(function LiveTickerPane({ ticker, history, holdingsVersion, moneyHidden, holdingsEditor, ...pane }: LiveTickerPaneProps) {
  const state = useSelected(ticker, wholeState);
  const holdings = useHoldingsShown(history, state, holdingsVersion, moneyHidden);
  return (
    <TickerPane
      {...pane}
      state={state}
      holdings={holdings}
      holdingsEditor={
        holdingsEditor && {
          editor: holdingsEditor.editor,
          hidden: holdingsEditor.hidden,
          lots: holdingsEditor.lotsOf(holdingsEditor.editor.symbol),
          price: state.rows[holdingsEditor.editor.symbol]?.price,
          dayOpen: holdings?.dayOpens.get(holdingsEditor.editor.symbol),
        }
      }
    />
  );
});
