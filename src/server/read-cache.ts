// What the sandbox has already read and made JSON of: each contact's text, and whole pages of
// the list. bench:server found the SQLite read was half of a list request's time; a page asked
// for again (a dashboard refreshing, a user paging back) is now a lookup, and a page over
// contacts read before is its ids' strings joined.
//
// It stays true by two rules: this process tells it what it writes (a changed or deleted contact
// is forgotten, and any write drops the pages, whose membership it may shift), and everything is
// dropped as soon as another connection has written to the database (SQLite's PRAGMA
// data_version moves only for other connections' commits). `check` runs inside the read
// transaction whose rows are then taken from here, so the text and the ids are of one snapshot.

export interface ReadCacheLimits {
  /** Contacts' texts kept (about 250 bytes each). */
  rows: number;
  /** Characters of page text kept, all pages together. */
  pageChars: number;
}

export class ReadCache {
  readonly #rows = new Map<string, { owner: string; json: string }>();
  readonly #pages = new Map<string, string>();
  #pageChars = 0;
  readonly #limits: ReadCacheLimits;
  readonly #dataVersion: () => number;
  #version = Number.NaN;

  /** `dataVersion` reads the pragma on the connection that reads the rows. */
  constructor(limits: ReadCacheLimits, dataVersion: () => number) {
    this.#limits = limits;
    this.#dataVersion = dataVersion;
  }

  /** Drops everything if another connection has committed since the last check. */
  check(): void {
    const version = this.#dataVersion();
    if (version !== this.#version) {
      this.#rows.clear();
      this.#dropPages();
      this.#version = version;
    }
  }

  /** The contact's JSON if kept and `owner`'s; otherwise `load`s it (undefined: no such contact). */
  row(owner: string, id: string, load: () => string | undefined): string | undefined {
    const kept = this.#rows.get(id);
    if (kept !== undefined) return kept.owner === owner ? kept.json : undefined;
    const json = load();
    if (json !== undefined) {
      // The oldest kept goes first: a Map iterates in insertion order.
      if (this.#rows.size >= this.#limits.rows) this.#rows.delete(this.#rows.keys().next().value!);
      this.#rows.set(id, { owner, json });
    }
    return json;
  }

  /** The page's JSON under `key` (everything that decides a page: owner, filter, cursor, limit), or `load`ed. */
  page(key: string, load: () => string): string {
    const kept = this.#pages.get(key);
    if (kept !== undefined) return kept;
    const json = load();
    if (json.length <= this.#limits.pageChars) {
      while (this.#pageChars + json.length > this.#limits.pageChars) {
        const [oldest, text] = this.#pages.entries().next().value!;
        this.#pages.delete(oldest);
        this.#pageChars -= text.length;
      }
      this.#pages.set(key, json);
      this.#pageChars += json.length;
    }
    return json;
  }

  /** After this process changed or deleted the contact. */
  forget(id: string): void {
    this.#rows.delete(id);
    this.#dropPages();
  }

  /** After this process added contacts. */
  added(): void {
    this.#dropPages();
  }

  get size(): { rows: number; pages: number; pageChars: number } {
    return { rows: this.#rows.size, pages: this.#pages.size, pageChars: this.#pageChars };
  }

  #dropPages(): void {
    this.#pages.clear();
    this.#pageChars = 0;
  }
}
