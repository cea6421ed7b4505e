// The contact list a page at a time, as the API pages it (newest first; all, active or inactive;
// after or before a cursor, which must be a contact of that list): a statement for each, prepared
// once from constant text, and a page's JSON text kept (page-cache.ts) until a write. The list's
// pages are most of the store's statements and all of its cursor rules, so they live apart from
// its writes.
import type Database from 'better-sqlite3';
import { invalid } from './errors.js';
import { PageCache } from './page-cache.js';
import { COLUMNS, type ContactRecord, JSON_ROW } from './contacts-schema.js';

export interface PageQuery {
  limit: number;
  active?: boolean | undefined;
  startingAfter?: string | undefined;
  endingBefore?: string | undefined;
}

export interface Page {
  data: ContactRecord[];
  has_more: boolean;
}

const FILTERS = {
  all: '',
  active: 'AND last_active_at IS NOT NULL',
  inactive: 'AND last_active_at IS NULL',
} as const;

const DIRECTIONS = {
  first: 'ORDER BY created_at DESC, id DESC',
  after: 'AND (created_at, id) < (@cursorCreatedAt, @cursorId) ORDER BY created_at DESC, id DESC',
  before: 'AND (created_at, id) > (@cursorCreatedAt, @cursorId) ORDER BY created_at ASC, id ASC',
} as const;

type FilterName = keyof typeof FILTERS;
type DirectionName = keyof typeof DIRECTIONS;

interface CursorRow {
  id: string;
  created_at: number;
  last_active_at: number | null;
}

/** Bytes of list pages kept: 2 MB, 800 pages of 10 or 80 of 100. */
const PAGE_CACHE_BYTES = 2_000_000;

export interface ContactPages {
  page(owner: string, query: PageQuery): Page;
  /**
   * The same page as the list's JSON body in UTF-8, `{"has_more":…,"data":[…]}`, each contact made
   * JSON by SQLite itself (json_object, in COLUMNS' order): no object a row, no stringify a
   * request; kept (page-cache.ts) until a write.
   */
  pageBody(owner: string, query: PageQuery): Buffer;
  /** Forgets the pages kept: before every write, which may change any page. */
  drop(): void;
}

/** The pages of the list on `db`. */
export function contactPages(db: Database.Database): ContactPages {
  const selectCursor = db.prepare('SELECT id, created_at, last_active_at FROM contacts WHERE owner = ? AND id = ?');
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  const cache = new PageCache(PAGE_CACHE_BYTES, () => dataVersion.get()!);

  const pages = new Map<string, Database.Statement>();
  const jsonPages = new Map<string, Database.Statement<Record<string, string | number>, string>>();
  for (const filter of Object.keys(FILTERS) as FilterName[]) {
    for (const direction of Object.keys(DIRECTIONS) as DirectionName[]) {
      const where = `FROM contacts WHERE owner = @owner ${FILTERS[filter]} ${DIRECTIONS[direction]} LIMIT @take`;
      pages.set(`${filter}:${direction}`, db.prepare(`SELECT ${COLUMNS} ${where}`));
      jsonPages.set(`${filter}:${direction}`, db.prepare<Record<string, string | number>, string>(`SELECT ${JSON_ROW} ${where}`).pluck());
    }
  }
  const readPageBody = (owner: string, query: PageQuery): Buffer => {
    const { key, params } = pageQuery(owner, query);
    const rows = jsonPages.get(key)!.all(params);
    const hasMore = rows.length > query.limit;
    if (hasMore) rows.length = query.limit;
    if (key.endsWith(':before')) rows.reverse();
    return Buffer.from(`{"has_more":${hasMore},"data":[${rows.join(',')}]}`);
  };
  // One snapshot for the check, the ids and the rows they name: the pragma starts it.
  const pageBodyTx = db.transaction((owner: string, query: PageQuery): Buffer => {
    // Before the cache: its key holds one cursor, and a kept page must not answer for two.
    refuseBothCursors(query);
    cache.check();
    const cursor = query.startingAfter !== undefined ? `a${query.startingAfter}` : query.endingBefore !== undefined ? `b${query.endingBefore}` : '-';
    return cache.get(`${owner} ${query.limit} ${query.active} ${cursor}`, () => readPageBody(owner, query));
  });

  function refuseBothCursors(query: PageQuery): void {
    if (query.startingAfter !== undefined && query.endingBefore !== undefined) {
      throw invalid('starting_after and ending_before cannot be used together');
    }
  }

  /** Which of the prepared page statements a query runs, and its parameters (its cursor looked up). */
  function pageQuery(owner: string, query: PageQuery): { key: string; params: Record<string, string | number> } {
    refuseBothCursors(query);
    const filter: FilterName = query.active === undefined ? 'all' : query.active ? 'active' : 'inactive';
    const params: Record<string, string | number> = { owner, take: query.limit + 1 };
    let direction: DirectionName = 'first';
    const cursorId = query.startingAfter ?? query.endingBefore;
    if (cursorId !== undefined) {
      direction = query.startingAfter !== undefined ? 'after' : 'before';
      const row = cursor(owner, cursorId, direction === 'after' ? 'starting_after' : 'ending_before', filter);
      params.cursorCreatedAt = row.created_at;
      params.cursorId = row.id;
    }
    return { key: `${filter}:${direction}`, params };
  }

  function cursor(owner: string, id: string, name: string, filter: FilterName): CursorRow {
    const row = selectCursor.get(owner, id) as CursorRow | undefined;
    const inList =
      row !== undefined &&
      (filter === 'all' || (filter === 'active') === (row.last_active_at !== null));
    if (!inList) throw invalid(`${name}: no contact ${JSON.stringify(id)} in this list`);
    return row;
  }

  return {
    page(owner, query) {
      const { key, params } = pageQuery(owner, query);
      const rows = pages.get(key)!.all(params) as ContactRecord[];
      const hasMore = rows.length > query.limit;
      if (hasMore) rows.length = query.limit;
      if (key.endsWith(':before')) rows.reverse();
      return { data: rows, has_more: hasMore };
    },
    pageBody: (owner, query) => pageBodyTx(owner, query),
    drop: () => cache.drop(),
  };
}
