// A change to what the history file keeps (an alert, a lot), made from the dashboard: written at
// once, or said in the status line, with what it was for, when it cannot be.
import type { Books } from '../../store/price-recorder.js';
import type { StatusStore } from './status.js';

export interface BooksOwner {
  books: () => Books | undefined;
  /** Why the history file cannot be had, when that is known. */
  unavailable: () => string | undefined;
}

/**
 * Runs `body` on the books; false (and said, as "WHAT: REASON") when they are not open or the
 * write fails, or when `body` says it found nothing to change. `kept` names what the file keeps.
 */
export function writeBooks(owner: BooksOwner, status: StatusStore, kept: string, what: string, body: (books: Books) => boolean | void): boolean {
  const books = owner.books();
  if (!books) {
    const why = owner.unavailable();
    status.notice(`${what}: ${kept} are kept with the price history, which is ${why ? `not available (${why})` : 'not open yet'}`);
    return false;
  }
  try {
    return body(books) !== false;
  } catch (error) {
    status.notice(`${what}: ${(error as Error).message}`);
    return false;
  }
}
