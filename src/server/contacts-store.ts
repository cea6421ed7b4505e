// Contacts and their conversations in SQLite. Every statement is prepared once from constant
// text; values only ever travel as parameters.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { HttpError, invalid } from './errors.js';
import { newId } from './ids.js';
import type { NewContactFields } from './validate.js';

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

/** A contact to insert with its times given, for demo data and benchmarks. */
export interface SeedContact extends NewContactFields {
  createdAt: number;
  lastActiveAt: number | null;
}

const SCHEMA_VERSION = 1;

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
];

const COLUMNS =
  'id, username, phone_number, avatar_url, display_name, conversation_id, last_active_at, created_at';

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

export interface ContactsStore {
  /** True when this open created the database (so demo data may be seeded). */
  readonly created: boolean;
  create(owner: string, fields: NewContactFields, nowMs?: number): ContactRecord;
  insertMany(owner: string, contacts: readonly SeedContact[]): void;
  get(owner: string, id: string): ContactRecord | undefined;
  rename(owner: string, id: string, displayName: string | null): ContactRecord | undefined;
  delete(owner: string, id: string): boolean;
  page(owner: string, query: PageQuery): Page;
  count(owner: string): number;
  close(): void;
}

export interface OpenOptions {
  /** Contacts for a database this open creates, inserted in the same transaction as the schema. */
  initialContacts?: () => { owner: string; contacts: readonly SeedContact[] };
}

export function openContactsStore(path: string, options: OpenOptions = {}): ContactsStore {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  // First, so that switching to WAL and migrating wait for another process opening the same file.
  db.pragma('busy_timeout = 5000');
  // WAL with synchronous=NORMAL: a committed write is in the WAL before the answer goes out, so
  // it survives the process being killed; only a power cut may lose the last transactions.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');

  // The version is read under the write lock: two processes starting on a new file must not both
  // create the schema, and only the one that creates it fills it.
  try {
    db.exec('BEGIN IMMEDIATE');
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) {
      throw new Error(
        `the database ${path} has schema version ${version}, newer than this tickbook understands (${SCHEMA_VERSION})`,
      );
    }
    for (let v = version; v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v]!);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
    const store = buildStore(db, version === 0);
    if (version === 0 && options.initialContacts) {
      const { owner, contacts } = options.initialContacts();
      store.insertMany(owner, contacts);
    }
    db.exec('COMMIT');
    return store;
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    db.close();
    throw error;
  }
}

function buildStore(db: Database.Database, created: boolean): ContactsStore {
  const insertConversation = db.prepare('INSERT INTO conversations (id, owner, created_at) VALUES (?, ?, ?)');
  const insertContact = db.prepare(
    `INSERT INTO contacts (${COLUMNS}, owner)
     VALUES (@id, @username, @phone_number, @avatar_url, @display_name, @conversation_id,
             @last_active_at, @created_at, @owner)`,
  );
  const selectOne = db.prepare(`SELECT ${COLUMNS} FROM contacts WHERE owner = ? AND id = ?`);
  const selectCursor = db.prepare('SELECT id, created_at, last_active_at FROM contacts WHERE owner = ? AND id = ?');
  const updateName = db.prepare(
    `UPDATE contacts SET display_name = ? WHERE owner = ? AND id = ? RETURNING ${COLUMNS}`,
  );
  const deleteContact = db.prepare(
    'DELETE FROM contacts WHERE owner = ? AND id = ? RETURNING conversation_id',
  );
  const deleteConversation = db.prepare('DELETE FROM conversations WHERE id = ?');
  const countOwner = db.prepare('SELECT count(*) AS n FROM contacts WHERE owner = ?');

  const pages = new Map<string, Database.Statement>();
  for (const filter of Object.keys(FILTERS) as FilterName[]) {
    for (const direction of Object.keys(DIRECTIONS) as DirectionName[]) {
      pages.set(
        `${filter}:${direction}`,
        db.prepare(
          `SELECT ${COLUMNS} FROM contacts WHERE owner = @owner ${FILTERS[filter]} ${DIRECTIONS[direction]} LIMIT @take`,
        ),
      );
    }
  }

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

  const createTx = db.transaction((owner: string, fields: NewContactFields, nowMs: number) =>
    insert(owner, fields, Math.floor(nowMs / 1000), null, nowMs),
  );
  const insertManyTx = db.transaction((owner: string, contacts: readonly SeedContact[]) => {
    const nowMs = Date.now();
    for (const contact of contacts) insert(owner, contact, contact.createdAt, contact.lastActiveAt, nowMs);
  });
  const deleteTx = db.transaction((owner: string, id: string): boolean => {
    const row = deleteContact.get(owner, id) as { conversation_id: string } | undefined;
    if (!row) return false;
    deleteConversation.run(row.conversation_id);
    return true;
  });

  function cursor(owner: string, id: string, name: string, filter: FilterName): CursorRow {
    const row = selectCursor.get(owner, id) as CursorRow | undefined;
    const inList =
      row !== undefined &&
      (filter === 'all' || (filter === 'active') === (row.last_active_at !== null));
    if (!inList) throw invalid(`${name}: no contact ${JSON.stringify(id)} in this list`);
    return row;
  }

  return {
    created,
    create: (owner, fields, nowMs = Date.now()) => createTx(owner, fields, nowMs),
    insertMany: (owner, contacts) => insertManyTx(owner, contacts),
    get: (owner, id) => selectOne.get(owner, id) as ContactRecord | undefined,
    rename: (owner, id, displayName) => updateName.get(displayName, owner, id) as ContactRecord | undefined,
    delete: (owner, id) => deleteTx(owner, id),
    count: (owner) => (countOwner.get(owner) as { n: number }).n,
    page(owner, query) {
      if (query.startingAfter !== undefined && query.endingBefore !== undefined) {
        throw invalid('starting_after and ending_before cannot be used together');
      }
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
      const rows = pages.get(`${filter}:${direction}`)!.all(params) as ContactRecord[];
      const hasMore = rows.length > query.limit;
      if (hasMore) rows.length = query.limit;
      if (direction === 'before') rows.reverse();
      return { data: rows, has_more: hasMore };
    },
    close: () => db.close(),
  };
}
