// The ticker pane's state: the watchlist, the prices tickbook has seen (its own sparkline
// history), sorting, reordering and removal with undo, and the polling schedule's inputs.
import type { PricingResult } from '../../api/types.js';
import { type ColumnName, newList, SORT_ORDERS, type SortOrder, type Watchlist, type Watchlists } from '../../market/watchlists.js';
import { relativeTime } from '../../text/time.js';

export { SORT_ORDERS, type SortOrder };

export const DEFAULT_WATCHLIST: readonly string[] = [
  'AAPL', 'MSFT', 'NVDA', 'AMZN', 'GOOGL', 'META', 'TSLA', 'JPM', 'VOD.L', 'SAP.DE', '7203.T', 'SHOP.TO',
];
export const MIN_INTERVAL_S = 1;
export const MAX_INTERVAL_S = 60;
/** Prices kept per symbol for its sparkline. */
export const HISTORY = 30;
/** Rows whose last price is older than this many intervals are shown as stale. */
export const STALE_INTERVALS = 3;


export interface SymbolRow {
  price: number;
  /** The price at the tick before this one. */
  previous: number | undefined;
  /** The first price this session saw. */
  first: number;
  volume: number;
  /** Recent prices, oldest first, for the sparkline. */
  history: number[];
  updatedAt: number;
}

export interface TickerState {
  /** Every named list; the one shown is `lists[active]`, whose symbols and sort are these: */
  lists: Watchlist[];
  active: number;
  watchlist: string[];
  /**
   * Bounded: a row per watchlist symbol, and the one last removed (undo brings its prices back);
   * a tick drops the rest. Each row's history is at most HISTORY prices.
   */
  rows: Readonly<Record<string, SymbolRow>>;
  /** Symbols the server does not know. */
  unknown: ReadonlySet<string>;
  /** Symbols whose last record was not a price, with why (their rows keep the last good one). */
  rejected: ReadonlyMap<string, string>;
  /** When an alert on the symbol last fired, for its row to stand out a moment (symbols on the list only). */
  alerted: ReadonlyMap<string, number>;
  intervalS: number;
  paused: boolean;
  sort: SortOrder;
  /** The sort's order flipped (S): smallest first, Z to A, the watchlist from its end. */
  descending: boolean;
  cursor: number;
  /** The last symbol removed, for undo, while its undo window lasts (the ticker's controller keeps the time). */
  removed: { symbol: string; index: number } | undefined;
  lastSuccessAt: number | undefined;
  /** Consecutive failed polls, for backing off. */
  failures: number;
  /** When the next poll is due, for the countdown. */
  nextPollAt: number | undefined;
}

export type TickerAction =
  | { type: 'poll-succeeded'; result: PricingResult; at: number }
  | { type: 'poll-failed' }
  | { type: 'alert-fired'; symbol: string; at: number }
  | { type: 'poll-scheduled'; at: number | undefined }
  | { type: 'pause-toggled' }
  | { type: 'interval-changed'; by: number }
  /** The interval another window saved. */
  | { type: 'interval-set'; seconds: number }
  | { type: 'sort-cycled' }
  | { type: 'sort-flipped' }
  /** The columns of the list shown, in order. */
  | { type: 'columns-changed'; columns: ColumnName[] }
  /** Lists made, renamed, removed or a symbol moved between them; the active one shown. */
  | { type: 'lists-changed'; lists: Watchlists }
  | { type: 'cursor-moved'; by: number }
  | { type: 'cursor-to'; index: number | 'last' }
  | { type: 'symbol-moved'; by: number }
  | { type: 'symbol-removed' }
  | { type: 'removal-undone' }
  /** The removal's undo window is over: u puts nothing back now. */
  | { type: 'removal-expired' }
  | { type: 'symbol-added'; symbol: string };

/** The ticker at start: `lists` as saved (or one unnamed list of symbols for this run). */
export function initialTickerState(lists: Watchlists | readonly string[], intervalS: number): TickerState {
  const w: Watchlists = isWatchlists(lists) ? lists : { lists: [newList('Watchlist', lists)], active: 0 };
  const shown = w.lists[w.active]!;
  // The list shown holds the very array on screen: a change to one is a change to the other.
  const watchlist = [...shown.symbols];
  return {
    lists: w.lists.map((l, i) => (i === w.active ? { ...l, symbols: watchlist } : l)),
    active: w.active,
    watchlist,
    descending: shown.descending,
    rows: {},
    unknown: new Set(),
    rejected: new Map(),
    alerted: new Map(),
    intervalS: clampInterval(intervalS),
    paused: false,
    sort: shown.sort,
    cursor: 0,
    removed: undefined,
    lastSuccessAt: undefined,
    failures: 0,
    nextPollAt: undefined,
  };
}

const isWatchlists = (value: Watchlists | readonly string[]): value is Watchlists => !Array.isArray(value);

export const clampInterval = (seconds: number): number =>
  Math.min(MAX_INTERVAL_S, Math.max(MIN_INTERVAL_S, Math.round(seconds)));

/** Change since the session's first tick, in percent. */
export const sessionChange = (row: SymbolRow): number => (row.price / row.first - 1) * 100;

/** A row whose price is older than three intervals: shown dimmed, with its age. */
export const isStale = (row: SymbolRow, now: number, intervalS: number): boolean =>
  now - row.updatedAt > STALE_INTERVALS * intervalS * 1000;

/** Seconds until the next retry, when polling is failing; undefined when it is not. */
export const retryInSeconds = (state: TickerState, now: number): number | undefined =>
  state.failures > 0 && state.nextPollAt !== undefined ? Math.max(0, Math.ceil((state.nextPollAt - now) / 1000)) : undefined;

/** While polls fail: how old the prices on screen are ("last prices 40 s ago"), or that none came. */
export function failingSince(state: TickerState, now: number): string | undefined {
  if (state.failures === 0) return undefined;
  return state.lastSuccessAt === undefined ? 'no prices yet' : `last prices ${relativeTime(new Date(state.lastSuccessAt), new Date(now))}`;
}

/** A row's figure a sort orders by, largest first; undefined for a row without a price. */
const FIGURES: Record<Exclude<SortOrder, 'watchlist' | 'symbol'>, (row: SymbolRow) => number> = {
  price: (row) => row.price,
  change: (row) => (row.previous === undefined ? 0 : ((row.price - row.previous) / row.previous) * 100),
  session: sessionChange,
  volume: (row) => row.volume,
};

/**
 * The watchlist in the order on screen: as listed, A to Z, or largest figure first; flipped when
 * descending. Symbols without a price stay last either way.
 */
export function displayOrder(state: TickerState): string[] {
  const list = [...state.watchlist];
  const flip = state.descending ? -1 : 1;
  switch (state.sort) {
    case 'watchlist':
      return state.descending ? list.reverse() : list;
    case 'symbol':
      return list.sort((a, b) => flip * a.localeCompare(b));
    default: {
      const figure = FIGURES[state.sort];
      const value = (s: string) => {
        const row = state.rows[s];
        return row ? figure(row) : undefined;
      };
      return list.sort((a, b) => {
        const [x, y] = [value(a), value(b)];
        if (x === undefined || y === undefined) return (x === undefined ? 1 : 0) - (y === undefined ? 1 : 0);
        return flip * (y - x);
      });
    }
  }
}

export const selectedSymbol = (state: TickerState): string | undefined => displayOrder(state)[state.cursor];

/** The state with the cursor at `cursor`, kept in the list; the same state when that changes nothing (no redraw). */
const clamp = (state: TickerState, cursor: number): TickerState => {
  const kept = Math.max(0, Math.min(cursor, state.watchlist.length - 1));
  return kept === state.cursor ? state : { ...state, cursor: kept };
};

/** How long to wait before the next poll: the interval, longer after failures or when asked. */
export function nextDelayMs(state: TickerState, retryAfterMs?: number): number {
  const base = state.intervalS * 1000;
  const backoff = state.failures > 0 ? Math.min(MAX_INTERVAL_S * 1000, base * 2 ** (state.failures - 1)) : base;
  return Math.max(backoff, retryAfterMs ?? 0);
}

/** Actions after which the selection stays on its symbol, wherever the order puts it. */
const KEEP_SELECTION: ReadonlySet<TickerAction['type']> = new Set(['poll-succeeded', 'symbol-added']);

/**
 * Whether `list` is the one shown, whatever became of it: renamed (its symbols are the very ones
 * on screen) or with a symbol moved away (its name is the one shown; names are unique).
 */
export const isSameList = (state: TickerState, list: Watchlist): boolean =>
  list.symbols === state.watchlist || list.name === state.lists[state.active]?.name;

/** Two sets, or two maps, with the same entries. */
function sameEntries<K, V>(a: ReadonlySet<K> | ReadonlyMap<K, V>, b: ReadonlySet<K> | ReadonlyMap<K, V>): boolean {
  if (a.size !== b.size) return false;
  if (a instanceof Set) {
    for (const key of a) if (!b.has(key)) return false;
    return true;
  }
  const other = b as ReadonlyMap<K, V>;
  for (const [key, value] of a as ReadonlyMap<K, V>) if (!other.has(key) || other.get(key) !== value) return false;
  return true;
}

/** The list shown, as the symbols and sort on screen now have it. */
function withListKept(state: TickerState): TickerState {
  const kept = state.lists[state.active];
  if (!kept || (kept.symbols === state.watchlist && kept.sort === state.sort && kept.descending === state.descending)) return state;
  const lists = state.lists.map((l, i) => (i === state.active ? { ...l, symbols: state.watchlist, sort: state.sort, descending: state.descending } : l));
  return { ...state, lists };
}

export function tickerReducer(state: TickerState, action: TickerAction): TickerState {
  const next = withListKept(step(state, action));
  if (next === state || !KEEP_SELECTION.has(action.type)) return next;
  // Sorted by change or volume, a tick reorders the rows: the highlight follows the symbol, so
  // a key acts on what the user chose, not on whatever moved under the cursor.
  const selected = selectedSymbol(state);
  const at = selected === undefined ? -1 : displayOrder(next).indexOf(selected);
  return at < 0 || at === next.cursor ? next : { ...next, cursor: at };
}

function step(state: TickerState, action: TickerAction): TickerState {
  switch (action.type) {
    case 'poll-succeeded': {
      // Rows of symbols no longer watched go (a week of adding and removing symbols would keep
      // them all otherwise); the one removed last stays for undo.
      const rows: Record<string, SymbolRow> = {};
      const kept = new Set(state.removed ? [...state.watchlist, state.removed.symbol] : state.watchlist);
      for (const symbol of kept) {
        const row = state.rows[symbol];
        if (row) rows[symbol] = row;
      }
      for (const quote of action.result.quotes) {
        // An answer for a list left behind (switched away while it was asked) is not this one's.
        if (!kept.has(quote.symbol)) continue;
        const old = rows[quote.symbol];
        rows[quote.symbol] = {
          price: quote.price,
          previous: old?.price,
          first: old?.first ?? quote.price,
          volume: quote.volume,
          history: [...(old?.history ?? []), quote.price].slice(-HISTORY),
          updatedAt: action.at,
        };
      }
      const rejected = new Map<string, string>();
      for (const { symbol, reason } of action.result.rejected) if (symbol !== undefined) rejected.set(symbol, reason);
      const unknown = new Set(action.result.unknown);
      // The same as before is the same object: what selects them is not drawn again each poll.
      return {
        ...state,
        rows,
        unknown: sameEntries(unknown, state.unknown) ? state.unknown : unknown,
        rejected: sameEntries(rejected, state.rejected) ? state.rejected : rejected,
        lastSuccessAt: action.at,
        failures: 0,
      };
    }
    case 'alert-fired': {
      if (!state.watchlist.includes(action.symbol)) return state;
      // Only the list's symbols are kept: the map never outgrows the list.
      const alerted = new Map([...state.alerted].filter(([symbol]) => state.watchlist.includes(symbol)));
      alerted.set(action.symbol, action.at);
      return { ...state, alerted };
    }
    case 'poll-failed':
      return { ...state, failures: state.failures + 1 };
    case 'poll-scheduled':
      return { ...state, nextPollAt: action.at };
    case 'pause-toggled':
      return { ...state, paused: !state.paused };
    case 'interval-changed':
      return { ...state, intervalS: clampInterval(state.intervalS + action.by) };
    case 'interval-set':
      return { ...state, intervalS: clampInterval(action.seconds) };
    case 'sort-cycled': {
      const selected = selectedSymbol(state);
      const sort = SORT_ORDERS[(SORT_ORDERS.indexOf(state.sort) + 1) % SORT_ORDERS.length]!;
      const next = { ...state, sort, descending: false };
      // The selection follows its symbol into the new order.
      return clamp(next, selected ? displayOrder(next).indexOf(selected) : 0);
    }
    case 'columns-changed':
      return { ...state, lists: state.lists.map((l, i) => (i === state.active ? { ...l, columns: action.columns } : l)) };
    case 'sort-flipped': {
      const selected = selectedSymbol(state);
      const next = { ...state, descending: !state.descending };
      return clamp(next, selected ? displayOrder(next).indexOf(selected) : 0);
    }
    case 'lists-changed': {
      const { lists, active } = action.lists;
      const shown = lists[active]!;
      // Another list shown starts from its top, and an undo of a removal stays with the list it
      // was made in; the same list renamed, moved up by a delete or with a symbol moved away
      // keeps both.
      const switched = !isSameList(state, shown);
      const next = { ...state, lists, active, watchlist: shown.symbols, sort: shown.sort, descending: shown.descending, removed: switched ? undefined : state.removed };
      return clamp(next, switched ? 0 : state.cursor);
    }
    case 'cursor-moved':
      return clamp(state, state.cursor + action.by);
    case 'cursor-to':
      return clamp(state, action.index === 'last' ? state.watchlist.length - 1 : action.index);
    case 'symbol-moved': {
      if (state.sort !== 'watchlist' || state.descending) return state;
      const from = state.cursor;
      const to = from + action.by;
      if (to < 0 || to >= state.watchlist.length) return state;
      const watchlist = [...state.watchlist];
      [watchlist[from], watchlist[to]] = [watchlist[to]!, watchlist[from]!];
      return { ...state, watchlist, cursor: to };
    }
    case 'symbol-removed': {
      const symbol = selectedSymbol(state);
      if (!symbol) return state;
      const index = state.watchlist.indexOf(symbol);
      const watchlist = state.watchlist.filter((s) => s !== symbol);
      return clamp({ ...state, watchlist, removed: { symbol, index } }, state.cursor);
    }
    case 'removal-expired':
      return state.removed ? { ...state, removed: undefined } : state;
    case 'removal-undone': {
      if (!state.removed || state.watchlist.includes(state.removed.symbol)) return { ...state, removed: undefined };
      const watchlist = [...state.watchlist];
      watchlist.splice(state.removed.index, 0, state.removed.symbol);
      const next = { ...state, watchlist, removed: undefined };
      return clamp(next, displayOrder(next).indexOf(state.removed.symbol));
    }
    case 'symbol-added': {
      if (state.watchlist.includes(action.symbol)) return state;
      return { ...state, watchlist: [...state.watchlist, action.symbol] };
    }
  }
}
