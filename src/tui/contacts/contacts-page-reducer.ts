// How the contacts pane's state changes as pages are asked for and arrive, the cursor moves,
// and a contact is opened and closed.
import type { ContactPage } from '../../api/types.js';
import { clampCursor, type ContactsAction, type ContactsState, cursorAt, keepSelected, nextPageQuery, queryKey, replaceContact, selectedContact, visibleContacts } from './contacts-state.js';
import { EMPTY_FIELD } from '../state/field-text.js';

export type PageAction = Extract<ContactsAction, { type: 'page-requested' | 'page-walk-started' | 'page-walk-stopped' | 'page-loaded' | 'page-extended' | 'page-failed' | 'prefetched' | 'prefetch-dropped' | 'page-size' | 'cursor-moved' | 'cursor-to' | 'toggle-active' | 'opened' | 'closed' | 'contact-refreshed' }>;

export function pageReducer(state: ContactsState, action: PageAction): ContactsState {
  switch (action.type) {
    case 'page-requested':
      return {
        ...state,
        pending: { query: action.query, pageNumber: action.pageNumber, landAt: action.landAt },
        request: state.request + 1,
      };
    case 'page-walk-started':
      // An answer for what was pending is no longer wanted; the page stays "loading" meanwhile.
      return { ...state, pending: state.pending ?? { query: state.query, pageNumber: state.pageNumber }, request: state.request + 1 };
    case 'page-walk-stopped':
      return { ...state, pending: undefined, request: state.request + 1 };
    case 'page-loaded': {
      if (action.request !== state.request || !state.pending) return state;
      const { query, pageNumber } = state.pending;
      // Coming back from an older page, the cursor lands where the eye expects: the bottom.
      const landAt = state.pending.landAt ?? (query.endingBefore !== undefined ? { fromEnd: 0 } : 0);
      // The cursor counts the rows on screen, which leave out deleted and filtered contacts.
      const rows = visibleContacts({ ...state, page: action.page });
      let cursor = typeof landAt === 'number' ? landAt : rows.length - 1 - landAt.fromEnd;
      if (action.focusId !== undefined) {
        const at = rows.findIndex((c) => c.id === action.focusId);
        if (at >= 0) cursor = at;
      }
      const prefetched = state.prefetched;
      return clampCursor({
        ...state,
        query,
        pageNumber,
        pending: undefined,
        page: action.page,
        loadError: undefined,
        cursor,
        prefetched: prefetched && nextPageQueryKey(state, action.page) === prefetched.key ? prefetched : undefined,
      });
    }
    case 'page-extended': {
      // Another page asked for since: this one is going away.
      if (action.request !== state.request || state.pending || !state.page) return state;
      // Rows after a row that is no longer the last (another fill came first) do not follow on.
      if (state.page.contacts.at(-1)?.id !== action.after) return state;
      const have = new Set(state.page.contacts.map((c) => c.id));
      const contacts = [...state.page.contacts, ...action.page.contacts.filter((c) => !have.has(c.id))];
      return {
        ...state,
        // The same query with the larger limit gives this page again (reload, coming back).
        query: { ...state.query, limit: contacts.length },
        page: { ...state.page, contacts, hasMore: action.page.hasMore, next: action.page.next },
        // Fetched for the old last row: no longer the next page.
        prefetched: undefined,
      };
    }
    case 'page-failed':
      return action.request === state.request ? { ...state, pending: undefined, loadError: action.error } : state;
    case 'prefetched':
      return { ...state, prefetched: { key: action.key, page: action.page } };
    case 'prefetch-dropped':
      return state.prefetched ? { ...state, prefetched: undefined } : state;
    case 'page-size':
      return action.pageSize === state.pageSize ? state : { ...state, pageSize: action.pageSize };
    case 'cursor-moved':
      return cursorAt(state, state.cursor + action.by);
    case 'cursor-to':
      return cursorAt(state, action.index === 'last' ? visibleContacts(state).length - 1 : action.index);
    case 'toggle-active':
      return { ...state, activeOnly: !state.activeOnly, prefetched: undefined, filter: EMPTY_FIELD };
    case 'opened': {
      const contact = selectedContact(state);
      return contact ? { ...state, view: 'detail', openId: contact.id } : state;
    }
    case 'closed':
      // Back on the list, the cursor is on the contact that was open.
      return keepSelected(state, { ...state, view: 'list', openId: undefined, mode: { kind: 'browse' } });
    case 'contact-refreshed':
      return replaceContact(state, action.contact);
  }
}

/** The key the next page of `page` would be prefetched under. */
function nextPageQueryKey(state: ContactsState, page: ContactPage): string | undefined {
  const next = nextPageQuery({ ...state, page });
  return next ? queryKey(next) : undefined;
}
