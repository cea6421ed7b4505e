// The whole-list search's state as a pure reducer: the view (closed, or its query and the
// highlighted match), the matches shown, and how far the index has come. What the controller
// worked out (a query's matches, a walk's page) comes in with the action.
import type { Contact } from '../../api/types.js';
import type { SearchHit } from '../../contacts/search.js';
import { EMPTY_FIELD, type FieldText } from '../state/field-text.js';

export interface IndexProgress {
  /** Contacts in the index. */
  indexed: number;
  /** Read by the walk under way (undefined when none is). */
  walked: number | undefined;
  /** How many there were at the last finished walk, for "of ~N". */
  expected: number | undefined;
  /** A walk has read the whole list since the dashboard started. */
  complete: boolean;
  /** Why the last walk stopped, when it failed. */
  failed: string | undefined;
}

/** The search as shown: closed, or its query (with the query's cursor) and the result highlighted. */
export type SearchView = { open: false } | { open: true; query: FieldText; cursor: number };

/** The most characters a query holds: far more than a name, and a paste of a page stops there. */
export const SEARCH_QUERY_MAX = 100;

export interface SearchState {
  view: SearchView;
  /** The matches of the query, best first. */
  hits: SearchHit<Contact>[];
  progress: IndexProgress;
}

export const initialSearchState: SearchState = {
  view: { open: false },
  hits: [],
  progress: { indexed: 0, walked: undefined, expected: undefined, complete: false, failed: undefined },
};

export type SearchAction =
  | { type: 'open' }
  | { type: 'close' }
  /** The query edited: with the new text's matches, or none when only its cursor moved. */
  | { type: 'query'; query: FieldText; hits: SearchHit<Contact>[] | undefined }
  | { type: 'move'; by: number }
  /** The same query's matches again, the index having changed. */
  | { type: 'found'; hits: SearchHit<Contact>[] }
  | { type: 'progress'; progress: Partial<IndexProgress> };

export function searchReducer(state: SearchState, action: SearchAction): SearchState {
  const { view } = state;
  switch (action.type) {
    case 'open':
      return { ...state, view: { open: true, query: EMPTY_FIELD, cursor: 0 }, hits: [] };
    case 'close':
      return view.open ? { ...state, view: { open: false } } : state;
    case 'query':
      if (!view.open) return state;
      if (action.hits === undefined) return { ...state, view: { ...view, query: action.query } };
      return { ...state, view: { ...view, query: action.query, cursor: 0 }, hits: action.hits };
    case 'move':
      if (!view.open) return state;
      return { ...state, view: { ...view, cursor: Math.max(0, Math.min(view.cursor + action.by, state.hits.length - 1)) } };
    case 'found': {
      if (!view.open) return state;
      const { hits } = action;
      // The highlight stays where it was, unless the matches no longer reach it.
      return { ...state, hits, view: view.cursor >= hits.length && hits.length > 0 ? { ...view, cursor: hits.length - 1 } : view };
    }
    case 'progress':
      return { ...state, progress: { ...state.progress, ...action.progress } };
  }
}
