// The contacts pane, and the search over it, described for a screen reader: where the keys act,
// the contact selected (moving reads its name and username), an open contact's fields, the field
// being typed into, and what was done that can still be undone.
import { contactName, type Contact } from '../../api/types.js';
import { contactFields } from '../../text/contact-fields.js';
import { sanitize } from '../../text/sanitize.js';
import { type ContactsState, CREATE_FIELDS, emptyListText, type CreateField, selectedContact, visibleContacts } from '../contacts/contacts-state.js';
import type { SearchState } from '../search/search-state.js';
import type { ReaderScreen } from './reader-screen.js';
import { contactWords, countWords, placeWords } from './spoken-words.js';

const CREATE_LABELS: Record<CreateField, string> = {
  username: 'Username',
  phone_number: 'Phone number',
  display_name: 'Display name, optional',
  avatar_url: 'Avatar URL, optional',
};

const name = (contact: Pick<Contact, 'displayName' | 'username'>): string => sanitize(contactName(contact));

/** The facts of the pane said when they change: marks, and a delete's undo offer. */
function contactsFacts(state: ContactsState, undoSeconds: number): ReaderScreen['facts'] {
  const undo = `u to undo within ${countWords(undoSeconds, 'second')}`;
  const pending = state.pendingDelete?.contact;
  const batch = state.batch;
  return {
    marked: state.marked.size > 0 ? `${state.marked.size} marked` : 'none marked',
    undo: pending ? `deleted ${name(pending)}, ${undo}` : batch ? `deleted ${countWords(batch.contacts.length, 'contact')}, ${undo}` : undefined,
    batch: state.batchRun ? `deleting ${state.batchRun.total}` : undefined,
  };
}

/** "Contacts, page 2, active only, filtered by ada". */
function pagePlace(state: ContactsState): string {
  const parts = [`Contacts, page ${state.pageNumber}`];
  if (state.activeOnly) parts.push('active only');
  if (state.filter.value) parts.push(`filtered by ${sanitize(state.filter.value)}`);
  return parts.join(', ');
}

export function describeContacts(state: ContactsState, search: SearchState, now: Date, undoSeconds: number): ReaderScreen {
  const facts = contactsFacts(state, undoSeconds);
  const none = { body: undefined, selected: undefined, field: undefined, facts };
  if (search.view.open) {
    const { hits } = search;
    const hit = hits[search.view.cursor];
    const typed = search.view.query.value.trim() !== '';
    return {
      ...none,
      // How far the index has come is said once, when it has every contact: a count in the
      // heading would say the heading again at each step of the walk.
      place: `Search every contact${search.progress.complete ? '' : ', while the list is still being read'}`,
      facts: { ...facts, indexed: search.progress.complete ? 'every contact is searched now' : undefined, matches: typed && hits.length === 0 ? 'no match' : undefined },
      selected: hit && { key: `hit ${hit.contact.id}`, words: `${contactWords(hit.contact)}, match ${placeWords(search.view.cursor, hits.length)}` },
      field: {
        key: 'search',
        prompt: 'Type a name, username or number. Down arrow goes through the matches, Enter shows one, Escape closes.',
        text: search.view.query,
      },
    };
  }
  const selected = selectedContact(state);
  const mode = state.mode;
  switch (mode.kind) {
    case 'rename': {
      const contact = state.page?.contacts.find((c) => c.id === mode.id) ?? selected;
      return {
        ...none,
        place: `Rename ${contact ? name(contact) : 'contact'}`,
        field: { key: `rename ${mode.id}`, prompt: 'New display name. Enter saves, Escape cancels; empty shows the username.', text: mode.draft },
      };
    }
    case 'confirm-delete': {
      const contact = state.page?.contacts.find((c) => c.id === mode.id) ?? selected;
      return { ...none, place: `Delete ${contact ? name(contact) : 'this contact'} and the conversation? y deletes, n keeps.` };
    }
    case 'confirm-batch':
      return { ...none, place: `Delete the ${countWords(state.marked.size, 'marked contact')}? y deletes, n keeps.` };
    case 'create': {
      const { form } = mode;
      const problem = form.errors[form.field];
      return {
        ...none,
        place: 'New contact. Tab goes to the next field, Enter saves, Escape cancels.',
        facts: { ...facts, saving: form.submitting ? 'saving' : undefined, problem: problem && `${CREATE_LABELS[form.field]}: ${problem}` },
        field: {
          key: `create ${form.field}`,
          prompt: `${CREATE_LABELS[form.field]}, field ${placeWords(CREATE_FIELDS.indexOf(form.field), CREATE_FIELDS.length)}`,
          text: { value: form.values[form.field], cursor: form.cursor },
        },
      };
    }
    case 'filter':
      return { ...none, place: 'Filter this page', field: { key: 'filter', prompt: 'Type part of a name. Enter keeps the filter, Escape clears it.', text: state.filter } };
    case 'browse':
      break;
  }
  if (state.view === 'detail' && selected) {
    const fields = contactFields(selected, now);
    return {
      ...none,
      place: `Contact ${name(selected)}`,
      // The relative times change as the clock does; read again when the contact does.
      body: { key: `${selected.id} ${selected.displayName} ${String(selected.lastActiveAt)}`, words: fields.map(([label, value]) => `${label}: ${sanitize(value)}`).join('\n') },
    };
  }
  if (!state.page) return { ...none, place: state.loadError ? `Contacts: ${emptyListText(state)}` : 'Contacts, loading' };
  const rows = visibleContacts(state);
  if (!selected) return { ...none, place: `${pagePlace(state)}: ${emptyListText(state)}` };
  const marked = state.marked.has(selected.id) ? ', marked' : '';
  return {
    ...none,
    place: pagePlace(state),
    selected: { key: `contact ${selected.id}`, words: `${contactWords(selected)}${marked}, ${placeWords(state.cursor, rows.length)}` },
  };
}

/** Every contact of the page, a line each, as L reads the pane. */
export function contactsRows(state: ContactsState): string[] {
  const rows = visibleContacts(state);
  if (rows.length === 0) return [emptyListText(state) || 'no contacts shown'];
  return rows.map((contact, i) => `${placeWords(i, rows.length)}: ${contactWords(contact)}${state.marked.has(contact.id) ? ', marked' : ''}`);
}
