// What a view of the books (the alerts view, the holdings editor) has in common as a controller
// outside React: what it shows, held in an ExternalState the hook reads through
// useSyncExternalStore, and a count of the changes it made to the history file, since the file
// changes outside React and what is drawn from it must be read again after each. Every command
// reads the latest of both, and the owner as the last render told it.
import type { Books } from '../../store/price-recorder.js';
import { ExternalState } from './external-state.js';
import { type BooksOwner, readBooks, writeBooks } from './books-write.js';
import type { StatusBoard } from './status.js';

export interface BooksViewState<V> {
  view: V;
  /** Bumped by every change made here (or tried), so that what is drawn from the books is read again. */
  version: number;
}

type BooksViewAction<V> = { type: 'shown'; view: V } | { type: 'written' };

function booksViewReducer<V>(state: BooksViewState<V>, action: BooksViewAction<V>): BooksViewState<V> {
  if (action.type === 'written') return { ...state, version: state.version + 1 };
  return action.view === state.view ? state : { ...state, view: action.view };
}

export class BooksController<V extends { open: boolean }, O extends BooksOwner> {
  /** Whose books, and what else the view asks of the dashboard: told by the hook at each render. */
  owner: O;
  protected readonly status: StatusBoard;
  /** What the history file keeps for this view ("alerts", "holdings"), as a failed write says it. */
  readonly #kept: string;
  readonly #state: ExternalState<BooksViewState<V>, BooksViewAction<V>>;

  constructor(owner: O, status: StatusBoard, kept: string, closed: V) {
    this.owner = owner;
    this.status = status;
    this.#kept = kept;
    this.#state = new ExternalState<BooksViewState<V>, BooksViewAction<V>>(booksViewReducer, { view: closed, version: 0 });
  }

  /** The latest state: what the commands before this one left. */
  readonly getState = (): BooksViewState<V> => this.#state.getState();
  readonly subscribe = (listener: () => void): (() => void) => this.#state.subscribe(listener);
  /** What the view shows now, whatever the last render saw. */
  readonly current = (): V => this.getState().view;
  readonly isOpen = (): boolean => this.current().open;

  protected show(view: V): void {
    this.#state.dispatch({ type: 'shown', view });
  }

  /** `read` of the books, or `nothing` while they are not open or cannot be read. */
  protected read<T>(read: (books: Books) => T, nothing: T): T {
    return readBooks(this.owner.books(), read, nothing);
  }

  /** Runs a write; one that fails is said, with what it was for (`what`), and false. */
  protected write(what: string, body: (books: Books) => boolean | void): boolean {
    const done = writeBooks(this.owner, this.status, this.#kept, what, body);
    this.#state.dispatch({ type: 'written' });
    return done;
  }
}
