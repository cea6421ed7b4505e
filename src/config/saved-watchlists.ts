// The named watchlists as the config file keeps them and as the dashboard holds them: read (with
// what a hand edit may hold made right) and written back (with what a newer release keeps in a
// list left as it was).
import { normaliseSymbols, SYMBOL_PATTERN } from '../api/rules.js';
import { cleanColumns, COLUMN_NAMES, findList, FIRST_LIST_NAME, newList, type Watchlist, type Watchlists } from '../market/watchlists.js';
import type { ConfigFile, ConfigRead, SavedWatchlist } from './config-file.js';

/**
 * The lists the config keeps: its named ones, or an older release's one list as "Watchlist" (it
 * becomes the named lists at the first save, and is never lost). A hand-edited config may hold
 * "aapl", a symbol twice or one that cannot be: the ticker keys rows by the form the API answers with.
 */
export function savedLists(config: ConfigFile): Watchlists | undefined {
  const clean = (symbols: readonly string[]) => normaliseSymbols(symbols).filter((s) => SYMBOL_PATTERN.test(s));
  if (config.watchlists) {
    const lists = config.watchlists.map((l) => ({
      ...newList(l.name.trim(), clean(l.symbols)),
      sort: l.sort ?? 'watchlist',
      descending: l.descending ?? false,
      ...(l.columns && { columns: cleanColumns(l.columns) }),
    }));
    const active = config.active_watchlist === undefined ? 0 : Math.max(0, findList(lists, config.active_watchlist));
    return { lists, active };
  }
  return config.watchlist ? { lists: [newList(FIRST_LIST_NAME, clean(config.watchlist))], active: 0 } : undefined;
}

/** What is wrong with the file's lists, when they cannot be read (an older release's list is not needed beside named ones). */
export function savedListsProblem({ config, malformed }: ConfigRead): string | undefined {
  return malformed.watchlists ?? (config.watchlists ? undefined : malformed.watchlist);
}

/**
 * A list as the file keeps it. Whatever it held that this release does not manage stays: keys
 * of its own, and columns it does not know (after those it shows).
 */
export function savedForm(list: Watchlist, read: SavedWatchlist | undefined): SavedWatchlist {
  const unknownColumns = (read?.columns ?? []).filter((c) => !(COLUMN_NAMES as readonly string[]).includes(c));
  return { ...read, name: list.name, symbols: [...list.symbols], sort: list.sort, descending: list.descending, columns: [...list.columns, ...unknownColumns] };
}

/**
 * The keys that save `lists`: the named lists (each with what the file's list of that name held
 * besides), the one shown, and its symbols again for an older tickbook, which reads only those.
 */
export function savedListKeys(lists: Watchlists, config: ConfigFile): Pick<ConfigFile, 'watchlists' | 'active_watchlist' | 'watchlist'> {
  const asRead = new Map((config.watchlists ?? []).map((l) => [l.name.trim().toLowerCase(), l]));
  const shown = lists.lists[lists.active]!;
  return {
    watchlists: lists.lists.map((list) => savedForm(list, asRead.get(list.name.toLowerCase()))),
    active_watchlist: shown.name,
    watchlist: [...shown.symbols],
  };
}
