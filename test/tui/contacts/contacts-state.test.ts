// The contacts pane's reducer and helpers: paging through cursors, the cursor, optimistic
// renames, the delete undo window, the create form and the filter, without a terminal.
import { describe, expect, it } from 'vitest';
import type { Contact, ContactPage, PageQuery } from '../../../src/api/types.js';
import {
  type ContactsAction,
  type ContactsState,
  DELETED_KEPT,
  emptyListText,
  firstPageQuery,
  initialContactsState,
  isLoading,
  nextPageQuery,
  queryKey,
  selectedContact,
  UNDO_WINDOW_MS,
  visibleContacts,
} from '../../../src/tui/contacts/contacts-state.js';
import { contactsReducer } from '../../../src/tui/contacts/contacts-reducer.js';
import { EMPTY_FIELD, type FieldInput } from '../../../src/tui/state/field-text.js';

function contact(id: string, username: string, displayName: string | null, phoneNumber: string): Contact {
  return {
    id,
    username,
    phoneNumber,
    avatarUrl: null,
    displayName,
    conversationId: `conv-${id}`,
    lastActiveAt: null,
    createdAt: new Date('2024-05-01T12:00:00Z'),
  };
}

const alice = contact('c_alice', 'alice.s', 'Alice Smith', '+442079460958');
const bob = contact('c_bob', 'bjones', 'Robert Jones', '+14155550123');
const carol = contact('c_carol', 'carol_w', null, '+33142685300');
const dave = contact('c_dave', 'dave99', 'Dave Bobson', '+4930901820');
const erin = contact('c_erin', 'erin', 'Erin Bobbitt', '+61291234567');
const frank = contact('c_frank', 'frank', 'Frank Ocean', '+81312345678');

function page(contacts: Contact[], links: { next?: PageQuery; previous?: PageQuery; hasMore?: boolean } = {}): ContactPage {
  return {
    contacts,
    hasMore: links.hasMore ?? links.next !== undefined,
    next: links.next,
    previous: links.previous,
  };
}

const run = (state: ContactsState, ...actions: ContactsAction[]): ContactsState => actions.reduce(contactsReducer, state);

/** `text` typed (or pasted) at a field's cursor. */
const typed = (text: string): FieldInput => ({ kind: 'type', text });
/** The filter typed into, as the key router hands it over. */
const filterTyped = (text: string): ContactsAction => ({ type: 'filter-edited', input: typed(text) });
/** A rename's draft replaced by `text`: Ctrl-U (the draft opens with its cursor at its end), then typing. */
const renamedTo = (text: string): ContactsAction[] => [
  { type: 'rename-edited', input: { kind: 'edit', edit: 'kill-start' } },
  { type: 'rename-edited', input: typed(text) },
];
/** `text` typed into the create form's focused field. */
const createTyped = (text: string): ContactsAction => ({ type: 'create-edited', input: typed(text) });

/** Requests `query` and loads `loaded` as its answer. */
function load(state: ContactsState, query: PageQuery, pageNumber: number, loaded: ContactPage, focusId?: string): ContactsState {
  const requested = contactsReducer(state, { type: 'page-requested', query, pageNumber });
  return contactsReducer(requested, { type: 'page-loaded', request: requested.request, page: loaded, focusId });
}

/** Page 2 of 3: a previous and a next page. */
const middlePage = page([alice, bob, carol], {
  next: { limit: 3, startingAfter: 'c_carol' },
  previous: { limit: 3, endingBefore: 'c_alice' },
});

function loadedMiddle(): ContactsState {
  return load(initialContactsState(3), { limit: 3, startingAfter: 'c_zed' }, 2, middlePage);
}

const names = (state: ContactsState): string[] => visibleContacts(state).map((c) => c.displayName ?? c.username);

describe('initial state and queries', () => {
  it('starts on page 1 of everyone with nothing loaded', () => {
    const state = initialContactsState(20);
    expect(state.query).toEqual({ limit: 20 });
    expect(state.pageNumber).toBe(1);
    expect(state.request).toBe(0);
    expect(isLoading(state)).toBe(false);
    expect(state.activeOnly).toBe(false);
    expect(state.mode).toEqual({ kind: 'browse' });
    expect(state.view).toBe('list');
    expect(visibleContacts(state)).toEqual([]);
    expect(selectedContact(state)).toBeUndefined();
    expect(nextPageQuery(state)).toBeUndefined();
  });

  it('firstPageQuery follows the all / active-only toggle', () => {
    const state = initialContactsState(7);
    expect(firstPageQuery(state)).toEqual({ limit: 7 });
    expect(firstPageQuery({ ...state, activeOnly: true })).toEqual({ limit: 7, active: true });
  });

  it('queryKey is the JSON of the query', () => {
    expect(queryKey({ limit: 3, startingAfter: 'c_carol' })).toBe('{"limit":3,"startingAfter":"c_carol"}');
    expect(queryKey({ limit: 3 })).not.toBe(queryKey({ limit: 3, active: true }));
  });
});

describe('page-requested / page-loaded / page-failed', () => {
  it('page-requested records the page being fetched, bumps the request and shows loading', () => {
    const state = contactsReducer(initialContactsState(3), {
      type: 'page-requested',
      query: { limit: 3, startingAfter: 'x' },
      pageNumber: 2,
    });
    expect(state.pending).toEqual({ query: { limit: 3, startingAfter: 'x' }, pageNumber: 2 });
    // The page on screen keeps its own query and number until the new one arrives.
    expect(state.query).toEqual({ limit: 3 });
    expect(state.pageNumber).toBe(1);
    expect(state.request).toBe(1);
    expect(isLoading(state)).toBe(true);
  });

  it('page-loaded takes the query and number of the page fetched', () => {
    const state = loadedMiddle();
    expect(state.query).toEqual({ limit: 3, startingAfter: 'c_zed' });
    expect(state.pageNumber).toBe(2);
    expect(state.pending).toBeUndefined();
  });

  it('page-loaded puts the page on screen and stops loading', () => {
    const state = loadedMiddle();
    expect(isLoading(state)).toBe(false);
    expect(state.page).toEqual(middlePage);
    expect(state.pageNumber).toBe(2);
    expect(state.cursor).toBe(0);
    expect(selectedContact(state)).toEqual(alice);
  });

  it('an answer for an older request is dropped', () => {
    let state = initialContactsState(3);
    state = contactsReducer(state, { type: 'page-requested', query: { limit: 3 }, pageNumber: 1 });
    state = contactsReducer(state, { type: 'page-requested', query: { limit: 3, startingAfter: 'c_carol' }, pageNumber: 2 });
    expect(state.request).toBe(2);
    const stale = contactsReducer(state, { type: 'page-loaded', request: 1, page: page([alice, bob, carol]) });
    expect(stale).toBe(state);
    expect(stale.page).toBeUndefined();
    expect(isLoading(stale)).toBe(true);
    const fresh = contactsReducer(state, { type: 'page-loaded', request: 2, page: page([dave, erin]) });
    expect(fresh.page?.contacts).toEqual([dave, erin]);
    expect(isLoading(fresh)).toBe(false);
  });

  it('page-failed says why when there is no page to show; the next page to arrive clears it', () => {
    let state = contactsReducer(initialContactsState(3), { type: 'page-requested', query: { limit: 3 }, pageNumber: 1 });
    expect(emptyListText(state)).toBe('');
    const failed = (retrying: boolean) =>
      contactsReducer(state, { type: 'page-failed', request: state.request, error: { message: 'the host refused\u001b[31m', retrying, query: { limit: 3 }, pageNumber: 1 } });
    expect(emptyListText(failed(false))).toBe('could not load contacts: the host refused · r tries again');
    state = failed(true);
    expect(isLoading(state)).toBe(false);
    expect(emptyListText(state)).toBe('could not load contacts: the host refused · trying again (r: now)');
    state = load(state, { limit: 3 }, 1, page([]));
    expect(state.loadError).toBeUndefined();
    expect(emptyListText(state)).toBe('no contacts');
    state = run(state, { type: 'filter-started' }, filterTyped('zed'));
    expect(emptyListText(state)).toBe('no contact on this page matches "zed"');
  });

  it('page-failed stops loading only for the current request and keeps the page', () => {
    let state = loadedMiddle();
    state = contactsReducer(state, { type: 'page-requested', query: { limit: 3, startingAfter: 'c_carol' }, pageNumber: 3 });
    const stale = contactsReducer(state, { type: 'page-failed', request: state.request - 1 });
    expect(stale).toBe(state);
    const failed = contactsReducer(state, { type: 'page-failed', request: state.request });
    expect(isLoading(failed)).toBe(false);
    expect(failed.pending).toBeUndefined();
    expect(failed.page).toEqual(middlePage);
    // Still page 2, with the query that fetched it: paging on from here still works.
    expect(failed.pageNumber).toBe(2);
    expect(failed.query).toEqual({ limit: 3, startingAfter: 'c_zed' });
    // A late answer for the failed request changes nothing.
    expect(contactsReducer(failed, { type: 'page-loaded', request: failed.request, page: page([dave]) })).toBe(failed);
  });

  it('coming back with endingBefore puts the cursor on the last row', () => {
    const state = load(loadedMiddle(), { limit: 3, endingBefore: 'c_alice' }, 1, page([dave, erin, frank], { next: { limit: 3, startingAfter: 'c_frank' } }));
    expect(state.cursor).toBe(2);
    expect(selectedContact(state)).toEqual(frank);
    expect(state.pageNumber).toBe(1);
  });

  it('coming back with endingBefore to a shorter page still lands on its last row', () => {
    const state = load(loadedMiddle(), { limit: 3, endingBefore: 'c_alice' }, 1, page([dave]));
    expect(state.cursor).toBe(0);
    expect(selectedContact(state)).toEqual(dave);
  });

  it('focusId puts the cursor on that contact', () => {
    const state = load(initialContactsState(3), { limit: 3 }, 1, page([alice, bob, carol]), 'c_carol');
    expect(state.cursor).toBe(2);
    expect(selectedContact(state)?.id).toBe('c_carol');
  });

  it('focusId wins over endingBefore', () => {
    const state = load(initialContactsState(3), { limit: 3, endingBefore: 'c_zed' }, 1, page([alice, bob, carol]), 'c_bob');
    expect(selectedContact(state)?.id).toBe('c_bob');
  });

  it('a focusId not on the page leaves the cursor at the top', () => {
    const state = load(initialContactsState(3), { limit: 3 }, 1, page([alice, bob, carol]), 'c_gone');
    expect(state.cursor).toBe(0);
  });

  it('an empty page leaves the cursor at 0', () => {
    const state = load(initialContactsState(3), { limit: 3, endingBefore: 'x' }, 1, page([]));
    expect(state.cursor).toBe(0);
    expect(selectedContact(state)).toBeUndefined();
  });

  it('focusId selects that contact even when rows before it are hidden (pending delete)', () => {
    // Reloading (r) during the undo window: the server still returns the contact being deleted,
    // which the list hides; the selected contact must stay selected.
    let state = load(initialContactsState(3), { limit: 3 }, 1, page([alice, bob, carol]));
    state = run(state, { type: 'delete-asked' }, { type: 'delete-confirmed', now: 1000 });
    state = run(state, { type: 'cursor-to', index: 0 });
    expect(selectedContact(state)?.id).toBe('c_bob');
    state = load(state, state.query, state.pageNumber, page([alice, bob, carol]), 'c_bob');
    expect(selectedContact(state)?.id).toBe('c_bob');
  });

  it('focusId selects that contact even when the filter hides rows before it', () => {
    let state = load(initialContactsState(4), { limit: 4 }, 1, page([bob, carol, dave, erin]));
    state = run(state, { type: 'filter-started' }, filterTyped('bob'), { type: 'filter-kept' });
    expect(names(state)).toEqual(['Dave Bobson', 'Erin Bobbitt']);
    // bjones (Robert Jones) does not match "bob"; Dave is visible row 0, Erin row 1.
    state = run(state, { type: 'cursor-to', index: 0 });
    expect(selectedContact(state)?.id).toBe('c_dave');
    state = load(state, state.query, state.pageNumber, page([bob, carol, dave, erin]), 'c_dave');
    expect(selectedContact(state)?.id).toBe('c_dave');
  });
});

describe('a move landing on a page (counted moves, walks)', () => {
  it('lands the cursor on the row asked for, from the top or from the bottom, clamped to the rows there', () => {
    const state = loadedMiddle();
    const landed = (landAt: number | { fromEnd: number }, rows = [dave, erin, frank]) => {
      const requested = contactsReducer(state, { type: 'page-requested', query: { limit: 3, startingAfter: 'c_carol' }, pageNumber: 3, landAt });
      return contactsReducer(requested, { type: 'page-loaded', request: requested.request, page: page(rows) });
    };
    expect(landed(1).cursor).toBe(1);
    expect(landed({ fromEnd: 0 }).cursor).toBe(2);
    expect(landed({ fromEnd: 2 }).cursor).toBe(0);
    expect(landed(7).cursor).toBe(2);
    // A page at the start of the list may be short: counted from its bottom, clamped at its top.
    expect(landed({ fromEnd: 2 }, [dave]).cursor).toBe(0);
  });

  it('a walk drops the answer of whatever was being fetched, shows loading, and its stop leaves the page as it was', () => {
    const state = loadedMiddle();
    const requested = contactsReducer(state, { type: 'page-requested', query: { limit: 3, startingAfter: 'c_carol' }, pageNumber: 3 });
    const walking = contactsReducer(requested, { type: 'page-walk-started' });
    expect(isLoading(walking)).toBe(true);
    expect(contactsReducer(walking, { type: 'page-loaded', request: requested.request, page: page([dave]) })).toBe(walking);
    const stopped = contactsReducer(walking, { type: 'page-walk-stopped' });
    expect(isLoading(stopped)).toBe(false);
    expect(stopped.page).toBe(state.page);
    expect(stopped.pageNumber).toBe(2);
  });
});

describe('no work for nothing', () => {
  it('a move that changes nothing (k on the first row, G on the last) returns the same state: nothing is drawn again', () => {
    const state = loadedMiddle();
    expect(contactsReducer(state, { type: 'cursor-moved', by: -1 })).toBe(state);
    expect(contactsReducer(state, { type: 'cursor-to', index: 0 })).toBe(state);
    const last = contactsReducer(state, { type: 'cursor-to', index: 'last' });
    expect(last.cursor).toBe(2);
    expect(contactsReducer(last, { type: 'cursor-moved', by: 50 })).toBe(last);
  });
});

describe('prefetched pages', () => {
  it('prefetched stores the page under its key; prefetch-dropped forgets it', () => {
    const key = queryKey({ limit: 3, startingAfter: 'c_carol' });
    let state = contactsReducer(loadedMiddle(), { type: 'prefetched', key, page: page([dave]) });
    expect(state.prefetched).toEqual({ key, page: page([dave]) });
    state = contactsReducer(state, { type: 'prefetch-dropped' });
    expect(state.prefetched).toBeUndefined();
    expect(contactsReducer(state, { type: 'prefetch-dropped' })).toBe(state);
  });

  it('a prefetched page is kept when it is the next page of the page loaded', () => {
    const key = queryKey(nextPageQuery(loadedMiddle())!);
    expect(key).toBe('{"limit":3,"startingAfter":"c_carol"}');
    let state = contactsReducer(loadedMiddle(), { type: 'prefetched', key, page: page([dave, erin, frank]) });
    state = load(state, state.query, 2, middlePage);
    expect(state.prefetched?.key).toBe(key);
    expect(state.prefetched?.page.contacts).toEqual([dave, erin, frank]);
  });

  it('a prefetched page is dropped when another page is loaded', () => {
    const key = queryKey({ limit: 3, startingAfter: 'c_carol' });
    let state = contactsReducer(loadedMiddle(), { type: 'prefetched', key, page: page([dave, erin, frank]) });
    state = load(state, { limit: 3, startingAfter: 'c_carol' }, 3, page([dave, erin, frank], { next: { limit: 3, startingAfter: 'c_frank' } }));
    expect(state.prefetched).toBeUndefined();
  });
});

describe('page-extended (a taller pane filled from below)', () => {
  it('appends the rows after the last one, keeps the top row and the cursor, and moves the next link', () => {
    let state = contactsReducer(loadedMiddle(), { type: 'cursor-moved', by: 1 });
    state = contactsReducer(state, { type: 'prefetched', key: queryKey(nextPageQuery(state)!), page: page([dave]) });
    const more = page([dave, erin], { next: { limit: 2, startingAfter: 'c_erin' } });
    state = contactsReducer(state, { type: 'page-extended', request: state.request, after: 'c_carol', page: more });
    expect(state.page?.contacts).toEqual([alice, bob, carol, dave, erin]);
    expect(selectedContact(state)).toBe(bob);
    expect(state.pageNumber).toBe(2);
    expect(state.query).toEqual({ limit: 5, startingAfter: 'c_zed' });
    expect(nextPageQuery(state)).toEqual({ limit: 3, startingAfter: 'c_erin' });
    // The look-ahead was for the page after carol: not the next page any more.
    expect(state.prefetched).toBeUndefined();
  });

  it('at the end of the list there is no next page any more', () => {
    let state = loadedMiddle();
    state = contactsReducer(state, { type: 'page-extended', request: state.request, after: 'c_carol', page: page([dave]) });
    expect(state.page?.contacts).toEqual([alice, bob, carol, dave]);
    expect(nextPageQuery(state)).toBeUndefined();
  });

  it('never shows a row twice', () => {
    let state = loadedMiddle();
    state = contactsReducer(state, { type: 'page-extended', request: state.request, after: 'c_carol', page: page([carol, dave]) });
    expect(state.page?.contacts).toEqual([alice, bob, carol, dave]);
  });

  it('rows fetched after a row that is no longer the last are dropped (another fill came first)', () => {
    let state = loadedMiddle();
    state = contactsReducer(state, { type: 'page-extended', request: state.request, after: 'c_carol', page: page([dave]) });
    const late = contactsReducer(state, { type: 'page-extended', request: state.request, after: 'c_carol', page: page([dave, erin], { next: { limit: 2, startingAfter: 'c_erin' } }) });
    expect(late).toBe(state);
    expect(nextPageQuery(late)).toBeUndefined();
  });

  it('is dropped when another page was asked for meanwhile', () => {
    const state = loadedMiddle();
    const more = page([dave]);
    expect(contactsReducer(state, { type: 'page-extended', request: state.request - 1, after: 'c_carol', page: more })).toBe(state);
    const requested = contactsReducer(state, { type: 'page-requested', query: { limit: 3 }, pageNumber: 1 });
    expect(contactsReducer(requested, { type: 'page-extended', request: state.request, after: 'c_carol', page: more })).toBe(requested);
    expect(contactsReducer(requested, { type: 'page-extended', request: requested.request, after: 'c_carol', page: more })).toBe(requested);
  });
});

describe('cursor', () => {
  it('moves by steps and is clamped to the rows', () => {
    let state = loadedMiddle();
    state = contactsReducer(state, { type: 'cursor-moved', by: 1 });
    expect(state.cursor).toBe(1);
    state = contactsReducer(state, { type: 'cursor-moved', by: 10 });
    expect(state.cursor).toBe(2);
    state = contactsReducer(state, { type: 'cursor-moved', by: -10 });
    expect(state.cursor).toBe(0);
    state = contactsReducer(state, { type: 'cursor-moved', by: -1 });
    expect(state.cursor).toBe(0);
  });

  it('cursor-to jumps to the first and the last row', () => {
    let state = contactsReducer(loadedMiddle(), { type: 'cursor-to', index: 'last' });
    expect(state.cursor).toBe(2);
    expect(selectedContact(state)).toEqual(carol);
    state = contactsReducer(state, { type: 'cursor-to', index: 0 });
    expect(state.cursor).toBe(0);
    state = contactsReducer(state, { type: 'cursor-to', index: 99 });
    expect(state.cursor).toBe(2);
  });

  it('stays at 0 with no rows', () => {
    let state = initialContactsState(3);
    state = contactsReducer(state, { type: 'cursor-moved', by: 3 });
    expect(state.cursor).toBe(0);
    state = contactsReducer(state, { type: 'cursor-to', index: 'last' });
    expect(state.cursor).toBe(0);
  });
});

describe('next page queries', () => {
  it('next starts after the last contact of the page', () => {
    const state = loadedMiddle();
    expect(nextPageQuery(state)).toEqual({ limit: 3, startingAfter: 'c_carol' });
  });

  it('undefined at the ends', () => {
    const first = load(initialContactsState(3), { limit: 3 }, 1, page([alice, bob, carol], { next: { limit: 3, startingAfter: 'c_carol' } }));
    expect(nextPageQuery(first)).toEqual({ limit: 3, startingAfter: 'c_carol' });
    const last = load(initialContactsState(3), { limit: 3, startingAfter: 'x' }, 4, page([dave], { previous: { limit: 3, endingBefore: 'c_dave' } }));
    expect(nextPageQuery(last)).toBeUndefined();
  });

  it('next uses the last contact still there after a delete', () => {
    let state = run(loadedMiddle(), { type: 'cursor-to', index: 'last' }, { type: 'delete-asked' }, { type: 'delete-confirmed', now: 0 });
    state = contactsReducer(state, { type: 'delete-sent', id: 'c_carol' });
    expect(nextPageQuery(state)).toEqual({ limit: 3, startingAfter: 'c_bob' });
    state = run(state, { type: 'cursor-to', index: 0 }, { type: 'delete-asked' }, { type: 'delete-confirmed', now: 0 });
    state = contactsReducer(state, { type: 'delete-sent', id: 'c_alice' });
    expect(nextPageQuery(state)).toEqual({ limit: 3, startingAfter: 'c_bob' });
  });

  it('falls back to the page link when every contact on it was deleted', () => {
    let state = loadedMiddle();
    for (const id of ['c_alice', 'c_bob', 'c_carol']) {
      state = run(state, { type: 'delete-asked' }, { type: 'delete-confirmed', now: 0 }, { type: 'delete-sent', id });
    }
    expect(visibleContacts(state)).toEqual([]);
    expect(nextPageQuery(state)).toEqual({ limit: 3, startingAfter: 'c_carol' });
  });

  it('keeps active:true when only active contacts are listed', () => {
    const state = { ...loadedMiddle(), activeOnly: true };
    expect(nextPageQuery(state)).toEqual({ limit: 3, active: true, startingAfter: 'c_carol' });
  });
});

describe('toggle-active', () => {
  it('switches to active only, drops the prefetched page and the filter; page 1 is requested with active:true', () => {
    let state = run(
      loadedMiddle(),
      { type: 'prefetched', key: 'k', page: page([dave]) },
      filterTyped('ali'),
      { type: 'toggle-active' },
    );
    expect(state.activeOnly).toBe(true);
    expect(state.prefetched).toBeUndefined();
    expect(state.filter).toEqual(EMPTY_FIELD);
    expect(firstPageQuery(state)).toEqual({ limit: 3, active: true });
    state = load(state, firstPageQuery(state), 1, page([alice]));
    expect(state.query).toEqual({ limit: 3, active: true });
    expect(state.pageNumber).toBe(1);
    state = contactsReducer(state, { type: 'toggle-active' });
    expect(state.activeOnly).toBe(false);
    expect(firstPageQuery(state)).toEqual({ limit: 3 });
  });
});

describe('open / close', () => {
  it('opens the selected contact and closes back to the list in browse mode', () => {
    let state = contactsReducer(loadedMiddle(), { type: 'opened' });
    expect(state.view).toBe('detail');
    state = contactsReducer({ ...state, mode: { kind: 'rename', id: 'c_alice', draft: { value: 'x', cursor: 1 } } }, { type: 'closed' });
    expect(state.view).toBe('list');
    expect(state.mode).toEqual({ kind: 'browse' });
  });

  it('does not open with nothing selected', () => {
    const state = initialContactsState(3);
    expect(contactsReducer(state, { type: 'opened' })).toBe(state);
  });

  it('contact-refreshed replaces the contact on the page', () => {
    const fresh = { ...bob, lastActiveAt: new Date('2024-06-01T00:00:00Z') };
    const state = contactsReducer(loadedMiddle(), { type: 'contact-refreshed', contact: fresh });
    expect(state.page?.contacts[1]).toEqual(fresh);
  });
});

describe('rename (optimistic, rolled back on failure)', () => {
  it('prefills the draft with the display name, the cursor after it', () => {
    const state = contactsReducer(loadedMiddle(), { type: 'rename-started' });
    expect(state.mode).toEqual({ kind: 'rename', id: 'c_alice', draft: { value: 'Alice Smith', cursor: 11 } });
  });

  it('prefills the draft with the username when there is no display name, the cursor after it', () => {
    const state = run(loadedMiddle(), { type: 'cursor-to', index: 2 }, { type: 'rename-started' });
    expect(state.mode).toEqual({ kind: 'rename', id: 'c_carol', draft: { value: 'carol_w', cursor: 7 } });
  });

  it('does nothing with no contact selected', () => {
    const state = initialContactsState(3);
    expect(contactsReducer(state, { type: 'rename-started' })).toBe(state);
  });

  it('a draft or a create field never holds more than the server takes (a paste past it cut): 64 for a name, 32 for a username', () => {
    const renaming = run(loadedMiddle(), { type: 'rename-started' }, ...renamedTo('x'.repeat(70)));
    expect(renaming.mode.kind === 'rename' && renaming.mode.draft).toEqual({ value: 'x'.repeat(64), cursor: 64 });
    // The create form's fields in order: username, phone_number, display_name, avatar_url.
    const creating = run(
      loadedMiddle(),
      { type: 'create-started' },
      createTyped('u'.repeat(40)),
      { type: 'create-field-moved', by: 2 },
      createTyped('d'.repeat(80)),
      { type: 'create-field-moved', by: -1 },
      createTyped('1'.repeat(80)),
    );
    const values = creating.mode.kind === 'create' ? creating.mode.form.values : undefined;
    expect(values?.username).toBe('u'.repeat(32));
    expect(values?.display_name).toBe('d'.repeat(64));
    // No limit of its own: the server's message says what is wrong with it.
    expect(values?.phone_number).toBe('1'.repeat(80));
  });

  it('rename-edited changes the draft (Ctrl-U then typing replaces it) only while renaming', () => {
    const renaming = run(loadedMiddle(), { type: 'rename-started' }, ...renamedTo('Ally'));
    expect(renaming.mode).toEqual({ kind: 'rename', id: 'c_alice', draft: { value: 'Ally', cursor: 4 } });
    const browsing = loadedMiddle();
    expect(contactsReducer(browsing, { type: 'rename-edited', input: typed('Ally') })).toBe(browsing);
  });

  it('rename-edited types at the draft\'s cursor, and a key that changes nothing keeps the state', () => {
    const renaming = run(
      loadedMiddle(),
      { type: 'rename-started' },
      { type: 'rename-edited', input: { kind: 'edit', edit: 'word-left' } },
      { type: 'rename-edited', input: typed('J. ') },
    );
    expect(renaming.mode).toEqual({ kind: 'rename', id: 'c_alice', draft: { value: 'Alice J. Smith', cursor: 9 } });
    const atEnd = contactsReducer(loadedMiddle(), { type: 'rename-started' });
    expect(contactsReducer(atEnd, { type: 'rename-edited', input: { kind: 'edit', edit: 'end' } })).toBe(atEnd);
  });

  it('rename-sent shows the new name at once and goes back to browsing', () => {
    const state = run(loadedMiddle(), { type: 'rename-started' }, { type: 'rename-sent', id: 'c_alice', displayName: 'Ally' });
    expect(state.mode).toEqual({ kind: 'browse' });
    expect(visibleContacts(state)[0]?.displayName).toBe('Ally');
    expect(selectedContact(state)?.displayName).toBe('Ally');
    // The page itself still holds what the server said.
    expect(state.page?.contacts[0]?.displayName).toBe('Alice Smith');
  });

  it('an empty name (null) shows the username at once', () => {
    const state = run(loadedMiddle(), { type: 'rename-sent', id: 'c_bob', displayName: null });
    expect(visibleContacts(state)[1]?.displayName).toBeNull();
    expect(names(state)).toEqual(['Alice Smith', 'bjones', 'carol_w']);
  });

  it('rename-failed rolls the row back to its old name', () => {
    const state = run(loadedMiddle(), { type: 'rename-sent', id: 'c_alice', displayName: 'Ally' }, { type: 'rename-failed', id: 'c_alice' });
    expect(visibleContacts(state)[0]).toEqual(alice);
    expect(state.renames).toEqual({});
  });

  it('rename-failed of one contact leaves another pending rename alone', () => {
    const state = run(
      loadedMiddle(),
      { type: 'rename-sent', id: 'c_alice', displayName: 'Ally' },
      { type: 'rename-sent', id: 'c_bob', displayName: 'Bobby' },
      { type: 'rename-failed', id: 'c_alice' },
    );
    expect(names(state)).toEqual(['Alice Smith', 'Bobby', 'carol_w']);
  });

  it('rename-succeeded replaces the contact with the server answer', () => {
    const updated = { ...alice, displayName: 'Ally S.' };
    const state = run(
      loadedMiddle(),
      { type: 'prefetched', key: 'k', page: page([dave]) },
      { type: 'rename-sent', id: 'c_alice', displayName: 'Ally' },
      { type: 'rename-succeeded', contact: updated },
    );
    expect(state.renames).toEqual({});
    expect(state.page?.contacts[0]).toEqual(updated);
    expect(visibleContacts(state)[0]?.displayName).toBe('Ally S.');
    expect(state.prefetched).toBeUndefined();
  });

  it('mode-cancelled leaves the name untouched', () => {
    const state = run(loadedMiddle(), { type: 'rename-started' }, ...renamedTo('Nope'), { type: 'mode-cancelled' });
    expect(state.mode).toEqual({ kind: 'browse' });
    expect(names(state)).toEqual(['Alice Smith', 'Robert Jones', 'carol_w']);
  });
});

describe('delete with confirmation and an undo window', () => {
  it('delete-asked asks about the selected contact; cancelling (the default No) keeps it', () => {
    let state = run(loadedMiddle(), { type: 'cursor-to', index: 1 }, { type: 'delete-asked' });
    expect(state.mode).toEqual({ kind: 'confirm-delete', id: 'c_bob' });
    state = contactsReducer(state, { type: 'mode-cancelled' });
    expect(state.mode).toEqual({ kind: 'browse' });
    expect(state.pendingDelete).toBeUndefined();
    expect(visibleContacts(state)).toHaveLength(3);
  });

  it('delete-asked with nothing selected does nothing', () => {
    const state = initialContactsState(3);
    expect(contactsReducer(state, { type: 'delete-asked' })).toBe(state);
  });

  it('delete-confirmed outside the confirmation does nothing', () => {
    const state = loadedMiddle();
    expect(contactsReducer(state, { type: 'delete-confirmed', now: 1 })).toBe(state);
  });

  it('confirming hides the row at once and sets the DELETE due after the undo window', () => {
    expect(UNDO_WINDOW_MS).toBe(5000);
    const state = run(loadedMiddle(), { type: 'cursor-to', index: 1 }, { type: 'delete-asked' }, { type: 'delete-confirmed', now: 1_000_000 });
    expect(state.mode).toEqual({ kind: 'browse' });
    expect(state.pendingDelete).toEqual({ contact: bob, dueAt: 1_005_000 });
    expect(names(state)).toEqual(['Alice Smith', 'carol_w']);
    expect(state.deleted.has('c_bob')).toBe(false);
    expect(selectedContact(state)).toEqual(carol);
  });

  it('a given undo window sets dueAt = now + windowMs', () => {
    const state = run(loadedMiddle(), { type: 'delete-asked' }, { type: 'delete-confirmed', now: 500, windowMs: 1200 });
    expect(state.pendingDelete?.dueAt).toBe(1700);
  });

  it('deleting the last row moves the cursor up; deleting from the detail view goes back to the list', () => {
    const state = run(
      loadedMiddle(),
      { type: 'cursor-to', index: 'last' },
      { type: 'opened' },
      { type: 'delete-asked' },
      { type: 'delete-confirmed', now: 0 },
    );
    expect(state.view).toBe('list');
    expect(state.cursor).toBe(1);
    expect(selectedContact(state)).toEqual(bob);
  });

  it('delete-undone brings the row back', () => {
    let state = run(loadedMiddle(), { type: 'cursor-to', index: 1 }, { type: 'delete-asked' }, { type: 'delete-confirmed', now: 0 });
    state = contactsReducer(state, { type: 'delete-undone' });
    expect(state.pendingDelete).toBeUndefined();
    expect(visibleContacts(state)).toEqual([alice, bob, carol]);
    expect(contactsReducer(state, { type: 'delete-undone' })).toBe(state);
  });

  it('delete-sent marks the contact deleted for good', () => {
    let state = run(loadedMiddle(), { type: 'delete-asked' }, { type: 'prefetched', key: 'k', page: page([dave]) }, { type: 'delete-confirmed', now: 0 });
    state = contactsReducer(state, { type: 'delete-sent', id: 'c_alice' });
    expect(state.pendingDelete).toBeUndefined();
    expect([...state.deleted]).toEqual(['c_alice']);
    expect(state.prefetched).toBeUndefined();
    expect(names(state)).toEqual(['Robert Jones', 'carol_w']);
    // Undo after the window changes nothing.
    expect(names(contactsReducer(state, { type: 'delete-undone' }))).toEqual(['Robert Jones', 'carol_w']);
  });

  it('remembers the latest DELETED_KEPT deleted ids, not every one of a long session', () => {
    let state = loadedMiddle();
    for (let i = 0; i <= DELETED_KEPT; i++) state = contactsReducer(state, { type: 'contact-gone', id: `c_${i}` });
    state = run(state, { type: 'delete-asked' }, { type: 'delete-confirmed', now: 0 }, { type: 'delete-sent', id: 'c_alice' });
    expect(state.deleted.size).toBe(DELETED_KEPT);
    expect(state.deleted.has('c_0')).toBe(false);
    expect(state.deleted.has('c_1')).toBe(false);
    expect(state.deleted.has(`c_${DELETED_KEPT}`)).toBe(true);
    expect(state.deleted.has('c_alice')).toBe(true);
    expect(names(state)).toEqual(['Robert Jones', 'carol_w']);
  });

  it('delete-sent for another id than the pending one does nothing', () => {
    const state = run(loadedMiddle(), { type: 'delete-asked' }, { type: 'delete-confirmed', now: 0 });
    expect(contactsReducer(state, { type: 'delete-sent', id: 'c_bob' })).toBe(state);
  });

  it('delete-failed brings the contact back', () => {
    let state = run(loadedMiddle(), { type: 'delete-asked' }, { type: 'delete-confirmed', now: 0 }, { type: 'delete-sent', id: 'c_alice' });
    state = contactsReducer(state, { type: 'delete-failed', contact: alice });
    expect(state.deleted.has('c_alice')).toBe(false);
    expect(visibleContacts(state)).toEqual([alice, bob, carol]);
  });
});

describe('create form', () => {
  const started = () => contactsReducer(loadedMiddle(), { type: 'create-started' });
  const form = (state: ContactsState) => {
    if (state.mode.kind !== 'create') throw new Error(`not creating: ${state.mode.kind}`);
    return state.mode.form;
  };

  it('starts empty on the username field', () => {
    expect(form(started())).toEqual({
      values: { username: '', phone_number: '', display_name: '', avatar_url: '' },
      errors: {},
      field: 'username',
      cursor: 0,
      submitting: false,
    });
  });

  it('create-edited types into the focused field and clears that field’s error only', () => {
    let state = run(started(), { type: 'create-failed', errors: { username: 'taken', phone_number: 'bad' } });
    expect(form(state).field).toBe('username');
    state = contactsReducer(state, createTyped('newbie'));
    expect(form(state).values.username).toBe('newbie');
    expect(form(state).errors).toEqual({ phone_number: 'bad' });
  });

  it('create-edited outside the form does nothing', () => {
    const state = loadedMiddle();
    expect(contactsReducer(state, createTyped('x'))).toBe(state);
  });

  it('create-field-moved goes through the fields and wraps both ways', () => {
    let state = started();
    const fields: string[] = [];
    for (let i = 0; i < 4; i++) {
      state = contactsReducer(state, { type: 'create-field-moved', by: 1 });
      fields.push(form(state).field);
    }
    expect(fields).toEqual(['phone_number', 'display_name', 'avatar_url', 'username']);
    state = contactsReducer(state, { type: 'create-field-moved', by: -1 });
    expect(form(state).field).toBe('avatar_url');
  });

  it('create-sent marks the form submitting', () => {
    expect(form(contactsReducer(started(), { type: 'create-sent' })).submitting).toBe(true);
  });

  it('create-failed shows the errors, focuses the first errored field (the cursor at its end) and keeps every value', () => {
    let state = run(
      started(),
      createTyped('amelia'),
      { type: 'create-field-moved', by: 1 },
      createTyped('12'),
      { type: 'create-field-moved', by: 1 },
      createTyped('Amelia'),
      { type: 'create-field-moved', by: 1 },
      createTyped('ftp://x'),
      { type: 'create-sent' },
    );
    state = contactsReducer(state, { type: 'create-failed', errors: { avatar_url: 'must be https', phone_number: 'not E.164' } });
    expect(form(state)).toEqual({
      values: { username: 'amelia', phone_number: '12', display_name: 'Amelia', avatar_url: 'ftp://x' },
      errors: { avatar_url: 'must be https', phone_number: 'not E.164' },
      field: 'phone_number',
      cursor: 2,
      submitting: false,
    });
  });

  it('create-failed with no field errors keeps the focused field', () => {
    const state = run(started(), { type: 'create-field-moved', by: 2 }, { type: 'create-failed', errors: {} });
    expect(form(state).field).toBe('display_name');
  });

  it('create-succeeded goes back to browsing, dropping the filter and the prefetched page', () => {
    const state = run(
      loadedMiddle(),
      { type: 'prefetched', key: 'k', page: page([dave]) },
      filterTyped('x'),
      { type: 'create-started' },
      { type: 'create-succeeded' },
    );
    expect(state.mode).toEqual({ kind: 'browse' });
    expect(state.filter).toEqual(EMPTY_FIELD);
    expect(state.prefetched).toBeUndefined();
  });
});

describe('filter', () => {
  const filtered = (text: string) => run(loadedMiddle(), { type: 'filter-started' }, filterTyped(text));

  it('filter-started enters filter mode', () => {
    expect(contactsReducer(loadedMiddle(), { type: 'filter-started' }).mode).toEqual({ kind: 'filter' });
  });

  it('matches the shown name, case-insensitively', () => {
    expect(names(filtered('ROBERT'))).toEqual(['Robert Jones']);
    expect(names(filtered('smi'))).toEqual(['Alice Smith']);
  });

  it('matches the username', () => {
    expect(names(filtered('bjon'))).toEqual(['Robert Jones']);
    expect(names(filtered('carol_'))).toEqual(['carol_w']);
  });

  it('matches phone digits, ignoring spaces and signs typed', () => {
    expect(names(filtered('7946'))).toEqual(['Alice Smith']);
    expect(names(filtered('+44 20 7946'))).toEqual(['Alice Smith']);
    expect(names(filtered('555-0123'))).toEqual(['Robert Jones']);
    expect(names(filtered('999999'))).toEqual([]);
  });

  it('matches the optimistic name, not the old one', () => {
    const state = run(loadedMiddle(), { type: 'rename-sent', id: 'c_alice', displayName: 'Zelda' }, filterTyped('zel'));
    expect(names(state)).toEqual(['Zelda']);
  });

  it('editing the filter puts the cursor back on the first row', () => {
    const state = run(loadedMiddle(), { type: 'cursor-to', index: 2 }, { type: 'filter-started' }, filterTyped('o'));
    expect(state.cursor).toBe(0);
    expect(names(state)).toEqual(['Robert Jones', 'carol_w']);
    expect(selectedContact(state)).toEqual(bob);
  });

  it('moving the filter\'s cursor keeps the row; a key that changes nothing keeps the state', () => {
    const state = run(loadedMiddle(), { type: 'filter-started' }, filterTyped('o'), { type: 'cursor-moved', by: 1 });
    expect(state.cursor).toBe(1);
    const stepped = contactsReducer(state, { type: 'filter-edited', input: { kind: 'edit', edit: 'left' } });
    expect(stepped.filter).toEqual({ value: 'o', cursor: 0 });
    expect(stepped.cursor).toBe(1);
    expect(contactsReducer(stepped, { type: 'filter-edited', input: { kind: 'backspace' } })).toBe(stepped);
    // Typed before the cursor: the text changed, so back to the first row.
    const typedBefore = contactsReducer(stepped, filterTyped('j'));
    expect(typedBefore.filter).toEqual({ value: 'jo', cursor: 1 });
    expect(typedBefore.cursor).toBe(0);
  });

  it('filter-kept keeps the filter; filter-cleared drops it', () => {
    let state = run(filtered('bjo'), { type: 'filter-kept' });
    expect(state.mode).toEqual({ kind: 'browse' });
    expect(state.filter).toEqual({ value: 'bjo', cursor: 3 });
    expect(names(state)).toEqual(['Robert Jones']);
    state = run(state, { type: 'filter-started' }, { type: 'filter-cleared' });
    expect(state.mode).toEqual({ kind: 'browse' });
    expect(state.filter).toEqual(EMPTY_FIELD);
    expect(names(state)).toHaveLength(3);
  });
});

describe('page-size', () => {
  it('records a new page size (used by the next first-page query)', () => {
    const state = contactsReducer(initialContactsState(3), { type: 'page-size', pageSize: 12 });
    expect(state.pageSize).toBe(12);
    expect(firstPageQuery(state)).toEqual({ limit: 12 });
    expect(contactsReducer(state, { type: 'page-size', pageSize: 12 })).toBe(state);
  });
});
