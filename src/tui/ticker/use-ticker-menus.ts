// What opens in the ticker pane over the watchlist: the watchlists menu and the columns editor,
// each changing the ticker's lists through its commands.
import { useMemo } from 'react';
import { holdingsScopeOf } from '../holdings/holdings-commands.js';
import type { HoldingsEditor } from '../holdings/holdings-state.js';
import type { Scope } from '../keys/keymap.js';
import { listsScopeOf } from '../lists/lists-commands.js';
import type { ListsMenu } from '../lists/lists-controller.js';
import { useListsMenu } from '../lists/use-lists-menu.js';
import type { StatusBoard } from '../state/status.js';
import type { TickerController } from './ticker-controller.js';
import type { TickerState } from './ticker-state.js';
import { useColumnsEditor } from './use-columns-editor.js';

export function useTickerMenus(commands: TickerController, getTicker: () => TickerState, status: StatusBoard) {
  const { lists: tickerLists, changeLists, setColumns } = commands;
  const listsOwner = useMemo(() => ({ lists: tickerLists, change: changeLists }), [tickerLists, changeLists]);
  const columnsOwner = useMemo(
    () => ({ columns: () => getTicker().lists[getTicker().active]!.columns, change: setColumns }),
    [getTicker, setColumns],
  );
  return { lists: useListsMenu(listsOwner, status), columnsEditor: useColumnsEditor(columnsOwner, status) };
}

/** What is open over the watchlist in the ticker pane, as a key scope: the columns editor, a symbol's lots, or the watchlists menu. */
export const tickerModal = (columnsOpen: boolean, holdings: HoldingsEditor, menu: ListsMenu): Scope | undefined =>
  columnsOpen ? 'ticker.columns' : (holdingsScopeOf(holdings) ?? listsScopeOf(menu));
