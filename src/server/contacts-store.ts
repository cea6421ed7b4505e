// The sandbox database in SQLite: contacts and their conversations, and the market the database
// keeps. Every statement is prepared once from constant text; values only ever travel as parameters.
import Database from 'better-sqlite3';
import { accessSync, closeSync, constants, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { DirectoryError, ensureDirectory } from '../config/directories.js';
import { fsReason } from '../config/fs-reason.js';
import { holdPageCache } from '../sqlite/page-cache.js';
import { HttpError, invalid } from './errors.js';
import { newId } from './ids.js';
import { PageCache } from './page-cache.js';
import type { NewContactFields } from './validate.js';
import { DatabaseOpenError, MarketMismatchError } from './store-errors.js';
import { newerSchema, upgradeSchema } from '../sqlite/schema.js';
import { isFullDisk, isReadOnly, sqliteProblem } from '../sqlite/problems.js';
import { readableDatabase, readOnlyReason } from '../sqlite/read-only.js';
import { databaseFileAt } from '../sqlite/database-file.js';
import { statOrUndefined } from '../config/stat-or-undefined.js';

export { DatabaseOpenError, MarketMismatchError };

/** A contact exactly as the API returns it. */
export interface ContactRecord {
  id: string;
  username: string;
  phone_number: string;
  avatar_url: string | null;
  display_name: string | null;
  conversation_id: string;
  last_active_at: number | null;
  created_at: number;
}

export interface PageQuery {
  limit: number;
  active?: boolean | undefined;
  startingAfter?: string | undefined;
  endingBefore?: string | undefined;
}

export interface Page {
  data: ContactRecord[];
  has_more: boolean;
}

/** A write waiting for the next group commit. */
interface GroupedWrite {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** A contact to insert with its times given, for demo data and benchmarks. */
export interface SeedContact extends NewContactFields {
  createdAt: number;
  lastActiveAt: number | null;
}



/** Each entry moves the schema from version (index) to (index + 1). */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE conversations (
     id         TEXT PRIMARY KEY,
     owner      TEXT NOT NULL,
     created_at INTEGER NOT NULL
   );
   CREATE TABLE contacts (
     id              TEXT PRIMARY KEY,
     owner           TEXT NOT NULL,
     username        TEXT NOT NULL COLLATE NOCASE,
     phone_number    TEXT NOT NULL,
     avatar_url      TEXT,
     display_name    TEXT,
     conversation_id TEXT NOT NULL UNIQUE REFERENCES conversations(id),
     last_active_at  INTEGER,
     created_at      INTEGER NOT NULL,
     UNIQUE (owner, username)
   );
   CREATE INDEX contacts_in_order ON contacts (owner, created_at, id);
   CREATE INDEX contacts_active_in_order ON contacts (owner, created_at, id)
     WHERE last_active_at IS NOT NULL;
   CREATE INDEX contacts_inactive_in_order ON contacts (owner, created_at, id)
     WHERE last_active_at IS NULL;`,
  // One market per database, so that every process on it prices alike. Its row is written by the
  // first open that asks for a market, in the transaction that creates or migrates the schema.
  `CREATE TABLE market (
     id       INTEGER PRIMARY KEY CHECK (id = 1),
     seed     INTEGER NOT NULL,
     epoch_ms INTEGER NOT NULL
   );`,
  // The demo contacts' Fatima Bello had +234 1 234 5678 until issue 37 (too short for Nigeria:
  // an import refuses it, so a restore of a list made then lost her); new databases get
  // +234 201 234 5678 (demo-contacts.tsv). Hers, and her copies' in a long demo list
  // (fatima.bello-2, …), are changed once here; a contact of the user's with that number stays.
  `UPDATE contacts SET phone_number = '+2342012345678'
     WHERE phone_number = '+23412345678'
       AND (username = 'fatima.bello' OR username GLOB 'fatima.bello-[1-9]*');`,
];

const SCHEMA_VERSION = MIGRATIONS.length;

const COLUMNS =
  'id, username, phone_number, avatar_url, display_name, conversation_id, last_active_at, created_at';

/** A contact as JSON, made by SQLite, its keys in COLUMNS' order (as JSON.stringify gives a row). */
const JSON_ROW = `json_object(${COLUMNS.split(',')
  .map((c) => `'${c.trim()}', ${c.trim()}`)
  .join(', ')})`;

const FILTERS = {
  all: '',
  active: 'AND last_active_at IS NOT NULL',
  inactive: 'AND last_active_at IS NULL',
} as const;

const DIRECTIONS = {
  first: 'ORDER BY created_at DESC, id DESC',
  after: 'AND (created_at, id) < (@cursorCreatedAt, @cursorId) ORDER BY created_at DESC, id DESC',
  before: 'AND (created_at, id) > (@cursorCreatedAt, @cursorId) ORDER BY created_at ASC, id ASC',
} as const;

type FilterName = keyof typeof FILTERS;
type DirectionName = keyof typeof DIRECTIONS;

interface CursorRow {
  id: string;
  created_at: number;
  last_active_at: number | null;
}

/** What the market simulator needs to price exactly as every other process on the database. */
export interface MarketSettings {
  seed: number;
  /** Where the walk starts, ms since the Unix epoch. */
  epochMs: number;
}

export interface KeptMarket extends MarketSettings {
  /** Whether this open wrote it (a database without one, or a reset) or found it. */
  origin: 'new' | 'reset' | 'kept';
}

export interface MarketRequest {
  /** A seed the caller insists on: a database keeping another is refused unless `reset`. */
  seed?: number | undefined;
  /** Likewise the epoch. */
  epochMs?: number | undefined;
  /** Replace the kept market, with `seed` and `epochMs` where given. */
  reset?: boolean | undefined;
  /** The seed and epoch for what the caller left out, when this open writes the market. */
  fresh: () => MarketSettings;
}


export interface ContactsStore {
  /** True when this open created the database (so demo data may be seeded). */
  readonly created: boolean;
  /** The market the database keeps, read once at open; undefined if none was asked for yet. */
  readonly market: KeptMarket | undefined;
  /**
   * Why the database may only be read (its file or directory is read-only), or undefined when
   * it may be written. A read-only store serves reads; every write throws an HttpError saying so.
   */
  readonly readOnly: string | undefined;
  create(owner: string, fields: NewContactFields, nowMs?: number): ContactRecord;
  insertMany(owner: string, contacts: readonly SeedContact[]): void;
  /** The contact as the API's JSON text, or undefined when the owner has none by that id. */
  getJson(owner: string, id: string): string | undefined;
  /** The renamed contact as the API's JSON text, or undefined when the owner has none by that id. */
  rename(owner: string, id: string, displayName: string | null): string | undefined;
  delete(owner: string, id: string): boolean;
  page(owner: string, query: PageQuery): Page;
  /**
   * The same page as the list's JSON body in UTF-8, `{"has_more":…,"data":[…]}`, each contact made
   * JSON by SQLite itself (json_object, in COLUMNS' order): no object a row, no stringify a
   * request; kept (page-cache.ts) until a write.
   */
  pageBody(owner: string, query: PageQuery): Buffer;
  count(owner: string): number;
  /**
   * Runs `work` (create, rename, delete) in the next group commit, with every other write asked
   * for in this turn of the event loop: settles once it is on disk.
   */
  grouped<T>(work: () => T): Promise<T>;
  close(): void;
}

export interface OpenOptions {
  /** Contacts for a database this open creates, inserted in the same transaction as the schema. */
  initialContacts?: (market: MarketSettings | undefined) => { owner: string; contacts: readonly SeedContact[] };
  /** The market to use: the kept one, or (with none kept, or a reset) one written now. */
  market?: MarketRequest;
  /** Create the file's directory when it is missing (only ever tickbook's own data directory). */
  createDirectory?: boolean;
  /** Where the path came from, in words (`XDG_DATA_HOME=/x`, `option --db`), for a directory that cannot be made. */
  directoryOrigin?: string;
}


const BUSY_TIMEOUT_MS = 5000;
/** Bytes of list pages kept: 2 MB, 800 pages of 10 or 80 of 100. */
const PAGE_CACHE_BYTES = 2_000_000;

export function openContactsStore(path: string, options: OpenOptions = {}): ContactsStore {
  if (path !== ':memory:') {
    refuseDirectoryName(path);
    // A FIFO, a device, a socket or a directory is refused before SQLite is given it (a FIFO would
    // block its reads for ever).
    databaseFileAt(path, (reason) => new DatabaseOpenError(path, reason));
    // Before checkOpenable, which refuses a file tickbook may not write: one it may read is served.
    const readOnly = readOnlyReason(path);
    if (readOnly !== undefined) return openReadOnly(path, readOnly, options);
    checkOpenable(path, options.createDirectory === true, options.directoryOrigin ?? 'the database path');
    createPrivately(path);
  }
  let db: Database.Database;
  try {
    db = new Database(path);
  } catch (error) {
    throw openFailure(path, error);
  }

  try {
    // First, so that switching to WAL and migrating wait for another process opening the same file.
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // WAL with synchronous=FULL: a committed write is in the WAL and the WAL on disk (fsync)
    // before the answer goes out, so it survives the process being killed and a power cut too.
    // Writes are committed in groups (grouped()), one fsync for all that came in one turn.
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    holdPageCache(db);

    // The version is read under the write lock: two processes starting on a new file must not both
    // create the schema, and only the one that creates it fills it.
    db.exec('BEGIN IMMEDIATE');
    const version = upgradeSchema(db, MIGRATIONS, (reason) => new DatabaseOpenError(path, reason));
    // Under the same write lock: processes racing on a new file all end up with the first one's market.
    const market = settleMarket(db, path, options.market);
    const store = buildStore(db, path, version === 0, market, undefined);
    if (version === 0 && options.initialContacts) {
      const { owner, contacts } = options.initialContacts(market);
      store.insertMany(owner, contacts);
    }
    db.exec('COMMIT');
    return store;
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    db.close();
    throw openFailure(path, error);
  }
}

function settleMarket(db: Database.Database, path: string, request: MarketRequest | undefined): KeptMarket | undefined {
  const stored = db.prepare('SELECT seed, epoch_ms AS epochMs FROM market WHERE id = 1').get() as
    | MarketSettings
    | undefined;
  if (!request) return stored && { ...stored, origin: 'kept' };
  if (stored && !request.reset) {
    const differs =
      (request.seed !== undefined && request.seed !== stored.seed) ||
      (request.epochMs !== undefined && request.epochMs !== stored.epochMs);
    if (differs) throw new MarketMismatchError(path, stored, { seed: request.seed, epochMs: request.epochMs });
    return { ...stored, origin: 'kept' };
  }
  const fresh = request.fresh();
  const market = { seed: request.seed ?? fresh.seed, epochMs: request.epochMs ?? fresh.epochMs };
  db.prepare(
    `INSERT INTO market (id, seed, epoch_ms) VALUES (1, ?, ?)
     ON CONFLICT (id) DO UPDATE SET seed = excluded.seed, epoch_ms = excluded.epoch_ms`,
  ).run(market.seed, market.epochMs);
  return { ...market, origin: stored ? 'reset' : 'new' };
}

/**
 * Says in words why `path` cannot be a database before SQLite tries, since SQLite's own answer
 * for most of these is "unable to open database file". Only a wanted directory is ever created.
 */
function checkOpenable(path: string, createDirectory: boolean, origin: string): void {
  const dir = dirname(path);
  if (createDirectory) {
    try {
      ensureDirectory(dir, origin);
    } catch (error) {
      if (error instanceof DirectoryError) throw new DatabaseOpenError(path, error.message);
      throw error;
    }
  }
  if (!statOrUndefined(dir)?.isDirectory()) throw new DatabaseOpenError(path, whyNoDirectory(dir));
  const file = statOrUndefined(path);
  // SQLite writes its -wal and -shm files beside the database, so the directory must be writable too.
  for (const [target, mode] of [
    [dir, constants.W_OK | constants.X_OK],
    ...(file ? [[path, constants.R_OK | constants.W_OK] as const] : []),
  ] as const) {
    try {
      accessSync(target, mode);
    } catch {
      const reason = target === path ? 'tickbook may not read and write it' : `tickbook may not write in ${target}`;
      throw new DatabaseOpenError(path, `permission denied: ${reason}`);
    }
  }
}

/**
 * Creates a new database file readable by its owner alone, before SQLite would create it with the
 * umask's 0644: it holds the user's contacts, and SQLite gives its -wal and -shm files the
 * database's own mode. An existing file is left as it is.
 */
function createPrivately(path: string): void {
  try {
    closeSync(openSync(path, 'wx', 0o600));
  } catch (error) {
    if ((error as { code?: string }).code === 'EEXIST') return;
    throw new DatabaseOpenError(path, `cannot create it: ${fsReason(error)}`);
  }
}

/** Why `dir` is not there: it is missing, or a part of it is a file. */
function whyNoDirectory(dir: string): string {
  for (let at = dir; ; at = dirname(at)) {
    const found = statOrUndefined(at);
    if (found && !found.isDirectory()) return `${at} is not a directory`;
    if (found || at === dirname(at)) break;
  }
  return `the directory ${dir} does not exist`;
}

/** SQLite's failures on opening, in words; anything else passes through unchanged. */
function openFailure(path: string, error: unknown): unknown {
  if (!(error instanceof Database.SqliteError)) return error;
  const problem = sqliteProblem(error, BUSY_TIMEOUT_MS, path);
  return problem === undefined ? error : new DatabaseOpenError(path, problem);
}

/**
 * A path ending in "/" names a directory: SQLite would quietly drop the "/" and make a database
 * file of that name, somewhere the user did not mean.
 */
function refuseDirectoryName(path: string): void {
  if (!/[\\/]$/.test(path) || statOrUndefined(path)?.isDirectory()) return;
  throw new DatabaseOpenError(path, 'it ends in "/", so it names a directory, not a database file');
}

/**
 * Opens a database tickbook may read but not write: its contacts and market are served, and every
 * write is refused (see buildStore). Nothing is written on the way: no WAL switch, no migration,
 * no market, no demo contacts; a database that would need any of them is refused instead.
 */
function openReadOnly(path: string, reason: string, options: OpenOptions): ContactsStore {
  const refuse = (why: string) => new DatabaseOpenError(path, `it is read-only (${reason}) ${why}`);
  let db: Database.Database;
  try {
    db = readableDatabase(path, (why) => new DatabaseOpenError(path, why), BUSY_TIMEOUT_MS);
  } catch (error) {
    throw openFailure(path, error);
  }
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    holdPageCache(db);
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version === 0) throw refuse('and holds no tickbook database yet');
    if (version > SCHEMA_VERSION) {
      throw new DatabaseOpenError(path, newerSchema(version, SCHEMA_VERSION));
    }
    if (version < SCHEMA_VERSION) throw refuse(`and its schema (version ${version}) needs an upgrade, which writes`);
    if (options.market?.reset) throw refuse('so its market cannot be reset');
    const kept = db.prepare('SELECT 1 FROM market WHERE id = 1').get();
    if (options.market && !kept) throw refuse('and keeps no market yet');
    return buildStore(db, path, false, settleMarket(db, path, options.market), reason);
  } catch (error) {
    db.close();
    throw openFailure(path, error);
  }
}

/** The answer to a write on a database that may only be read: which file, and what still works. */
function readOnlyRefusal(path: string, reason: string): HttpError {
  return new HttpError(
    'server_error',
    `the sandbox database ${path} is read-only (${reason}): contacts can be listed and read, but not created, renamed or deleted`,
  );
}

function buildStore(
  db: Database.Database,
  path: string,
  created: boolean,
  market: KeptMarket | undefined,
  readOnly: string | undefined,
): ContactsStore {
  const insertConversation = db.prepare('INSERT INTO conversations (id, owner, created_at) VALUES (?, ?, ?)');
  const insertContact = db.prepare(
    `INSERT INTO contacts (${COLUMNS}, owner)
     VALUES (@id, @username, @phone_number, @avatar_url, @display_name, @conversation_id,
             @last_active_at, @created_at, @owner)`,
  );
  const selectOne = db.prepare(`SELECT ${COLUMNS} FROM contacts WHERE owner = ? AND id = ?`);
  const selectCursor = db.prepare('SELECT id, created_at, last_active_at FROM contacts WHERE owner = ? AND id = ?');
  const updateName = db
    .prepare<[string | null, string, string], string>(`UPDATE contacts SET display_name = ? WHERE owner = ? AND id = ? RETURNING ${JSON_ROW}`)
    .pluck();
  const deleteContact = db.prepare(
    'DELETE FROM contacts WHERE owner = ? AND id = ? RETURNING conversation_id',
  );
  const deleteConversation = db.prepare('DELETE FROM conversations WHERE id = ?');
  const countOwner = db.prepare('SELECT count(*) AS n FROM contacts WHERE owner = ?');

  const selectJson = db.prepare<[string, string], string>(`SELECT ${JSON_ROW} FROM contacts WHERE owner = ? AND id = ?`).pluck();
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  const cache = new PageCache(PAGE_CACHE_BYTES, () => dataVersion.get()!);

  const pages = new Map<string, Database.Statement>();
  const jsonPages = new Map<string, Database.Statement<Record<string, string | number>, string>>();
  for (const filter of Object.keys(FILTERS) as FilterName[]) {
    for (const direction of Object.keys(DIRECTIONS) as DirectionName[]) {
      const where = `FROM contacts WHERE owner = @owner ${FILTERS[filter]} ${DIRECTIONS[direction]} LIMIT @take`;
      pages.set(`${filter}:${direction}`, db.prepare(`SELECT ${COLUMNS} ${where}`));
      jsonPages.set(`${filter}:${direction}`, db.prepare<Record<string, string | number>, string>(`SELECT ${JSON_ROW} ${where}`).pluck());
    }
  }
  const readPageBody = (owner: string, query: PageQuery): Buffer => {
    const { key, params } = pageQuery(owner, query);
    const rows = jsonPages.get(key)!.all(params);
    const hasMore = rows.length > query.limit;
    if (hasMore) rows.length = query.limit;
    if (key.endsWith(':before')) rows.reverse();
    return Buffer.from(`{"has_more":${hasMore},"data":[${rows.join(',')}]}`);
  };
  // One snapshot for the check, the ids and the rows they name: the pragma starts it.
  const pageBodyTx = db.transaction((owner: string, query: PageQuery): Buffer => {
    // Before the cache: its key holds one cursor, and a kept page must not answer for two.
    refuseBothCursors(query);
    cache.check();
    const cursor = query.startingAfter !== undefined ? `a${query.startingAfter}` : query.endingBefore !== undefined ? `b${query.endingBefore}` : '-';
    return cache.get(`${owner} ${query.limit} ${query.active} ${cursor}`, () => readPageBody(owner, query));
  });

  function insert(owner: string, fields: NewContactFields, createdAt: number, lastActiveAt: number | null, nowMs: number): ContactRecord {
    const record: ContactRecord = {
      id: newId('ct_', nowMs),
      username: fields.username,
      phone_number: fields.phoneNumber,
      avatar_url: fields.avatarUrl,
      display_name: fields.displayName,
      conversation_id: newId('cv_', nowMs),
      last_active_at: lastActiveAt,
      created_at: createdAt,
    };
    insertConversation.run(record.conversation_id, owner, createdAt);
    try {
      insertContact.run({ ...record, owner });
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
        throw new HttpError('duplicate_contact', `username "${fields.username}" is already in your contacts`);
      }
      throw error;
    }
    return record;
  }

  const insertManyTx = db.transaction((owner: string, contacts: readonly SeedContact[]) => {
    const nowMs = Date.now();
    for (const contact of contacts) insert(owner, contact, contact.createdAt, contact.lastActiveAt, nowMs);
  });
  // A transaction of its own; inside another, better-sqlite3 makes it a savepoint.
  const asTransaction = db.transaction((run: () => unknown) => run());
  /**
   * Runs a write of several statements all or nothing: in a transaction of its own, or as part
   * of the one under way (a group commit, which undoes the whole group if this throws).
   */
  const atomically = <T>(run: () => T): T => (db.inTransaction ? run() : (asTransaction(run) as T));
  const deleteNow = (owner: string, id: string): boolean => {
    const row = deleteContact.get(owner, id) as { conversation_id: string } | undefined;
    if (!row) return false;
    deleteConversation.run(row.conversation_id);
    return true;
  };

  function refuseBothCursors(query: PageQuery): void {
    if (query.startingAfter !== undefined && query.endingBefore !== undefined) {
      throw invalid('starting_after and ending_before cannot be used together');
    }
  }

  /** Which of the prepared page statements a query runs, and its parameters (its cursor looked up). */
  function pageQuery(owner: string, query: PageQuery): { key: string; params: Record<string, string | number> } {
    refuseBothCursors(query);
    const filter: FilterName = query.active === undefined ? 'all' : query.active ? 'active' : 'inactive';
    const params: Record<string, string | number> = { owner, take: query.limit + 1 };
    let direction: DirectionName = 'first';
    const cursorId = query.startingAfter ?? query.endingBefore;
    if (cursorId !== undefined) {
      direction = query.startingAfter !== undefined ? 'after' : 'before';
      const row = cursor(owner, cursorId, direction === 'after' ? 'starting_after' : 'ending_before', filter);
      params.cursorCreatedAt = row.created_at;
      params.cursorId = row.id;
    }
    return { key: `${filter}:${direction}`, params };
  }

  function cursor(owner: string, id: string, name: string, filter: FilterName): CursorRow {
    const row = selectCursor.get(owner, id) as CursorRow | undefined;
    const inList =
      row !== undefined &&
      (filter === 'all' || (filter === 'active') === (row.last_active_at !== null));
    if (!inList) throw invalid(`${name}: no contact ${JSON.stringify(id)} in this list`);
    return row;
  }

  /**
   * Runs a write: refused at once on a database opened read-only, and refused in the same words
   * when SQLite finds it read-only only now (its file system remounted read-only under a server).
   */
  function write<T>(run: () => T): T {
    if (readOnly !== undefined) throw readOnlyRefusal(path, readOnly);
    try {
      return run();
    } catch (error) {
      throw writeFailure(error);
    }
  }

  function writeFailure(error: unknown): unknown {
    if (isReadOnly(error)) return readOnlyRefusal(path, 'SQLite may no longer write it');
    // SQLite's own words ("database or disk is full", or "disk I/O error") say neither which file nor why.
    if (isFullDisk(error, path)) return new HttpError('server_error', `the sandbox database ${path} cannot be written: the disk is full; nothing was changed`);
    return error;
  }

  // Group commit: the writes asked for in one turn of the event loop run in one transaction, and
  // one fsync (synchronous = FULL) puts them all on disk before any is answered. When one of them
  // is refused (a duplicate username), the group is undone and run again with each write in a
  // savepoint of its own, so the refused one leaves the rest: a savepoint for every write was
  // 10-17 us of a create's 30-40 (bench:server), paid now only by a group with a refusal.
  const waiting: GroupedWrite[] = [];
  const commitAll = db.transaction((group: readonly GroupedWrite[]) => group.map((write) => ({ value: write.work() })));
  const commitEach = db.transaction((group: readonly GroupedWrite[]) =>
    group.map((write): { value: unknown } | { error: unknown } => {
      try {
        return { value: asTransaction(write.work) };
      } catch (error) {
        return { error };
      }
    }),
  );
  function flushGroup(): void {
    const group = waiting.splice(0);
    if (group.length === 0) return;
    let outcomes: ReturnType<typeof commitEach>;
    try {
      try {
        outcomes = commitAll(group);
      } catch {
        outcomes = commitEach(group);
      }
    } catch (error) {
      // The commit itself failed: nothing of the group is kept.
      for (const write of group) write.reject(writeFailure(error));
      return;
    }
    outcomes.forEach((outcome, i) => {
      if ('error' in outcome) group[i]!.reject(outcome.error);
      else group[i]!.resolve(outcome.value);
    });
  }

  return {
    created,
    market,
    readOnly,
    create(owner, fields, nowMs = Date.now()) {
      cache.drop();
      return write(() => atomically(() => insert(owner, fields, Math.floor(nowMs / 1000), null, nowMs)));
    },
    insertMany(owner, contacts) {
      cache.drop();
      write(() => insertManyTx(owner, contacts));
    },
    getJson: (owner, id) => selectJson.get(owner, id),
    // An id that is not there is not found, read-only or not.
    rename(owner, id, displayName) {
      if (readOnly !== undefined && !selectOne.get(owner, id)) return undefined;
      cache.drop();
      return write(() => updateName.get(displayName, owner, id));
    },
    delete(owner, id) {
      if (readOnly !== undefined && !selectOne.get(owner, id)) return false;
      cache.drop();
      return write(() => atomically(() => deleteNow(owner, id)));
    },
    count: (owner) => (countOwner.get(owner) as { n: number }).n,
    page(owner, query) {
      const { key, params } = pageQuery(owner, query);
      const rows = pages.get(key)!.all(params) as ContactRecord[];
      const hasMore = rows.length > query.limit;
      if (hasMore) rows.length = query.limit;
      if (key.endsWith(':before')) rows.reverse();
      return { data: rows, has_more: hasMore };
    },
    pageBody: (owner, query) => pageBodyTx(owner, query),
    grouped: <T>(work: () => T) =>
      new Promise<T>((resolve, reject) => {
        waiting.push({ work, resolve: resolve as (value: unknown) => void, reject });
        if (waiting.length === 1) setImmediate(flushGroup);
      }),
    close() {
      flushGroup();
      db.close();
    },
  };
}
