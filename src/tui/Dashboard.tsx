// The container: owns the state hooks, routes every key through the keymap, and hands the
// views what to draw. Views never call the client; this never draws.
import { useApp, useStdout } from 'ink';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { App } from './App.js';
import { type DashboardProps, useOwnLedger } from './dashboard-props.js';
import { Footer, footerText } from './chrome/Footer.js';
import { footerHint } from './chrome/footer-hint.js';
import { HelpOverlay } from './chrome/HelpOverlay.js';
import { messageLines } from './chrome/message-log.js';
import { MessageLog, messageLogRows } from './chrome/MessageLog.js';
import { helpLines, layoutHelp } from './chrome/help-layout.js';
import { PolledStatusLine } from './chrome/StatusLine.js';
import { ContactsPane, contactRowsFor } from './contacts/ContactsPane.js';
import type { Command, Scope } from './keys/keymap.js';
import { useKeyRouter } from './keys/use-key-router.js';
import { type CommandTable, eachOf } from './keys/commands.js';
import { FieldListening } from './components/TextField.js';
import { fieldCommands, type OpenFields, typeInto } from './components/field-commands.js';
import { overlayCommands } from './chrome/overlay-commands.js';
import { mouseCommands } from './mouse/mouse-commands.js';
import { contactsCommands, contactsFields } from './contacts/contacts-commands.js';
import { exportContacts } from './contacts/export-contacts.js';
import { searchCommands, searchFields } from './search/search-commands.js';
import { pickerFields, tickerCommands } from './ticker/ticker-commands.js';
import { listsCommands, listsFields } from './lists/lists-commands.js';
import { detailCommands } from './detail/detail-commands.js';
import { alertsCommands, alertsFields } from './alerts/alerts-commands.js';
import { holdingsCommands, holdingsFields } from './holdings/holdings-commands.js';
import { activeScopes, type PaneName } from './keys/scopes.js';
import { MouseAreas, MouseAreasContext } from './mouse/mouse-areas.js';
import { computeLayout } from './layout.js';
import { useLifecycle } from './lifecycle.js';
import { initialPickerState, pickerReducer, rankSymbols } from './ticker/picker-state.js';
import { useStatus } from './state/status.js';
import { useContacts } from './contacts/use-contacts.js';
import { isLoading } from './contacts/contacts-state.js';
import { useContactSearch } from './search/use-contact-search.js';
import type { Contact } from '../api/types.js';
import { useSymbols } from './ticker/use-symbols.js';
import { useSelected, useLatestReducer } from './state/external-state.js';
import { useOverlay } from './state/use-overlay.js';
import { useTicker } from './ticker/use-ticker.js';
import { useTerminalSize } from './terminal/terminal-size.js';
import { LiveTickerPane } from './ticker/LiveTickerPane.js';
import { DetailView } from './detail/DetailView.js';
import { useDetail } from './detail/use-detail.js';
import { useDetailView } from './detail/use-detail-view.js';
import { displayOrder, selectedSymbol } from './ticker/ticker-state.js';
import { useGlyphs } from './style/glyphs.js';
import { type ListsMenu, useListsMenu } from './lists/use-lists-menu.js';
import { useColumnsEditor } from './ticker/use-columns-editor.js';
import { type AlertsView as AlertsViewState, readAlerts, useAlertsView } from './alerts/use-alerts-view.js';
import { AlertsView } from './alerts/AlertsView.js';
import { type HoldingsEditor as HoldingsEditorState, useHoldingsEditor } from './holdings/use-holdings-editor.js';
import { localToday } from '../text/time.js';

export type { DashboardProps } from './dashboard-props.js';

/** The scope of the watchlists menu as it stands: a name being typed, a delete asked, or the list. */
const listsScopeOf = (menu: ListsMenu): Scope | undefined =>
  !menu.open ? undefined : menu.name ? 'ticker.list-name' : menu.confirmDelete ? 'ticker.list-confirm' : 'ticker.lists';

/** The alerts view's scope as it stands: its form, a delete asked, or the list. */
const alertsScopeOf = (view: AlertsViewState): Scope | undefined =>
  !view.open ? undefined : view.form ? 'alerts.form' : view.confirmDelete ? 'alerts.confirm' : 'alerts';

/** The holdings editor's scope as it stands. */
const holdingsScopeOf = (editor: HoldingsEditorState): Scope | undefined =>
  !editor.open ? undefined : editor.form ? 'holdings.form' : editor.confirmDelete ? 'holdings.confirm' : 'holdings';

export function Dashboard(props: DashboardProps) {
  const { client, status } = props;
  const { stdout } = useStdout();
  const measured = useTerminalSize(stdout);
  const size = props.size ?? measured;
  const layout = computeLayout(size);
  // Too small to show the panes: keys act on nothing, and the page keeps its size (a reload to
  // fit a screen nobody sees would move the selection a delete prompt was about).
  const hidden = layout.kind === 'too-small';
  const hiddenRef = useRef(hidden);
  hiddenRef.current = hidden;
  const pageRows = useRef(5);
  if (layout.kind !== 'too-small') pageRows.current = contactRowsFor(layout.contacts.height);
  const { exit } = useApp();

  const ledger = useOwnLedger(props.ledger);
  // The search index keeps up with what the contacts pane reads and changes (the hook comes after).
  const searchChanged = useRef<((change: { put: readonly Contact[] } | { gone: readonly string[] }) => void) | undefined>(undefined);
  const contacts = useContacts(client, status, pageRows.current, ledger, props.undoWindowMs, (change) => searchChanged.current?.(change));
  const search = useContactSearch({
    client,
    history: props.history,
    source: props.contactsSource,
    status,
    busy: () => contacts.commands.moving() || isLoading(contacts.getState()),
    hidden: (id) => {
      const s = contacts.getState();
      return s.deleted.has(id) || s.pendingDelete?.contact.id === id || s.batch?.ids.has(id) === true;
    },
  });
  searchChanged.current = search.changed;
  const { holdUndo, releaseUndo } = contacts.commands;
  useEffect(() => {
    if (!hidden) return undefined;
    holdUndo('hidden');
    return () => releaseUndo('hidden');
  }, [hidden, holdUndo, releaseUndo]);
  // Time spent in the shell does not count against an undo: the window has what it had left on fg.
  useLifecycle('suspend', useCallback(() => holdUndo('suspended'), [holdUndo]));
  useLifecycle('resume', useCallback(() => releaseUndo('suspended'), [releaseUndo]));
  const ticker = useTicker(client, status, {
    watchlist: props.watchlist,
    intervalS: props.intervalS,
    persist: props.persistWatchlist,
    refresh: props.refreshSettings,
    onPrices: props.history && ((asked, quotes, at) => {
      const history = props.history!;
      if (quotes) history.record(quotes, at);
      // What crossed what, in the status line (and the log), and to the terminal.
      for (const firing of history.alertsOnPoll(asked, quotes, at)) {
        status.notice(`alert: ${firing.text}`);
        ticker.commands.alerted(firing.symbol, firing.at);
        props.onAlert?.(firing);
      }
    }),
    extraSymbols: props.history && (() => props.history!.alertSymbols()),
    // x's undo runs out as a delete's does, on the same clock: the footer's offer goes with it.
    undoWindowMs: props.undoWindowMs,
    undoClock: ledger.now,
  });
  const detail = useDetail();
  const glyphs = useGlyphs();
  const { lists: tickerLists, changeLists } = ticker.commands;
  const listsOwner = useMemo(() => ({ lists: tickerLists, change: changeLists }), [tickerLists, changeLists]);
  const lists = useListsMenu(listsOwner, status);
  const { setColumns } = ticker.commands;
  // The latest ticker state, read when asked (a stable function, unlike `ticker`, made each render).
  const { getState: getTicker } = ticker;
  const columnsOwner = useMemo(
    () => ({ columns: () => getTicker().lists[getTicker().active]!.columns, change: setColumns }),
    [getTicker, setColumns],
  );
  const columnsEditor = useColumnsEditor(columnsOwner, status);
  const history = props.history;
  // The alerts and the lots are both kept with the price history.
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
  const alertsView = useAlertsView(alertsOwner, status);
  const holdingsOwner = useMemo(
    () => ({
      ...booksOwner,
      unknown: (symbol: string) => getTicker().unknown.has(symbol),
      today: () => localToday(),
    }),
    [booksOwner, getTicker],
  );
  const holdingsEditor = useHoldingsEditor(holdingsOwner, status);
  const [moneyHidden, setMoneyHidden] = useState(props.hideMoney ?? false);
  const toggleMoney = (): void => {
    const hidden = !moneyHidden;
    setMoneyHidden(hidden);
    try {
      props.persistHideMoney?.(hidden);
      status.notice(hidden ? 'money hidden: $ shows it again' : 'money shown');
    } catch (error) {
      status.notice(`${hidden ? 'money hidden' : 'money shown'} for this session; not saved: ${(error as Error).message}`);
    }
  };
  const mouseOn = useRef(props.mouse === true);
  const [mouseAreas] = useState(() => new MouseAreas());
  const symbols = useSymbols(client, status);
  const [picker, dispatchPicker, getPicker] = useLatestReducer(pickerReducer, () => initialPickerState);
  // Focus and help live in state for drawing and in refs for the key handler, which may take
  // several keys before the next render.
  const [focus, setFocusState] = useState<PaneName>('contacts');
  const focusRef = useRef<PaneName>('contacts');
  const setFocus = (pane: PaneName) => {
    focusRef.current = pane;
    setFocusState(pane);
  };
  const overlay = useOverlay();
  // The help and the log take the panes' place (border, padding and a title line inside).
  const overlayWidth = layout.kind === 'too-small' ? 0 : layout.width - 4;
  const overlayRows = layout.kind === 'too-small' ? 0 : layout.panes - 3;
  // Laid out only while the help is open: measuring every key's text cost ~11 ms of each start.
  const helpOpen = overlay.kind === 'help';
  const helpLayout = useMemo(() => (helpOpen ? layoutHelp(helpLines(), overlayWidth, overlayRows) : undefined), [helpOpen, overlayWidth, overlayRows]);
  const helpLastPage = (helpLayout?.pages.length ?? 1) - 1;
  const snapshot = useStatus(status);
  // Wrapped only while the log is open: the history changes with every notice.
  const logOpen = overlay.kind === 'messages';
  const logLines = useMemo(() => (logOpen ? messageLines(snapshot.history, overlayWidth) : []), [logOpen, snapshot.history, overlayWidth]);
  const logMax = Math.max(0, logLines.length - messageLogRows(overlayRows + 3));
  const quitting = useRef(false);

  const matches = useMemo(
    () => (symbols.catalogue ? rankSymbols(symbols.catalogue, picker.query) : undefined),
    [symbols.catalogue, picker.query],
  );
  const scopes = activeScopes({
    focus,
    overlay: overlay.kind,
    contacts: contacts.state,
    pickerOpen: picker.open,
    hidden,
    detailOpen: detail.state !== undefined,
    paneModal: columnsEditor.cursor !== undefined ? 'ticker.columns' : (holdingsScopeOf(holdingsEditor.editor) ?? listsScopeOf(lists.menu)),
    cover: alertsScopeOf(alertsView.view),
    searching: search.view.open,
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
  const detailModel = useDetailView(props.history, detail.state, detailRow, {
    width: layout.kind === 'too-small' ? 0 : layout.width,
    height: layout.kind === 'too-small' ? 0 : layout.panes,
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

  const fieldListening = useRef(false);
  const selected = () => selectedSymbol(ticker.getState());
  const pickerAccess = { get: getPicker, dispatch: dispatchPicker };
  const fields: OpenFields = {
    ...contactsFields(contacts.commands, contacts.getState),
    ...searchFields(search),
    ...pickerFields(pickerAccess),
    ...listsFields(lists),
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
      setFocus(focusRef.current === 'contacts' ? 'ticker' : 'contacts');
    }),
    ...overlayCommands({ overlay, helpLastPage, logMax, rows: overlayRows }),
    ...mouseCommands({ on: mouseOn, tell: props.onMouse, persist: props.persistMouse, status }),
    ...fieldCommands(fields, () => fieldListening.current),
    ...contactsCommands({
      contacts: contacts.commands,
      getState: contacts.getState,
      status,
      refreshSearch: search.refresh,
      copy: props.onCopy,
      exportContacts: (marked) => exportContacts({ client, status, exportDir: props.exportDir, ellipsis: glyphs.ellipsis }, marked),
    }),
    ...searchCommands({ search, contacts: contacts.commands, getContacts: contacts.getState, status, pageRows: () => pageRows.current }),
    ...tickerCommands({ ticker: ticker.commands, picker: pickerAccess, symbols, columns: columnsEditor, toggleMoney, status }),
    ...listsCommands({ lists, selectedSymbol: selected }),
    ...detailCommands({
      detail,
      selectedSymbol: selected,
      shownOrder: () => displayOrder(ticker.getState()),
      select: ticker.commands.select,
      ensureSymbols: symbols.ensure,
    }),
    ...alertsCommands({ alerts: alertsView, symbolInView: () => detail.current()?.symbol ?? selected() }),
    ...holdingsCommands({ holdings: holdingsEditor, selectedSymbol: selected }),
  };
  /** Runs a command; a counted one (COUNTED) moves `count` at once. */
  const run = (command: Command, scope: Scope, count: number): void => commands[command](scope, count);
  /** Keys typed before a just-opened field takes them edit it as the field would have. */
  const feedField = (scope: Scope, keys: string): void => typeInto(fields[scope], keys);

  /** The scopes as they are now, after whatever the keys before this one changed. */
  const liveScopes = () =>
    activeScopes({
      focus: focusRef.current,
      overlay: overlay.current(),
      contacts: contacts.getState(),
      pickerOpen: getPicker().open,
      hidden: hiddenRef.current,
      detailOpen: detail.current() !== undefined,
      paneModal: columnsEditor.isOpen() ? 'ticker.columns' : (holdingsScopeOf(holdingsEditor.current()) ?? listsScopeOf(lists.current())),
      cover: alertsScopeOf(alertsView.current()),
      searching: search.isOpen(),
    });

  useKeyRouter({
    liveScopes,
    run,
    feedField,
    fieldListening,
    quitting,
    exit,
    contactsMove: contacts.commands,
    status,
    mouse: { on: mouseOn, areas: mouseAreas },
  });

  if (layout.kind === 'too-small') {
    return (
      <App
        layout={layout}
        columns={size.columns}
        rows={size.rows}
        contacts={null}
        ticker={null}
        help={undefined}
        status={null}
        footer={null}
        hiddenKeys={footerText(scopes)}
      />
    );
  }
  const undoHint = footerHint(scopes, {
    contactsUndo: contacts.state.pendingDelete !== undefined || contacts.state.batch !== undefined,
    tickerUndo: tickerRemoved !== undefined,
    marked: contacts.state.marked.size,
  });
  return (
    <MouseAreasContext.Provider value={mouseAreas}>
      <FieldListening.Provider value={fieldListening}>
        <App
          layout={layout}
          columns={size.columns}
          rows={size.rows}
          contacts={
            <ContactsPane
              state={contacts.state}
              commands={contacts.commands}
              focused={focus === 'contacts'}
              undoClock={ledger.now}
              search={
                search.view.open
                  ? { query: search.view.query, cursor: search.view.cursor, hits: search.hits, progress: search.progress, onQuery: search.edit, marked: contacts.state.marked }
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
              picker={{ ...picker, matches }}
              onPickerQuery={(query) => dispatchPicker({ type: 'query-edited', query })}
              listsMenu={lists.menu}
              columnsCursor={columnsEditor.cursor}
              holdingsEditor={
                holdingsEditor.editor.open ? { editor: holdingsEditor.editor, lotsOf: holdingsEditor.lots, onField: holdingsEditor.editField, hidden: moneyHidden } : undefined
              }
              motion={props.motion ?? true}
              onListName={lists.editName}
              focused={focus === 'ticker'}
              {...layout.ticker}
            />
          }
          help={
            helpLayout ? (
              <HelpOverlay width={layout.width} height={layout.panes} layout={helpLayout} page={overlay.offset} />
            ) : overlay.kind === 'messages' ? (
              <MessageLog width={layout.width} height={layout.panes} lines={logLines} top={Math.min(overlay.offset, logMax)} />
            ) : alertsView.view.open && alertsData ? (
              <AlertsView
                view={alertsView.view}
                alerts={alertsData.alerts}
                firings={alertsData.firings}
                unknown={tickerUnknown}
                problem={alertsData.problem ?? (history ? (history.unavailable && `alerts are kept with the price history, which cannot be opened: ${history.unavailable}`) : 'prices are not recorded in this run, and alerts are kept with them')}
                onField={alertsView.editField}
                now={Date.now()}
                width={layout.width}
                height={layout.panes}
              />
            ) : detailModel ? (
              <DetailView
                model={detailModel}
                name={symbols.names.get(detailModel.symbol)}
                unknown={tickerUnknown.has(detailModel.symbol)}
                width={layout.width}
                height={layout.panes}
              />
            ) : undefined
          }
          status={<PolledStatusLine status={snapshot} source={status} polls={ticker.live} target={props.target} width={layout.width} />}
          footer={<Footer scopes={scopes} width={layout.width} extra={undoHint} />}
        />
      </FieldListening.Provider>
    </MouseAreasContext.Provider>
  );
}
