// The dashboard's whole-list search: the local index loaded as soon as the history file opens (so
// a search at start is instant), a walk of the list in the background that refreshes it (the
// largest pages, waiting while the user pages), the index kept true by the dashboard's own
// creates, renames and deletes, and the search view's query, results and highlight. A class
// outside React: it holds the state (an ExternalState the views read through
// useSyncExternalStore, use-contact-search.ts), the searcher and the walk under way, and every
// command reads the latest state, never a render's.
import type { TickbookClient } from '../../api/client.js';
import type { Contact } from '../../api/types.js';
import type { ContactSearch } from '../../contacts/search.js';
import type { walkIntoIndex } from '../../contacts/index-walk.js';
import type { ContactIndex } from '../../store/contact-index.js';
import type { HistoryService } from '../../store/price-recorder.js';
import { type PageOfRow, pageOfRow } from '../contacts/contact-walk.js';
import type { ContactsChange } from '../contacts/contacts-controller.js';
import { errorText } from '../state/error-text.js';
import { ExternalState } from '../state/external-state.js';
import { fieldInput, type FieldInput } from '../state/field-text.js';
import type { StatusBoard } from '../state/status.js';
import { type IndexProgress, initialSearchState, SEARCH_QUERY_MAX, type SearchAction, searchReducer, type SearchState, type SearchView } from './search-state.js';

/** How often the walk looks again whether the user has stopped paging. */
const PAUSE_POLL_MS = 200;
/** How often the search looks whether the history file has opened. */
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

/** The ranking (uFuzzy) and the walk: loaded with the index, after the first frame. */
interface Parts {
  ContactSearch: typeof ContactSearch;
  walkIntoIndex: typeof walkIntoIndex;
}

const loadParts = (): Promise<Parts> =>
  Promise.all([import('../../contacts/search.js'), import('../../contacts/index-walk.js')]).then(([search, walk]) => ({
    ContactSearch: search.ContactSearch,
    walkIntoIndex: walk.walkIntoIndex,
  }));

/** Where a match is in the list shown: the contact, the page it is on and the contacts before that page. */
export type PlaceOfMatch = { contact: Contact } & PageOfRow<Contact>;

export class ContactSearchController {
  #options: ContactSearchOptions;
  readonly #state = new ExternalState<SearchState, SearchAction>(searchReducer, initialSearchState);
  // The ranking and the walk were part of every start: until they load there is nothing to search.
  #parts: Parts | undefined;
  #searcher: ContactSearch<Contact> | undefined;
  /** The index changed since the searcher was built: built again at the next search. */
  #stale = true;
  #walk: AbortController | undefined;
  /** Aborted by dispose: the opening of the index under way is not this search's any more. */
  #life: AbortController | undefined;
  #openTimer: NodeJS.Timeout | undefined;

  constructor(options: ContactSearchOptions) {
    this.#options = options;
  }

  /** What the dashboard gives the search, as of its last render: read when used, never kept. */
  readonly setOptions = (options: ContactSearchOptions): void => {
    this.#options = options;
  };

  /** The latest state: what the commands before this one left. */
  readonly getState = (): SearchState => this.#state.getState();
  readonly subscribe = (listener: () => void): (() => void) => this.#state.subscribe(listener);
  readonly #dispatch = (action: SearchAction): void => this.#state.dispatch(action);

  /** The index as last kept, then a walk, once the history file is open (it opens after the first frame). */
  readonly start = (): void => {
    const { history, source } = this.#options;
    if (!history || !source) return;
    const life = new AbortController();
    this.#life = life;
    const tryOpen = () => {
      const index = this.#index();
      if (!index) {
        if (history.unavailable === undefined) this.#openTimer = setTimeout(tryOpen, OPEN_POLL_MS);
        return;
      }
      void loadParts().then(
        (parts) => {
          if (life.signal.aborted) return;
          this.#parts = parts;
          const known = index.count(source);
          this.#stale = true;
          this.#progress({ indexed: known, expected: known > 0 ? known : undefined });
          this.refresh();
          this.#rerun();
        },
        (error: unknown) => {
          if (!life.signal.aborted) this.#progress({ failed: errorText(error) });
        },
      );
    };
    tryOpen();
  };

  /** The opening and the walk under way stop; what the index holds stays for the next start. */
  readonly dispose = (): void => {
    this.#life?.abort();
    clearTimeout(this.#openTimer);
    this.#walk?.abort();
  };

  #index(): ContactIndex | undefined {
    const { history, source } = this.#options;
    return source ? history?.books()?.contacts : undefined;
  }

  #progress(progress: Partial<IndexProgress>): void {
    this.#dispatch({ type: 'progress', progress });
  }

  #searcherNow(): ContactSearch<Contact> | undefined {
    const index = this.#index();
    const { source } = this.#options;
    if (this.#stale && index && source && this.#parts) {
      this.#searcher = new this.#parts.ContactSearch(index.all(source));
      this.#stale = false;
    }
    return this.#searcher;
  }

  /** The matches of `query` that are still in the list. */
  #found(query: string) {
    const searcher = this.#searcherNow();
    return searcher ? searcher.search(query).filter((hit) => !this.#options.hidden(hit.contact.id)) : [];
  }

  /** The open query searched again, the index having changed. */
  #rerun(): void {
    const view = this.getState().view;
    if (view.open) this.#dispatch({ type: 'found', hits: this.#found(view.query.value) });
  }

  /** A walk of the whole list into the index, in place of any under way. */
  readonly refresh = (): void => {
    const index = this.#index();
    const { client, source, status } = this.#options;
    if (!index || !source || !this.#parts) return;
    this.#walk?.abort();
    const abort = new AbortController();
    this.#walk = abort;
    this.#progress({ indexed: index.count(source), walked: 0, failed: undefined });
    const waitTurn = async () => {
      while (this.#options.busy() && !abort.signal.aborted) await new Promise((resolve) => setTimeout(resolve, PAUSE_POLL_MS));
    };
    this.#parts
      .walkIntoIndex(client, index, source, {
        signal: abort.signal,
        beforePage: waitTurn,
        onPage: (read) => {
          this.#stale = true;
          this.#progress({ walked: read, indexed: Math.max(this.getState().progress.indexed, read) });
          this.#rerun();
        },
      })
      .then(
        ({ read, gone }) => {
          if (abort.signal.aborted) return;
          this.#stale = true;
          this.#progress({ indexed: index.count(source), walked: undefined, expected: read, complete: true, failed: undefined });
          if (gone > 0) status.notice(`search index: ${gone} contact${gone === 1 ? '' : 's'} gone since the last walk, forgotten`);
          this.#rerun();
        },
        (error: unknown) => {
          if (abort.signal.aborted) return;
          this.#progress({ walked: undefined, failed: errorText(error) });
        },
      );
  };

  readonly isOpen = (): boolean => this.getState().view.open;
  readonly current = (): SearchView => this.getState().view;
  readonly open = (): void => this.#dispatch({ type: 'open' });
  readonly close = (): void => this.#dispatch({ type: 'close' });

  readonly edit = (input: FieldInput): void => {
    const view = this.getState().view;
    if (!view.open) return;
    const query = fieldInput(view.query, input, SEARCH_QUERY_MAX);
    if (query === view.query) return;
    this.#dispatch({ type: 'query', query, hits: query.value === view.query.value ? undefined : this.#found(query.value) });
  };

  readonly move = (by: number): void => this.#dispatch({ type: 'move', by });

  /** The highlighted result. */
  readonly chosen = (): Contact | undefined => {
    const { view, hits } = this.getState();
    return view.open ? hits[view.cursor]?.contact : undefined;
  };

  /**
   * Where the highlighted result is in the list that `listed` keeps (the list shown: all, or
   * the active only), in pages of `pageRows`: the page it is on, as paging from the first
   * would number it, and the contacts just before that page's first row, nearest first (the
   * page is asked for after the first of them the server still has).
   */
  readonly placeOf = (listed: (c: Contact) => boolean, pageRows: number): PlaceOfMatch | undefined => {
    const contact = this.chosen();
    if (!contact) return undefined;
    const { hidden } = this.#options;
    const shown = (this.#searcherNow()?.contacts ?? []).filter((c) => listed(c) && !hidden(c.id));
    return { contact, ...pageOfRow(shown, Math.max(0, shown.indexOf(contact)), pageRows) };
  };

  /** The index told of contacts read, changed or gone. */
  readonly changed = (change: ContactsChange): void => {
    const index = this.#index();
    const { source } = this.#options;
    if (!index || !source) return;
    try {
      if ('put' in change) index.put(source, change.put, Date.now());
      else index.remove(source, change.gone);
    } catch {
      // The index is a help, not the list: a failed write is caught up by the next walk.
      return;
    }
    this.#stale = true;
    this.#progress({ indexed: index.count(source) });
    this.#rerun();
  };
}

/** What the dashboard's commands and the contacts pane use of the search: its commands, not its lifecycle. */
export type ContactSearchCommands = Pick<ContactSearchController, 'isOpen' | 'current' | 'open' | 'close' | 'edit' | 'move' | 'chosen' | 'placeOf' | 'changed' | 'refresh'>;
