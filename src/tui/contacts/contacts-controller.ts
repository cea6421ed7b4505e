// The contacts pane's controller: every call to the client, whose answers come back as actions on
// the pane's state. A class outside React: it holds the state (an ExternalState the views read
// through useSyncExternalStore, use-contacts.ts) and what a move, a fill or an undo window has
// under way, and every command reads the latest state, never a render's.
import type { TickbookClient } from '../../api/client.js';
import { ApiError } from '../../api/errors.js';
import { contactName, type Contact, type ContactPage, type PageQuery } from '../../api/types.js';
import { drawn } from '../../text/sanitize.js';
import { ContactWalk, type Goal, movedByPages, placeOf } from './contact-walk.js';
import {
  firstPageQuery,
  initialContactsState,
  isLoading,
  type LandAt,
  nextPageQuery,
  queryKey,
  selectedContact,
  UNDO_WINDOW_MS,
  walkOrigin,
  type ContactsAction,
  type ContactsState,
} from './contacts-state.js';
import { contactsReducer } from './contacts-reducer.js';
import { errorText, isAbort } from '../state/error-text.js';
import type { StatusBoard } from '../state/status.js';
import { isTransient, retryDelayMs } from '../../api/retry.js';
import { ExternalState } from '../state/external-state.js';
import type { WriteLedger } from './write-ledger.js';
import { ContactDeletes, type UndoHold } from './contact-deletes.js';
import { ContactForms } from './contact-forms.js';
import type { ContactsChange, ContactsParts } from './contacts-parts.js';

export type { ContactsChange } from './contacts-parts.js';
import type { FieldInput } from '../state/field-text.js';

export type { UndoHold } from './contact-deletes.js';

/** The longest wait between tries of a first page that did not come. */
const RETRY_MAX_MS = 30_000;

/** How long the pane's height must stay put before rows are fetched to fill it. */
const FILL_DELAY_MS = 250;

/** A walk that takes longer than this says how far it has come in the status line. */
const WALK_PROGRESS_AFTER_MS = 300;

/** A counted move: rows down (up if negative), pages on (back), or to the list's first or last row. */
export type Move = { rows: number } | { pages: number } | { to: 'first' | 'last' };

/** A move under way from the page on screen: the walk's cursors so far, where it is going. */
interface Walking {
  /** The page (and deletions) it was walked from: once either changes, it is walked afresh. */
  page: ContactsState['page'];
  deleted: ContactsState['deleted'];
  walk: ContactWalk;
  /** Where the moves so far are going, until the page there is on screen. */
  goal: Goal | undefined;
  abort: AbortController | undefined;
  /** The request of the page landed on, once asked for. */
  request: number | undefined;
}

export interface ContactsControllerOptions {
  client: TickbookClient;
  status: StatusBoard;
  pageSize: number;
  ledger: WriteLedger;
  undoWindowMs?: number | undefined;
  /** Told of every contact read or changed here, and every one found gone: the search index keeps up. */
  onChanged?: ((change: ContactsChange) => void) | undefined;
}

export class ContactsController {
  readonly #client: TickbookClient;
  readonly #status: StatusBoard;
  readonly #ledger: WriteLedger;
  readonly #state: ExternalState<ContactsState, ContactsAction>;
  /** Told of every contact read or changed here (the search index); set by whoever keeps one. */
  onChanged: ((change: ContactsChange) => void) | undefined;
  #pageAbort: AbortController | undefined;
  #retryTimer: NodeJS.Timeout | undefined;
  #walking: Walking | undefined;
  /** Told once the move under way is over (landed, stopped or failed). */
  readonly #moveWaiters: (() => void)[] = [];
  #fillAbort: AbortController | undefined;
  #fillTimer: NodeJS.Timeout | undefined;
  /** Failed tries of a first page in a row: the wait before the next one doubles each time. */
  #retries = 0;
  readonly #deletes: ContactDeletes;
  readonly #forms: ContactForms;

  constructor({ client, status, pageSize, ledger, undoWindowMs = UNDO_WINDOW_MS, onChanged }: ContactsControllerOptions) {
    this.#client = client;
    this.#status = status;
    this.#ledger = ledger;
    this.onChanged = onChanged;
    this.#state = new ExternalState(contactsReducer, initialContactsState(pageSize));
    const parts: ContactsParts = {
      client,
      status,
      ledger,
      undoWindowMs,
      getState: this.getState,
      dispatch: this.#dispatch,
      track: (work, what) => this.#track(work, what),
      told: (change) => this.#told(change),
      failed: this.#failed,
      failedOn: (contact, error) => this.#failedOn(contact, error),
      showFirstPage: (id) => this.#load(firstPageQuery(this.getState()), 1, id),
    };
    this.#deletes = new ContactDeletes(parts);
    this.#forms = new ContactForms(parts);
  }

  /** The latest state: what the commands before this one left. */
  readonly getState = (): ContactsState => this.#state.getState();
  readonly subscribe = (listener: () => void): (() => void) => this.#state.subscribe(listener);
  readonly #dispatch = (action: ContactsAction): void => this.#state.dispatch(action);

  /** The first page; later loads come from commands. */
  readonly start = (): void => this.#load(firstPageQuery(this.getState()), 1);

  /** Everything under way stops. A delete waiting out its undo window stays in the ledger: whoever ran the dashboard sends it. */
  readonly dispose = (): void => {
    this.#walking?.abort?.abort();
    this.#pageAbort?.abort();
    this.#fillAbort?.abort();
    clearTimeout(this.#retryTimer);
    clearTimeout(this.#fillTimer);
  };

  /** The pane's rows changed: a page holds as many. */
  readonly resize = (pageSize: number): void => {
    if (pageSize !== this.getState().pageSize) this.#dispatch({ type: 'page-size', pageSize });
  };

  /**
   * Fills the pane once resizing settles (FILL_DELAY_MS): called again whenever what stopped a
   * fill (a load, a dialog, the open contact) may be over, each call putting the fill off.
   */
  readonly fillSoon = (): void => {
    clearTimeout(this.#fillTimer);
    this.#fillTimer = setTimeout(this.#fill, FILL_DELAY_MS);
  };

  #told(change: ContactsChange): void {
    this.onChanged?.(change);
  }

  /**
   * Shows the spinner while a call runs; a write is also remembered until it ends, with what it
   * does in words (`what`, "delete Ann"), said on stderr if it fails while the user is leaving.
   */
  #track<T>(work: Promise<T>, what?: string): Promise<T> {
    const end = this.#status.begin();
    // Writes (create, rename, delete) are the ledger's: quitting waits for these, and only these.
    if (what !== undefined) this.#ledger.track(work, what);
    void work.finally(end).catch(() => undefined);
    return work;
  }

  readonly #failed = (error: unknown): void => {
    if (!isAbort(error)) this.#status.fail('contacts', errorText(error), undefined, error);
  };

  /**
   * A call about `contact` failed. When the server says the contact does not exist, it was
   * deleted elsewhere: it leaves the screen (the open view, the list) and the status line says
   * so; any other failure is reported as usual.
   */
  #failedOn(contact: Contact, error: unknown): void {
    if (!(error instanceof ApiError && error.kind === 'not_found')) return this.#failed(error);
    this.#dispatch({ type: 'contact-gone', id: contact.id });
    this.#status.recover('contacts');
    this.#status.notice(`${drawn(contactName(contact))} no longer exists: deleted elsewhere`);
  }

  #prefetch(page: ContactPage): void {
    const next = nextPageQuery({ ...this.getState(), page });
    if (!next) return;
    const key = queryKey(next);
    this.#client.listContacts(next).then(
      (fetched) => this.#dispatch({ type: 'prefetched', key, page: fetched }),
      () => undefined, // A failed look-ahead costs nothing: the page is fetched when asked for.
    );
  }

  /** The move under way is over: whoever waits for it goes on (after the code that ended it). */
  #moveOver(under: Walking): void {
    under.goal = undefined;
    under.request = undefined;
    const waiters = this.#moveWaiters.splice(0);
    if (waiters.length > 0) queueMicrotask(() => waiters.forEach((waiter) => waiter()));
  }

  /** Stops a move under way: its walk, and the page it was landing on. */
  #stopWalk(): boolean {
    const under = this.#walking;
    if (!under?.goal) return false;
    under.abort?.abort();
    // The page it was landing on, once asked for, is not wanted either.
    if (under.request !== undefined) this.#pageAbort?.abort();
    this.#moveOver(under);
    return true;
  }

  /** The page a move was going to is on screen: the move is over. */
  #landed(request: number): void {
    if (this.#walking?.goal && this.#walking.request === request) this.#moveOver(this.#walking);
  }

  #load(query: PageQuery, pageNumber: number, focusId?: string, landAt?: LandAt, walked = false): void {
    // A page asked for supersedes whatever was under way for the one on screen, a move included.
    if (!walked) this.#stopWalk();
    this.#pageAbort?.abort();
    this.#fillAbort?.abort();
    clearTimeout(this.#retryTimer);
    this.#dispatch({ type: 'page-requested', query, pageNumber, landAt });
    const request = this.getState().request;
    if (walked && this.#walking) this.#walking.request = request;
    const cached = this.getState().prefetched;
    if (cached && cached.key === queryKey(query)) {
      this.#dispatch({ type: 'page-loaded', request, page: cached.page, focusId });
      this.#landed(request);
      this.#prefetch(cached.page);
      return;
    }
    const abort = new AbortController();
    this.#pageAbort = abort;
    this.#track(this.#client.listContacts(query, { signal: abort.signal })).then(
      (page) => {
        this.#status.recover('contacts');
        this.#retries = 0;
        this.#told({ put: page.contacts });
        this.#dispatch({ type: 'page-loaded', request, page, focusId });
        this.#landed(request);
        this.#prefetch(page);
      },
      (error: unknown) => {
        if (isAbort(error)) return;
        // A move that did not land is over: the next one starts from the row on screen.
        if (this.#walking?.request === request) this.#stopWalk();
        // With nothing on screen yet (the server not up, the network not back), keep trying,
        // less and less often; r tries at once.
        const retrying = !this.getState().page && isTransient(error);
        this.#dispatch({ type: 'page-failed', request, error: { message: errorText(error), retrying, query, pageNumber } });
        // A cursor contact deleted elsewhere leaves no page to go to: start again from the top.
        if (error instanceof ApiError && error.kind === 'invalid' && (query.startingAfter || query.endingBefore)) {
          this.#status.fail('contacts', `${error.message}; back to page 1`);
          this.#load(firstPageQuery(this.getState()), 1);
          return;
        }
        this.#failed(error);
        if (retrying) {
          const delay = retryDelayMs(error, this.#retries++, RETRY_MAX_MS);
          this.#retryTimer = setTimeout(() => {
            const s = this.getState();
            if (!s.page && !isLoading(s)) this.#load(query, pageNumber);
          }, delay);
        }
      },
    );
  }

  /**
   * Moves the cursor through the whole list, counted: within the page at once, onto another by
   * walking the cursors there (see contact-walk.ts). A move made while one is under way adds to
   * it, so no key of a held n or j is lost while pages come; only the page landed on is drawn.
   * One list for the hands: past the last row is the next page's first, above the first row the
   * previous page's last (the pages are how the client fetches, not a wall).
   */
  readonly go = (move: Move): void => {
    const s = this.getState();
    if (!s.page) return;
    // A filter is the page's own: rows move on it, never off it.
    if ('rows' in move && s.filter.value !== '') {
      this.#dispatch({ type: 'cursor-moved', by: move.rows });
      return;
    }
    let under = this.#walking;
    // Walked afresh from the page on screen once it changed (a rename or a delete landed), but not
    // while a walk is under way: a move then adds to that walk, which goes from where it began.
    if (!under || (under.goal === undefined && (under.page !== s.page || under.deleted !== s.deleted))) {
      under = { page: s.page, deleted: s.deleted, walk: new ContactWalk(walkOrigin(s)), goal: undefined, abort: undefined, request: undefined };
      this.#walking = under;
    }
    const { origin } = under.walk;
    // A move behind one to an end of the list (G, g) is made from where that lands.
    if (under.goal !== undefined && !Number.isFinite(under.goal.row)) {
      this.#moveWaiters.push(() => this.go(move));
      return;
    }
    const from: Goal = under.goal ?? { row: s.cursor, clamp: 'row' };
    let goal: Goal;
    if ('rows' in move) goal = { row: from.row + move.rows, clamp: 'row' };
    else if ('pages' in move) {
      const onThisPage = under.goal === undefined;
      if (onThisPage && move.pages > 0 && !origin.hasNext) return this.#status.notice('this is the last page');
      if (onThisPage && move.pages < 0 && !origin.hasPrevious) return this.#status.notice('this is the first page');
      goal = movedByPages(origin, from, move.pages);
    } else goal = { row: move.to === 'first' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY, clamp: 'row' };
    // The ends of the whole list stop it here, with no walk.
    if (goal.row < 0 && !origin.hasPrevious) goal = { ...goal, row: 0 };
    if (goal.row >= origin.rows && !origin.hasNext) goal = { ...goal, row: Math.max(0, origin.rows - 1) };
    if (placeOf(origin, goal.row).page === 0 && under.goal === undefined) {
      this.#dispatch({ type: 'cursor-to', index: goal.row });
      return;
    }
    // Whatever the last move was fetching is passed over now.
    under.abort?.abort();
    this.#pageAbort?.abort();
    under.goal = goal;
    under.request = undefined;
    const abort = new AbortController();
    under.abort = abort;
    this.#dispatch({ type: 'page-walk-started' });
    const started = Date.now();
    const target = under;
    target.walk
      .land(goal, (query, signal) => this.#track(this.#client.listContacts(query, { signal })), abort.signal, (walked, needed) => {
        if (abort.signal.aborted || Date.now() - started < WALK_PROGRESS_AFTER_MS) return;
        const page = needed === undefined ? 'the last page' : `page ${origin.pageNumber + placeOf(origin, goal.row).page}`;
        const far = needed === undefined ? `${walked.toLocaleString('en-US')} contacts on` : `${walked.toLocaleString('en-US')} of ${needed.toLocaleString('en-US')} contacts`;
        this.#status.notice(`going to ${page}: ${far} · Esc stops`);
      })
      .then(
        (landing) => {
          if (abort.signal.aborted) return;
          this.#status.recover('contacts');
          if (landing.kind === 'page') {
            this.#load(landing.query, landing.pageNumber, undefined, landing.cursor, true);
            return;
          }
          this.#dispatch({ type: 'page-walk-stopped' });
          this.#dispatch({ type: 'cursor-to', index: landing.cursor });
          this.#moveOver(target);
        },
        (error: unknown) => {
          if (abort.signal.aborted) return;
          this.#dispatch({ type: 'page-walk-stopped' });
          this.#moveOver(target);
          this.#failed(error);
        },
      );
  };

  /**
   * A pane taller than its page (grown, or a page cut short) is filled with the rows after the
   * last one, so the top row stays where the eye left it. A pane made smaller keeps its rows
   * and scrolls through them.
   */
  readonly #fill = (): void => {
    const s = this.getState();
    const missing = s.pageSize - (s.page?.contacts.length ?? s.pageSize);
    const next = nextPageQuery(s);
    if (missing <= 0 || !next || isLoading(s) || s.mode.kind !== 'browse' || s.view !== 'list') return;
    const after = s.page?.contacts.at(-1)?.id;
    if (after === undefined) return;
    // One fill at a time: a newer one (or any page load) supersedes it.
    this.#fillAbort?.abort();
    const abort = new AbortController();
    this.#fillAbort = abort;
    const request = s.request;
    this.#track(this.#client.listContacts({ ...next, limit: missing }, { signal: abort.signal })).then(
      (page) => this.#dispatch({ type: 'page-extended', request, after, page }),
      this.#failed,
    );
  };

  /** Whether a move is on its way to another page. */
  readonly moving = (): boolean => this.#walking?.goal !== undefined;

  /** Calls `then` once no move is under way: at once, or when the one under way is over. */
  readonly afterMove = (then: () => void): void => {
    if (this.#walking?.goal === undefined) then();
    else this.#moveWaiters.push(then);
  };

  /** Esc: a move walking to a page far away stops where it is; the page on screen stays. */
  readonly stopMove = (): void => {
    if (!this.#stopWalk()) return;
    this.#dispatch({ type: 'page-walk-stopped' });
    this.#status.notice(`stopped: still on page ${this.getState().pageNumber}`);
  };

  readonly toggleActive = (): void => {
    this.#dispatch({ type: 'toggle-active' });
    this.#load(firstPageQuery(this.getState()), 1);
  };

  /**
   * The list from the contact after one of `before` (the contacts before `id` in the list,
   * nearest first; from the top with none), the cursor on `id`: a search result shown where it
   * is. The index may be behind the server: a contact before it deleted since is passed over
   * for the one before that, and with none left, the list starts from the top.
   */
  readonly showAt = async (before: readonly string[], pageNumber: number, id: string): Promise<void> => {
    const first = firstPageQuery(this.getState());
    for (const previousId of before) {
      const query = { ...first, startingAfter: previousId };
      try {
        await this.#client.listContacts({ ...query, limit: 1 });
      } catch (error) {
        if (error instanceof ApiError && error.kind === 'invalid') continue;
        this.#failed(error);
        return;
      }
      this.#load(query, pageNumber, id);
      return;
    }
    this.#load(first, 1, id);
  };

  readonly reload = (): void => {
    const s = this.getState();
    if (s.view === 'detail') {
      const contact = selectedContact(s);
      if (contact) {
        this.#track(this.#client.getContact(contact.id)).then(
          (fresh) => this.#dispatch({ type: 'contact-refreshed', contact: fresh }),
          (error: unknown) => this.#failedOn(contact, error),
        );
      }
      return;
    }
    this.#dispatch({ type: 'prefetch-dropped' });
    // With nothing on screen, the page that failed to come is the one asked for.
    if (!s.page && s.loadError) this.#load(s.loadError.query, s.loadError.pageNumber);
    else this.#load(s.query, s.pageNumber, selectedContact(s)?.id);
  };

  readonly open = (): void => {
    const contact = selectedContact(this.getState());
    if (!contact) return;
    this.#dispatch({ type: 'opened' });
    // Show what we have at once, then the server's latest.
    this.#track(this.#client.getContact(contact.id)).then(
      (fresh) => {
        this.#status.recover('contacts');
        this.#dispatch({ type: 'contact-refreshed', contact: fresh });
      },
      (error: unknown) => this.#failedOn(contact, error),
    );
  };

  readonly back = (): void => this.#dispatch({ type: 'closed' });
  readonly startRename = (): void => this.#dispatch({ type: 'rename-started' });
  readonly editRename = (input: FieldInput): void => this.#dispatch({ type: 'rename-edited', input });

  readonly submitRename = (): void => this.#forms.submitRename();
  readonly cancel = (): void => this.#forms.cancel();

  /** The marked contacts from the list; the open contact, from its own view, is the one asked about. */
  readonly askDelete = (): void => {
    const s = this.getState();
    this.#dispatch({ type: s.marked.size > 0 && s.view === 'list' ? 'batch-asked' : 'delete-asked' });
  };
  readonly toggleMark = (contact?: Contact): void => this.#dispatch(contact ? { type: 'mark-toggled', contact } : { type: 'mark-toggled' });
  readonly markShown = (): void => this.#dispatch({ type: 'marked-shown' });
  readonly clearMarks = (): void => this.#dispatch({ type: 'marks-cleared' });

  readonly confirmDelete = (): void => this.#deletes.confirm();
  /**
   * The undo offer cannot be seen (the terminal is too small, or suspended to the shell): its
   * window waits. Synchronous: a suspended process must not stop before the clock does.
   */
  readonly holdUndo = (why: UndoHold): void => this.#deletes.hold(why);
  /** One reason fewer to hold: with none left the offer runs on with the time it had left. */
  readonly releaseUndo = (why: UndoHold): void => this.#deletes.release(why);
  readonly undoDelete = (): void => this.#deletes.undo();

  readonly startCreate = (): void => this.#forms.startCreate();
  readonly editCreate = (input: FieldInput): void => this.#dispatch({ type: 'create-edited', input });
  readonly moveCreateField = (by: number): void => this.#dispatch({ type: 'create-field-moved', by });
  readonly submitCreate = (): void => this.#forms.submitCreate();

  readonly startFilter = (): void => this.#dispatch({ type: 'filter-started' });
  readonly editFilter = (input: FieldInput): void => this.#dispatch({ type: 'filter-edited', input });
  readonly keepFilter = (): void => this.#dispatch({ type: 'filter-kept' });
  readonly clearFilter = (): void => this.#dispatch({ type: 'filter-cleared' });

  /**
   * For quitting: reads are dropped, a delete inside its undo window is sent now, and writes
   * under way are waited for.
   */
  readonly settle = async (): Promise<void> => {
    this.#pageAbort?.abort();
    await this.#ledger.settle();
  };
}
