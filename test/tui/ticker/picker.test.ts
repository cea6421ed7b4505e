// The symbol picker: ranking the catalogue for what is typed, exchange badges, and the picker's
// own cursor.
import { describe, expect, it } from 'vitest';
import type { SymbolInfo } from '../../../src/api/types.js';
import { loadCatalogue } from '../../../src/server/catalogue.js';
import { exchangeBadge } from '../../../src/market/listing.js';
import { EMPTY_FIELD, type FieldInput } from '../../../src/tui/state/field-text.js';
import { initialPickerState, type PickerAction, type PickerState, pickerReducer, rankSymbols } from '../../../src/tui/ticker/picker-state.js';

const catalogue: SymbolInfo[] = loadCatalogue().map(({ symbol, name }) => ({ symbol, name }));
const symbols = (query: string, list: readonly SymbolInfo[] = catalogue): string[] => rankSymbols(list, query).map((s) => s.symbol);

/** A small hand-made catalogue where every tier is present. */
const small: SymbolInfo[] = [
  { symbol: 'CATS', name: 'Catalyst Systems' },
  { symbol: 'CAT', name: 'Caterpillar Inc.' },
  { symbol: 'ZZC', name: 'Cat Food Corporation' },
  { symbol: 'BCAT', name: 'Bobcat Holdings' },
  { symbol: 'CXAXT', name: 'Cxaxt Limited' },
  { symbol: 'DOG', name: 'Dog Supplies plc' },
  { symbol: 'CA', name: 'Canada Group' },
];

describe('rankSymbols on a small catalogue', () => {
  it('ranks exact symbol, then symbol prefixes, then name words, then fuzzy', () => {
    expect(symbols('cat', small)).toEqual(['CAT', 'CATS', 'ZZC', 'BCAT', 'CXAXT']);
  });

  it('shorter symbol prefixes come first', () => {
    expect(symbols('c', small).slice(0, 4)).toEqual(['CA', 'CAT', 'CATS', 'CXAXT']);
  });

  it('leaves out what does not match at all', () => {
    expect(symbols('dog', small)).toEqual(['DOG']);
    expect(symbols('qqq', small)).toEqual([]);
  });

  it('is case-insensitive and ignores surrounding spaces', () => {
    expect(symbols('CAT', small)).toEqual(symbols('cat', small));
    expect(symbols('  Cat  ', small)).toEqual(symbols('cat', small));
  });

  it('an empty query lists everything alphabetically by symbol', () => {
    expect(symbols('', small)).toEqual(['BCAT', 'CA', 'CAT', 'CATS', 'CXAXT', 'DOG', 'ZZC']);
    expect(symbols('   ', small)).toEqual(['BCAT', 'CA', 'CAT', 'CATS', 'CXAXT', 'DOG', 'ZZC']);
  });

  it('does not reorder the catalogue it is given', () => {
    const copy = [...small];
    rankSymbols(small, '');
    rankSymbols(small, 'cat');
    expect(small).toEqual(copy);
  });
});

describe('rankSymbols on the real catalogue', () => {
  it('"shop" finds SHOP.TO first', () => {
    expect(symbols('shop')[0]).toBe('SHOP.TO');
  });

  it('"apple" and "appl" find AAPL by name', () => {
    expect(symbols('apple')[0]).toBe('AAPL');
    expect(symbols('appl')[0]).toBe('AAPL');
    expect(symbols('Apple')[0]).toBe('AAPL');
  });

  it('"toyota" finds 7203.T', () => {
    expect(symbols('toyota')[0]).toBe('7203.T');
  });

  it('"aapl" is the exact symbol first', () => {
    expect(symbols('aapl')[0]).toBe('AAPL');
    expect(symbols('msft')[0]).toBe('MSFT');
  });

  it('an exact symbol beats longer symbols that start with it', () => {
    expect(symbols('BK').slice(0, 3)).toEqual(['BK', 'BKR', 'BKNG']);
  });

  it('a full symbol with its exchange suffix matches exactly', () => {
    expect(symbols('vod.l')).toEqual(['VOD.L']);
  });

  it('"bank" finds banks by a word of their name, before anything fuzzy', () => {
    const ranked = symbols('bank');
    // Every listing with a name word starting "bank" ("Banking" included), and nothing else.
    const banks = ['3988.HK', 'BAC', 'BMO.TO', 'BK', 'BNS.TO', 'MTB', 'RY.TO', 'TD.TO', 'DBK.DE', 'CM.TO', 'CBA.AX', 'NAB.AX', '0011.HK', '0939.HK', '1398.HK', 'LLOY.L', 'WBC.AX'];
    const top = ranked.slice(0, banks.length);
    expect([...top].sort()).toEqual([...banks].sort());
    // Names that start with "Bank" come first, then by where "bank" appears.
    expect(ranked.slice(0, 3)).toEqual(['3988.HK', 'BAC', 'BMO.TO']);
    // Commerzbank and SoftBank only have "bank" inside a word: fuzzy, after every word match.
    expect(ranked.indexOf('CBK.DE')).toBeGreaterThanOrEqual(banks.length);
    expect(ranked.indexOf('9984.T')).toBeGreaterThanOrEqual(banks.length);
  });

  it('fuzzy matches come last: "mcrsft" still finds Microsoft', () => {
    expect(symbols('mcrsft')[0]).toBe('MSFT');
  });

  it('an empty query lists the whole catalogue by symbol', () => {
    const all = symbols('');
    expect(all).toHaveLength(catalogue.length);
    expect(all).toEqual([...catalogue.map((s) => s.symbol)].sort((a, b) => a.localeCompare(b)));
  });
});

describe('exchangeBadge', () => {
  it('names the exchange of a suffix', () => {
    expect(exchangeBadge('VOD.L')).toBe('LSE');
    expect(exchangeBadge('SHOP.TO')).toBe('TSX');
    expect(exchangeBadge('SAP.DE')).toBe('XETRA');
    expect(exchangeBadge('MC.PA')).toBe('PARIS');
    expect(exchangeBadge('7203.T')).toBe('TOKYO');
    expect(exchangeBadge('0005.HK')).toBe('HKEX');
    expect(exchangeBadge('BHP.AX')).toBe('ASX');
  });

  it('none for US listings, BRK-B included', () => {
    expect(exchangeBadge('AAPL')).toBeUndefined();
    expect(exchangeBadge('BRK-B')).toBeUndefined();
  });

  it('an unknown suffix is shown as it is', () => {
    expect(exchangeBadge('ABC.XX')).toBe('XX');
  });

  it('every suffixed symbol of the catalogue has a known exchange', () => {
    const known = new Set(['LSE', 'TSX', 'XETRA', 'PARIS', 'TOKYO', 'HKEX', 'ASX']);
    const badges = catalogue.filter((s) => s.symbol.includes('.')).map((s) => exchangeBadge(s.symbol));
    expect(badges.length).toBeGreaterThan(0);
    expect(badges.filter((b) => !known.has(b!))).toEqual([]);
  });
});

/** A key or a paste in the picker's field. */
const queryEdited = (input: FieldInput): PickerAction => ({ type: 'query-edited', input });
/** `text` typed at the query's cursor. */
const queryTyped = (text: string): PickerAction => queryEdited({ kind: 'type', text });

describe('pickerReducer', () => {
  it('opens empty, closes keeping the query', () => {
    let state: PickerState = pickerReducer(initialPickerState, { type: 'opened' });
    expect(state).toEqual({ open: true, query: EMPTY_FIELD, cursor: 0, chosen: false });
    state = pickerReducer(state, queryTyped('ap'));
    state = pickerReducer(state, { type: 'closed' });
    expect(state).toEqual({ open: false, query: { value: 'ap', cursor: 2 }, cursor: 0, chosen: true });
    expect(pickerReducer(state, { type: 'opened' })).toEqual({ open: true, query: EMPTY_FIELD, cursor: 0, chosen: false });
  });

  it('a symbol added empties the field and the choice, the picker open for the next', () => {
    let state = pickerReducer(initialPickerState, { type: 'opened' });
    state = pickerReducer(state, queryTyped('msft'));
    state = pickerReducer(state, { type: 'cursor-moved', by: 1, count: 3 });
    expect(pickerReducer(state, { type: 'added' })).toEqual({ open: true, query: EMPTY_FIELD, cursor: 0, chosen: false });
  });

  it('a symbol added from the whole list (no query) keeps the highlight on it, now on the watchlist', () => {
    let state = pickerReducer(initialPickerState, { type: 'opened' });
    state = pickerReducer(state, { type: 'cursor-moved', by: 140, count: 518 });
    expect(pickerReducer(state, { type: 'added' })).toEqual({ open: true, query: EMPTY_FIELD, cursor: 140, chosen: true });
  });

  it('clamps the cursor to the matches', () => {
    let state = pickerReducer(initialPickerState, { type: 'opened' });
    state = pickerReducer(state, { type: 'cursor-moved', by: 1, count: 3 });
    expect(state.cursor).toBe(1);
    state = pickerReducer(state, { type: 'cursor-moved', by: 5, count: 3 });
    expect(state.cursor).toBe(2);
    state = pickerReducer(state, { type: 'cursor-moved', by: -7, count: 3 });
    expect(state.cursor).toBe(0);
    state = pickerReducer(state, { type: 'cursor-moved', by: 1, count: 0 });
    expect(state.cursor).toBe(0);
  });

  it('editing the query puts the cursor back on the best match', () => {
    let state = pickerReducer(initialPickerState, { type: 'opened' });
    state = pickerReducer(state, { type: 'cursor-moved', by: 2, count: 5 });
    state = pickerReducer(state, queryTyped('sh'));
    expect(state).toEqual({ open: true, query: { value: 'sh', cursor: 2 }, cursor: 0, chosen: true });
  });

  it('moving the query\'s cursor keeps the highlight; typing in the middle of the query puts it back on the best match', () => {
    let state = pickerReducer(pickerReducer(initialPickerState, { type: 'opened' }), queryTyped('ap'));
    state = pickerReducer(state, { type: 'cursor-moved', by: 2, count: 5 });
    state = pickerReducer(state, queryEdited({ kind: 'edit', edit: 'left' }));
    expect(state).toEqual({ open: true, query: { value: 'ap', cursor: 1 }, cursor: 2, chosen: true });
    state = pickerReducer(state, queryTyped('a'));
    expect(state).toEqual({ open: true, query: { value: 'aap', cursor: 2 }, cursor: 0, chosen: true });
  });

  it('counts as chosen once something is typed or the highlight moved, not before, and not a query cleared again (Ctrl-U, Backspace)', () => {
    let state = pickerReducer(initialPickerState, { type: 'opened' });
    expect(state.chosen).toBe(false);
    state = pickerReducer(state, queryTyped('  '));
    expect(state.chosen).toBe(false);
    state = pickerReducer(state, queryEdited({ kind: 'edit', edit: 'kill-start' }));
    expect(state.query).toEqual(EMPTY_FIELD);
    state = pickerReducer(state, queryTyped('a'));
    expect(state.chosen).toBe(true);
    state = pickerReducer(state, queryEdited({ kind: 'backspace' }));
    expect(state.query).toEqual(EMPTY_FIELD);
    expect(state.chosen).toBe(false);
    state = pickerReducer(state, { type: 'cursor-moved', by: 1, count: 500 });
    expect(state.chosen).toBe(true);
  });
});

describe('no work for nothing', () => {
  it('↓ on the last match (or ↑ on the first) returns the same state: nothing is drawn again', () => {
    const open = pickerReducer(pickerReducer(initialPickerState, { type: 'opened' }), queryTyped('a'));
    const down = pickerReducer(open, { type: 'cursor-moved', by: 5, count: 3 });
    expect(down.cursor).toBe(2);
    expect(pickerReducer(down, { type: 'cursor-moved', by: 1, count: 3 })).toBe(down);
    const top = pickerReducer(down, { type: 'cursor-moved', by: -10, count: 3 });
    expect(pickerReducer(top, { type: 'cursor-moved', by: -1, count: 3 })).toBe(top);
  });

  it('a key in the query that changes nothing (→ at its end, Backspace at its start, a control typed) returns the same state', () => {
    const open = pickerReducer(pickerReducer(initialPickerState, { type: 'opened' }), queryTyped('a'));
    expect(pickerReducer(open, queryEdited({ kind: 'edit', edit: 'right' }))).toBe(open);
    expect(pickerReducer(open, queryTyped('\u0007'))).toBe(open);
    const start = pickerReducer(open, queryEdited({ kind: 'edit', edit: 'start' }));
    expect(pickerReducer(start, queryEdited({ kind: 'backspace' }))).toBe(start);
  });
});
