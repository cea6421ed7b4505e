// The contacts pane's state: its shape, its actions, and what the screen reads of it (the rows
// shown, the contact selected, the next page's query). How each action changes it is
// contacts-reducer.ts's, by concern. Pure, so paging, optimistic renames and the undo window are
// tested without a terminal.
import { DISPLAY_NAME_MAX, USERNAME_MAX } from '../../api/rules.js';
import { contactName, type Contact, type ContactPage, type PageQuery } from '../../api/types.js';
import { drawn } from '../../text/sanitize.js';
import type { WalkOrigin } from './contact-walk.js';
import { EMPTY_FIELD, type FieldInput, type FieldText } from '../state/field-text.js';

export const UNDO_WINDOW_MS = 5000;

export type CreateField = 'username' | 'phone_number' | 'display_name' | 'avatar_url';
export const CREATE_FIELDS: readonly CreateField[] = ['username', 'phone_number', 'display_name', 'avatar_url'];
/** The server's limits, in characters: a field takes no more, rather than losing the text on saving. */
export const CREATE_FIELD_MAX: Partial<Record<CreateField, number>> = { username: USERNAME_MAX, display_name: DISPLAY_NAME_MAX };

export interface CreateForm {
  values: Record<CreateField, string>;
  errors: Partial<Record<CreateField, string>>;
  field: CreateField;
  /** Where the cursor is in the field being typed into. */
  cursor: number;
  submitting: boolean;
}

export type ContactsMode =
  | { kind: 'browse' }
  | { kind: 'rename'; id: string; draft: FieldText }
  | { kind: 'confirm-delete'; id: string }
  /** Deleting the contacts marked, asked once for all of them. */
  | { kind: 'confirm-batch' }
  | { kind: 'create'; form: CreateForm }
  | { kind: 'filter' };

export interface LoadError {
  message: string;
  /** Whether it is tried again without being asked. */
  retrying: boolean;
  /** The page that did not come, to ask for again. */
  query: PageQuery;
  pageNumber: number;
}

export interface PendingDelete {
  contact: Contact;
  /** When the DELETE is sent unless undone, on the write ledger's (monotonic) clock. */
  dueAt: number;
}

/** The seconds an undo offer (one delete or a batch) shows at `now` (the clock `dueAt` is on): 5 at first, never below 0. */
export const undoSecondsLeft = (offer: PendingDelete | PendingBatch, now: number): number => Math.max(0, Math.ceil((offer.dueAt - now) / 1000));

/**
 * How long after `now` the undo offer's seconds next change (just past the whole second from
 * `dueAt`), or undefined once it has run out: the offer is drawn on its own beat.
 */
export function undoSecondChangesIn(dueAt: number, now: number): number | undefined {
  const left = dueAt - now;
  return left > 0 ? (left % 1000 || 1000) + 1 : undefined;
}

/** The contacts marked for deleting together, in their undo window (hidden, nothing sent yet). */
export interface PendingBatch {
  contacts: readonly Contact[];
  ids: ReadonlySet<string>;
  dueAt: number;
}

export interface ContactsState {
  pageSize: number;
  /** Contacts marked with Space or *, by id, as they were when marked: deleted together with d. */
  marked: ReadonlyMap<string, Contact>;
  batch: PendingBatch | undefined;
  /** A batch being sent: how many of how many are done. */
  batchRun: { done: number; total: number } | undefined;
  /** All contacts, or only those that have been active. */
  activeOnly: boolean;
  /** The query of the page on screen and its number, from 1. */
  query: PageQuery;
  pageNumber: number;
  /** The page being fetched (or walked to); it replaces the one on screen when it arrives. */
  pending: { query: PageQuery; pageNumber: number; landAt?: LandAt | undefined } | undefined;
  page: ContactPage | undefined;
  /** Why the last page asked for did not come; cleared when a page arrives. */
  loadError: LoadError | undefined;
  /** Increases with every page request; an answer for an older one is dropped. */
  request: number;
  /** The next page, fetched ahead so paging is instant; keyed by the query that fetched it. */
  prefetched: { key: string; page: ContactPage } | undefined;
  cursor: number;
  view: 'list' | 'detail';
  /** The contact open in the detail view, by id: rows coming back above it must not change it. */
  openId: string | undefined;
  mode: ContactsMode;
  /** The filter of the page, as typed (its cursor with it). */
  filter: FieldText;
  /** Names shown before the server confirmed them. */
  renames: Readonly<Record<string, string | null>>;
  pendingDelete: PendingDelete | undefined;
  /**
   * Ids deleted (or being deleted) that must not show again. Bounded: the latest DELETED_KEPT,
   * since an id deleted that long ago is long gone from the server's pages too.
   */
  deleted: ReadonlySet<string>;
}

/** The row the cursor lands on in a page that arrives: from its top, or from its bottom. */
export type LandAt = number | { fromEnd: number };

export type ContactsAction =
  | { type: 'page-requested'; query: PageQuery; pageNumber: number; landAt?: LandAt | undefined }
  /** A move is walking the cursors to a page: whatever was being fetched is dropped. */
  | { type: 'page-walk-started' }
  /** The walk was stopped (Esc) or failed: the page on screen stays. */
  | { type: 'page-walk-stopped' }
  | { type: 'page-loaded'; request: number; page: ContactPage; focusId?: string | undefined }
  | { type: 'page-failed'; request: number; error?: LoadError }
  /** The rows after the last one on screen, fetched to fill a taller pane. */
  | { type: 'page-extended'; request: number; after: string; page: ContactPage }
  | { type: 'prefetched'; key: string; page: ContactPage }
  | { type: 'prefetch-dropped' }
  | { type: 'page-size'; pageSize: number }
  | { type: 'cursor-moved'; by: number }
  | { type: 'cursor-to'; index: number | 'last' }
  | { type: 'toggle-active' }
  | { type: 'opened' }
  | { type: 'closed' }
  | { type: 'contact-refreshed'; contact: Contact }
  | { type: 'rename-started' }
  | { type: 'rename-edited'; input: FieldInput }
  | { type: 'rename-sent'; id: string; displayName: string | null }
  | { type: 'rename-succeeded'; contact: Contact }
  | { type: 'rename-failed'; id: string }
  | { type: 'mode-cancelled' }
  | { type: 'delete-asked' }
  | { type: 'delete-confirmed'; now: number; windowMs?: number }
  | { type: 'delete-undone' }
  /** The undo window was held while hidden and runs again: it ends at `dueAt`. */
  | { type: 'undo-window-moved'; dueAt: number }
  | { type: 'delete-sent'; id: string }
  | { type: 'delete-failed'; contact: Contact }
  /** The server says the contact does not exist (deleted elsewhere). */
  | { type: 'contact-gone'; id: string }
  | { type: 'create-started' }
  /** A key or a paste in the field being typed into. */
  | { type: 'create-edited'; input: FieldInput }
  | { type: 'create-field-moved'; by: number }
  | { type: 'create-sent' }
  | { type: 'create-failed'; errors: Partial<Record<CreateField, string>> }
  | { type: 'create-succeeded' }
  | { type: 'filter-started' }
  | { type: 'filter-edited'; input: FieldInput }
  | { type: 'filter-kept' }
  | { type: 'filter-cleared' }
  /** The selected contact (or `contact`, a search result anywhere in the list) marked, or unmarked. */
  | { type: 'mark-toggled'; contact?: Contact }
  /** Every contact shown marked; when they all are already, unmarked. */
  | { type: 'marked-shown' }
  | { type: 'marks-cleared' }
  | { type: 'batch-asked' }
  | { type: 'batch-confirmed'; now: number; windowMs: number }
  | { type: 'batch-undone' }
  | { type: 'batch-window-moved'; dueAt: number }
  /** The batch's window is over: its contacts are being deleted, and stay out of the list. */
  | { type: 'batch-sending' }
  | { type: 'batch-progress'; done: number }
  /** The batch is done; those the server refused come back, marked again. */
  | { type: 'batch-finished'; failed: readonly Contact[] };

/** Deleted ids remembered (a week of deleting must not grow the state without end). */
export const DELETED_KEPT = 1000;

/** `deleted` with `id` added, the oldest dropped past DELETED_KEPT. */
export function withDeleted(deleted: ReadonlySet<string>, id: string): ReadonlySet<string> {
  const next = new Set(deleted);
  next.delete(id);
  next.add(id);
  for (const oldest of next) {
    if (next.size <= DELETED_KEPT) break;
    next.delete(oldest);
  }
  return next;
}

export function initialContactsState(pageSize: number): ContactsState {
  return {
    pageSize,
    activeOnly: false,
    query: { limit: pageSize },
    pageNumber: 1,
    pending: undefined,
    page: undefined,
    loadError: undefined,
    request: 0,
    prefetched: undefined,
    cursor: 0,
    view: 'list',
    openId: undefined,
    mode: { kind: 'browse' },
    filter: EMPTY_FIELD,
    renames: {},
    pendingDelete: undefined,
    deleted: new Set(),
    marked: new Map(),
    batch: undefined,
    batchRun: undefined,
  };
}

/**
 * The page on screen as a walk to another starts from. While a filter is set only page moves
 * walk (rows move on the filtered page), so the page's own rows count then.
 */
export function walkOrigin(state: ContactsState): WalkOrigin {
  const rest = remaining(state);
  return {
    base: firstPageQuery(state),
    firstId: rest[0]?.id,
    lastId: rest.at(-1)?.id,
    rows: state.filter.value === '' ? visibleContacts(state).length : rest.length,
    pageSize: state.pageSize,
    pageNumber: state.pageNumber,
    hasNext: state.page?.next !== undefined,
    hasPrevious: state.page?.previous !== undefined,
  };
}

/** What the list says when it has no rows to show. */
export function emptyListText(state: ContactsState): string {
  if (state.filter.value) return `no contact on this page matches "${state.filter.value}"`;
  if (state.page) return 'no contacts';
  if (!state.loadError) return '';
  const { message, retrying } = state.loadError;
  return `could not load contacts: ${drawn(message)} · ${retrying ? 'trying again (r: now)' : 'r tries again'}`;
}

/** A page is being fetched (the one on screen, if any, stays until it arrives). */
export const isLoading = (state: ContactsState): boolean => state.pending !== undefined;

export const queryKey = (query: PageQuery): string => JSON.stringify(query);

/** The query of the first page under the current filter (all / active only). */
export function firstPageQuery(state: ContactsState): PageQuery {
  return state.activeOnly ? { limit: state.pageSize, active: true } : { limit: state.pageSize };
}

function matchesFilter(contact: Contact, filter: string): boolean {
  if (filter === '') return true;
  const needle = filter.toLowerCase();
  const digits = filter.replace(/[^0-9]/g, '');
  return (
    contactName(contact).toLowerCase().includes(needle) ||
    contact.username.toLowerCase().includes(needle) ||
    (digits !== '' && contact.phoneNumber.includes(digits))
  );
}

/** A contact as the screen shows it: with its rename applied while the server confirms it. */
export function shownContact(state: ContactsState, contact: Contact): Contact {
  return contact.id in state.renames ? { ...contact, displayName: state.renames[contact.id]! } : contact;
}

/**
 * The contact waiting out its undo window, as the screen would show it now: a rename confirmed
 * (or still under way) since the delete names it by its new name.
 */
export function pendingDeleteContact(state: ContactsState): Contact | undefined {
  const pending = state.pendingDelete?.contact;
  if (!pending) return undefined;
  return shownContact(state, state.page?.contacts.find((c) => c.id === pending.id) ?? pending);
}

/** The rows on screen: the page without deleted contacts, renames applied, the filter applied. */
export function visibleContacts(state: ContactsState): Contact[] {
  if (!state.page) return [];
  const rows: Contact[] = [];
  for (const contact of state.page.contacts) {
    if (state.deleted.has(contact.id) || state.pendingDelete?.contact.id === contact.id || state.batch?.ids.has(contact.id)) continue;
    const shown = shownContact(state, contact);
    if (matchesFilter(shown, state.filter.value)) rows.push(shown);
  }
  return rows;
}

/** The contact actions apply to: the open one in the detail view, else the row under the cursor. */
export function selectedContact(state: ContactsState): Contact | undefined {
  const visible = visibleContacts(state);
  if (state.view === 'detail' && state.openId !== undefined) return visible.find((c) => c.id === state.openId);
  return visible[state.cursor];
}

/** `after` with the cursor moved to wherever the contact selected in `before` now is. */
export function keepSelected(before: ContactsState, after: ContactsState): ContactsState {
  const id = selectedContact(before)?.id;
  const at = id === undefined ? -1 : visibleContacts(after).findIndex((c) => c.id === id);
  return at < 0 ? clampCursor(after) : { ...after, cursor: at };
}

/** Contacts of the page still in the list (deleted ones no longer exist as cursors). */
function remaining(state: ContactsState): Contact[] {
  return state.page?.contacts.filter((c) => !state.deleted.has(c.id)) ?? [];
}

/** The query for the next (older) page, from the last contact still on this one. */
export function nextPageQuery(state: ContactsState): PageQuery | undefined {
  if (!state.page?.next) return undefined;
  const last = remaining(state).at(-1);
  return last ? { ...firstPageQuery(state), startingAfter: last.id } : state.page.next;
}

/** The cursor moved to `index`, kept on the rows; the same state when that is where it is (no redraw). */
export function cursorAt(state: ContactsState, index: number): ContactsState {
  const cursor = Math.max(0, Math.min(index, visibleContacts(state).length - 1));
  return cursor === state.cursor ? state : { ...state, cursor };
}

/** The cursor kept on the rows there are. */
export const clampCursor = (state: ContactsState): ContactsState => cursorAt(state, state.cursor);

function withPage(state: ContactsState, page: ContactPage): ContactsState {
  return { ...state, page: { ...page } };
}

export function replaceContact(state: ContactsState, contact: Contact): ContactsState {
  if (!state.page) return state;
  const contacts = state.page.contacts.map((c) => (c.id === contact.id ? contact : c));
  return withPage(state, { ...state.page, contacts });
}
