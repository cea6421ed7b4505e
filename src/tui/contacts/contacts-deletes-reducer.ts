// How the contacts pane's state changes as contacts are deleted (one, or the marked ones
// together), wait out their undo window, come back, or turn out to be gone.
import { clampCursor, type ContactsAction, type ContactsState, keepSelected, selectedContact, UNDO_WINDOW_MS, visibleContacts, withDeleted } from './contacts-state.js';

export type DeletesAction = Extract<ContactsAction, { type: 'delete-asked' | 'delete-confirmed' | 'undo-window-moved' | 'delete-undone' | 'delete-sent' | 'contact-gone' | 'mark-toggled' | 'marked-shown' | 'marks-cleared' | 'batch-asked' | 'batch-confirmed' | 'batch-undone' | 'batch-window-moved' | 'batch-sending' | 'batch-progress' | 'batch-finished' | 'delete-failed' }>;

export function deletesReducer(state: ContactsState, action: DeletesAction): ContactsState {
  switch (action.type) {
    case 'delete-asked': {
      const contact = selectedContact(state);
      return contact ? { ...state, mode: { kind: 'confirm-delete', id: contact.id } } : state;
    }
    case 'delete-confirmed': {
      if (state.mode.kind !== 'confirm-delete') return state;
      const id = state.mode.id;
      const contact = state.page?.contacts.find((c) => c.id === id);
      if (!contact) return { ...state, mode: { kind: 'browse' } };
      return clampCursor({
        ...state,
        mode: { kind: 'browse' },
        view: 'list',
        openId: undefined,
        pendingDelete: { contact, dueAt: action.now + (action.windowMs ?? UNDO_WINDOW_MS) },
      });
    }
    case 'undo-window-moved':
      return state.pendingDelete ? { ...state, pendingDelete: { ...state.pendingDelete, dueAt: action.dueAt } } : state;
    case 'delete-undone':
      return state.pendingDelete ? keepSelected(state, { ...state, pendingDelete: undefined }) : state;
    case 'delete-sent': {
      if (state.pendingDelete?.contact.id !== action.id) return state;
      const deleted = withDeleted(state.deleted, action.id);
      return clampCursor({ ...state, pendingDelete: undefined, deleted, prefetched: undefined });
    }
    case 'contact-gone': {
      const deleted = withDeleted(state.deleted, action.id);
      const { [action.id]: _gone, ...renames } = state.renames;
      const wasOpen = state.openId === action.id;
      const editing = state.mode.kind === 'rename' && state.mode.id === action.id;
      const asked = state.mode.kind === 'confirm-delete' && state.mode.id === action.id;
      return clampCursor({
        ...state,
        deleted,
        renames,
        prefetched: undefined,
        ...(wasOpen && { view: 'list' as const, openId: undefined }),
        ...((wasOpen || editing || asked) && { mode: { kind: 'browse' as const } }),
      });
    }
    case 'mark-toggled': {
      const contact = action.contact ?? selectedContact(state);
      if (!contact) return state;
      const marked = new Map(state.marked);
      if (marked.has(contact.id)) marked.delete(contact.id);
      else marked.set(contact.id, contact);
      return { ...state, marked };
    }
    case 'marked-shown': {
      const shown = visibleContacts(state);
      const marked = new Map(state.marked);
      const all = shown.length > 0 && shown.every((c) => marked.has(c.id));
      for (const c of shown) {
        if (all) marked.delete(c.id);
        else marked.set(c.id, c);
      }
      return { ...state, marked };
    }
    case 'marks-cleared':
      return state.marked.size === 0 ? state : { ...state, marked: new Map() };
    case 'batch-asked':
      return state.marked.size === 0 || state.mode.kind !== 'browse' ? state : { ...state, mode: { kind: 'confirm-batch' } };
    case 'batch-confirmed': {
      if (state.mode.kind !== 'confirm-batch') return state;
      const contacts = [...state.marked.values()];
      const batch = { contacts, ids: new Set(contacts.map((c) => c.id)), dueAt: action.now + action.windowMs };
      return clampCursor({ ...state, mode: { kind: 'browse' }, view: 'list', openId: undefined, marked: new Map(), batch });
    }
    case 'batch-undone':
      // Marked again as they were: the user may want to change the batch, not build it anew.
      return state.batch ? keepSelected(state, { ...state, batch: undefined, marked: new Map([...state.marked, ...state.batch.contacts.map((c) => [c.id, c] as const)]) }) : state;
    case 'batch-window-moved':
      return state.batch ? { ...state, batch: { ...state.batch, dueAt: action.dueAt } } : state;
    case 'batch-sending': {
      if (!state.batch) return state;
      let deleted = state.deleted;
      for (const id of state.batch.ids) deleted = withDeleted(deleted, id);
      return clampCursor({ ...state, deleted, batch: undefined, batchRun: { done: 0, total: state.batch.contacts.length }, prefetched: undefined });
    }
    case 'batch-progress':
      return state.batchRun ? { ...state, batchRun: { ...state.batchRun, done: action.done } } : state;
    case 'batch-finished': {
      const deleted = new Set(state.deleted);
      const marked = new Map(state.marked);
      for (const c of action.failed) {
        deleted.delete(c.id);
        marked.set(c.id, c);
      }
      return keepSelected(state, { ...state, deleted, marked, batchRun: undefined });
    }
    case 'delete-failed': {
      // The server refused: the contact comes back.
      const deleted = new Set(state.deleted);
      deleted.delete(action.contact.id);
      return keepSelected(state, { ...state, deleted });
    }
  }
}
