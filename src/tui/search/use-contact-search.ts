// The dashboard's whole-list search: the local index loaded as soon as the history file opens (so
// a search at start is instant), a walk of the list in the background that refreshes it (the
// largest pages, waiting while the user pages), the index kept true by the dashboard's own
// creates, renames and deletes, and the search view's query, results and highlight.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { TickbookClient } from '../../api/client.js';
import type { Contact } from '../../api/types.js';
import type { ContactSearch, SearchHit } from '../../contacts/search.js';
import type { HistoryService } from '../../store/price-recorder.js';
import { type PageOfRow, pageOfRow } from '../contacts/contact-walk.js';
import { errorText } from '../state/error-text.js';
import type { StatusBoard } from '../state/status.js';
import { useLatest } from '../state/external-state.js';
import { EMPTY_FIELD, fieldInput, type FieldInput, type FieldText } from '../state/field-text.js';

export interface IndexProgress {
  /** Contacts in the index. */
  indexed: number;
  /** Read by the walk under way (undefined when none is). */
  walked: number | undefined;
  /** How many there were at the last finished walk, for "of ~N". */
  expected: number | undefined;
  /** A walk has read the whole list since the dashboard started. */
  complete: boolean;
  /** Why the last walk stopped, when it failed. */
  failed: string | undefined;
}

/** The search as shown: closed, or its query (with the query's cursor) and the result highlighted. */
export type SearchView = { open: false } | { open: true; query: FieldText; cursor: number };

/** The most characters a query holds: far more than a name, and a paste of a page stops there. */
export const SEARCH_QUERY_MAX = 100;

/** How often the walk looks again whether the user has stopped paging. */
const PAUSE_POLL_MS = 200;
/** How often the walk looks whether the history file has opened. */
const OPEN_POLL_MS = 250;

export interface ContactSearchOptions {
  client: TickbookClient;
  history: HistoryService | undefined;
  /** The name the list is indexed under (contactsSource); without one there is no index. */
  source: string | undefined;
  status: StatusBoard;
  /** Whether the user is paging (a page on its way): the walk waits its turn. */
  busy: () => boolean;
  /** Contacts deleted, or waiting out their undo window: not offered. */
  hidden: (id: string) => boolean;
}

export function useContactSearch({ client, history, source, status, busy, hidden }: ContactSearchOptions) {
  const [view, setView, currentView] = useLatest<SearchView>({ open: false });
  const [progress, setProgress] = useState<IndexProgress>({ indexed: 0, walked: undefined, expected: undefined, complete: false, failed: undefined });
  const [hits, setHitsState] = useState<SearchHit<Contact>[]>([]);
  // Kept for the key handler too, which may take several keys before the next render.
  const hitsRef = useRef<SearchHit<Contact>[]>([]);
  const setHits = useCallback((next: SearchHit<Contact>[]) => {
    hitsRef.current = next;
    setHitsState(next);
  }, []);
  // The ranking (uFuzzy) and the walk load with the index, after the first frame: they were part
  // of every start. Until then there is nothing to search.
  const parts = useRef<{ ContactSearch: typeof ContactSearch; walkIntoIndex: typeof import('../../contacts/index-walk.js').walkIntoIndex } | undefined>(undefined);
  const searcher = useRef<ContactSearch<Contact> | undefined>(undefined);
  // The index changed since the searcher was built: built again at the next search.
  const stale = useRef(true);
  const walk = useRef<AbortController | undefined>(undefined);
  const busyRef = useRef(busy);
  busyRef.current = busy;
  const hiddenRef = useRef(hidden);
  hiddenRef.current = hidden;
  /** The matches of `query` that are still in the list. */
  const found = useCallback(
    (s: ContactSearch<Contact> | undefined, query: string) => (s ? s.search(query).filter((hit) => !hiddenRef.current(hit.contact.id)) : []),
    [],
  );

  const index = useCallback(() => (source ? history?.books()?.contacts : undefined), [history, source]);

  const searcherNow = useCallback((): ContactSearch<Contact> | undefined => {
    const idx = index();
    if (stale.current && idx && source && parts.current) {
      searcher.current = new parts.current.ContactSearch(idx.all(source));
      stale.current = false;
    }
    return searcher.current;
  }, [index, source]);

  const rerun = useCallback(() => {
    const v = currentView();
    if (!v.open) return;
    const hits = found(searcherNow(), v.query.value);
    setHits(hits);
    if (v.cursor >= hits.length && hits.length > 0) setView({ ...v, cursor: hits.length - 1 });
  }, [currentView, found, searcherNow, setView, setHits]);

  const startWalk = useCallback(() => {
    const idx = index();
    if (!idx || !source || !parts.current) return;
    walk.current?.abort();
    const abort = new AbortController();
    walk.current = abort;
    const before = idx.count(source);
    setProgress((p) => ({ ...p, indexed: before, walked: 0, failed: undefined }));
    const waitTurn = async () => {
      while (busyRef.current() && !abort.signal.aborted) await new Promise((resolve) => setTimeout(resolve, PAUSE_POLL_MS));
    };
    parts.current.walkIntoIndex(client, idx, source, {
      signal: abort.signal,
      beforePage: waitTurn,
      onPage: (read) => {
        stale.current = true;
        setProgress((p) => ({ ...p, walked: read, indexed: Math.max(p.indexed, read) }));
        rerun();
      },
    }).then(
      ({ read, gone }) => {
        if (abort.signal.aborted) return;
        stale.current = true;
        setProgress({ indexed: idx.count(source), walked: undefined, expected: read, complete: true, failed: undefined });
        if (gone > 0) status.notice(`search index: ${gone} contact${gone === 1 ? '' : 's'} gone since the last walk, forgotten`);
        rerun();
      },
      (error: unknown) => {
        if (abort.signal.aborted) return;
        setProgress((p) => ({ ...p, walked: undefined, failed: errorText(error) }));
      },
    );
  }, [client, index, rerun, source, status]);

  // The index as last kept, then the walk, once the history file is open (after the first frame).
  useEffect(() => {
    if (!history || !source) return undefined;
    let timer: NodeJS.Timeout | undefined;
    const tryOpen = () => {
      const idx = index();
      if (!idx) {
        if (history.unavailable === undefined) timer = setTimeout(tryOpen, OPEN_POLL_MS);
        return;
      }
      void Promise.all([import('../../contacts/search.js'), import('../../contacts/index-walk.js')]).then(([{ ContactSearch }, { walkIntoIndex }]) => {
        if (gone) return;
        parts.current = { ContactSearch, walkIntoIndex };
        const known = idx.count(source);
        stale.current = true;
        setProgress((p) => ({ ...p, indexed: known, expected: known > 0 ? known : undefined }));
        startWalk();
        rerun();
      }, (error: unknown) => {
        if (!gone) setProgress((p) => ({ ...p, failed: errorText(error) }));
      });
    };
    let gone = false;
    tryOpen();
    return () => {
      gone = true;
      clearTimeout(timer);
      walk.current?.abort();
    };
  }, [history, source, index, startWalk, rerun]);

  const commands = useMemo(
    () => ({
      isOpen: () => currentView().open,
      current: currentView,
      open: () => {
        setView({ open: true, query: EMPTY_FIELD, cursor: 0 });
        setHits([]);
      },
      close: () => setView({ open: false }),
      edit: (input: FieldInput) => {
        const v = currentView();
        if (!v.open) return;
        const query = fieldInput(v.query, input, SEARCH_QUERY_MAX);
        if (query === v.query) return;
        if (query.value === v.query.value) return setView({ ...v, query });
        setView({ ...v, query, cursor: 0 });
        setHits(found(searcherNow(), query.value));
      },
      move: (by: number) => {
        const v = currentView();
        if (!v.open) return;
        setView({ ...v, cursor: Math.max(0, Math.min(v.cursor + by, hitsRef.current.length - 1)) });
      },
      /** The highlighted result. */
      chosen: (): Contact | undefined => {
        const v = currentView();
        return v.open ? hitsRef.current[v.cursor]?.contact : undefined;
      },
      /**
       * Where the highlighted result is in the list that `listed` keeps (the list shown: all, or
       * the active only), in pages of `pageRows`: the page it is on, as paging from the first
       * would number it, and the contacts just before that page's first row, nearest first (the
       * page is asked for after the first of them the server still has).
       */
      placeOf: (listed: (c: Contact) => boolean, pageRows: number): { contact: Contact } & PageOfRow<Contact> | undefined => {
        const v = currentView();
        if (!v.open) return undefined;
        const hit = hitsRef.current[v.cursor];
        if (!hit) return undefined;
        const shown = (searcherNow()?.contacts ?? []).filter((c) => listed(c) && !hiddenRef.current(c.id));
        return { contact: hit.contact, ...pageOfRow(shown, Math.max(0, shown.indexOf(hit.contact)), pageRows) };
      },
      /** The index told of contacts read, changed or gone. */
      changed: (change: { put: readonly Contact[] } | { gone: readonly string[] }) => {
        const idx = index();
        if (!idx || !source) return;
        try {
          if ('put' in change) idx.put(source, change.put, Date.now());
          else idx.remove(source, change.gone);
        } catch {
          // The index is a help, not the list: a failed write is caught up by the next walk.
          return;
        }
        stale.current = true;
        setProgress((p) => ({ ...p, indexed: idx.count(source) }));
        rerun();
      },
      refresh: startWalk,
    }),
    [currentView, found, index, rerun, searcherNow, setHits, setView, source, startWalk],
  );

  return { view, hits, progress, ...commands };
}
