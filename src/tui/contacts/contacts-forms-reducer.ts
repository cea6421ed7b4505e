// How the contacts pane's state changes as a contact is renamed, a new one created, and the
// page filtered: the three text fields the pane opens.
import { DISPLAY_NAME_MAX } from '../../api/rules.js';
import { contactName } from '../../api/types.js';
import { typedText } from '../../text/sanitize.js';
import { EMPTY_FIELD, fieldAtEnd, fieldInput } from '../state/field-text.js';
import { clampCursor, CREATE_FIELD_MAX, CREATE_FIELDS, type ContactsAction, type ContactsState, replaceContact, selectedContact } from './contacts-state.js';

export type FormsAction = Extract<ContactsAction, { type: 'rename-started' | 'rename-edited' | 'rename-sent' | 'rename-succeeded' | 'rename-failed' | 'mode-cancelled' | 'create-started' | 'create-edited' | 'create-field-moved' | 'create-sent' | 'create-failed' | 'create-succeeded' | 'filter-started' | 'filter-edited' | 'filter-kept' | 'filter-cleared' }>;

export function formsReducer(state: ContactsState, action: FormsAction): ContactsState {
  switch (action.type) {
    case 'rename-started': {
      const contact = selectedContact(state);
      if (!contact) return state;
      // The name as it is (a ZWJ, a skin tone, marks kept: they are saved), less only what would
      // draw as nothing on its own.
      return { ...state, mode: { kind: 'rename', id: contact.id, draft: fieldAtEnd(typedText(contactName(contact))) } };
    }
    case 'rename-edited': {
      if (state.mode.kind !== 'rename') return state;
      const draft = fieldInput(state.mode.draft, action.input, DISPLAY_NAME_MAX);
      return draft === state.mode.draft ? state : { ...state, mode: { ...state.mode, draft } };
    }
    case 'rename-sent':
      return {
        ...state,
        mode: { kind: 'browse' },
        renames: { ...state.renames, [action.id]: action.displayName },
      };
    case 'rename-succeeded': {
      const { [action.contact.id]: _settled, ...renames } = state.renames;
      return { ...replaceContact(state, action.contact), renames, prefetched: undefined };
    }
    case 'rename-failed': {
      // The row goes back to the name it had; the status line says why.
      const { [action.id]: _rolledBack, ...renames } = state.renames;
      return { ...state, renames };
    }
    case 'mode-cancelled':
      return { ...state, mode: { kind: 'browse' } };
    case 'create-started':
      return {
        ...state,
        mode: {
          kind: 'create',
          form: {
            values: { username: '', phone_number: '', display_name: '', avatar_url: '' },
            errors: {},
            field: 'username',
            cursor: 0,
            submitting: false,
          },
        },
      };
    case 'create-edited': {
      if (state.mode.kind !== 'create') return state;
      const form = state.mode.form;
      const was = { value: form.values[form.field], cursor: form.cursor };
      const next = fieldInput(was, action.input, CREATE_FIELD_MAX[form.field]);
      if (next === was) return state;
      // Typing into a field clears what the server said was wrong with it.
      const { [form.field]: _fixed, ...errors } = form.errors;
      return {
        ...state,
        mode: { kind: 'create', form: { ...form, values: { ...form.values, [form.field]: next.value }, cursor: next.cursor, errors } },
      };
    }
    case 'create-field-moved': {
      if (state.mode.kind !== 'create') return state;
      const form = state.mode.form;
      const at = CREATE_FIELDS.indexOf(form.field);
      const field = CREATE_FIELDS[(at + action.by + CREATE_FIELDS.length) % CREATE_FIELDS.length]!;
      return { ...state, mode: { kind: 'create', form: { ...form, field, cursor: fieldAtEnd(form.values[field]).cursor } } };
    }
    case 'create-sent':
      return state.mode.kind === 'create'
        ? { ...state, mode: { kind: 'create', form: { ...state.mode.form, submitting: true } } }
        : state;
    case 'create-failed': {
      if (state.mode.kind !== 'create') return state;
      const form = state.mode.form;
      // Nothing typed is lost; the first field with an error takes the focus.
      const field = CREATE_FIELDS.find((f) => action.errors[f] !== undefined) ?? form.field;
      const cursor = field === form.field ? form.cursor : fieldAtEnd(form.values[field]).cursor;
      return { ...state, mode: { kind: 'create', form: { ...form, errors: action.errors, field, cursor, submitting: false } } };
    }
    case 'create-succeeded':
      return { ...state, mode: { kind: 'browse' }, prefetched: undefined, filter: EMPTY_FIELD };
    case 'filter-started':
      return { ...state, mode: { kind: 'filter' } };
    case 'filter-edited': {
      const filter = fieldInput(state.filter, action.input);
      if (filter === state.filter) return state;
      // A filter changed by its text goes back to the first row; one only stepped through keeps it.
      return filter.value === state.filter.value ? { ...state, filter } : clampCursor({ ...state, filter, cursor: 0 });
    }
    case 'filter-kept':
      return { ...state, mode: { kind: 'browse' } };
    case 'filter-cleared':
      return clampCursor({ ...state, mode: { kind: 'browse' }, filter: EMPTY_FIELD });
  }
}
