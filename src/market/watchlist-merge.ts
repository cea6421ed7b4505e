// Two dashboards on one home both save the lists. A save is what this window changed since it last
// agreed with the file (its base), applied to the file as it is now: a symbol removed, added or
// moved, a sort, columns, a list made, renamed or deleted, each alone, so that whatever another
// window changed meanwhile stays. Plain functions over plain data.
import { type ColumnName, findList, listNameProblem, MAX_LISTS, newList, type Watchlist, type Watchlists } from './watchlists.js';

/** What a window did to an ordered set of names (a list's symbols, its columns) since its base. */
export interface OrderedEdit<T> {
  removed: ReadonlySet<T>;
  /** In the window's order. */
  added: readonly T[];
  /** Whether it put what it kept in another order (J/K). */
  reordered: boolean;
  /** The window's whole order: where each added one goes, and, when reordered, every one. */
  mine: readonly T[];
}

const sameOrder = <T>(a: readonly T[], b: readonly T[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** What `mine` changed of `base`, or undefined when nothing. */
export function orderedEdit<T>(base: readonly T[], mine: readonly T[]): OrderedEdit<T> | undefined {
  const inBase = new Set(base);
  const inMine = new Set(mine);
  const removed = new Set(base.filter((x) => !inMine.has(x)));
  const added = mine.filter((x) => !inBase.has(x));
  const reordered = !sameOrder(
    base.filter((x) => inMine.has(x)),
    mine.filter((x) => inBase.has(x)),
  );
  return removed.size === 0 && added.length === 0 && !reordered ? undefined : { removed, added, reordered, mine };
}

/**
 * `theirs` with the edit made to it: what was removed goes (and does not come back because this
 * window still had what another removed), what was added goes before the next one that follows it
 * in this window's order (at the end when none does: where the ticker adds), and a reorder puts
 * what both have in this window's order, each of the other's own after the one it followed.
 */
export function applyOrdered<T>(theirs: readonly T[], edit: OrderedEdit<T>): T[] {
  let result = theirs.filter((x) => !edit.removed.has(x));
  if (edit.reordered) result = inOrderOf(result, edit.mine);
  const mineAt = new Map(edit.mine.map((x, i) => [x, i]));
  for (const x of edit.added) {
    if (result.includes(x)) continue;
    const next = edit.mine.slice(mineAt.get(x)! + 1).find((y) => result.includes(y));
    const at = next === undefined ? result.length : result.indexOf(next);
    result.splice(at, 0, x);
  }
  return result;
}

/** `items` in `order`'s order, those it lacks each after the item it followed in `items`. */
function inOrderOf<T>(items: readonly T[], order: readonly T[]): T[] {
  const at = new Map(order.map((x, i) => [x, i]));
  const result = items.filter((x) => at.has(x)).sort((a, b) => at.get(a)! - at.get(b)!);
  items.forEach((x, i) => {
    if (at.has(x)) return;
    result.splice(i === 0 ? 0 : result.indexOf(items[i - 1]!) + 1, 0, x);
  });
  return result;
}

/**
 * For each list of `before`, the index of the same list in `after`, or -1 (deleted). A list is
 * known by its name (any case); when as many lists are left unmatched on each side, they were
 * renamed, each keeping its place among the others (a file names lists, it has no other identity).
 */
export function pairLists(before: readonly Watchlist[], after: readonly Watchlist[]): number[] {
  const pairs = before.map((list) => findList(after, list.name));
  const taken = new Set(pairs);
  const leftBefore = pairs.flatMap((at, i) => (at < 0 ? [i] : []));
  const leftAfter = after.flatMap((_, i) => (taken.has(i) ? [] : [i]));
  if (leftBefore.length === leftAfter.length) leftBefore.forEach((b, k) => (pairs[b] = leftAfter[k]!));
  return pairs;
}

/** What a window did to one list since its base. */
interface ListEdit {
  name?: string;
  symbols?: OrderedEdit<string>;
  columns?: OrderedEdit<ColumnName>;
  sort?: Pick<Watchlist, 'sort' | 'descending'>;
}

function listEdit(base: Watchlist, mine: Watchlist): ListEdit | undefined {
  const edit: ListEdit = {};
  if (mine.name !== base.name) edit.name = mine.name;
  const symbols = orderedEdit(base.symbols, mine.symbols);
  if (symbols) edit.symbols = symbols;
  const columns = orderedEdit(base.columns, mine.columns);
  if (columns) edit.columns = columns;
  if (mine.sort !== base.sort || mine.descending !== base.descending) edit.sort = { sort: mine.sort, descending: mine.descending };
  return Object.keys(edit).length === 0 ? undefined : edit;
}

/** `list` with the edit's symbols, columns and sort (its name is the caller's: it may be taken). */
function applyListEdit(list: Watchlist, edit: ListEdit): Watchlist {
  return {
    ...list,
    ...edit.sort,
    ...(edit.symbols && { symbols: applyOrdered(list.symbols, edit.symbols) }),
    ...(edit.columns && { columns: applyOrdered(list.columns, edit.columns) }),
  };
}

/** Two windows' lists alike, list by list, and the same one shown. */
export const sameWatchlists = (a: Watchlists, b: Watchlists): boolean =>
  a.active === b.active &&
  a.lists.length === b.lists.length &&
  a.lists.every((x, i) => {
    const y = b.lists[i]!;
    return x.name === y.name && x.sort === y.sort && x.descending === y.descending && sameOrder(x.symbols, y.symbols) && sameOrder(x.columns, y.columns);
  });

export interface ListsMerge {
  /** The lists to save and show, `active` being the one this window shows (a save names it as shown). */
  lists: Watchlists;
  /** What of this window's changes could not be made, or what became of its list, in words. */
  notes: string[];
}

/** One list of the merge, and where it came from in `theirs` (undefined: made by this window). */
interface Entry {
  list: Watchlist;
  from: number | undefined;
}

/**
 * `theirs` (the file now) with what `mine` (this window) changed of `base` (what this window and
 * the file last agreed on; its `active` is the list this window showed then). A change to a list
 * follows it however another window renamed it; one to a list another deleted is not made, and
 * said.
 */
export function mergeWatchlists(base: Watchlists, mine: Watchlists, theirs: Watchlists): ListsMerge {
  const notes: string[] = [];
  const entries: Entry[] = theirs.lists.map((list, from) => ({ list, from }));
  const inTheirs = pairLists(base.lists, theirs.lists);
  const inMine = pairLists(base.lists, mine.lists);
  /** Where the list `b` of `base` is among the entries now, or -1 (deleted there, or here). */
  const thereOf = (b: number) => (inTheirs[b]! < 0 ? -1 : entries.findIndex((e) => e.from === inTheirs[b]));

  base.lists.forEach((was, b) => {
    const now = mine.lists[inMine[b]!];
    const edit = now && listEdit(was, now);
    const there = thereOf(b);
    if (!now) {
      // Deleted here; gone there already, or the last list there, it stays as it is.
      if (there >= 0 && entries.length > 1) entries.splice(there, 1);
      return;
    }
    if (!edit) return;
    if (there < 0) {
      notes.push(`the list ${was.name} was deleted in another window; what you changed in it is not kept`);
      return;
    }
    const entry = entries[there]!;
    let changed = applyListEdit(entry.list, edit);
    if (edit.name !== undefined) {
      const problem = listNameProblem(entries.map((e) => e.list), edit.name, there);
      if (problem === undefined) changed = { ...changed, name: edit.name };
      else notes.push(`${was.name} was not renamed to ${edit.name}: ${problem} (made in another window)`);
    }
    entry.list = changed;
  });

  const known = new Set(inMine);
  mine.lists.forEach((made, m) => {
    if (known.has(m)) return;
    // Made here and there under one name: one list, with what each put in it.
    const there = findList(
      entries.map((e) => e.list),
      made.name,
    );
    if (there >= 0) {
      const edit = listEdit(newList(made.name), made);
      if (edit) entries[there]!.list = applyListEdit(entries[there]!.list, edit);
      return;
    }
    if (entries.length >= MAX_LISTS) {
      notes.push(`the list ${made.name} is not kept: there are ${MAX_LISTS} lists already, made in another window`);
      return;
    }
    entries.push({ list: made, from: undefined });
  });

  const lists = entries.map((e) => e.list);
  const mineName = mine.lists[mine.active]!.name;
  let shown = findList(lists, mineName);
  // Not renamed as this window asked: the list under the name it has.
  if (shown < 0) shown = pairLists(mine.lists, lists)[mine.active]!;
  // Made here and not kept (said above): the list shown before.
  if (shown < 0 && !known.has(mine.active)) shown = Math.max(0, thereOf(base.active));
  if (shown < 0) {
    shown = Math.min(mine.active, lists.length - 1);
    notes.push(`the list ${mineName} was deleted in another window; showing ${lists[shown]!.name}`);
  }
  return { lists: { lists, active: shown }, notes };
}
