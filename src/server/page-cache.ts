// Pages of the contact list already read and made JSON of. bench:server found the SQLite read
// was half of a list request's time; a page asked for again (a dashboard refreshing, a user
// paging back and forth) is now a lookup.
//
// It stays true by two rules: this process drops the pages whenever it writes (a create, rename
// or delete may change any page's rows or shift its membership), and they are dropped as soon as
// another connection has written to the database (SQLite's PRAGMA data_version moves only for
// other connections' commits). `check` runs inside the read transaction that would read a page
// missing here, so the version and the page are of one snapshot.
//
// Each contact's text was kept too, at first (a page of kept contacts being its ids joined): a
// page read cold then cost a statement per contact, a walk through the list 0.9 ms a page of 100
// instead of 0.25, for little gain once whole pages are kept.

export class PageCache {
  readonly #pages = new Map<string, Buffer>();
  #bytes = 0;
  readonly #limit: number;
  readonly #dataVersion: () => number;
  #version = Number.NaN;

  /** At most `limitBytes` of pages; `dataVersion` reads the pragma on the connection that reads them. */
  constructor(limitBytes: number, dataVersion: () => number) {
    this.#limit = limitBytes;
    this.#dataVersion = dataVersion;
  }

  /** Drops everything if another connection has committed since the last check. */
  check(): void {
    const version = this.#dataVersion();
    if (version !== this.#version) {
      this.drop();
      this.#version = version;
    }
  }

  /**
   * The page's JSON under `key` (everything that decides a page: owner, filter, cursor, limit), or
   * `load`ed; as the bytes that are sent, so a page asked for again is not encoded again.
   */
  get(key: string, load: () => Buffer): Buffer {
    const kept = this.#pages.get(key);
    if (kept !== undefined) return kept;
    const json = load();
    if (json.length <= this.#limit) {
      // The oldest kept goes first: a Map iterates in insertion order.
      while (this.#bytes + json.length > this.#limit) {
        const [oldest, bytes] = this.#pages.entries().next().value!;
        this.#pages.delete(oldest);
        this.#bytes -= bytes.length;
      }
      this.#pages.set(key, json);
      this.#bytes += json.length;
    }
    return json;
  }

  /** Everything goes: after any write by this process. */
  drop(): void {
    this.#pages.clear();
    this.#bytes = 0;
  }

  get size(): { pages: number; bytes: number } {
    return { pages: this.#pages.size, bytes: this.#bytes };
  }
}
