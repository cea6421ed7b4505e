// What the contacts controller gives the parts it delegates to (contact-deletes.ts,
// contact-forms.ts): its state, its client and status line, and how it tracks calls, tells the
// search of changes and reports failures. One context, made once by the controller.
import type { TickbookClient } from '../../api/client.js';
import type { Contact } from '../../api/types.js';
import type { StatusBoard } from '../state/status.js';
import type { ContactsAction, ContactsState } from './contacts-state.js';
import type { WriteLedger } from './write-ledger.js';

/** A change to the contacts the whole-list search must learn of: read or changed, or gone. */
export type ContactsChange = { put: readonly Contact[] } | { gone: readonly string[] };

export interface ContactsParts {
  client: TickbookClient;
  status: StatusBoard;
  ledger: WriteLedger;
  undoWindowMs: number;
  getState: () => ContactsState;
  dispatch: (action: ContactsAction) => void;
  /** The spinner while a call runs, and the ledger's record of a write (`what` it does). */
  track: <T>(work: Promise<T>, what?: string) => Promise<T>;
  /** The whole-list search told of contacts read, changed or gone. */
  told: (change: ContactsChange) => void;
  failed: (error: unknown) => void;
  /** A call about `contact` failed: gone from the server, or failed as any call does. */
  failedOn: (contact: Contact, error: unknown) => void;
  /** The first page again, the cursor on `id` (a contact just created). */
  showFirstPage: (id: string) => void;
}
