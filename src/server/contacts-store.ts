// The sandbox database in SQLite: contacts and their conversations, and the market the database
// keeps. Every statement is prepared once from constant text; values only ever travel as parameters.
// Opened here (a path judged first, database-path.ts; the schema, contacts-schema.ts; the market,
// kept-market.ts), written here, one write at a time or in group commits (group-commit.ts), and
// read a page at a time (contact-pages.ts).
import Database from 'better-sqlite3';
import { holdPageCache } from '../sqlite/page-cache.js';
import { HttpError } from './errors.js';
import { newId } from './ids.js';
import type { NewContactFields } from './validate.js';
import { DatabaseOpenError, MarketMismatchError } from './store-errors.js';
import { newerSchema, upgradeSchema } from '../sqlite/schema.js';
import { isFullDisk, isReadOnly, sqliteProblem } from '../sqlite/problems.js';
import { readableDatabase, readOnlyReason } from '../sqlite/read-only.js';
import { databaseFileAt, databaseFileMade } from '../sqlite/database-file.js';
import { type ContactPages, contactPages } from './contact-pages.js';
import { COLUMNS, type ContactRecord, JSON_ROW, MIGRATIONS, SCHEMA_VERSION } from './contacts-schema.js';
import { checkOpenable, refuseDirectoryName } from './database-path.js';
import { type GroupCommit, groupCommit } from './group-commit.js';
import { type KeptMarket, type MarketRequest, settleMarket } from './kept-market.js';
import type { MarketSettings } from './market.js';

export { DatabaseOpenError, MarketMismatchError };

/** A contact to insert with its times given, for demo data and benchmarks. */
export interface SeedContact extends NewContactFields {
  createdAt: number;
  lastActiveAt: number | null;
}

export interface ContactsStore extends Pick<ContactPages, 'page' | 'pageBody'>, Pick<GroupCommit, 'grouped'> {
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
  count(owner: string): number;
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

export function openContactsStore(path: string, options: OpenOptions = {}): ContactsStore {
  if (path !== ':memory:') {
    refuseDirectoryName(path);
    const refuse = (reason: string) => new DatabaseOpenError(path, reason);
    // A FIFO, a device, a socket or a directory is refused before SQLite is given it (a FIFO would
    // block its reads for ever), and so is another account's link.
    databaseFileAt(path, refuse);
    // Before checkOpenable, which refuses a file tickbook may not write: one it may read is served.
    const readOnly = readOnlyReason(path);
    if (readOnly !== undefined) return openReadOnly(path, readOnly, options);
    checkOpenable(path, options.createDirectory === true, options.directoryOrigin ?? 'the database path');
    // Made 0600 before SQLite would make it with the umask's mode, as the price history is.
    databaseFileMade(path, refuse);
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

/** SQLite's failures on opening, in words; anything else passes through unchanged. */
function openFailure(path: string, error: unknown): unknown {
  if (!(error instanceof Database.SqliteError)) return error;
  const problem = sqliteProblem(error, BUSY_TIMEOUT_MS, path);
  return problem === undefined ? error : new DatabaseOpenError(path, problem);
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
  const updateName = db
    .prepare<[string | null, string, string], string>(`UPDATE contacts SET display_name = ? WHERE owner = ? AND id = ? RETURNING ${JSON_ROW}`)
    .pluck();
  const deleteContact = db.prepare(
    'DELETE FROM contacts WHERE owner = ? AND id = ? RETURNING conversation_id',
  );
  const deleteConversation = db.prepare('DELETE FROM conversations WHERE id = ?');
  const countOwner = db.prepare('SELECT count(*) AS n FROM contacts WHERE owner = ?');

  const selectJson = db.prepare<[string, string], string>(`SELECT ${JSON_ROW} FROM contacts WHERE owner = ? AND id = ?`).pluck();
  const pages = contactPages(db);

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

  const commits = groupCommit(db, asTransaction, writeFailure);

  return {
    created,
    market,
    readOnly,
    create(owner, fields, nowMs = Date.now()) {
      pages.drop();
      return write(() => atomically(() => insert(owner, fields, Math.floor(nowMs / 1000), null, nowMs)));
    },
    insertMany(owner, contacts) {
      pages.drop();
      write(() => insertManyTx(owner, contacts));
    },
    getJson: (owner, id) => selectJson.get(owner, id),
    // An id that is not there is not found, read-only or not.
    rename(owner, id, displayName) {
      if (readOnly !== undefined && !selectOne.get(owner, id)) return undefined;
      pages.drop();
      return write(() => updateName.get(displayName, owner, id));
    },
    delete(owner, id) {
      if (readOnly !== undefined && !selectOne.get(owner, id)) return false;
      pages.drop();
      return write(() => atomically(() => deleteNow(owner, id)));
    },
    count: (owner) => (countOwner.get(owner) as { n: number }).n,
    page: (owner, query) => pages.page(owner, query),
    pageBody: (owner, query) => pages.pageBody(owner, query),
    grouped: (work) => commits.grouped(work),
    close() {
      commits.flush();
      db.close();
    },
  };
}
