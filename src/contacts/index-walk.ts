// A walk of the whole contact list into the local index: the largest pages the API allows, each
// page written as it comes, a pause between pages when the caller asks for one (the dashboard
// while the user pages), and at the end what the walk did not see is forgotten: it is gone.
import type { TickbookClient } from '../api/client.js';
import type { PageQuery } from '../api/types.js';
import type { ContactIndex } from '../store/contact-index.js';

export interface WalkOptions {
  /** After each page: how many contacts this walk has read. */
  onPage?: (read: number) => void;
  /** Awaited before each page after the first: the walk waits while it does not resolve. */
  beforePage?: () => Promise<void>;
  signal?: AbortSignal;
  now?: () => number;
}

/** Reads every contact into `index`; the number read and the number forgotten as gone. */
export async function walkIntoIndex(client: TickbookClient, index: ContactIndex, source: string, options: WalkOptions = {}): Promise<{ read: number; gone: number }> {
  const started = (options.now ?? Date.now)();
  let query: PageQuery | undefined = { limit: 100 };
  let read = 0;
  let first = true;
  while (query) {
    options.signal?.throwIfAborted();
    if (!first) await options.beforePage?.();
    first = false;
    const page = await client.listContacts(query, { signal: options.signal });
    index.put(source, page.contacts, started);
    read += page.contacts.length;
    options.onPage?.(read);
    query = page.hasMore ? page.next : undefined;
    // A page saying more follow that holds none gives no cursor: what was read is not the whole list.
    if (page.hasMore && page.contacts.length === 0) throw new Error(`the server sent an empty page saying more contacts follow; the index has ${read}`);
  }
  return { read, gone: index.forgetUnseen(source, started) };
}
