// The container: owns the state hooks, routes every key through the keymap, and hands the
// views what to draw. Views never call the client; this never draws.
import { useApp, useStdout } from 'ink';
import { useCallback, useMemo, useRef, useState } from 'react';
import { App, TooSmall } from './App.js';
import { useFocus } from './state/use-focus.js';
import { useOverlayPages } from './chrome/use-overlay-pages.js';
import { useMoneyHidden } from './ticker/use-money-hidden.js';
import { useContactsPane } from './contacts/use-contacts-pane.js';
import { useRecordedTicker } from './ticker/use-recorded-ticker.js';
import { cover } from './cover.js';
import { useBooksViews } from './state/use-books-views.js';
import { tickerModal, useTickerMenus } from './ticker/use-ticker-menus.js';
import { type DashboardProps, useOwnLedger } from './dashboard-props.js';
import { Footer, footerText } from './chrome/Footer.js';
import { footerHint } from './chrome/footer-hint.js';
import { PolledStatusLine } from './chrome/StatusLine.js';
import { ContactsPane, contactRowsFor } from './contacts/ContactsPane.js';
import type { Command, Scope } from './keys/keymap.js';
import { useKeyRouter } from './keys/use-key-router.js';
import { type CommandTable, eachOf } from './keys/commands.js';
import { fieldCommands, type OpenFields } from './components/field-commands.js';
import { overlayCommands } from './chrome/overlay-commands.js';
import { mouseCommands } from './mouse/mouse-commands.js';
import { contactsCommands, contactsFields } from './contacts/contacts-commands.js';
import { exportContacts } from './contacts/export-contacts.js';
import { searchCommands, searchFields } from './search/search-commands.js';
import { pickerFields, tickerCommands } from './ticker/ticker-commands.js';
import { listsCommands, listsFields } from './lists/lists-commands.js';
import { detailCommands } from './detail/detail-commands.js';
import { alertsCommands, alertsFields, alertsScopeOf } from './alerts/alerts-commands.js';
import { holdingsCommands, holdingsFields } from './holdings/holdings-commands.js';
import { activeScopes, type ScreenNow } from './keys/scopes.js';
import { MouseAreas, MouseAreasContext } from './mouse/mouse-areas.js';
import { computeLayout } from './layout.js';
import { initialPickerState, pickerReducer, rankSymbols } from './ticker/picker-state.js';
import { useStatus } from './state/status.js';
import { useSymbols } from './ticker/use-symbols.js';
import { useSelected, useLatestReducer } from './state/external-state.js';
import { useOverlay } from './state/use-overlay.js';
import { useTerminalSize } from './terminal/terminal-size.js';
import { LiveTickerPane } from './ticker/LiveTickerPane.js';
import { useDetail } from './detail/use-detail.js';
import { useDetailView } from './detail/use-detail-view.js';
import { displayOrder, selectedSymbol } from './ticker/ticker-state.js';
import { useGlyphs } from './style/glyphs.js';
import { readAlerts } from './alerts/alerts-controller.js';
import { ReaderView } from './reader/ReaderView.js';
import { readerCommands } from './reader/reader-commands.js';
import { contactsRows } from './reader/describe-contacts.js';
import { tickerRows } from './reader/describe-ticker.js';
import { statusSentence } from './reader/status-sentence.js';
import type { ScreenParts } from './reader/describe-screen.js';
import { UNDO_WINDOW_MS } from './contacts/contacts-state.js';

/** Contacts a page holds for a screen reader, whatever the terminal's size: a page is read, not seen. */
const READER_PAGE_ROWS = 10;

export type { DashboardProps } from './dashboard-props.js';

export function Dashboard(props: DashboardProps) {
  const { client, status } = props;
  const { stdout } = useStdout();
  const measured = useTerminalSize(stdout);
  const size = props.size ?? measured;
  const layout = computeLayout(size);
  const { reader } = props;
  // Too small to show the panes: keys act on nothing, and the page keeps its size (a reload to
  // fit a screen nobody sees would move the selection a delete prompt was about). A screen reader
  // is read whatever the terminal's size.
  const hidden = !reader && layout.kind === 'too-small';
  const hiddenRef = useRef(hidden);
  hiddenRef.current = hidden;
  const pageRows = useRef(reader ? READER_PAGE_ROWS : 5);
  if (!reader && layout.kind !== 'too-small') pageRows.current = contactRowsFor(layout.contacts.height);
  const { exit } = useApp();

  const ledger = useOwnLedger(props.ledger);
  const { contacts, search } = useContactsPane({
    client,
    status,
    pageRows: pageRows.current,
    ledger,
    undoWindowMs: props.undoWindowMs,
    history: props.history,
    source: props.contactsSource,
    hidden,
  });
  const ticker = useRecordedTicker(client, status, {
    watchlist: props.watchlist,
    intervalS: props.intervalS,
    persist: props.persistWatchlist,
    refresh: props.refreshSettings,
    history: props.history,
    onAlert: props.onAlert,
    // x's undo runs out as a delete's does, on the same clock: the footer's offer goes with it.
    undoWindowMs: props.undoWindowMs,
    undoClock: ledger.now,
  });
  const detail = useDetail();
  const glyphs = useGlyphs();
  // The latest ticker state, read when asked (a stable function, unlike `ticker`, made each render).
  const { getState: getTicker } = ticker;
  const { lists, columnsEditor } = useTickerMenus(ticker.commands, getTicker, status);
  const history = props.history;
  const { alertsView, holdingsEditor } = useBooksViews(history, getTicker, client, status);
  const [moneyHidden, toggleMoney] = useMoneyHidden(props.hideMoney ?? false, props.persistHideMoney, status);
  const mouseOn = useRef(props.mouse === true);
  const [mouseAreas] = useState(() => new MouseAreas());
  const symbols = useSymbols(client, status);
  const [picker, dispatchPicker, getPicker] = useLatestReducer(pickerReducer, () => initialPickerState);
  const { focus, current: currentFocus, toggle: toggleFocus } = useFocus();
  const overlay = useOverlay();
  const snapshot = useStatus(status);
  const pages = useOverlayPages(overlay.kind, layout.kind === 'too-small' ? undefined : { width: layout.width, height: layout.panes }, snapshot.history, () => status.getSnapshot().history);
  const quitting = useRef(false);

  const matches = useMemo(
    () => (symbols.catalogue ? rankSymbols(symbols.catalogue, picker.query.value) : undefined),
    [symbols.catalogue, picker.query.value],
  );
  // What the ticker pane is given holds still while nothing of it changes: a key in the contacts
  // pane then draws that pane and not the ticker's (LiveTickerPane is memo).
  const pickerShown = useMemo(() => ({ ...picker, matches }), [picker, matches]);
  const { editor: lotsEditor, lots: lotsOf } = holdingsEditor;
  const lotsShown = useMemo(
    () => (lotsEditor.open ? { editor: lotsEditor, lotsOf, hidden: moneyHidden } : undefined),
    [lotsEditor, lotsOf, moneyHidden],
  );
  const scopes = activeScopes({
    focus,
    overlay: overlay.kind,
    contacts: contacts.state,
    pickerOpen: picker.open,
    hidden,
    detailOpen: detail.state !== undefined,
    paneModal: tickerModal(columnsEditor.cursor !== undefined, holdingsEditor.editor, lists.menu),
    cover: alertsScopeOf(alertsView.view),
    searching: search.view.open,
    reader: reader !== undefined,
  });
  const alertsOpen = alertsView.view.open;
  // While the alerts view or a symbol's chart covers the panes, the dashboard draws what the
  // ticker pane would: it is drawn by every change of the ticker then, as the pane is.
  const tickerBehind = useSelected(ticker.live, (s) => (alertsOpen || detail.state ? s : undefined));
  // Read while the view is open: on opening, after each change made in it (its version), and at
  // each poll. The file changes outside React, so when to read it again is this stamp's to say.
  const alertsReadAt = alertsOpen ? `${alertsView.version} ${tickerBehind?.lastSuccessAt}` : undefined;
  const alertsData = useMemo(() => (alertsReadAt === undefined ? undefined : readAlerts(history?.books())), [alertsReadAt, history]);
  // What the dashboard shows of the ticker, selected: a poll redraws it only where it shows prices.
  const detailRow = detail.state && tickerBehind?.rows[detail.state.symbol];
  const tickerUnknown = useSelected(ticker.live, (s) => s.unknown);
  const tickerRemoved = useSelected(ticker.live, (s) => s.removed);
  // Read, not seen, the chart has room: its notes are then about the prices, never the terminal's size.
  const detailSize = reader ? { width: 120, height: 40 } : layout.kind === 'too-small' ? { width: 0, height: 0 } : { width: layout.width, height: layout.panes };
  const detailModel = useDetailView(props.history, detail.state, detailRow, {
    ...detailSize,
    unicode: glyphs.unicode,
    intervalS: ticker.intervalS,
  });

  const quit = useCallback(async () => {
    if (quitting.current) return;
    quitting.current = true;
    status.notice('finishing…');
    // A delete inside its undo window is sent now, not lost.
    await contacts.commands.settle();
    exit();
  }, [contacts.commands, exit, status]);

  const selected = () => selectedSymbol(ticker.getState());
  const pickerAccess = { get: getPicker, dispatch: dispatchPicker };
  const fields: OpenFields = {
    ...contactsFields(contacts.commands),
    ...searchFields(search),
    ...pickerFields(pickerAccess),
    ...listsFields(lists.commands),
    ...alertsFields(alertsView),
    ...holdingsFields(holdingsEditor),
  };
  /** Every command's handler, each feature's own: the compiler holds the table to the keymap. */
  const commands: CommandTable = {
    quit: () => void quit(),
    suspend: () => props.onSuspend?.(),
    ...eachOf(['focus-next', 'focus-previous'], () => {
      // The open symbol covers both panes: going to a pane is going back to them.
      detail.close();
      toggleFocus();
    }),
    ...overlayCommands({ overlay, lastHelpPage: pages.lastHelpPage, lastLogTop: pages.lastLogTop, rows: pages.rows }),
    ...mouseCommands({ on: mouseOn, tell: props.onMouse, persist: props.persistMouse, status, unavailable: reader && 'the mouse is left to the terminal while the dashboard is read by a screen reader' }),
    ...fieldCommands(fields),
    ...contactsCommands({
      contacts: contacts.commands,
      getState: contacts.getState,
      status,
      refreshSearch: search.refresh,
      copy: props.onCopy,
      exportContacts: (marked) => exportContacts({ client, status, exportDir: props.exportDir, ellipsis: glyphs.ellipsis }, marked),
    }),
    ...searchCommands({ search, contacts: contacts.commands, getContacts: contacts.getState, status, pageRows: () => pageRows.current }),
    ...tickerCommands({ ticker: ticker.commands, picker: pickerAccess, symbols, columns: columnsEditor.commands, toggleMoney, status }),
    ...listsCommands({ lists: lists.commands, selectedSymbol: selected }),
    ...detailCommands({
      detail,
      selectedSymbol: selected,
      shownOrder: () => displayOrder(ticker.getState()),
      select: ticker.commands.select,
      ensureSymbols: symbols.ensure,
    }),
    ...alertsCommands({ alerts: alertsView, symbolInView: () => detail.current()?.symbol ?? selected() }),
    ...holdingsCommands({ holdings: holdingsEditor, selectedSymbol: selected }),
    ...readerCommands({
      output: reader,
      // The rows of the pane when it is what the keys act on; over it (a menu, a view), where that is.
      paneRows: () => {
        const base = liveScopes().find((scope) => scope !== 'reader');
        if (base === 'ticker') return tickerRows(ticker.getState(), symbols.names);
        if (base === 'contacts') return contactsRows(contacts.getState());
        return [];
      },
      statusSentence: () => statusSentence(props.target, status.getSnapshot(), status.latencyMs, ticker.getState(), Date.now()),
    }),
  };
  /** Runs a command; a counted one (COUNTED) moves `count` at once. */
  const run = (command: Command, scope: Scope, count: number): void => {
    commands[command](scope, count);
    // A form refused again for the same reason is said again: nothing on screen changed.
    if (command === 'field.submit') reader?.submitted();
  };

  /** The scopes as they are now, after whatever the keys before this one changed. */
  const liveScreen = (): ScreenNow => ({
      focus: currentFocus(),
      overlay: overlay.current(),
      contacts: contacts.getState(),
      pickerOpen: getPicker().open,
      hidden: hiddenRef.current,
      detailOpen: detail.current() !== undefined,
      paneModal: tickerModal(columnsEditor.commands.isOpen(), holdingsEditor.current(), lists.commands.current()),
      cover: alertsScopeOf(alertsView.current()),
      searching: search.isOpen(),
      reader: reader !== undefined,
    });
  const liveScopes = () => activeScopes(liveScreen());

  useKeyRouter({
    liveScopes,
    run,
    field: (scope) => fields[scope],
    quitting,
    exit,
    leaveNow: props.onLeaveNow,
    contactsMove: contacts.commands,
    status,
    mouse: { on: mouseOn, areas: mouseAreas },
  });

  if (reader) {
    const parts = (): ScreenParts => ({
      focus,
      overlay: overlay.kind,
      scopesBehind: activeScopes({ ...liveScreen(), overlay: undefined }),
      messages: snapshot.history,
      contacts: contacts.state,
      search: { view: search.view, hits: search.hits, progress: search.progress },
      ticker: ticker.getState(),
      names: symbols.names,
      picker: pickerShown,
      lists: lists.menu,
      columnsCursor: columnsEditor.cursor,
      holdings: holdingsEditor.editor,
      lotsOf,
      moneyHidden,
      alerts: alertsView.view.open && alertsData ? { view: alertsView.view, alerts: alertsData.alerts, firings: alertsData.firings } : undefined,
      detail: detailModel,
      detailHistory: detailRow ? detailRow.history : undefined,
      now: Date.now(),
      // The whole window, said once as the delete is made: a countdown said each second would drown the rest.
      undoSeconds: Math.round((props.undoWindowMs ?? UNDO_WINDOW_MS) / 1000),
    });
    return <ReaderView output={reader} ticker={ticker.live} parts={parts} />;
  }
  if (layout.kind === 'too-small') return <TooSmall columns={size.columns} rows={size.rows} keys={footerText(scopes)} />;
  const undoHint = footerHint(scopes, {
    contactsUndo: contacts.state.pendingDelete !== undefined || contacts.state.batch !== undefined,
    tickerUndo: tickerRemoved !== undefined,
    marked: contacts.state.marked.size,
  });
  return (
    <MouseAreasContext.Provider value={mouseAreas}>
      <App
        layout={layout}
        contacts={
          <ContactsPane
            state={contacts.state}
            focused={focus === 'contacts'}
            undoClock={ledger.now}
            search={
              search.view.open
                ? { query: search.view.query, cursor: search.view.cursor, hits: search.hits, progress: search.progress, marked: contacts.state.marked }
                : undefined
            }
            {...layout.contacts}
          />
        }
        ticker={
          <LiveTickerPane
            ticker={ticker.live}
            history={history}
            holdingsVersion={holdingsEditor.version}
            moneyHidden={moneyHidden}
            names={symbols.names}
            picker={pickerShown}
            listsMenu={lists.menu}
            columnsCursor={columnsEditor.cursor}
            holdingsEditor={lotsShown}
            motion={props.motion ?? true}
            focused={focus === 'ticker'}
            {...layout.ticker}
          />
        }
        help={cover({
          width: layout.width,
          height: layout.panes,
          help: pages.help && { layout: pages.help, page: overlay.offset },
          log: overlay.kind === 'messages' ? { lines: pages.logLines, top: Math.min(overlay.offset, pages.logMax) } : undefined,
          alerts:
            alertsView.view.open && alertsData
              ? { view: alertsView.view, data: alertsData, unknown: tickerUnknown, history: history && { unavailable: history.unavailable } }
              : undefined,
          detail: detailModel && { model: detailModel, name: symbols.names.get(detailModel.symbol), unknown: tickerUnknown.has(detailModel.symbol) },
        })}
        status={<PolledStatusLine status={snapshot} source={status} polls={ticker.live} target={props.target} width={layout.width} />}
        footer={<Footer scopes={scopes} width={layout.width} extra={undoHint} />}
      />
    </MouseAreasContext.Provider>
  );
}
