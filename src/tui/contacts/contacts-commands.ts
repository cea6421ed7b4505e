// The contacts pane's commands: moves, marks, opening, renaming, deleting and undoing, creating,
// filtering, copying to the clipboard and exporting.
import { type Contact, contactName } from '../../api/types.js';
import { clipboardText } from '../terminal/notify.js';
import type { OpenFields } from '../components/field-commands.js';
import { commandsOf, eachOf } from '../keys/commands.js';
import type { StatusBoard } from '../state/status.js';
import { type ContactsState, selectedContact } from './contacts-state.js';
import type { ContactsController as ContactsCommands } from './contacts-controller.js';

export interface ContactsCommandsDeps {
  contacts: ContactsCommands;
  getState: () => ContactsState;
  status: StatusBoard;
  /** r reloads the whole-list search's index too: it is how a stale search is refreshed. */
  refreshSearch: () => void;
  /** Puts text on the clipboard; undefined when this run does not own the terminal. */
  copy: ((text: string) => void) | undefined;
  /** x: the contacts given (or every contact, given none) written to a file. */
  exportContacts: (marked: readonly Contact[]) => void;
}

export function contactsCommands({ contacts: c, getState, status, refreshSearch, copy, exportContacts }: ContactsCommandsDeps) {
  return {
    ...commandsOf({
      'contacts.down': (_, count) => c.go({ rows: count }),
      'contacts.up': (_, count) => c.go({ rows: -count }),
      'contacts.first': () => c.go({ to: 'first' }),
      'contacts.last': () => c.go({ to: 'last' }),
      'contacts.next-page': (_, count) => c.go({ pages: count }),
      'contacts.previous-page': (_, count) => c.go({ pages: -count }),
      // Esc stops a jump under way; with none, it lets go of the marks.
      'contacts.stop': () => (c.moving() ? c.stopMove() : c.clearMarks()),
      'contacts.mark': () => {
        // Marked and on to the next row: Space held down marks a run of contacts.
        c.toggleMark();
        c.go({ rows: 1 });
      },
      'contacts.mark-all': () => c.markShown(),
      'contacts.export': () => exportContacts([...getState().marked.values()]),
      'contacts.toggle-active': () => c.toggleActive(),
      'contacts.reload': () => {
        refreshSearch();
        c.reload();
      },
      'contacts.open': () => c.open(),
      'contacts.back': () => c.back(),
      'contacts.rename': () => c.startRename(),
      'contacts.delete': () => c.askDelete(),
      'contacts.undo': () => c.undoDelete(),
      'contacts.create': () => c.startCreate(),
      'contacts.filter': () => c.startFilter(),
      'contacts.confirm-yes': () => c.confirmDelete(),
      'contacts.confirm-no': () => c.cancel(),
    }),
    ...eachOf(['contacts.copy-phone', 'contacts.copy-username'], (command) => {
      const contact = selectedContact(getState());
      if (!contact) return status.notice('no contact selected to copy from');
      if (!copy) return status.notice('copying needs a terminal that takes OSC 52 (a dumb one does not), and this run has none');
      const phone = command === 'contacts.copy-phone';
      // What is shown as copied is what is copied: the clipboard gets no control the screen hides.
      const copied = clipboardText(phone ? contact.phoneNumber : contact.username);
      copy(copied);
      status.notice(`copied ${phone ? 'the phone number' : 'the username'} of ${contactName(contact)}: ${copied}`);
    }),
  };
}

/** The contacts pane's fields: a contact's new name, the new contact's form, the filter. */
export function contactsFields(c: ContactsCommands): OpenFields {
  return {
    'contacts.rename': {
      input: (input) => c.editRename(input),
      submit: () => c.submitRename(),
      cancel: () => c.cancel(),
    },
    'contacts.create': {
      input: (input) => c.editCreate(input),
      submit: () => c.submitCreate(),
      cancel: () => c.cancel(),
      move: (by) => c.moveCreateField(by),
    },
    'contacts.filter': {
      input: (input) => c.editFilter(input),
      submit: () => c.keepFilter(),
      cancel: () => c.clearFilter(),
    },
  };
}
