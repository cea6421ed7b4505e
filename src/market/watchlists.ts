// Named watchlists, each with its own symbols in its own order and its own sort: the rules for
// making, renaming, removing and switching them, as plain functions over plain data.

export type SortOrder = 'watchlist' | 'symbol' | 'price' | 'change' | 'session' | 'volume';
export const SORT_ORDERS: readonly SortOrder[] = ['watchlist', 'symbol', 'price', 'change', 'session', 'volume'];

/** The watchlist's columns besides the symbol, which always comes first. */
export type ColumnName = 'name' | 'price' | 'change' | 'session' | 'volume' | 'trend' | 'age' | HoldingsColumn;
/** The columns of one's own holdings: quantity, market value, the day's P/L, P/L and P/L %. */
export type HoldingsColumn = 'qty' | 'value' | 'day_pl' | 'pl' | 'pl_pct';
/** A new list shows the market's columns; the holdings columns are chosen in the columns editor. */
export const MARKET_COLUMNS: readonly ColumnName[] = ['name', 'price', 'change', 'session', 'volume', 'trend', 'age'];
export const HOLDINGS_COLUMNS: readonly HoldingsColumn[] = ['qty', 'value', 'day_pl', 'pl', 'pl_pct'];
export const COLUMN_NAMES: readonly ColumnName[] = [...MARKET_COLUMNS, ...HOLDINGS_COLUMNS];

export interface Watchlist {
  name: string;
  symbols: string[];
  sort: SortOrder;
  /** Largest (or Z) first; watchlist order reversed. */
  descending: boolean;
  /** The columns shown, in order; the price is always among them. */
  columns: ColumnName[];
}

export interface Watchlists {
  lists: Watchlist[];
  /** Index of the list shown. */
  active: number;
}

/** The name the one list of an older config is given. */
export const FIRST_LIST_NAME = 'Watchlist';
export const LIST_NAME_MAX = 24;
/** Number keys switch to the first nine. */
export const MAX_LISTS = 20;

export const newList = (name: string, symbols: readonly string[] = []): Watchlist => ({
  name,
  symbols: [...symbols],
  sort: 'watchlist',
  descending: false,
  columns: [...MARKET_COLUMNS],
});

/**
 * Columns as a hand-edited file may give them: known names once each, in the order given, the
 * price put first when left out (a row without its price says nothing).
 */
export function cleanColumns(given: readonly string[]): ColumnName[] {
  const known = [...new Set(given)].filter((c): c is ColumnName => (COLUMN_NAMES as readonly string[]).includes(c));
  return known.includes('price') ? known : ['price', ...known];
}

/** The column `name` shown or hidden; the price cannot be hidden. */
export function toggleColumn(columns: readonly ColumnName[], name: ColumnName): ColumnName[] | string {
  if (name === 'price') return 'the price is always shown';
  if (columns.includes(name)) return columns.filter((c) => c !== name);
  // Back where it stands among all the columns, after those before it that are shown.
  const before = COLUMN_NAMES.slice(0, COLUMN_NAMES.indexOf(name));
  const at = columns.reduce((last, c, i) => (before.includes(c) ? i + 1 : last), 0);
  return [...columns.slice(0, at), name, ...columns.slice(at)];
}

/** The columns with `name` moved `by` places (it must be shown). */
export function moveColumn(columns: readonly ColumnName[], name: ColumnName, by: number): ColumnName[] {
  const from = columns.indexOf(name);
  const to = from + by;
  if (from < 0 || to < 0 || to >= columns.length) return [...columns];
  const moved = [...columns];
  [moved[from], moved[to]] = [moved[to]!, moved[from]!];
  return moved;
}

/** Why `name` cannot name a list (besides `except`, the list being renamed), or undefined. */
export function listNameProblem(lists: readonly Watchlist[], name: string, except?: number): string | undefined {
  const trimmed = name.trim();
  if (trimmed === '') return 'a list needs a name';
  if ([...trimmed].length > LIST_NAME_MAX) return `a list name has at most ${LIST_NAME_MAX} characters`;
  // Controls and the like would be shown as nothing, and two names would look alike.
  if (/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(trimmed)) return 'a list name cannot hold control or invisible characters';
  // The command line takes either a list's name or symbols: a comma would read as the latter.
  if (trimmed.includes(',')) return 'a list name cannot hold a comma';
  const taken = lists.findIndex((l, i) => i !== except && l.name.toLowerCase() === trimmed.toLowerCase());
  if (taken >= 0) return `there is already a list named ${lists[taken]!.name}`;
  return undefined;
}

/** The lists with a new empty one at the end, shown; or why not. */
export function createList(w: Watchlists, name: string): Watchlists | string {
  if (w.lists.length >= MAX_LISTS) return `at most ${MAX_LISTS} lists`;
  const problem = listNameProblem(w.lists, name);
  if (problem) return problem;
  return { lists: [...w.lists, newList(name.trim())], active: w.lists.length };
}

export function renameList(w: Watchlists, index: number, name: string): Watchlists | string {
  const problem = listNameProblem(w.lists, name, index);
  if (problem) return problem;
  return { ...w, lists: w.lists.map((l, i) => (i === index ? { ...l, name: name.trim() } : l)) };
}

/** Without the list at `index`; the last list cannot go (the ticker always shows one). */
export function removeList(w: Watchlists, index: number): Watchlists | string {
  if (w.lists.length <= 1) return 'the last list cannot be deleted; empty it instead';
  const lists = w.lists.filter((_, i) => i !== index);
  const active = w.active > index ? w.active - 1 : Math.min(w.active, lists.length - 1);
  return { lists, active };
}

/** `symbol` taken from the list shown and put at the end of list `to` (once). */
export function moveSymbolToList(w: Watchlists, symbol: string, to: number): Watchlists {
  if (to === w.active) return w;
  return {
    ...w,
    lists: w.lists.map((l, i) => {
      if (i === w.active) return { ...l, symbols: l.symbols.filter((s) => s !== symbol) };
      if (i === to && !l.symbols.includes(symbol)) return { ...l, symbols: [...l.symbols, symbol] };
      return l;
    }),
  };
}

/** The list whose name is `name`, any case. */
export const findList = (lists: readonly Watchlist[], name: string): number =>
  lists.findIndex((l) => l.name.toLowerCase() === name.trim().toLowerCase());
