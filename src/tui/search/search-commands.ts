// The whole-list search's commands: open it, move through its matches, mark one, or show one in
// the contacts list where it stands.
import type { Contact } from '../../api/types.js';
import type { OpenFields } from '../components/field-commands.js';
import { commandsOf } from '../keys/commands.js';
import type { ContactsState } from '../contacts/contacts-state.js';
import type { ContactsController as ContactsCommands } from '../contacts/contacts-controller.js';
import type { StatusBoard } from '../state/status.js';
import type { ContactSearchCommands } from './contact-search-controller.js';

export interface SearchCommandsDeps {
  search: ContactSearchCommands;
  contacts: ContactsCommands;
  getContacts: () => ContactsState;
  status: StatusBoard;
  /** Rows on a page of the contacts list as it is drawn now. */
  pageRows: () => number;
}

export function searchCommands({ search, contacts: c, getContacts, status, pageRows }: SearchCommandsDeps) {
  return commandsOf({
    'contacts.search': () => search.open(),
    'search.down': (_, count) => search.move(count),
    'search.up': (_, count) => search.move(-count),
    'search.close': () => search.close(),
    'search.mark': () => {
      // Space types in the query: Ctrl-T marks the highlighted match, and goes on to the next.
      const chosen = search.chosen();
      if (!chosen) return status.notice('no match to mark');
      c.toggleMark(chosen);
      search.move(1);
    },
    'search.show': () => {
      // Shown in the list as it stands: a contact never active is not in "active only".
      const activeOnly = getContacts().activeOnly;
      const hit = search.chosen();
      if (!hit) return status.notice('no match to show: type a name, username or number');
      if (activeOnly && hit.lastActiveAt === null) c.toggleActive();
      const listed = activeOnly && hit.lastActiveAt !== null ? (contact: Contact) => contact.lastActiveAt !== null : () => true;
      // The page it is on, numbered as paging there from the first would number it, the
      // cursor on it: the label is true, and n and p go on from there.
      const { contact, before, pageNumber } = search.placeOf(listed, pageRows())!;
      search.close();
      void c.showAt(
        before.map((b) => b.id),
        pageNumber,
        contact.id,
      );
    },
  });
}

/** The search's query. */
export function searchFields(search: ContactSearchCommands): OpenFields {
  return {
    'contacts.search': {
      input: (input) => search.edit(input),
    },
  };
}
