// The contacts pane's effects: every call to the client, whose answers come back as actions.
import { useCallback, useEffect, useEffectEvent, useMemo, useRef } from 'react';
import type { TickbookClient } from '../../api/client.js';
import { ApiError } from '../../api/errors.js';
import { contactName, type Contact, type ContactPage, type PageQuery } from '../../api/types.js';
import { drawn, typedText } from '../../text/sanitize.js';
import { ContactWalk, type Goal, movedByPages, placeOf } from './contact-walk.js';
import {
  CREATE_FIELDS,
  type CreateField,
  firstPageQuery,
  initialContactsState,
  isLoading,
  type LandAt,
  nextPageQuery,
  pendingDeleteContact,
  queryKey,
  selectedContact,
  UNDO_WINDOW_MS,
  walkOrigin,
  type ContactsState,
} from './contacts-state.js';
import { contactsReducer } from './contacts-reducer.js';
import { errorText, isAbort } from '../state/error-text.js';
import type { StatusStore } from '../state/status.js';
import { isTransient, retryDelayMs } from '../../api/retry.js';
import { useLatestReducer } from '../state/external-state.js';
import type { WriteLedger } from './write-ledger.js';
import type { FieldInput } from '../state/field-text.js';

type PhoneRule = typeof import('../../api/possible-phone.js');
let phoneRule: PhoneRule | undefined;
let phoneRuleLoading: Promise<PhoneRule> | undefined;
/**
 * The phone rule `contacts create` applies, loaded when the create form first opens: its
 * metadata (libphonenumber's) is the form's to load, not the dashboard's start's.
 */
const loadPhoneRule = (): Promise<PhoneRule> => (phoneRuleLoading ??= import('../../api/possible-phone.js').then((rule) => (phoneRule = rule)));

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

/** The ledger key of the delete waiting out its undo window (one at a time). */
const PENDING_DELETE = 'contacts.delete';
/** The batch of marked contacts in its undo window: a key of its own, beside a single delete's. */
const PENDING_BATCH = 'contacts.delete-marked';
/** Deletes of a batch in flight at once: quick, and gentle on a server's rate limit. */
const BATCH_CONCURRENCY = 2;

/** Why the undo offer cannot be seen: the terminal too small for the panes, or the shell's. */
export type UndoHold = 'hidden' | 'suspended';

export function useContacts(
  client: TickbookClient,
  status: StatusStore,
  pageSize: number,
  ledger: WriteLedger,
  undoWindowMs = UNDO_WINDOW_MS,
  /** Told of every contact read or changed here, and every one found gone: the search index keeps up. */
  onChanged?: (change: { put: readonly Contact[] } | { gone: readonly string[] }) => void,
) {
  const changedRef = useRef(onChanged);
  changedRef.current = onChanged;
  const told = (change: { put: readonly Contact[] } | { gone: readonly string[] }) => changedRef.current?.(change);
  const [state, dispatch, getState] = useLatestReducer(contactsReducer, () => initialContactsState(pageSize));
  const pageAbort = useRef<AbortController | undefined>(undefined);
  const retryTimer = useRef<NodeJS.Timeout | undefined>(undefined);
  const walking = useRef<Walking | undefined>(undefined);
  /** Told once the move under way is over (landed, stopped or failed). */
  const moveWaiters = useRef<(() => void)[]>([]);
  const fillAbort = useRef<AbortController | undefined>(undefined);
  /** Failed tries of a first page in a row: the wait before the next one doubles each time. */
  const retries = useRef(0);
  /** Bumped by every create sent or form cancelled: an answer for an older one is not the form's. */
  const createSeq = useRef(0);
  /** Every reason the undo window is held for: it runs again only once none is left. */
  const undoHolds = useRef(new Set<UndoHold>());

  /**
   * Shows the spinner while a call runs; a write is also remembered until it ends, with what it
   * does in words (`what`, "delete Ann"), said on stderr if it fails while the user is leaving.
   */
  const track = useCallback(
    <T>(work: Promise<T>, what?: string): Promise<T> => {
      const end = status.begin();
      // Writes (create, rename, delete) are the ledger's: quitting waits for these, and only these.
      if (what !== undefined) ledger.track(work, what);
      void work.finally(end).catch(() => undefined);
      return work;
    },
    [ledger, status],
  );

  const failed = useCallback(
    (error: unknown) => {
      if (!isAbort(error)) status.fail('contacts', errorText(error), undefined, error);
    },
    [status],
  );

  /**
   * A call about `contact` failed. When the server says the contact does not exist, it was
   * deleted elsewhere: it leaves the screen (the open view, the list) and the status line says
   * so; any other failure is reported as usual.
   */
  const failedOn = useCallback(
    (contact: Contact, error: unknown): void => {
      if (!(error instanceof ApiError && error.kind === 'not_found')) return failed(error);
      dispatch({ type: 'contact-gone', id: contact.id });
      status.recover('contacts');
      status.notice(`${drawn(contactName(contact))} no longer exists: deleted elsewhere`);
    },
    [dispatch, failed, status],
  );

  const prefetch = useCallback(
    (page: ContactPage) => {
      const next = nextPageQuery({ ...getState(), page });
      if (!next) return;
      const key = queryKey(next);
      client.listContacts(next).then(
        (fetched) => dispatch({ type: 'prefetched', key, page: fetched }),
        () => undefined, // A failed look-ahead costs nothing: the page is fetched when asked for.
      );
    },
    [client, dispatch, getState],
  );

  /** The move under way is over: whoever waits for it goes on (after the code that ended it). */
  const moveOver = useCallback((under: Walking): void => {
    under.goal = undefined;
    under.request = undefined;
    const waiters = moveWaiters.current.splice(0);
    if (waiters.length > 0) queueMicrotask(() => waiters.forEach((waiter) => waiter()));
  }, []);

  /** Stops a move under way: its walk, and the page it was landing on. */
  const stopWalk = useCallback((): boolean => {
    const under = walking.current;
    if (!under?.goal) return false;
    under.abort?.abort();
    // The page it was landing on, once asked for, is not wanted either.
    if (under.request !== undefined) pageAbort.current?.abort();
    moveOver(under);
    return true;
  }, [moveOver]);

  /** The page a move was going to is on screen: the move is over. */
  const landed = useCallback(
    (request: number): void => {
      if (walking.current?.goal && walking.current.request === request) moveOver(walking.current);
    },
    [moveOver],
  );

  const load = useCallback(
    (query: PageQuery, pageNumber: number, focusId?: string, landAt?: LandAt, walked = false) => {
      // A page asked for supersedes whatever was under way for the one on screen, a move included.
      if (!walked) stopWalk();
      pageAbort.current?.abort();
      fillAbort.current?.abort();
      clearTimeout(retryTimer.current);
      dispatch({ type: 'page-requested', query, pageNumber, landAt });
      const request = getState().request;
      if (walked && walking.current) walking.current.request = request;
      const cached = getState().prefetched;
      if (cached && cached.key === queryKey(query)) {
        dispatch({ type: 'page-loaded', request, page: cached.page, focusId });
        landed(request);
        prefetch(cached.page);
        return;
      }
      const abort = new AbortController();
      pageAbort.current = abort;
      track(client.listContacts(query, { signal: abort.signal })).then(
        (page) => {
          status.recover('contacts');
          retries.current = 0;
          told({ put: page.contacts });
          dispatch({ type: 'page-loaded', request, page, focusId });
          landed(request);
          prefetch(page);
        },
        (error: unknown) => {
          if (isAbort(error)) return;
          // A move that did not land is over: the next one starts from the row on screen.
          if (walking.current?.request === request) stopWalk();
          // With nothing on screen yet (the server not up, the network not back), keep trying,
          // less and less often; r tries at once.
          const retrying = !getState().page && isTransient(error);
          dispatch({ type: 'page-failed', request, error: { message: errorText(error), retrying, query, pageNumber } });
          // A cursor contact deleted elsewhere leaves no page to go to: start again from the top.
          if (error instanceof ApiError && error.kind === 'invalid' && (query.startingAfter || query.endingBefore)) {
            status.fail('contacts', `${error.message}; back to page 1`);
            load(firstPageQuery(getState()), 1);
            return;
          }
          failed(error);
          if (retrying) {
            const delay = retryDelayMs(error, retries.current++, RETRY_MAX_MS);
            retryTimer.current = setTimeout(() => {
              const s = getState();
              if (!s.page && !isLoading(s)) load(query, pageNumber);
            }, delay);
          }
        },
      );
    },
    [client, dispatch, failed, getState, landed, prefetch, status, stopWalk, track],
  );

  /**
   * Moves the cursor through the whole list, counted: within the page at once, onto another by
   * walking the cursors there (see contact-walk.ts). A move made while one is under way adds to
   * it, so no key of a held n or j is lost while pages come; only the page landed on is drawn.
   */
  const go = useCallback(
    (move: Move): void => {
      const s = getState();
      if (!s.page) return;
      // A filter is the page's own: rows move on it, never off it.
      if ('rows' in move && s.filter.value !== '') {
        dispatch({ type: 'cursor-moved', by: move.rows });
        return;
      }
      let under = walking.current;
      if (!under || under.page !== s.page || under.deleted !== s.deleted) {
        under = { page: s.page, deleted: s.deleted, walk: new ContactWalk(walkOrigin(s)), goal: undefined, abort: undefined, request: undefined };
        walking.current = under;
      }
      const { origin } = under.walk;
      // A move behind one to an end of the list (G, g) is made from where that lands.
      if (under.goal !== undefined && !Number.isFinite(under.goal.row)) {
        moveWaiters.current.push(() => go(move));
        return;
      }
      const from: Goal = under.goal ?? { row: s.cursor, clamp: 'row' };
      let goal: Goal;
      if ('rows' in move) goal = { row: from.row + move.rows, clamp: 'row' };
      else if ('pages' in move) {
        const onThisPage = under.goal === undefined;
        if (onThisPage && move.pages > 0 && !origin.hasNext) return status.notice('this is the last page');
        if (onThisPage && move.pages < 0 && !origin.hasPrevious) return status.notice('this is the first page');
        goal = movedByPages(origin, from, move.pages);
      } else goal = { row: move.to === 'first' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY, clamp: 'row' };
      // The ends of the whole list stop it here, with no walk.
      if (goal.row < 0 && !origin.hasPrevious) goal = { ...goal, row: 0 };
      if (goal.row >= origin.rows && !origin.hasNext) goal = { ...goal, row: Math.max(0, origin.rows - 1) };
      if (placeOf(origin, goal.row).page === 0 && under.goal === undefined) {
        dispatch({ type: 'cursor-to', index: goal.row });
        return;
      }
      // Whatever the last move was fetching is passed over now.
      under.abort?.abort();
      pageAbort.current?.abort();
      under.goal = goal;
      under.request = undefined;
      const abort = new AbortController();
      under.abort = abort;
      dispatch({ type: 'page-walk-started' });
      const started = Date.now();
      const target = under;
      target.walk
        .land(goal, (query, signal) => track(client.listContacts(query, { signal })), abort.signal, (walked, needed) => {
          if (abort.signal.aborted || Date.now() - started < WALK_PROGRESS_AFTER_MS) return;
          const page = needed === undefined ? 'the last page' : `page ${origin.pageNumber + placeOf(origin, goal.row).page}`;
          const far = needed === undefined ? `${walked.toLocaleString('en-US')} contacts on` : `${walked.toLocaleString('en-US')} of ${needed.toLocaleString('en-US')} contacts`;
          status.notice(`going to ${page}: ${far} · Esc stops`);
        })
        .then(
          (landing) => {
            if (abort.signal.aborted) return;
            status.recover('contacts');
            if (landing.kind === 'page') {
              load(landing.query, landing.pageNumber, undefined, landing.cursor, true);
              return;
            }
            dispatch({ type: 'page-walk-stopped' });
            dispatch({ type: 'cursor-to', index: landing.cursor });
            moveOver(target);
          },
          (error: unknown) => {
            if (abort.signal.aborted) return;
            dispatch({ type: 'page-walk-stopped' });
            moveOver(target);
            failed(error);
          },
        );
    },
    [client, dispatch, failed, getState, load, moveOver, status, track],
  );

  /**
   * The batch's deletes, a few at a time, its progress drawn as they go. A contact already gone
   * counts as deleted; one the server refuses comes back into the list, marked again, and each
   * refusal is said (the log keeps them all), then the count of what was done.
   */
  const sendBatch = useCallback(
    async (contacts: readonly Contact[]) => {
      dispatch({ type: 'batch-sending' });
      const failures: { contact: Contact; reason: string }[] = [];
      let done = 0;
      let next = 0;
      const worker = async () => {
        while (next < contacts.length) {
          const contact = contacts[next++]!;
          // Each delete is the ledger's on its own: one refused while the user is leaving is
          // reported on the way out, as a single delete's is. Already gone is what was wanted.
          const one = client.deleteContact(contact.id).then(
            () => undefined,
            (error: unknown) => {
              if (error instanceof ApiError && error.kind === 'not_found') return undefined;
              throw error;
            },
          );
          try {
            await track(one, `delete ${drawn(contactName(contact))}`);
            told({ gone: [contact.id] });
          } catch (error) {
            failures.push({ contact, reason: errorText(error) });
          }
          dispatch({ type: 'batch-progress', done: ++done });
        }
      };
      await Promise.all(Array.from({ length: Math.min(BATCH_CONCURRENCY, contacts.length) }, worker));
      dispatch({ type: 'batch-finished', failed: failures.map((f) => f.contact) });
      for (const { contact, reason } of failures) status.notice(`not deleted: ${drawn(contactName(contact))}: ${reason}`);
      const deleted = contacts.length - failures.length;
      status.notice(
        failures.length === 0
          ? `deleted ${deleted} contact${deleted === 1 ? '' : 's'} and their conversations`
          : `deleted ${deleted} of ${contacts.length}; ${failures.length} not deleted, marked again (m lists why)`,
      );
    },
    [client, dispatch, status, track],
  );

  const sendDelete = useCallback(
    (contact: Contact) => {
      // Named as the screen names it now (a rename may have landed since the delete was asked).
      const current = pendingDeleteContact(getState());
      const shown = drawn(contactName(current?.id === contact.id ? current : contact));
      dispatch({ type: 'delete-sent', id: contact.id });
      // Already gone is what we wanted: not a failure, here or in the report on the way out.
      const sent = client.deleteContact(contact.id).then(
        () => true,
        (error: unknown) => {
          if (error instanceof ApiError && error.kind === 'not_found') return false;
          throw error;
        },
      );
      void sent.then(() => told({ gone: [contact.id] }), () => undefined);
      return track(sent, `delete ${shown}`).then(
        (deleted) => {
          if (!deleted) return;
          status.recover('contacts');
          status.notice(`deleted ${shown} and the conversation`);
        },
        (error: unknown) => {
          dispatch({ type: 'delete-failed', contact });
          failed(error);
        },
      );
    },
    [client, dispatch, failed, getState, status, track],
  );

  // The first page, once: later loads come from commands.
  const loadFirstPage = useEffectEvent(() => load(firstPageQuery(getState()), 1));
  useEffect(() => {
    loadFirstPage();
    return () => {
      walking.current?.abort?.abort();
      pageAbort.current?.abort();
      fillAbort.current?.abort();
      clearTimeout(retryTimer.current);
      // A delete waiting out its undo window stays in the ledger: whoever ran the dashboard sends it.
    };
  }, []);

  useEffect(() => {
    if (pageSize !== getState().pageSize) dispatch({ type: 'page-size', pageSize });
  }, [dispatch, getState, pageSize]);

  /**
   * A pane taller than its page (grown, or a page cut short) is filled with the rows after the
   * last one, so the top row stays where the eye left it. A pane made smaller keeps its rows
   * and scrolls through them.
   */
  const fill = useCallback(() => {
    const s = getState();
    const missing = s.pageSize - (s.page?.contacts.length ?? s.pageSize);
    const next = nextPageQuery(s);
    if (missing <= 0 || !next || isLoading(s) || s.mode.kind !== 'browse' || s.view !== 'list') return;
    const after = s.page?.contacts.at(-1)?.id;
    if (after === undefined) return;
    // One fill at a time: a newer one (or any page load) supersedes it.
    fillAbort.current?.abort();
    const abort = new AbortController();
    fillAbort.current = abort;
    const request = s.request;
    track(client.listContacts({ ...next, limit: missing }, { signal: abort.signal })).then(
      (page) => dispatch({ type: 'page-extended', request, after, page }),
      failed,
    );
  }, [client, dispatch, failed, getState, track]);

  // Once resizing settles, and again whenever what stopped it (a load, a dialog, the open
  // contact) is over.
  const loading = isLoading(state);
  useEffect(() => {
    const timer = setTimeout(fill, FILL_DELAY_MS);
    return () => clearTimeout(timer);
  }, [fill, pageSize, loading, state.mode.kind, state.view]);

  const commands = useMemo(
    () => ({
      // One list for the hands: past the last row is the next page's first, above the first row
      // the previous page's last (the pages are how the client fetches, not a wall).
      go,
      /** Whether a move is on its way to another page. */
      moving: () => walking.current?.goal !== undefined,
      /** Calls `then` once no move is under way: at once, or when the one under way is over. */
      afterMove: (then: () => void) => {
        if (walking.current?.goal === undefined) then();
        else moveWaiters.current.push(then);
      },
      /** Esc: a move walking to a page far away stops where it is; the page on screen stays. */
      stopMove: () => {
        if (!stopWalk()) return;
        dispatch({ type: 'page-walk-stopped' });
        status.notice(`stopped: still on page ${getState().pageNumber}`);
      },
      toggleActive: () => {
        dispatch({ type: 'toggle-active' });
        load(firstPageQuery(getState()), 1);
      },
      /**
       * The list from the contact after one of `before` (the contacts before `id` in the list,
       * nearest first; from the top with none), the cursor on `id`: a search result shown where it
       * is. The index may be behind the server: a contact before it deleted since is passed over
       * for the one before that, and with none left, the list starts from the top.
       */
      showAt: async (before: readonly string[], pageNumber: number, id: string) => {
        const first = firstPageQuery(getState());
        for (const previousId of before) {
          const query = { ...first, startingAfter: previousId };
          try {
            await client.listContacts({ ...query, limit: 1 });
          } catch (error) {
            if (error instanceof ApiError && error.kind === 'invalid') continue;
            failed(error);
            return;
          }
          load(query, pageNumber, id);
          return;
        }
        load(first, 1, id);
      },
      reload: () => {
        const s = getState();
        if (s.view === 'detail') {
          const contact = selectedContact(s);
          if (contact) {
            track(client.getContact(contact.id)).then(
              (fresh) => dispatch({ type: 'contact-refreshed', contact: fresh }),
              (error: unknown) => failedOn(contact, error),
            );
          }
          return;
        }
        dispatch({ type: 'prefetch-dropped' });
        // With nothing on screen, the page that failed to come is the one asked for.
        if (!s.page && s.loadError) load(s.loadError.query, s.loadError.pageNumber);
        else load(s.query, s.pageNumber, selectedContact(s)?.id);
      },
      open: () => {
        const contact = selectedContact(getState());
        if (!contact) return;
        dispatch({ type: 'opened' });
        // Show what we have at once, then the server's latest.
        track(client.getContact(contact.id)).then(
          (fresh) => {
            status.recover('contacts');
            dispatch({ type: 'contact-refreshed', contact: fresh });
          },
          (error: unknown) => failedOn(contact, error),
        );
      },
      back: () => dispatch({ type: 'closed' }),
      startRename: () => dispatch({ type: 'rename-started' }),
      editRename: (input: FieldInput) => dispatch({ type: 'rename-edited', input }),
      submitRename: () => {
        const s = getState();
        if (s.mode.kind !== 'rename') return;
        const { id } = s.mode;
        const draft = s.mode.draft.value;
        const contact = s.page?.contacts.find((c) => c.id === id);
        const trimmed = draft.trim();
        // An empty name resets to none, which shows the username.
        const displayName = trimmed === '' ? null : trimmed;
        // Unchanged from what the field started with (which leaves out what draws as nothing, a
        // ZWSP or an RLM): nothing to send, or Enter alone would strip them from the name.
        const untouched = contact !== undefined && draft === typedText(contactName(contact));
        if (!contact || untouched || (displayName ?? contact.username) === contactName(contact)) {
          dispatch({ type: 'mode-cancelled' });
          return;
        }
        dispatch({ type: 'rename-sent', id, displayName });
        track(client.updateContact(id, displayName), `rename ${drawn(contactName(contact))}`).then(
          (updated) => {
            status.recover('contacts');
            status.notice(`renamed to ${drawn(contactName(updated))}`);
            told({ put: [updated] });
            dispatch({ type: 'rename-succeeded', contact: updated });
          },
          (error: unknown) => {
            dispatch({ type: 'rename-failed', id });
            failedOn(contact, error);
          },
        );
      },
      cancel: () => {
        if (getState().mode.kind === 'create') createSeq.current++;
        dispatch({ type: 'mode-cancelled' });
      },
      // The marked contacts from the list; the open contact, from its own view, is the one asked about.
      askDelete: () => dispatch({ type: getState().marked.size > 0 && getState().view === 'list' ? 'batch-asked' : 'delete-asked' }),
      toggleMark: (contact?: Contact) => dispatch(contact ? { type: 'mark-toggled', contact } : { type: 'mark-toggled' }),
      markShown: () => dispatch({ type: 'marked-shown' }),
      clearMarks: () => dispatch({ type: 'marks-cleared' }),
      confirmDelete: () => {
        if (getState().mode.kind === 'confirm-batch') {
          void ledger.sendNow(PENDING_BATCH);
          dispatch({ type: 'batch-confirmed', now: ledger.now(), windowMs: undoWindowMs });
          const batch = getState().batch;
          if (!batch) return;
          ledger.defer(PENDING_BATCH, undoWindowMs, () => sendBatch(batch.contacts));
          if (undoHolds.current.size > 0) ledger.hold(PENDING_BATCH);
          return;
        }
        // One undo window at a time: a second delete sends the first at once.
        void ledger.sendNow(PENDING_DELETE);
        // The ledger's clock, which sends it, is the one the countdown is drawn by.
        dispatch({ type: 'delete-confirmed', now: ledger.now(), windowMs: undoWindowMs });
        const pending = getState().pendingDelete;
        if (!pending) return;
        ledger.defer(PENDING_DELETE, undoWindowMs, () => sendDelete(pending.contact));
        if (undoHolds.current.size > 0) ledger.hold(PENDING_DELETE);
      },
      /**
       * The undo offer cannot be seen (the terminal is too small, or suspended to the shell): its
       * window waits. Synchronous: a suspended process must not stop before the clock does.
       */
      holdUndo: (why: UndoHold) => {
        undoHolds.current.add(why);
        ledger.hold(PENDING_DELETE);
        ledger.hold(PENDING_BATCH);
      },
      /** One reason fewer to hold: with none left the offer runs on with the time it had left. */
      releaseUndo: (why: UndoHold) => {
        undoHolds.current.delete(why);
        if (undoHolds.current.size > 0) return;
        const dueAt = ledger.release(PENDING_DELETE);
        if (dueAt !== undefined) dispatch({ type: 'undo-window-moved', dueAt });
        const batchDue = ledger.release(PENDING_BATCH);
        if (batchDue !== undefined) dispatch({ type: 'batch-window-moved', dueAt: batchDue });
      },
      undoDelete: () => {
        const batch = getState().batch;
        if (batch) {
          ledger.cancel(PENDING_BATCH);
          dispatch({ type: 'batch-undone' });
          status.notice(`kept the ${batch.contacts.length} contact${batch.contacts.length === 1 ? '' : 's'} (still marked)`);
          return;
        }
        const pending = pendingDeleteContact(getState());
        if (!pending) return;
        ledger.cancel(PENDING_DELETE);
        dispatch({ type: 'delete-undone' });
        status.notice(`kept ${drawn(contactName(pending))}`);
      },
      startCreate: () => {
        void loadPhoneRule();
        dispatch({ type: 'create-started' });
      },
      editCreate: (input: FieldInput) => dispatch({ type: 'create-edited', input }),
      moveCreateField: (by: number) => dispatch({ type: 'create-field-moved', by }),
      submitCreate: function submitCreate(): void {
        const s = getState();
        if (s.mode.kind !== 'create' || s.mode.form.submitting) return;
        // Loading since the form opened: a submit quicker than that is made once it is there.
        if (!phoneRule) {
          void loadPhoneRule().then(() => submitCreate(), failed);
          return;
        }
        const { values } = s.mode.form;
        const problems: Partial<Record<CreateField, string>> = {};
        if (values.username.trim() === '') problems.username = 'username is required';
        // The rule `contacts create --phone` applies, checked here so a typo is shown without a request.
        const phone = phoneRule.parsePossiblePhoneNumber(values.phone_number, 'phone_number');
        if (values.phone_number.trim() === '') problems.phone_number = 'phone_number is required';
        else if (typeof phone !== 'string') problems.phone_number = phone.problem;
        if (Object.keys(problems).length > 0 || typeof phone !== 'string') {
          dispatch({ type: 'create-failed', errors: problems });
          return;
        }
        dispatch({ type: 'create-sent' });
        const seq = ++createSeq.current;
        const stillTheForm = () => seq === createSeq.current && getState().mode.kind === 'create';
        const optional = (value: string) => (value.trim() === '' ? undefined : value.trim());
        const displayName = optional(values.display_name);
        const avatarUrl = optional(values.avatar_url);
        track(
          client.createContact({
            username: values.username.trim(),
            phoneNumber: phone,
            ...(displayName !== undefined && { displayName }),
            ...(avatarUrl !== undefined && { avatarUrl }),
          }),
          `create ${drawn(values.username.trim())}`,
        ).then(
          (created) => {
            status.recover('contacts');
            status.notice(`created ${drawn(contactName(created))}`);
            told({ put: [created] });
            // The contact exists either way; only the form that sent it is closed by the answer.
            if (stillTheForm()) dispatch({ type: 'create-succeeded' });
            if (getState().mode.kind !== 'create') load(firstPageQuery(getState()), 1, created.id);
          },
          (error: unknown) => {
            const field = error instanceof ApiError ? error.field : undefined;
            if (!stillTheForm()) {
              failed(error);
            } else if (field && (CREATE_FIELDS as readonly string[]).includes(field)) {
              dispatch({ type: 'create-failed', errors: { [field]: errorText(error) } });
            } else {
              dispatch({ type: 'create-failed', errors: {} });
              failed(error);
            }
          },
        );
      },
      startFilter: () => dispatch({ type: 'filter-started' }),
      editFilter: (input: FieldInput) => dispatch({ type: 'filter-edited', input }),
      keepFilter: () => dispatch({ type: 'filter-kept' }),
      clearFilter: () => dispatch({ type: 'filter-cleared' }),
      /**
       * For quitting: reads are dropped, a delete inside its undo window is sent now, and writes
       * under way are waited for.
       */
      settle: async () => {
        pageAbort.current?.abort();
        await ledger.settle();
      },
    }),
    [client, dispatch, failed, failedOn, getState, go, ledger, load, sendBatch, sendDelete, status, stopWalk, track, undoWindowMs],
  );

  return { state, commands, getState };
}

export type ContactsCommands = ReturnType<typeof useContacts>['commands'];
