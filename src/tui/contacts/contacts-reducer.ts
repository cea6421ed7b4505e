// Every way the contacts pane's state changes, by concern: paging and the cursor, the three text
// fields (rename, create, filter), and deletes with their undo windows.
import { deletesReducer } from './contacts-deletes-reducer.js';
import { formsReducer } from './contacts-forms-reducer.js';
import { pageReducer } from './contacts-page-reducer.js';
import type { ContactsAction, ContactsState } from './contacts-state.js';

export function contactsReducer(state: ContactsState, action: ContactsAction): ContactsState {
  switch (action.type) {
    case 'page-requested':
    case 'page-walk-started':
    case 'page-walk-stopped':
    case 'page-loaded':
    case 'page-extended':
    case 'page-failed':
    case 'prefetched':
    case 'prefetch-dropped':
    case 'page-size':
    case 'cursor-moved':
    case 'cursor-to':
    case 'toggle-active':
    case 'opened':
    case 'closed':
    case 'contact-refreshed':
      return pageReducer(state, action);
    case 'rename-started':
    case 'rename-edited':
    case 'rename-sent':
    case 'rename-succeeded':
    case 'rename-failed':
    case 'mode-cancelled':
    case 'create-started':
    case 'create-edited':
    case 'create-field-moved':
    case 'create-sent':
    case 'create-failed':
    case 'create-succeeded':
    case 'filter-started':
    case 'filter-edited':
    case 'filter-kept':
    case 'filter-cleared':
      return formsReducer(state, action);
    case 'delete-asked':
    case 'delete-confirmed':
    case 'undo-window-moved':
    case 'delete-undone':
    case 'delete-sent':
    case 'contact-gone':
    case 'mark-toggled':
    case 'marked-shown':
    case 'marks-cleared':
    case 'batch-asked':
    case 'batch-confirmed':
    case 'batch-undone':
    case 'batch-window-moved':
    case 'batch-sending':
    case 'batch-progress':
    case 'batch-finished':
    case 'delete-failed':
      return deletesReducer(state, action);
  }
}
