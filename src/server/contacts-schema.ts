// The sandbox database's tables, version by version, and a contact's columns as the API gives
// them: what the opening migrates a file by, and what every statement on contacts reads.

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

/** Each entry moves the schema from version (index) to (index + 1). */
export const MIGRATIONS: readonly string[] = [
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

export const SCHEMA_VERSION = MIGRATIONS.length;

export const COLUMNS =
  'id, username, phone_number, avatar_url, display_name, conversation_id, last_active_at, created_at';

/** A contact as JSON, made by SQLite, its keys in COLUMNS' order (as JSON.stringify gives a row). */
export const JSON_ROW = `json_object(${COLUMNS.split(',')
  .map((c) => `'${c.trim()}', ${c.trim()}`)
  .join(', ')})`;
