// Marking contacts and deleting the marked ones together, as the contacts reducer does it: Space
// and * marks, Esc's unmarking, the one question for the batch, the batch hidden for its undo
// window and brought back (still marked) by u, then sent, with the refused ones coming back
// marked again. Pure functions, no terminal: what the pane would show is visibleContacts.
import { describe, expect, it } from 'vitest';
import type { Contact, ContactPage } from '../../../src/api/types.js';
import {
  type ContactsAction,
  type ContactsState,
  initialContactsState,
  selectedContact,
  visibleContacts,
} from '../../../src/tui/contacts/contacts-state.js';
import { contactsReducer } from '../../../src/tui/contacts/contacts-reducer.js';

function contact(id: string, username: string, displayName: string | null): Contact {
  return {
    id,
    username,
    phoneNumber: `+1415555${id.length.toString().padStart(4, '0')}`,
    avatarUrl: null,
    displayName,
    conversationId: `conv-${id}`,
    lastActiveAt: null,
    createdAt: new Date('2024-05-01T12:00:00Z'),
  };
}

const alice = contact('c_alice', 'alice.s', 'Alice Smith');
const bob = contact('c_bob', 'bjones', 'Robert Jones');
const carol = contact('c_carol', 'carol_w', null);
const dave = contact('c_dave', 'dave99', 'Dave Bobson');
const erin = contact('c_erin', 'erin', 'Erin Bobbitt');
const frank = contact('c_frank', 'frank', 'Frank Ocean');
const ALL = [alice, bob, carol, dave, erin, frank];

const run = (state: ContactsState, ...actions: ContactsAction[]): ContactsState => actions.reduce(contactsReducer, state);

/** A state with `contacts` as the page on screen (the one request answered), cursor on row 0. */
function loaded(contacts: Contact[] = ALL): ContactsState {
  const page: ContactPage = { contacts, hasMore: false, next: undefined, previous: undefined };
  const requested = contactsReducer(initialContactsState(contacts.length), { type: 'page-requested', query: { limit: contacts.length }, pageNumber: 1 });
  return contactsReducer(requested, { type: 'page-loaded', request: requested.request, page });
}

/** The ids of the rows the pane would show, in order. */
const shownIds = (state: ContactsState): string[] => visibleContacts(state).map((c) => c.id);
const markedIds = (state: ContactsState): string[] => [...state.marked.keys()].sort();
const idsOf = (...contacts: Contact[]): string[] => contacts.map((c) => c.id);

/** Marks the rows at `rows` (by cursor moves and mark-toggled), as Space on each would. */
function markRows(state: ContactsState, ...rows: number[]): ContactsState {
  for (const index of rows) state = run(state, { type: 'cursor-to', index }, { type: 'mark-toggled' });
  return state;
}

/** Bob, Dave and Erin marked, asked about and confirmed at `now` with a `windowMs` window. */
function confirmedBatch(now = 10_000, windowMs = 300): ContactsState {
  return run(markRows(loaded(), 1, 3, 4), { type: 'cursor-to', index: 0 }, { type: 'batch-asked' }, { type: 'batch-confirmed', now, windowMs });
}

describe('marking', () => {
  it('mark-toggled marks the selected contact, and unmarks it the second time', () => {
    let state = run(loaded(), { type: 'cursor-to', index: 2 }, { type: 'mark-toggled' });
    expect(markedIds(state)).toEqual(['c_carol']);
    // Kept as it was when marked, for the batch to name and send.
    expect(state.marked.get('c_carol')).toEqual(carol);
    state = run(state, { type: 'cursor-to', index: 4 }, { type: 'mark-toggled' });
    expect(markedIds(state)).toEqual(['c_carol', 'c_erin']);
    state = run(state, { type: 'cursor-to', index: 2 }, { type: 'mark-toggled' });
    expect(markedIds(state)).toEqual(['c_erin']);
    // Marking hides nothing and moves nothing.
    expect(shownIds(state)).toEqual(idsOf(...ALL));
    expect(state.cursor).toBe(2);
  });

  it('mark-toggled with no contact selected (no page yet) changes nothing', () => {
    const state = initialContactsState(5);
    expect(contactsReducer(state, { type: 'mark-toggled' })).toBe(state);
  });

  it('marked-shown marks every row shown; again, with all of them marked, unmarks them all', () => {
    let state = contactsReducer(loaded(), { type: 'marked-shown' });
    expect(markedIds(state)).toEqual(idsOf(...ALL).sort());
    state = contactsReducer(state, { type: 'marked-shown' });
    expect(state.marked.size).toBe(0);
  });

  it('marked-shown with only some rows marked marks the rest (it does not flip each one)', () => {
    let state = markRows(loaded(), 0, 5);
    state = contactsReducer(state, { type: 'marked-shown' });
    expect(markedIds(state)).toEqual(idsOf(...ALL).sort());
  });

  it('with a filter set, marked-shown marks only the rows the filter shows, and unmarks only those', () => {
    // "bob" matches Dave Bobson and Erin Bobbitt by name (not Robert Jones, nor bjones).
    let state = markRows(loaded(), 0); // Alice, outside the filter, marked beforehand
    state = run(state, { type: 'filter-started' }, { type: 'filter-edited', input: { kind: 'type', text: 'bob' } }, { type: 'filter-kept' });
    expect(shownIds(state)).toEqual(['c_dave', 'c_erin']);
    state = contactsReducer(state, { type: 'marked-shown' });
    expect(markedIds(state)).toEqual(['c_alice', 'c_dave', 'c_erin']);
    // All the filtered rows are marked now: * again lets go of them, and only of them.
    state = contactsReducer(state, { type: 'marked-shown' });
    expect(markedIds(state)).toEqual(['c_alice']);
  });

  it('marked-shown leaves out a contact hidden in its own undo window', () => {
    const state = run(loaded(), { type: 'cursor-to', index: 1 }, { type: 'delete-asked' }, { type: 'delete-confirmed', now: 0, windowMs: 300 }, { type: 'marked-shown' });
    expect(markedIds(state)).toEqual(idsOf(alice, carol, dave, erin, frank).sort());
  });

  it('marked-shown on an empty list marks nothing', () => {
    const state = contactsReducer(loaded([]), { type: 'marked-shown' });
    expect(state.marked.size).toBe(0);
  });

  it('marks-cleared unmarks everything; with nothing marked it changes nothing', () => {
    const marked = markRows(loaded(), 1, 2, 3);
    const cleared = contactsReducer(marked, { type: 'marks-cleared' });
    expect(cleared.marked.size).toBe(0);
    expect(shownIds(cleared)).toEqual(idsOf(...ALL));
    expect(contactsReducer(cleared, { type: 'marks-cleared' })).toBe(cleared);
  });
});

describe('asking about the marked contacts', () => {
  it('batch-asked with nothing marked changes nothing', () => {
    const state = loaded();
    expect(contactsReducer(state, { type: 'batch-asked' })).toBe(state);
  });

  it('batch-asked with marks, while browsing, asks once for all of them', () => {
    const state = run(markRows(loaded(), 1, 3), { type: 'batch-asked' });
    expect(state.mode).toEqual({ kind: 'confirm-batch' });
    // Asking hides nothing yet.
    expect(shownIds(state)).toEqual(idsOf(...ALL));
    expect(state.batch).toBeUndefined();
  });

  it('batch-asked in another mode (a rename, the filter field, the create form) changes nothing', () => {
    const marked = markRows(loaded(), 1, 3);
    for (const start of [{ type: 'rename-started' }, { type: 'filter-started' }, { type: 'create-started' }] as const) {
      const busy = contactsReducer(marked, start);
      expect(busy.mode.kind, start.type).not.toBe('browse');
      expect(contactsReducer(busy, { type: 'batch-asked' }), start.type).toBe(busy);
    }
    // Nor while the single delete's question is up.
    const asking = run(marked, { type: 'delete-asked' });
    expect(contactsReducer(asking, { type: 'batch-asked' })).toBe(asking);
  });

  it('n (mode-cancelled) keeps everything, still marked', () => {
    const state = run(markRows(loaded(), 1, 3), { type: 'batch-asked' }, { type: 'mode-cancelled' });
    expect(state.mode).toEqual({ kind: 'browse' });
    expect(markedIds(state)).toEqual(['c_bob', 'c_dave']);
    expect(shownIds(state)).toEqual(idsOf(...ALL));
    expect(state.batch).toBeUndefined();
  });

  it('batch-confirmed outside the question changes nothing', () => {
    const state = markRows(loaded(), 1, 3);
    expect(contactsReducer(state, { type: 'batch-confirmed', now: 0, windowMs: 300 })).toBe(state);
  });
});

describe('the batch in its undo window', () => {
  it('batch-confirmed hides exactly the marked contacts, clears the marks, and sets the window', () => {
    const state = confirmedBatch(10_000, 300);
    expect(state.mode).toEqual({ kind: 'browse' });
    expect(shownIds(state)).toEqual(idsOf(alice, carol, frank));
    expect([...(state.batch?.ids ?? [])].sort()).toEqual(['c_bob', 'c_dave', 'c_erin']);
    expect(state.batch?.contacts.map((c) => c.id).sort()).toEqual(['c_bob', 'c_dave', 'c_erin']);
    expect(state.batch?.dueAt).toBe(10_300);
    expect(state.marked.size).toBe(0);
    // Nothing is sent yet: the ids are not deleted, only hidden.
    expect(state.deleted.size).toBe(0);
    expect(state.batchRun).toBeUndefined();
  });

  it('the cursor stays on a row that is shown', () => {
    // The cursor on the last row, which is in the batch.
    const state = run(markRows(loaded(), 3, 4, 5), { type: 'batch-asked' }, { type: 'batch-confirmed', now: 0, windowMs: 300 });
    expect(shownIds(state)).toEqual(idsOf(alice, bob, carol));
    expect(selectedContact(state)).toBeDefined();
    expect(state.cursor).toBeLessThan(3);
  });

  it('confirmed from the open contact, the list is shown again', () => {
    const state = run(markRows(loaded(), 1, 3), { type: 'cursor-to', index: 1 }, { type: 'opened' }, { type: 'batch-asked' }, { type: 'batch-confirmed', now: 0, windowMs: 300 });
    expect(state.view).toBe('list');
    expect(state.openId).toBeUndefined();
    expect(shownIds(state)).toEqual(idsOf(alice, carol, erin, frank));
  });

  it('batch-undone brings them back, marked again as they were', () => {
    const state = contactsReducer(confirmedBatch(), { type: 'batch-undone' });
    expect(state.batch).toBeUndefined();
    expect(shownIds(state)).toEqual(idsOf(...ALL));
    expect(markedIds(state)).toEqual(['c_bob', 'c_dave', 'c_erin']);
    expect(state.deleted.size).toBe(0);
    // Without a batch, u has nothing to undo.
    expect(contactsReducer(state, { type: 'batch-undone' })).toBe(state);
  });

  it('batch-window-moved gives the window its new end; without a batch it changes nothing', () => {
    const state = contactsReducer(confirmedBatch(10_000, 300), { type: 'batch-window-moved', dueAt: 99_000 });
    expect(state.batch?.dueAt).toBe(99_000);
    expect(shownIds(state)).toEqual(idsOf(alice, carol, frank));
    const none = loaded();
    expect(contactsReducer(none, { type: 'batch-window-moved', dueAt: 5 })).toBe(none);
  });
});

describe('sending the batch', () => {
  it('batch-sending puts the batch in deleted (still hidden) and counts 0 of them done', () => {
    const state = contactsReducer(confirmedBatch(), { type: 'batch-sending' });
    expect(state.batch).toBeUndefined();
    expect([...state.deleted].sort()).toEqual(['c_bob', 'c_dave', 'c_erin']);
    expect(state.batchRun).toEqual({ done: 0, total: 3 });
    expect(shownIds(state)).toEqual(idsOf(alice, carol, frank));
    // Too late to undo: u changes nothing now.
    expect(shownIds(contactsReducer(state, { type: 'batch-undone' }))).toEqual(idsOf(alice, carol, frank));
  });

  it('batch-sending without a batch changes nothing', () => {
    const state = loaded();
    expect(contactsReducer(state, { type: 'batch-sending' })).toBe(state);
  });

  it('batch-progress counts the deletes done', () => {
    let state = run(confirmedBatch(), { type: 'batch-sending' }, { type: 'batch-progress', done: 2 });
    expect(state.batchRun).toEqual({ done: 2, total: 3 });
    state = contactsReducer(state, { type: 'batch-progress', done: 3 });
    expect(state.batchRun).toEqual({ done: 3, total: 3 });
  });

  it('batch-finished with no failures: the batch stays deleted, nothing is marked, the run is over', () => {
    const state = run(confirmedBatch(), { type: 'batch-sending' }, { type: 'batch-progress', done: 3 }, { type: 'batch-finished', failed: [] });
    expect(state.batchRun).toBeUndefined();
    expect(state.marked.size).toBe(0);
    expect(shownIds(state)).toEqual(idsOf(alice, carol, frank));
    expect([...state.deleted].sort()).toEqual(['c_bob', 'c_dave', 'c_erin']);
  });

  it('batch-finished with failures brings exactly those back, marked again; the rest stay deleted', () => {
    const state = run(confirmedBatch(), { type: 'batch-sending' }, { type: 'batch-progress', done: 3 }, { type: 'batch-finished', failed: [dave] });
    expect(state.batchRun).toBeUndefined();
    expect(shownIds(state)).toEqual(idsOf(alice, carol, dave, frank));
    expect(markedIds(state)).toEqual(['c_dave']);
    expect([...state.deleted].sort()).toEqual(['c_bob', 'c_erin']);
  });

  it('marks made while the batch was being sent are kept beside the refused ones', () => {
    let state = run(confirmedBatch(), { type: 'batch-sending' });
    // Frank marked during the run (the cursor on his row).
    state = run(state, { type: 'cursor-to', index: 2 }, { type: 'mark-toggled' });
    expect(markedIds(state)).toEqual(['c_frank']);
    state = contactsReducer(state, { type: 'batch-finished', failed: [bob, erin] });
    expect(markedIds(state)).toEqual(['c_bob', 'c_erin', 'c_frank']);
    expect(shownIds(state)).toEqual(idsOf(alice, bob, carol, erin, frank));
  });
});
