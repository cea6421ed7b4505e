// What the history file keeps (alerts, lots), as the dashboard reads and changes it: a change is
// written at once, or said in the status line, with what it was for, when it cannot be; a read
// that fails is nothing to show (the next write says why).
import type { Books } from '../../store/price-recorder.js';
import type { StatusBoard } from './status.js';

export interface BooksOwner {
  books: () => Books | undefined;
  /** Why the history file cannot be had, when that is known. */
  unavailable: () => string | undefined;
}

/** `read` of the books, or `nothing` while they are not open or cannot be read. */
export function readBooks<T>(books: Books | undefined, read: (books: Books) => T, nothing: T): T {
  if (!books) return nothing;
  try {
    return read(books);
  } catch {
    return nothing;
  }
}

/**
 * Runs `body` on the books; false (and said, as "WHAT: REASON") when they are not open or the
 * write fails, or when `body` says it found nothing to change. `kept` names what the file keeps.
 */
export function writeBooks(owner: BooksOwner, status: StatusBoard, kept: string, what: string, body: (books: Books) => boolean | void): boolean {
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
