// Deleting contacts: one, or the marked ones together, each waiting out its undo window in the
// write ledger before it is sent (the window held while the offer cannot be seen), then sent,
// a batch a few at a time with its progress drawn. The contacts controller's, on its state.
import { ApiError } from '../../api/errors.js';
import { contactName, type Contact } from '../../api/types.js';
import { drawn } from '../../text/sanitize.js';
import { errorText } from '../state/error-text.js';
import { pendingDeleteContact } from './contacts-state.js';
import type { ContactsParts } from './contacts-parts.js';

/** The ledger key of the delete waiting out its undo window (one at a time). */
const PENDING_DELETE = 'contacts.delete';
/** The batch of marked contacts in its undo window: a key of its own, beside a single delete's. */
const PENDING_BATCH = 'contacts.delete-marked';
/** Deletes of a batch in flight at once: quick, and gentle on a server's rate limit. */
const BATCH_CONCURRENCY = 2;

/** Why the undo offer cannot be seen: the terminal too small for the panes, or the shell's. */
export type UndoHold = 'hidden' | 'suspended';


export class ContactDeletes {
  readonly #c: ContactsParts;
  /** Every reason the undo window is held for: it runs again only once none is left. */
  readonly #undoHolds = new Set<UndoHold>();

  constructor(context: ContactsParts) {
    this.#c = context;
  }

  /**
   * The batch's deletes, a few at a time, its progress drawn as they go. A contact already gone
   * counts as deleted; one the server refuses comes back into the list, marked again, and each
   * refusal is said (the log keeps them all), then the count of what was done.
   */
  async #sendBatch(contacts: readonly Contact[]): Promise<void> {
    this.#c.dispatch({ type: 'batch-sending' });
    const failures: { contact: Contact; reason: string }[] = [];
    let done = 0;
    let next = 0;
    const worker = async () => {
      while (next < contacts.length) {
        const contact = contacts[next++]!;
        // Each delete is the ledger's on its own: one refused while the user is leaving is
        // reported on the way out, as a single delete's is. Already gone is what was wanted.
        const one = this.#c.client.deleteContact(contact.id).then(
          () => undefined,
          (error: unknown) => {
            if (error instanceof ApiError && error.kind === 'not_found') return undefined;
            throw error;
          },
        );
        try {
          await this.#c.track(one, `delete ${drawn(contactName(contact))}`);
          this.#c.told({ gone: [contact.id] });
        } catch (error) {
          failures.push({ contact, reason: errorText(error) });
        }
        this.#c.dispatch({ type: 'batch-progress', done: ++done });
      }
    };
    await Promise.all(Array.from({ length: Math.min(BATCH_CONCURRENCY, contacts.length) }, worker));
    this.#c.dispatch({ type: 'batch-finished', failed: failures.map((f) => f.contact) });
    for (const { contact, reason } of failures) this.#c.status.notice(`not deleted: ${drawn(contactName(contact))}: ${reason}`);
    const deleted = contacts.length - failures.length;
    this.#c.status.notice(
      failures.length === 0
        ? `deleted ${deleted} contact${deleted === 1 ? '' : 's'} and their conversations`
        : `deleted ${deleted} of ${contacts.length}; ${failures.length} not deleted, marked again (m lists why)`,
    );
  }

  #sendDelete(contact: Contact): Promise<void> {
    // Named as the screen names it now (a rename may have landed since the delete was asked).
    const current = pendingDeleteContact(this.#c.getState());
    const shown = drawn(contactName(current?.id === contact.id ? current : contact));
    this.#c.dispatch({ type: 'delete-sent', id: contact.id });
    // Already gone is what we wanted: not a failure, here or in the report on the way out.
    const sent = this.#c.client.deleteContact(contact.id).then(
      () => true,
      (error: unknown) => {
        if (error instanceof ApiError && error.kind === 'not_found') return false;
        throw error;
      },
    );
    void sent.then(() => this.#c.told({ gone: [contact.id] }), () => undefined);
    return this.#c.track(sent, `delete ${shown}`).then(
      (deleted) => {
        if (!deleted) return;
        this.#c.status.recover('contacts');
        this.#c.status.notice(`deleted ${shown} and the conversation`);
      },
      (error: unknown) => {
        this.#c.dispatch({ type: 'delete-failed', contact });
        this.#c.failed(error);
      },
    );
  }

  /** y: the delete asked (or the batch) is confirmed, and waits out its undo window. */
  readonly confirm = (): void => {
    const ledger = this.#c.ledger;
    const windowMs = this.#c.undoWindowMs;
    if (this.#c.getState().mode.kind === 'confirm-batch') {
      void ledger.sendNow(PENDING_BATCH);
      this.#c.dispatch({ type: 'batch-confirmed', now: ledger.now(), windowMs });
      const batch = this.#c.getState().batch;
      if (!batch) return;
      ledger.defer(PENDING_BATCH, windowMs, () => this.#sendBatch(batch.contacts));
      if (this.#undoHolds.size > 0) ledger.hold(PENDING_BATCH);
      return;
    }
    // One undo window at a time: a second delete sends the first at once.
    void ledger.sendNow(PENDING_DELETE);
    // The ledger's clock, which sends it, is the one the countdown is drawn by.
    this.#c.dispatch({ type: 'delete-confirmed', now: ledger.now(), windowMs });
    const pending = this.#c.getState().pendingDelete;
    if (!pending) return;
    ledger.defer(PENDING_DELETE, windowMs, () => this.#sendDelete(pending.contact));
    if (this.#undoHolds.size > 0) ledger.hold(PENDING_DELETE);
  };

  /**
   * The undo offer cannot be seen (the terminal is too small, or suspended to the shell): its
   * window waits. Synchronous: a suspended process must not stop before the clock does.
   */
  readonly hold = (why: UndoHold): void => {
    this.#undoHolds.add(why);
    this.#c.ledger.hold(PENDING_DELETE);
    this.#c.ledger.hold(PENDING_BATCH);
  };

  /** One reason fewer to hold: with none left the offer runs on with the time it had left. */
  readonly release = (why: UndoHold): void => {
    this.#undoHolds.delete(why);
    if (this.#undoHolds.size > 0) return;
    const dueAt = this.#c.ledger.release(PENDING_DELETE);
    if (dueAt !== undefined) this.#c.dispatch({ type: 'undo-window-moved', dueAt });
    const batchDue = this.#c.ledger.release(PENDING_BATCH);
    if (batchDue !== undefined) this.#c.dispatch({ type: 'batch-window-moved', dueAt: batchDue });
  };

  readonly undo = (): void => {
    const batch = this.#c.getState().batch;
    if (batch) {
      this.#c.ledger.cancel(PENDING_BATCH);
      this.#c.dispatch({ type: 'batch-undone' });
      this.#c.status.notice(`kept the ${batch.contacts.length} contact${batch.contacts.length === 1 ? '' : 's'} (still marked)`);
      return;
    }
    const pending = pendingDeleteContact(this.#c.getState());
    if (!pending) return;
    this.#c.ledger.cancel(PENDING_DELETE);
    this.#c.dispatch({ type: 'delete-undone' });
    this.#c.status.notice(`kept ${drawn(contactName(pending))}`);
  };
}
