// Counted moves through the whole contact list: 100 j, 100 n or G in one go. The API pages by
// cursor, so a page far away is reached by walking the cursors to it, a full page of the API at a
// time; only the page landed on is fetched at the screen's page size and drawn. Plain functions
// and one class that is given its fetch, so the arithmetic is tested without React.
import type { ContactPage, PageQuery } from '../../api/types.js';

/** The largest page the API allows (CONTRACT: limit 1–100): a walk takes this many per request. */
export const WALK_LIMIT = 100;

/**
 * Where a move is going, as a row counted from the first row of the page on screen: negative
 * rows are on pages before it, rows past its last on pages after it.
 */
export interface Goal {
  row: number;
  /**
   * Where a goal past the end of the list stops: on the last row (j, G), or at the top of the last
   * page (n, as one n on the last page but one does). A goal above the start stops on the first row.
   */
  clamp: 'row' | 'page';
}

/** The page on screen, as far as a walk needs it. */
export interface WalkOrigin {
  /** The query of the first page (limit and the all / active-only choice), which every page keeps. */
  base: PageQuery;
  /** The page's first and last contact still in the list: the cursors a walk starts from. */
  firstId: string | undefined;
  lastId: string | undefined;
  /** The rows on screen. */
  rows: number;
  pageSize: number;
  pageNumber: number;
  hasNext: boolean;
  hasPrevious: boolean;
}

/** A row's page (0 the one on screen, 1 the next, -1 the one before) and where on it the row is. */
export interface Place {
  page: number;
  /** From the top on this page and pages after; from the bottom on pages before (one at the start of the list may be short). */
  row: number;
}

export function placeOf(origin: Pick<WalkOrigin, 'rows' | 'pageSize'>, row: number): Place {
  const { rows, pageSize } = origin;
  if (row >= 0 && row < rows) return { page: 0, row };
  if (row >= rows) return { page: 1 + Math.floor((row - rows) / pageSize), row: (row - rows) % pageSize };
  const before = -row - 1;
  return { page: -(1 + Math.floor(before / pageSize)), row: before % pageSize };
}

/** A row of the whole list as paging from its first row finds it: its page (1 the first), and the rows before that page's first, nearest first. */
export interface PageOfRow<T> {
  pageNumber: number;
  /** At most three: the page is asked for after the first of them the server still has. */
  before: T[];
}

/** The page `row` of `list` is on, pages of `pageSize` counted from the first row. */
export function pageOfRow<T>(list: readonly T[], row: number, pageSize: number): PageOfRow<T> {
  const size = Math.max(1, pageSize);
  const start = Math.floor(Math.max(0, row) / size) * size;
  return { pageNumber: start / size + 1, before: list.slice(Math.max(0, start - 3), start).reverse() };
}

/** The row a page starts at (pages after the one on screen are full pages until the end). */
export function pageStart(origin: Pick<WalkOrigin, 'rows' | 'pageSize'>, page: number): number {
  if (page === 0) return 0;
  return page > 0 ? origin.rows + (page - 1) * origin.pageSize : page * origin.pageSize;
}

/** The last row of a page. */
export const pageEnd = (origin: Pick<WalkOrigin, 'rows' | 'pageSize'>, page: number): number =>
  page === 0 ? origin.rows - 1 : pageStart(origin, page) + origin.pageSize - 1;

/** `goal` moved on by `pages` pages: onto the top of a page after it, the bottom of one before (n and p). */
export function movedByPages(origin: Pick<WalkOrigin, 'rows' | 'pageSize'>, goal: Goal, pages: number): Goal {
  const page = placeOf(origin, goal.row).page + pages;
  return { row: pages > 0 ? pageStart(origin, page) : pageEnd(origin, page), clamp: 'page' };
}

/** Where a walk lands: a row of the page on screen, or a page to load and the row on it. */
export type Landing =
  | { kind: 'here'; cursor: number }
  | { kind: 'page'; query: PageQuery; pageNumber: number; cursor: number | { fromEnd: number } };

export type FetchPage = (query: PageQuery, signal: AbortSignal) => Promise<ContactPage>;

/** How far a walk has come: rows walked so far, of the rows it needs (undefined: to the end). */
export type WalkProgress = (walked: number, needed: number | undefined) => void;

/**
 * The cursors walked from one page on screen, kept while that page stays: a move that adds to one
 * under way (a held n) goes on from where the last one got to instead of walking again.
 */
/** One side of the page on screen, as walked so far. */
interface Side {
  /** Ids from the page outwards, nearest first. */
  readonly ids: string[];
  /** Whether the list ends (or starts) there. */
  ended: boolean;
  /** The page's own contact on this side: where the walk starts from. */
  readonly edge: string | undefined;
  readonly cursor: 'startingAfter' | 'endingBefore';
}

export class ContactWalk {
  readonly origin: WalkOrigin;
  readonly #after: Side;
  readonly #before: Side;

  constructor(origin: WalkOrigin) {
    this.origin = origin;
    this.#after = { ids: [], ended: !origin.hasNext, edge: origin.lastId, cursor: 'startingAfter' };
    this.#before = { ids: [], ended: !origin.hasPrevious, edge: origin.firstId, cursor: 'endingBefore' };
  }

  /** Walks `side` until it holds `needed` ids or the list ends there. */
  async #walk(side: Side, needed: number, fetch: FetchPage, signal: AbortSignal, progress?: WalkProgress): Promise<void> {
    while (side.ids.length < needed && !side.ended) {
      const from = side.ids.at(-1) ?? side.edge;
      if (from === undefined) break;
      signal.throwIfAborted();
      const page = await fetch({ ...this.origin.base, [side.cursor]: from, limit: WALK_LIMIT }, signal);
      // A walk stopped (or overtaken by one that went on from the same cursor) adds nothing.
      signal.throwIfAborted();
      if (from !== (side.ids.at(-1) ?? side.edge)) continue;
      const ids = page.contacts.map((c) => c.id);
      // Every page comes in list order: one before this page is read from its end, nearest first.
      side.ids.push(...(side.cursor === 'endingBefore' ? ids.reverse() : ids));
      if (!page.hasMore || ids.length === 0) side.ended = true;
      progress?.(side.ids.length, Number.isFinite(needed) ? needed : undefined);
    }
  }

  /** Where `goal` is: walking the cursors as far as it needs to, and no further. */
  async land(goal: Goal, fetch: FetchPage, signal: AbortSignal, progress?: WalkProgress): Promise<Landing> {
    const { rows } = this.origin;
    if (goal.row >= rows) return this.#forward(goal, fetch, signal, progress);
    if (goal.row < 0) return this.#backward(goal, fetch, signal, progress);
    return { kind: 'here', cursor: goal.row };
  }

  async #forward(goal: Goal, fetch: FetchPage, signal: AbortSignal, progress?: WalkProgress): Promise<Landing> {
    const { origin } = this;
    const { pageSize } = origin;
    let place = placeOf(origin, goal.row);
    // The next page needs no walk (its cursor is the last row here); a page further needs the
    // row before it, and one row of its own to exist.
    const needed = place.page === 1 ? 0 : (place.page - 1) * pageSize + 1;
    await this.#walk(this.#after, needed, fetch, signal, progress);
    if (this.#after.ids.length < needed || !origin.hasNext) {
      const walked = this.#after.ids.length;
      if (!origin.hasNext || walked === 0) return { kind: 'here', cursor: Math.max(0, origin.rows - 1) };
      // The list ends before the goal: its last row, or the top of its last page.
      const lastPage = placeOf(origin, origin.rows + walked - 1).page;
      const clamped = goal.clamp === 'page' ? pageStart(origin, lastPage) : origin.rows + walked - 1;
      place = placeOf(origin, clamped);
    }
    const anchor = place.page === 1 ? origin.lastId : this.#after.ids[(place.page - 1) * pageSize - 1];
    return {
      kind: 'page',
      query: { ...origin.base, startingAfter: anchor, limit: pageSize },
      pageNumber: origin.pageNumber + place.page,
      cursor: place.row,
    };
  }

  async #backward(goal: Goal, fetch: FetchPage, signal: AbortSignal, progress?: WalkProgress): Promise<Landing> {
    const { origin } = this;
    const { pageSize } = origin;
    if (!origin.hasPrevious) return { kind: 'here', cursor: 0 };
    const first: Landing = { kind: 'page', query: { ...origin.base, limit: pageSize }, pageNumber: 1, cursor: 0 };
    // The first page is asked for as such: no walk.
    if (goal.row === Number.NEGATIVE_INFINITY) return first;
    const place = placeOf(origin, goal.row);
    const back = -place.page;
    // The page just before needs no walk (its cursor is the first row here); one further needs
    // the row after it.
    const needed = (back - 1) * pageSize;
    await this.#walk(this.#before, needed, fetch, signal, progress);
    // The list starts before the goal: its first row, on its first page.
    if (this.#before.ids.length < needed) return first;
    const anchor = back === 1 ? origin.firstId : this.#before.ids[needed - 1];
    return {
      kind: 'page',
      query: { ...origin.base, endingBefore: anchor, limit: pageSize },
      pageNumber: Math.max(1, origin.pageNumber - back),
      cursor: { fromEnd: place.row },
    };
  }
}
