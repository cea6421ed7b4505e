// The named watchlists' rules as plain functions: names (trimmed, at most 24 characters, unique
// in any case, no comma, nothing invisible), at most 20 lists, the last one never deleted, the
// shown list kept right when an earlier one goes, and moving a symbol to another list.
import { describe, expect, it } from 'vitest';
import {
  cleanColumns,
  COLUMN_NAMES, MARKET_COLUMNS,
  createList,
  findList,
  FIRST_LIST_NAME,
  LIST_NAME_MAX,
  listNameProblem,
  MAX_LISTS,
  moveColumn,
  moveSymbolToList,
  newList,
  removeList,
  renameList,
  SORT_ORDERS,
  toggleColumn,
  type Watchlist,
  type Watchlists,
} from '../../src/market/watchlists.js';

/** Lists named `names`, the first holding AAPL and MSFT, `active` shown. */
function lists(names: string[], active = 0): Watchlists {
  return { lists: names.map((name, i) => newList(name, i === 0 ? ['AAPL', 'MSFT'] : [])), active };
}

/** A rule's answer when it must be the lists, not a problem. */
function ok(result: Watchlists | string): Watchlists {
  if (typeof result === 'string') throw new Error(`expected the lists, got the problem "${result}"`);
  return result;
}

const names = (w: Watchlists): string[] => w.lists.map((l) => l.name);

describe('constants and newList', () => {
  it('the limits are as documented and the sorts are the six in s order', () => {
    expect(LIST_NAME_MAX).toBe(24);
    expect(MAX_LISTS).toBe(20);
    expect(FIRST_LIST_NAME).toBe('Watchlist');
    expect(SORT_ORDERS).toEqual(['watchlist', 'symbol', 'price', 'change', 'session', 'volume']);
  });

  it('newList is in watchlist order, ascending, and holds a copy of the symbols', () => {
    const symbols = ['AAPL'];
    const list = newList('Tech', symbols);
    expect(list).toMatchObject({ name: 'Tech', symbols: ['AAPL'], sort: 'watchlist', descending: false });
    symbols.push('MSFT');
    expect(list.symbols).toEqual(['AAPL']);
    expect(newList('Empty').symbols).toEqual([]);
  });
});

describe('listNameProblem', () => {
  const w = lists(['Watchlist', 'Tech']);

  it('an empty or blank name needs a name', () => {
    for (const name of ['', ' ', '\t  ', '\u00a0']) expect(listNameProblem(w.lists, name), JSON.stringify(name)).toBe('a list needs a name');
  });

  it('at most 24 characters, counted as characters (code points) after trimming', () => {
    expect(listNameProblem(w.lists, 'x'.repeat(24))).toBeUndefined();
    expect(listNameProblem(w.lists, `  ${'x'.repeat(24)}  `)).toBeUndefined();
    expect(listNameProblem(w.lists, 'x'.repeat(25))).toBe('a list name has at most 24 characters');
    // 24 emoji are 48 UTF-16 units but 24 characters.
    expect(listNameProblem(w.lists, '📈'.repeat(24))).toBeUndefined();
    expect(listNameProblem(w.lists, '📈'.repeat(25))).toBe('a list name has at most 24 characters');
  });

  it('a name taken in any case is refused, naming the list as written', () => {
    for (const name of ['tech', 'TECH', ' Tech ', 'watchLIST']) {
      expect(listNameProblem(w.lists, name), name).toMatch(/^there is already a list named (Tech|Watchlist)$/);
    }
    expect(listNameProblem(w.lists, 'tech')).toBe('there is already a list named Tech');
    expect(listNameProblem(w.lists, 'Techs')).toBeUndefined();
  });

  it('the list being renamed does not clash with itself (a change of case is fine), others still do', () => {
    expect(listNameProblem(w.lists, 'TECH', 1)).toBeUndefined();
    expect(listNameProblem(w.lists, 'Tech', 1)).toBeUndefined();
    expect(listNameProblem(w.lists, 'watchlist', 1)).toBe('there is already a list named Watchlist');
  });

  it('a comma is refused (the command line would read the name as symbols)', () => {
    for (const name of ['A,B', ',', 'Tech,']) expect(listNameProblem(w.lists, name), name).toBe('a list name cannot hold a comma');
  });

  it('control and invisible characters are refused: C0, DEL, C1, ESC, zero-width space and joiner, BOM, bidi marks, line/paragraph separators', () => {
    for (const bad of ['\u0000', '\u0007', '\u001b', '\u007f', '\u0085', '\u009b', '\u200b', '\u200d', '\ufeff', '\u202e', '\u2066', '\u2028', '\u2029']) {
      expect(listNameProblem(w.lists, `Te${bad}ch`), `U+${bad.codePointAt(0)!.toString(16)}`).toBe('a list name cannot hold control or invisible characters');
    }
    // Inside the name: a tab or newline is a control too (trimming only takes them off the ends).
    expect(listNameProblem(w.lists, 'Te\tch')).toBe('a list name cannot hold control or invisible characters');
    expect(listNameProblem(w.lists, 'Te\nch')).toBe('a list name cannot hold control or invisible characters');
  });

  it('ordinary names with spaces, accents, CJK and emoji are fine', () => {
    for (const name of ['Big Tech', 'Café', '日本株', 'Rockets 🚀', 'S&P-500 (core)']) expect(listNameProblem(w.lists, name), name).toBeUndefined();
  });
});

describe('createList', () => {
  it('appends an empty list, trimmed, and shows it; the input is not changed', () => {
    const before = lists(['Watchlist']);
    const after = ok(createList(before, '  Tech  '));
    expect(names(after)).toEqual(['Watchlist', 'Tech']);
    expect(after.active).toBe(1);
    expect(after.lists[1]).toMatchObject({ name: 'Tech', symbols: [], sort: 'watchlist', descending: false });
    expect(after.lists[0]).toBe(before.lists[0]);
    expect(names(before)).toEqual(['Watchlist']);
  });

  it('says why a bad name is refused', () => {
    const w = lists(['Watchlist', 'Tech']);
    expect(createList(w, '')).toBe('a list needs a name');
    expect(createList(w, 'tech')).toBe('there is already a list named Tech');
    expect(createList(w, 'a,b')).toBe('a list name cannot hold a comma');
    expect(createList(w, 'zero\u200bwidth')).toBe('a list name cannot hold control or invisible characters');
    expect(createList(w, 'y'.repeat(25))).toBe('a list name has at most 24 characters');
  });

  it('at most 20 lists: the 20th is made, the 21st refused (before its name is looked at)', () => {
    let w = lists(['L1']);
    for (let i = 2; i <= MAX_LISTS; i++) w = ok(createList(w, `L${i}`));
    expect(w.lists).toHaveLength(20);
    expect(w.active).toBe(19);
    expect(createList(w, 'L21')).toBe('at most 20 lists');
    expect(createList(w, '')).toBe('at most 20 lists');
    // One gone, one may be made again.
    expect(ok(createList(ok(removeList(w, 0)), 'L21')).lists).toHaveLength(20);
  });
});

describe('renameList', () => {
  it('renames in place (trimmed), keeping symbols, sort, order and the list shown', () => {
    const w: Watchlists = { lists: [newList('Watchlist', ['AAPL']), { ...newList('Tech', ['MSFT']), sort: 'price', descending: true }], active: 0 };
    const after = ok(renameList(w, 1, ' Chips '));
    expect(after.lists[1]).toMatchObject({ name: 'Chips', symbols: ['MSFT'], sort: 'price', descending: true });
    expect(after.active).toBe(0);
    expect(after.lists[0]).toBe(w.lists[0]);
  });

  it('a change of case of its own name is allowed; another list\'s name, a blank or a comma is not', () => {
    const w = lists(['Watchlist', 'Tech']);
    expect(ok(renameList(w, 1, 'TECH')).lists[1]!.name).toBe('TECH');
    expect(renameList(w, 1, 'WATCHLIST')).toBe('there is already a list named Watchlist');
    expect(renameList(w, 1, '   ')).toBe('a list needs a name');
    expect(renameList(w, 1, 'a,b')).toBe('a list name cannot hold a comma');
  });
});

describe('removeList', () => {
  it('the last list cannot be deleted', () => {
    expect(removeList(lists(['Only']), 0)).toBe('the last list cannot be deleted; empty it instead');
  });

  it('deleting a list before the shown one keeps the same list shown (its index moves down)', () => {
    const w = lists(['A', 'B', 'C'], 2);
    const after = ok(removeList(w, 0));
    expect(names(after)).toEqual(['B', 'C']);
    expect(after.lists[after.active]!.name).toBe('C');
    expect(ok(removeList(lists(['A', 'B', 'C', 'D'], 2), 1)).active).toBe(1);
  });

  it('deleting a list after the shown one keeps the shown one where it is', () => {
    const after = ok(removeList(lists(['A', 'B', 'C'], 0), 2));
    expect(names(after)).toEqual(['A', 'B']);
    expect(after.active).toBe(0);
  });

  it('deleting the shown list shows the one that took its place, or the one before it when it was last', () => {
    const middle = ok(removeList(lists(['A', 'B', 'C'], 1), 1));
    expect(middle.lists[middle.active]!.name).toBe('C');
    const last = ok(removeList(lists(['A', 'B', 'C'], 2), 2));
    expect(last.lists[last.active]!.name).toBe('B');
    const first = ok(removeList(lists(['A', 'B'], 0), 0));
    expect(names(first)).toEqual(['B']);
    expect(first.active).toBe(0);
  });

  it('leaves its input alone', () => {
    const w = lists(['A', 'B']);
    removeList(w, 0);
    expect(names(w)).toEqual(['A', 'B']);
  });
});

describe('moveSymbolToList', () => {
  const three = (): Watchlists => ({
    lists: [newList('Watchlist', ['AAPL', 'MSFT', 'NVDA']), newList('Tech', ['IBM']), newList('Banks', ['JPM', 'MSFT'])],
    active: 0,
  });

  it('takes the symbol off the shown list and appends it at the end of the chosen one; the shown list stays shown', () => {
    const w = three();
    const after = moveSymbolToList(w, 'MSFT', 1);
    expect(after.lists[0]!.symbols).toEqual(['AAPL', 'NVDA']);
    expect(after.lists[1]!.symbols).toEqual(['IBM', 'MSFT']);
    expect(after.lists[2]).toBe(w.lists[2]);
    expect(after.active).toBe(0);
    // The input is untouched.
    expect(w.lists[0]!.symbols).toEqual(['AAPL', 'MSFT', 'NVDA']);
    expect(w.lists[1]!.symbols).toEqual(['IBM']);
  });

  it('a symbol the target already holds is there once (and still leaves the shown list)', () => {
    const after = moveSymbolToList(three(), 'MSFT', 2);
    expect(after.lists[2]!.symbols).toEqual(['JPM', 'MSFT']);
    expect(after.lists[0]!.symbols).toEqual(['AAPL', 'NVDA']);
  });

  it('to the shown list itself changes nothing (the very same object)', () => {
    const w = three();
    expect(moveSymbolToList(w, 'MSFT', 0)).toBe(w);
  });

  it('keeps the target list\'s sort and direction', () => {
    const w = three();
    w.lists[1] = { ...w.lists[1]!, sort: 'volume', descending: true };
    const moved = moveSymbolToList(w, 'AAPL', 1).lists[1]!;
    expect(moved).toMatchObject({ name: 'Tech', symbols: ['IBM', 'AAPL'], sort: 'volume', descending: true });
  });

  it('moves from whichever list is shown', () => {
    const w = { ...three(), active: 2 };
    const after = moveSymbolToList(w, 'JPM', 0);
    expect(after.lists[2]!.symbols).toEqual(['MSFT']);
    expect(after.lists[0]!.symbols).toEqual(['AAPL', 'MSFT', 'NVDA', 'JPM']);
  });
});

describe('findList', () => {
  const all: Watchlist[] = [newList('Watchlist'), newList('Big Tech')];

  it('finds a list by name in any case, ignoring spaces around what is asked', () => {
    expect(findList(all, 'Big Tech')).toBe(1);
    expect(findList(all, 'big tech')).toBe(1);
    expect(findList(all, '  BIG TECH ')).toBe(1);
    expect(findList(all, 'watchlist')).toBe(0);
  });

  it('-1 for a name that is not there (a prefix is not a match)', () => {
    expect(findList(all, 'Big')).toBe(-1);
    expect(findList(all, 'AAPL,MSFT')).toBe(-1);
    expect(findList([], 'x')).toBe(-1);
  });
});

describe('columns', () => {
  it('toggle shows a hidden column back in its usual place and never hides the price', () => {
    expect(toggleColumn(['price', 'change', 'age'], 'change')).toEqual(['price', 'age']);
    expect(toggleColumn(['price', 'age'], 'volume')).toEqual(['price', 'volume', 'age']);
    expect(toggleColumn(['age', 'price'], 'name')).toEqual(['name', 'age', 'price']);
    expect(toggleColumn(['price'], 'price')).toBe('the price is always shown');
  });

  it('move swaps a shown column with its neighbour, and stops at the ends', () => {
    expect(moveColumn(['price', 'change', 'age'], 'age', -1)).toEqual(['price', 'age', 'change']);
    expect(moveColumn(['price', 'change'], 'price', -1)).toEqual(['price', 'change']);
    expect(moveColumn(['price', 'change'], 'volume', 1)).toEqual(['price', 'change']);
  });

  it('a hand-edited list keeps known names once, in its order, and the price', () => {
    expect(cleanColumns(['age', 'bogus', 'age', 'volume'])).toEqual(['price', 'age', 'volume']);
    expect(cleanColumns(['volume', 'price'])).toEqual(['volume', 'price']);
    // A new list shows the market's columns; the holdings columns are chosen (C).
    expect(newList('X').columns).toEqual([...MARKET_COLUMNS]);
    expect(COLUMN_NAMES).toEqual([...MARKET_COLUMNS, 'qty', 'value', 'day_pl', 'pl', 'pl_pct']);
  });
});
