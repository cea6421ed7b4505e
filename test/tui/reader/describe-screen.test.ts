// Each place of the dashboard as a reader is told it, from the same states the views draw.
import { describe, expect, it } from 'vitest';
import type { Contact } from '../../../src/api/types.js';
import { initialContactsState, type ContactsState } from '../../../src/tui/contacts/contacts-state.js';
import { contactsRows, describeContacts } from '../../../src/tui/reader/describe-contacts.js';
import { describeTicker, tickerRows, type TickerParts } from '../../../src/tui/reader/describe-ticker.js';
import { describeScreen, keyLines, type ScreenParts } from '../../../src/tui/reader/describe-screen.js';
import { initialSearchState } from '../../../src/tui/search/search-state.js';
import { initialPickerState } from '../../../src/tui/ticker/picker-state.js';
import { initialTickerState, type TickerState } from '../../../src/tui/ticker/ticker-state.js';
import { fieldAtEnd } from '../../../src/tui/state/field-text.js';

const contact = (id: string, displayName: string | null, username: string): Contact => ({
  id,
  username,
  displayName,
  phoneNumber: '+14155550100',
  avatarUrl: null,
  conversationId: `cv_${id}`,
  lastActiveAt: null,
  createdAt: new Date('2026-11-01T10:00:00Z'),
});

const page = (state: ContactsState, contacts: Contact[]): ContactsState => ({ ...state, page: { contacts, hasMore: false, next: undefined, previous: undefined } as never });
const ada = contact('c1', 'Ada Lovelace', 'ada');
const grace = contact('c2', null, 'grace');
const browsing = page(initialContactsState(10), [ada, grace]);
const now = new Date('2026-11-29T12:00:00Z');

/** Every character a reader would speak as a symbol rather than a word. */
const DECORATION = /[\u2500-\u259f\u2800-\u28ff▲▼◆●·✓✗…→←↑↓]/;

describe('the contacts pane for a reader', () => {
  it('says the page as the place and the contact selected with its place among them', () => {
    const said = describeContacts({ ...browsing, cursor: 1 }, initialSearchState, now, 5);
    expect(said.place).toBe('Contacts, page 1');
    expect(said.selected?.words).toBe('grace, no display name, 2 of 2');
  });

  it('reads every field of an open contact, labelled', () => {
    const said = describeContacts({ ...browsing, view: 'detail', openId: 'c1' }, initialSearchState, now, 5);
    expect(said.place).toBe('Contact Ada Lovelace');
    expect(said.body?.words.split('\n')).toEqual(expect.arrayContaining(['username: ada', 'phone: +14155550100', 'last active: never', 'conversation: cv_c1']));
  });

  it('confirms a delete and its undo in words, and counts the marks', () => {
    const asked = describeContacts({ ...browsing, mode: { kind: 'confirm-delete', id: 'c1' } }, initialSearchState, now, 5);
    expect(asked.place).toBe('Delete Ada Lovelace and the conversation? y deletes, n keeps.');
    const pending = describeContacts({ ...browsing, pendingDelete: { contact: ada, dueAt: 0 }, marked: new Map([['c2', grace]]) }, initialSearchState, now, 5);
    expect(pending.facts).toMatchObject({ undo: 'deleted Ada Lovelace, u to undo within 5 seconds', marked: '1 marked' });
  });

  it('gives the rename field its prompt and the draft', () => {
    const said = describeContacts({ ...browsing, mode: { kind: 'rename', id: 'c1', draft: fieldAtEnd('Ada L') } }, initialSearchState, now, 5);
    expect(said.place).toBe('Rename Ada Lovelace');
    expect(said.field).toMatchObject({ key: 'rename c1', text: { value: 'Ada L', cursor: 5 } });
  });

  it('says the search\'s place the same while the index grows, that it is whole once, and when nothing matches', () => {
    const searching = (indexed: number, complete: boolean, query: string) =>
      describeContacts(browsing, { view: { open: true, query: fieldAtEnd(query), cursor: 0 }, hits: [], progress: { indexed, walked: indexed, expected: undefined, complete, failed: undefined } }, now, 5);
    expect(searching(10, false, '').place).toBe(searching(50, false, '').place);
    expect(searching(10, false, '').facts.indexed).toBeUndefined();
    expect(searching(60, true, '').facts.indexed).toBe('every contact is searched now');
    expect(searching(60, true, 'zq').facts.matches).toBe('no match');
    expect(searching(60, true, '').facts.matches).toBeUndefined();
  });

  it('says a page being fetched, one that failed, and an empty one', () => {
    expect(describeContacts(initialContactsState(10), initialSearchState, now, 5).place).toBe('Contacts, loading');
    expect(describeContacts(page(initialContactsState(10), []), initialSearchState, now, 5).place).toBe('Contacts, page 1: no contacts');
    expect(contactsRows(browsing)).toEqual(['1 of 2: Ada Lovelace, username ada', '2 of 2: grace, no display name']);
  });
});

const ticker = (change: (s: TickerState) => TickerState = (s) => s): TickerParts => ({
  ticker: change({
    ...initialTickerState(['AAPL', 'ZZZZ'], 2),
    rows: { AAPL: { price: 206.74, previous: 206.62, first: 206.5, volume: 1, history: [206.5, 206.74], updatedAt: 0 } },
    unknown: new Set(['ZZZZ']),
  }),
  names: new Map([['AAPL', 'Apple Inc.']]),
  picker: { ...initialPickerState, matches: undefined },
  lists: { open: false },
  columnsCursor: undefined,
  holdings: { open: false },
  lotsOf: () => [],
  moneyHidden: false,
});

describe('the ticker pane for a reader', () => {
  it('says the list and the selected symbol with its price in words, and a symbol the server does not know', () => {
    const said = describeTicker(ticker());
    expect(said.place).toBe('Ticker, list Watchlist, watchlist order');
    expect(describeTicker(ticker((s) => ({ ...s, sort: 'price', descending: true }))).place).toBe('Ticker, list Watchlist, by price, lowest first');
    expect(said.selected).toEqual({ key: 'symbol AAPL 0', words: 'AAPL, Apple Inc., 206 dollars 74, up 12 cents, session up 0.12 percent, rising, 1 of 2' });
    expect(describeTicker(ticker((s) => ({ ...s, cursor: 1 }))).selected?.words).toBe('ZZZZ, not known to the server, 2 of 2');
    expect(tickerRows(ticker().ticker, new Map())).toEqual(['1 of 2: AAPL, 206 dollars 74, up 12 cents, session up 0.12 percent, rising', '2 of 2: ZZZZ, not known to the server']);
  });

  it('says the match highlighted in the picker once one is pointed at', () => {
    const matches = [{ symbol: 'MSFT', name: 'Microsoft' }, { symbol: 'MS', name: 'Morgan Stanley' }];
    const parts = ticker();
    expect(describeTicker({ ...parts, picker: { ...parts.picker, open: true, matches } }).selected).toBeUndefined();
    const chosen = describeTicker({ ...parts, picker: { open: true, query: fieldAtEnd('ms'), cursor: 1, chosen: true, matches } });
    expect(chosen.place).toBe('Add a symbol to Watchlist');
    expect(chosen.selected?.words).toBe('MS, Morgan Stanley, match 2 of 2');
    expect(chosen.field?.text.value).toBe('ms');
  });

  it('says the watchlists menu and the list highlighted', () => {
    const parts = ticker();
    const said = describeTicker({ ...parts, lists: { open: true, purpose: { kind: 'move', symbol: 'AAPL' }, cursor: 0 } });
    expect(said.place).toMatch(/^Move AAPL to which list\?/);
    expect(said.selected?.words).toBe('Watchlist, 2 symbols, shown now, 1 of 1');
  });
});

describe('the whole dashboard for a reader', () => {
  const parts = (more: Partial<ScreenParts> = {}): ScreenParts => ({
    ...ticker(),
    focus: 'contacts',
    overlay: undefined,
    scopesBehind: ['reader', 'contacts', 'global'],
    messages: [],
    contacts: browsing,
    search: initialSearchState,
    alerts: undefined,
    detail: undefined,
    detailHistory: undefined,
    now: now.getTime(),
    undoSeconds: 5,
    ...more,
  });

  it('reads the keys that work where the help was opened, by their names', () => {
    const said = describeScreen(parts({ overlay: 'help' }));
    const lines = said.body!.words.split('\n');
    expect(lines).toContain('t: read the selected price');
    expect(lines).toContain('j or k, down arrow or up arrow: next or previous contact');
    expect(lines).toContain('question mark: help: every key');
    expect(lines).toContain('shift tab: previous pane');
    expect(keyLines(['contacts.confirm'])[0]).toBe('y: yes, delete');
    expect(keyLines(['field']).join('\n')).toMatch(/alt B or alt F: back or forward a word/);
  });

  it('reads an open symbol in words, with no chart', () => {
    const said = describeScreen(
      parts({
        detail: { symbol: 'AAPL', span: '1d', figures: { price: 206.74, tickChange: 0.12, tickPercent: 0.05, dayChange: -1.26, dayPercent: -0.6, open: 208, high: 209.5, low: 205, volume: 1200, recordedSince: undefined }, chart: ['⣀⣤⣶'], note: undefined },
        detailHistory: [208, 206.74],
      }),
    );
    expect(said.place).toMatch(/^AAPL open, chart of the last day\./);
    expect(said.body?.words.split('\n')).toEqual(['price 206 dollars 74', 'since the last price up 12 cents', 'today down 1 dollar 26, down 0.6 percent', 'opened at 208 dollars', 'high 209 dollars 50', 'low 205 dollars', 'volume 1200', 'recent prices falling']);
  });

  it('reads the message log once, on opening, however many messages come while it is open', () => {
    const one = describeScreen(parts({ overlay: 'messages', messages: [{ at: 0, kind: 'notice', text: 'one' }] }));
    const two = describeScreen(parts({ overlay: 'messages', messages: [{ at: 0, kind: 'notice', text: 'one' }, { at: 1, kind: 'error', text: 'two' }] }));
    expect([one.place, one.body?.key]).toEqual([two.place, two.body?.key]);
    expect(two.body?.words).toMatch(/, one\n.*, problem: two$/);
  });

  it('never says box drawing, braille, arrows or marks in any place', () => {
    const all = [
      describeScreen(parts()),
      describeScreen(parts({ overlay: 'help' })),
      describeScreen(parts({ overlay: 'messages', messages: [{ at: 0, kind: 'error', text: 'could not reach the server' }] })),
      describeScreen(parts({ focus: 'ticker' })),
    ];
    for (const said of all) expect(JSON.stringify(said)).not.toMatch(DECORATION);
  });
});
