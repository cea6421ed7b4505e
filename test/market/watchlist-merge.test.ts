// Two windows' changes to the lists, merged as plain functions (issue 38, item 1): a save is what
// this window changed since it last agreed with the file, applied to the file as it is now, so a
// symbol another window removed does not come back, two symbols added in two windows are both
// kept and a later sort keeps them, a reorder keeps the other's additions, and lists made,
// renamed and deleted in either window end up as both meant (or the window is told why not).
import { describe, expect, it } from 'vitest';
import { applyOrdered, mergeWatchlists, orderedEdit, pairLists, sameWatchlists } from '../../src/market/watchlist-merge.js';
import { createList, MAX_LISTS, moveSymbolToList, newList, removeList, renameList, toggleColumn, type Watchlist, type Watchlists } from '../../src/market/watchlists.js';

/** The rules' answer when it must be the lists, not a problem. */
const ok = (result: Watchlists | string): Watchlists => {
  if (typeof result === 'string') throw new Error(result);
  return result;
};

const withList = (w: Watchlists, index: number, change: (list: Watchlist) => Watchlist): Watchlists => ({
  ...w,
  lists: w.lists.map((l, i) => (i === index ? change(l) : l)),
});

const symbols = (w: Watchlists, name: string) => w.lists.find((l) => l.name === name)?.symbols;

/** The three-way merge of an ordered set, as mergeWatchlists makes it of a list's symbols and columns: `theirs` with what `mine` changed of `base`. */
function mergeOrdered<T>(base: readonly T[], mine: readonly T[], theirs: readonly T[]): T[] {
  const edit = orderedEdit(base, mine);
  return edit ? applyOrdered(theirs, edit) : [...theirs];
}

/** Tech (AAPL MSFT NVDA) shown, Banks (JPM). */
const BASE: Watchlists = { lists: [newList('Tech', ['AAPL', 'MSFT', 'NVDA']), newList('Banks', ['JPM'])], active: 0 };

describe('an ordered set: three ways', () => {
  it('A removes AAPL, B removed MSFT: neither is there', () => {
    expect(mergeOrdered(['AAPL', 'MSFT', 'NVDA'], ['MSFT', 'NVDA'], ['AAPL', 'NVDA'])).toEqual(['NVDA']);
  });

  it('A adds NFLX, B added ORCL: both, in the order they were added', () => {
    expect(mergeOrdered(['AAPL'], ['AAPL', 'NFLX'], ['AAPL', 'ORCL'])).toEqual(['AAPL', 'ORCL', 'NFLX']);
  });

  it('a symbol put back where it was (undo) goes before the one that followed it', () => {
    expect(mergeOrdered(['MSFT', 'NVDA'], ['AAPL', 'MSFT', 'NVDA'], ['MSFT', 'ORCL', 'NVDA'])).toEqual(['AAPL', 'MSFT', 'ORCL', 'NVDA']);
    expect(mergeOrdered(['A', 'C'], ['A', 'B', 'C'], ['A', 'X', 'C'])).toEqual(['A', 'X', 'B', 'C']);
  });

  it('a reorder here is this window\'s order, the other\'s additions each after what it followed there', () => {
    // J here swapped AAPL and MSFT; there ORCL was added after MSFT and IBM at the start.
    expect(mergeOrdered(['AAPL', 'MSFT', 'NVDA'], ['MSFT', 'AAPL', 'NVDA'], ['IBM', 'AAPL', 'MSFT', 'ORCL', 'NVDA'])).toEqual([
      'IBM',
      'MSFT',
      'ORCL',
      'AAPL',
      'NVDA',
    ]);
  });

  it('no reorder here keeps the order there (a reorder there is not undone)', () => {
    expect(mergeOrdered(['A', 'B', 'C'], ['A', 'B', 'C', 'D'], ['C', 'B', 'A'])).toEqual(['C', 'B', 'A', 'D']);
  });

  it('nothing changed here is no edit; the same change made in both is made once', () => {
    expect(orderedEdit(['A', 'B'], ['A', 'B'])).toBeUndefined();
    expect(mergeOrdered(['A', 'B'], ['B'], ['B'])).toEqual(['B']);
    expect(mergeOrdered(['A'], ['A', 'B'], ['A', 'B'])).toEqual(['A', 'B']);
    expect(applyOrdered(['A'], orderedEdit(['A'], ['A', 'B', 'C'])!)).toEqual(['A', 'B', 'C']);
  });
});

describe('two windows\' lists', () => {
  it('A removes AAPL, B removed MSFT: the file has neither, and A shows the file', () => {
    const a = withList(BASE, 0, (l) => ({ ...l, symbols: ['MSFT', 'NVDA'] }));
    const theirs = withList(BASE, 0, (l) => ({ ...l, symbols: ['AAPL', 'NVDA'] }));
    const merged = mergeWatchlists(BASE, a, theirs);
    expect(symbols(merged.lists, 'Tech')).toEqual(['NVDA']);
    expect(merged.lists.active).toBe(0);
    expect(merged.notes).toEqual([]);
  });

  it('A adds NFLX to Tech, B added ORCL; then A sorts: both kept, sorted', () => {
    const a = withList(BASE, 0, (l) => ({ ...l, symbols: [...l.symbols, 'NFLX'] }));
    const theirs = withList(BASE, 0, (l) => ({ ...l, symbols: [...l.symbols, 'ORCL'] }));
    const first = mergeWatchlists(BASE, a, theirs);
    expect(symbols(first.lists, 'Tech')).toEqual(['AAPL', 'MSFT', 'NVDA', 'ORCL', 'NFLX']);
    // A now holds what it saved; a sort is only the sort.
    const sorted = withList(first.lists, 0, (l) => ({ ...l, sort: 'symbol' }));
    const second = mergeWatchlists(first.lists, sorted, first.lists);
    expect(second.lists.lists[0]).toMatchObject({ symbols: ['AAPL', 'MSFT', 'NVDA', 'ORCL', 'NFLX'], sort: 'symbol' });
  });

  it('columns are merged as symbols are: one window hides VOLUME, the other shows QTY', () => {
    const a = withList(BASE, 0, (l) => ({ ...l, columns: toggleColumn(l.columns, 'volume') as Watchlist['columns'] }));
    const theirs = withList(BASE, 0, (l) => ({ ...l, columns: toggleColumn(l.columns, 'qty') as Watchlist['columns'] }));
    const merged = mergeWatchlists(BASE, a, theirs);
    expect(merged.lists.lists[0]!.columns).toEqual(['name', 'price', 'change', 'session', 'trend', 'age', 'qty']);
  });

  it('a change to a list follows it when another window renamed it', () => {
    const a = withList(BASE, 1, (l) => ({ ...l, symbols: ['JPM', 'BAC'] }));
    const theirs = ok(renameList(BASE, 1, 'Banking'));
    const merged = mergeWatchlists(BASE, a, theirs);
    expect(merged.lists.lists.map((l) => l.name)).toEqual(['Tech', 'Banking']);
    expect(symbols(merged.lists, 'Banking')).toEqual(['JPM', 'BAC']);
  });

  it('the list shown renamed in another window: this window shows it under its new name', () => {
    const theirs = ok(renameList(BASE, 0, 'Chips'));
    const merged = mergeWatchlists(BASE, BASE, theirs);
    expect(merged.lists.lists[merged.lists.active]!.name).toBe('Chips');
    expect(merged.notes).toEqual([]);
  });

  it('a list made here is added to the lists made there; one of the same name is one list with both\'s symbols', () => {
    const a = ok(createList(BASE, 'Energy'));
    const aWithShell = withList(a, 2, (l) => ({ ...l, symbols: ['SHEL.L'] }));
    const theirs = withList(ok(createList(ok(createList(BASE, 'Funds')), 'energy')), 3, (l) => ({ ...l, symbols: ['BP.L'] }));
    const merged = mergeWatchlists(BASE, aWithShell, theirs);
    expect(merged.lists.lists.map((l) => l.name)).toEqual(['Tech', 'Banks', 'Funds', 'energy']);
    expect(symbols(merged.lists, 'energy')).toEqual(['BP.L', 'SHEL.L']);
    // This window was showing its Energy: it shows the one list of that name.
    expect(merged.lists.active).toBe(3);
  });

  it('a list deleted here goes, whatever another window put in it meanwhile; deleted there, a change to it here is said, not made', () => {
    const a = ok(removeList(BASE, 1));
    const theirs = withList(BASE, 1, (l) => ({ ...l, symbols: ['JPM', 'BAC'] }));
    expect(mergeWatchlists(BASE, a, theirs).lists.lists.map((l) => l.name)).toEqual(['Tech']);

    const edited = withList(BASE, 1, (l) => ({ ...l, symbols: [] }));
    const gone = mergeWatchlists(BASE, edited, ok(removeList(BASE, 1)));
    expect(gone.lists.lists.map((l) => l.name)).toEqual(['Tech']);
    expect(gone.notes).toEqual(['the list Banks was deleted in another window; what you changed in it is not kept']);
  });

  it('the list shown deleted in another window: another is shown, and said', () => {
    const here: Watchlists = { ...BASE, active: 1 };
    const merged = mergeWatchlists(here, here, ok(removeList(BASE, 1)));
    expect(merged.lists).toEqual({ lists: [BASE.lists[0]], active: 0 });
    expect(merged.notes).toEqual(['the list Banks was deleted in another window; showing Tech']);
  });

  it('a rename to a name another window took meanwhile is not made, and said', () => {
    const a = ok(renameList(BASE, 1, 'Funds'));
    const theirs = ok(createList(BASE, 'Funds'));
    const merged = mergeWatchlists(BASE, a, theirs);
    expect(merged.lists.lists.map((l) => l.name)).toEqual(['Tech', 'Banks', 'Funds']);
    expect(merged.notes).toEqual(['Banks was not renamed to Funds: there is already a list named Funds (made in another window)']);
  });

  it('a list made here when another window filled the lists up is not kept, and said', () => {
    let full = BASE;
    for (let i = full.lists.length; i < MAX_LISTS; i++) full = ok(createList(full, `L${i}`));
    const merged = mergeWatchlists(BASE, ok(createList(BASE, 'More')), full);
    expect(merged.lists.lists).toHaveLength(MAX_LISTS);
    expect(merged.notes).toEqual([`the list More is not kept: there are ${MAX_LISTS} lists already, made in another window`]);
    expect(merged.lists.active).toBe(0);
  });

  it('a symbol moved to another list (M) is taken from one and added to the other, beside the other window\'s changes', () => {
    const a = moveSymbolToList(BASE, 'NVDA', 1);
    const theirs = withList(withList(BASE, 1, (l) => ({ ...l, symbols: ['JPM', 'BAC'] })), 0, (l) => ({ ...l, symbols: ['AAPL', 'NVDA'] }));
    const merged = mergeWatchlists(BASE, a, theirs);
    expect(symbols(merged.lists, 'Tech')).toEqual(['AAPL']);
    expect(symbols(merged.lists, 'Banks')).toEqual(['JPM', 'BAC', 'NVDA']);
  });

  it('a save names the list this window shows, whichever another window showed', () => {
    const theirs: Watchlists = { ...BASE, active: 1 };
    const edited = withList(BASE, 0, (l) => ({ ...l, sort: 'price' }));
    expect(mergeWatchlists(BASE, edited, theirs).lists.active).toBe(0);
    expect(mergeWatchlists({ ...BASE, active: 1 }, { ...BASE, active: 1 }, BASE).lists.active).toBe(1);
  });

  it('lists are paired by name in any case, and what is left on both sides, as many on each, in order', () => {
    const l = (name: string) => newList(name);
    expect(pairLists([l('A'), l('B'), l('C')], [l('c'), l('A')])).toEqual([1, -1, 0]);
    expect(pairLists([l('A'), l('B'), l('C')], [l('X'), l('A'), l('Y')])).toEqual([1, 0, 2]);
    expect(pairLists([l('A'), l('B')], [l('A'), l('X'), l('Y')])).toEqual([0, -1]);
  });

  it('sameWatchlists: alike list by list, and the same one shown', () => {
    expect(sameWatchlists(BASE, structuredClone(BASE))).toBe(true);
    expect(sameWatchlists(BASE, withList(BASE, 1, (l) => ({ ...l, descending: true })))).toBe(false);
    expect(sameWatchlists(BASE, { ...BASE, active: 1 })).toBe(false);
  });
});
