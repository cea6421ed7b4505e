// Recorded prices, kept on this machine in a SQLite file of their own (not the sandbox's): every
// price the dashboard or `quote --watch` receives, keyed by the market-data server and symbol,
// so that two servers' prices never mix. Raw ticks are kept for a day, minute bars for 30 days,
// day bars for two years; the bars are kept up to date as each tick is recorded, so compacting
// is only deleting what has aged out, a little at a time.
import Database from 'better-sqlite3';
import { closeSync, constants, existsSync, fstatSync, openSync, renameSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import { ensureDirectory } from '../config/directories.js';
import { fsReason } from '../config/fs-reason.js';
import { kindOf } from '../config/regular-file.js';
import { statOrUndefined } from '../config/stat-or-undefined.js';
import { localDateTime } from '../text/time.js';
import type { Quote } from '../api/types.js';
import { newerSchema, upgradeSchema } from '../sqlite/schema.js';
import { holdPageCache } from '../sqlite/page-cache.js';
import { isDamage, isFullDisk, isReadOnly, sqliteCause, sqliteProblem } from '../sqlite/problems.js';
import { readableDatabase, readOnlyReason } from '../sqlite/read-only.js';
import { databaseFileAt } from '../sqlite/database-file.js';
import { type Bar, barStart, type BarSize, DAY_MS, MINUTE_MS, type Tick, tradedSince, withTick } from '../market/bars.js';

/** How long each kind of record is kept. */
export const RETENTION_MS = { ticks: DAY_MS, minute: 30 * DAY_MS, day: 730 * DAY_MS } as const;


/** A table of bars: minute bars and day bars are kept alike. */
const barTable = (name: string): string => `CREATE TABLE ${name} (
     series  INTEGER NOT NULL,
     t       INTEGER NOT NULL,
     open    REAL NOT NULL,
     high    REAL NOT NULL,
     low     REAL NOT NULL,
     close   REAL NOT NULL,
     volume  INTEGER NOT NULL,
     first_t INTEGER NOT NULL,
     last_t  INTEGER NOT NULL,
     PRIMARY KEY (series, t)
   ) WITHOUT ROWID;`;

/** An alert's columns after its id, as version 3 made them (version 6 adds `band`). */
const ALERT_FIELDS = `source        INTEGER NOT NULL REFERENCES sources(id),
     symbol        TEXT NOT NULL,
     condition     TEXT NOT NULL,
     set_price     REAL,
     set_at        INTEGER NOT NULL,
     one_shot      INTEGER NOT NULL,
     paused        INTEGER NOT NULL DEFAULT 0,
     snoozed_until INTEGER,
     armed         INTEGER NOT NULL,
     done          INTEGER NOT NULL DEFAULT 0`;

/**
 * SQL that has new alerts numbered above `highest` (an SQL expression) as well as above every
 * number used so far (sqlite_sequence: AUTOINCREMENT's record of the highest given).
 */
const alertNumbersAbove = (highest: string): string => `
   UPDATE sqlite_sequence SET seq = max(seq, ${highest}) WHERE name = 'alerts';
   INSERT INTO sqlite_sequence (name, seq)
     SELECT 'alerts', m FROM (SELECT ${highest} AS m)
     WHERE m > 0 AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'alerts');`;

/**
 * A version 5 file's firings (alert_firings_v5: alert, at, price, text) with what they did not
 * keep, as far as the file tells it, against the alerts as they are (alerts_v6). A firing's symbol
 * is the first word of its text (every firing's text starts with it). It is its alert's when the
 * alert of its number is on that symbol; then its server is the alert's, and its condition the
 * alert's when it fired after the alert was last set (an alert edited since fired for another;
 * not known). Otherwise it is a removed alert's (its number given again to a new alert on another
 * symbol, or to none): its server the only one that recorded its symbol, else the only one there
 * is, else none known (it stays in the file, in no server's log, as it was in none before); its
 * condition not known.
 */
const FIRINGS_FROM_V5 = `
   WITH named AS (
     SELECT id, alert, at, price, text,
            CASE WHEN instr(text, ' ') > 1 THEN substr(text, 1, instr(text, ' ') - 1) ELSE text END AS symbol
     FROM alert_firings_v5
   ), owned AS (
     SELECT n.*, coalesce(a.symbol = n.symbol, 0) AS mine, a.source AS alert_source, a.condition AS alert_condition, a.set_at
     FROM named n LEFT JOIN alerts_v6 a ON a.id = n.alert
   )
   INSERT INTO alert_firings (id, alert, source, symbol, condition, removed, at, price, text)
     SELECT id, alert,
            CASE WHEN mine THEN alert_source
                 ELSE coalesce((SELECT CASE WHEN count(DISTINCT s.source) = 1 THEN min(s.source) END FROM series s WHERE s.symbol = owned.symbol),
                               (SELECT CASE WHEN count(*) = 1 THEN min(id) END FROM sources)) END,
            symbol, CASE WHEN mine AND at >= set_at THEN alert_condition END, NOT mine, at, price, text
     FROM owned;`;

/** A lot's place among its symbol's lots in the order added: `lot` a row of `table`, lots without numbers. */
const lotPlace = (table: string): string =>
  `(SELECT COUNT(*) FROM ${table} AS before NOT INDEXED WHERE before.source = lot.source AND before.symbol = lot.symbol AND before.id <= lot.id)`;

/** Each symbol's last lot number at least the highest its lots have (after lots are copied in). */
const LAST_LOT_NUMBERS = `INSERT INTO lot_numbers (source, symbol, last) SELECT source, symbol, MAX(number) FROM lots WHERE true GROUP BY source, symbol
   ON CONFLICT (source, symbol) DO UPDATE SET last = MAX(last, excluded.last);`;

/** Each entry moves the schema from version (index) to (index + 1). */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE sources (
     id  INTEGER PRIMARY KEY,
     key TEXT NOT NULL UNIQUE
   );
   CREATE TABLE series (
     id          INTEGER PRIMARY KEY,
     source      INTEGER NOT NULL REFERENCES sources(id),
     symbol      TEXT NOT NULL,
     last_volume INTEGER,
     UNIQUE (source, symbol)
   );
   CREATE TABLE ticks (
     series INTEGER NOT NULL,
     t      INTEGER NOT NULL,
     price  REAL NOT NULL,
     volume INTEGER NOT NULL,
     PRIMARY KEY (series, t)
   ) WITHOUT ROWID;
   ${barTable('minute_bars')}
   ${barTable('day_bars')}`,
  // When the last reading was taken: volume is counted only between readings close enough to
  // say where it was traded (bars.ts tradedSince). A version 1 file's series start without one.
  `ALTER TABLE series ADD COLUMN last_t INTEGER;`,
  // Alerts live beside the prices they watch, keyed by the same server; a firing is recorded in
  // the transaction that decides it, so two processes never announce one crossing twice.
  `CREATE TABLE alerts (
     id            INTEGER PRIMARY KEY,
     ${ALERT_FIELDS}
   );
   CREATE TABLE alert_firings (
     id    INTEGER PRIMARY KEY,
     alert INTEGER NOT NULL,
     at    INTEGER NOT NULL,
     price REAL,
     text  TEXT NOT NULL
   );`,
  // Holdings: the user's lots, beside the prices that value them. Quantities and costs are the
  // decimals as typed (text), so that nothing is rounded on the way in or out.
  `CREATE TABLE lots (
     id       INTEGER PRIMARY KEY,
     source   INTEGER NOT NULL REFERENCES sources(id),
     symbol   TEXT NOT NULL,
     quantity TEXT NOT NULL,
     cost     TEXT NOT NULL,
     bought   TEXT,
     added_at INTEGER NOT NULL
   );
   CREATE INDEX lots_by_symbol ON lots (source, symbol);`,
  // The contacts as last read from a contacts server, for searching the whole list at once; keyed
  // by the server and the user (a hash of the token: never the token). `seen` is the start of the
  // walk that last saw a contact: one not seen by a finished walk is gone.
  `CREATE TABLE contact_index (
     source          INTEGER NOT NULL REFERENCES sources(id),
     id              TEXT NOT NULL,
     username        TEXT NOT NULL,
     display_name    TEXT,
     phone           TEXT NOT NULL,
     avatar_url      TEXT,
     conversation_id TEXT NOT NULL,
     created_at      INTEGER NOT NULL,
     last_active_at  INTEGER,
     seen            INTEGER NOT NULL,
     PRIMARY KEY (source, id)
   ) WITHOUT ROWID;`,
  // An alert's number is never given again (AUTOINCREMENT: a plain INTEGER PRIMARY KEY gave the
  // highest's number again once it was removed, and its firings read as the new alert's), and a
  // firing keeps its server, symbol and condition on its own row, `removed` once its alert is.
  // Every number stays; the numbers used start from the highest the file knows, its alerts' and
  // its log's (one removed above both, never fired, is not known). `band`: what arms an unarmed
  // alert (market/alerts.ts), the band unless it is waiting since it was set while its condition
  // held (no firing since it was set).
  `CREATE TABLE alerts_v6 (
     id            INTEGER PRIMARY KEY AUTOINCREMENT,
     ${ALERT_FIELDS},
     band          INTEGER NOT NULL DEFAULT 1
   );
   INSERT INTO alerts_v6 (id, source, symbol, condition, set_price, set_at, one_shot, paused, snoozed_until, armed, done, band)
     SELECT id, source, symbol, condition, set_price, set_at, one_shot, paused, snoozed_until, armed, done,
            armed = 1 OR EXISTS (SELECT 1 FROM alert_firings f WHERE f.alert = a.id AND f.at >= a.set_at)
     FROM alerts a;
   ALTER TABLE alert_firings RENAME TO alert_firings_v5;
   CREATE TABLE alert_firings (
     id        INTEGER PRIMARY KEY,
     alert     INTEGER NOT NULL,
     source    INTEGER REFERENCES sources(id),
     symbol    TEXT NOT NULL,
     condition TEXT,
     removed   INTEGER NOT NULL DEFAULT 0,
     at        INTEGER NOT NULL,
     price     REAL,
     text      TEXT NOT NULL
   );
   ${FIRINGS_FROM_V5}
   DROP TABLE alert_firings_v5;
   DROP TABLE alerts;
   ALTER TABLE alerts_v6 RENAME TO alerts;
   ${alertNumbersAbove('(SELECT coalesce(max(alert), 0) FROM alert_firings)')}`,
  // A lot's number within its symbol, given once and never again (lot_numbers keeps the last
  // given), so that `holdings rm AAPL --lot 2` run twice cannot remove a second lot. The lots of a
  // version 5 file keep the numbers they were shown with: their places in the order added.
  `ALTER TABLE lots RENAME TO lots_by_place;
   DROP INDEX lots_by_symbol;
   CREATE TABLE lots (
     id       INTEGER PRIMARY KEY,
     source   INTEGER NOT NULL REFERENCES sources(id),
     symbol   TEXT NOT NULL,
     number   INTEGER NOT NULL,
     quantity TEXT NOT NULL,
     cost     TEXT NOT NULL,
     bought   TEXT,
     added_at INTEGER NOT NULL
   );
   CREATE UNIQUE INDEX lots_by_symbol ON lots (source, symbol, number);
   INSERT INTO lots (id, source, symbol, number, quantity, cost, bought, added_at)
     SELECT id, source, symbol, ${lotPlace('lots_by_place')}, quantity, cost, bought, added_at FROM lots_by_place AS lot;
   DROP TABLE lots_by_place;
   CREATE TABLE lot_numbers (
     source INTEGER NOT NULL REFERENCES sources(id),
     symbol TEXT NOT NULL,
     last   INTEGER NOT NULL,
     PRIMARY KEY (source, symbol)
   ) WITHOUT ROWID;
   ${LAST_LOT_NUMBERS}`,
];

const SCHEMA_VERSION = MIGRATIONS.length;


/** A point of a chart: when, and the price then (a bar's close at its last tick). */
export interface PricePoint {
  t: number;
  price: number;
}

export interface HistoryStore {
  readonly path: string;
  /** The connection, for the alerts kept in the same file (alerts-store.ts). */
  readonly db: Database.Database;
  /** The id of a server's name, made when `create`. */
  sourceId(source: string, create: boolean): number | undefined;
  /** Records one poll's prices, all or none (one transaction): a crash loses at most this poll. */
  record(source: string, quotes: readonly Quote[], at: number): void;
  ticks(source: string, symbol: string, from: number, to: number): Tick[];
  bars(source: string, symbol: string, size: BarSize, from: number, to: number): Bar[];
  /**
   * Prices over [from, to] for a chart, from the finest records that cover `from` (as kept at
   * `now`, which is `to` unless given), at most about `maxPoints` of them (buckets of minute bars
   * give their last close).
   */
  points(source: string, symbol: string, from: number, to: number, maxPoints: number, now?: number): PricePoint[];
  /**
   * Copies what the write-ahead log holds into the file, as far as readers allow (PASSIVE), so
   * that the log stops growing; the recorder calls it every so often, between polls.
   */
  checkpoint(): void;
  /**
   * How long statements wait for another process's lock before failing (SQLITE_BUSY): the
   * recorder waits not at all while the file is known to be held, so that trying it costs nothing.
   */
  waitForLocks(ms: number): void;
  /**
   * For every symbol of `source`: the open of its day bar starting at `dayStart`, and the close
   * of its last day bar before it (the references of move alerts), read in two queries.
   */
  dayReferences(source: string, dayStart: number): Map<string, { open: number | undefined; close: number | undefined }>;
  /** The earliest time anything of the symbol is kept. */
  earliest(source: string, symbol: string): number | undefined;
  /**
   * Deletes one slice of what has aged out (about an hour of one symbol's ticks at most), in its
   * own transaction; true while more is left. Callers yield between calls.
   */
  compactStep(now: number): boolean;
  close(): void;
}

/** Why the history file could not be used, or a command could not do what it does with it. */
export class HistoryOpenError extends Error {
  override readonly name = 'HistoryOpenError';
  constructor(
    readonly path: string,
    readonly reason: string,
    /**
     * What could not be done, in words before the path: "record price history in" (the dashboard,
     * quote --watch), "read the price history" (history), "change the alerts in" (a command).
     */
    doing = 'record price history in',
    cause?: unknown,
    /** The file found damaged, when that is why: only that file is ever moved aside (setAside). */
    readonly file?: FileId,
  ) {
    super(`cannot ${doing} ${path}: ${reason}`, { cause });
  }
}

/** A file by its device and inode: a path may name another file than the one a connection opened. */
export type FileId = Pick<Stats, 'dev' | 'ino'>;

const sameFile = (a: FileId | undefined, b: FileId | undefined): boolean => a !== undefined && b !== undefined && a.dev === b.dev && a.ino === b.ino;

export interface OpenHistoryOptions {
  /** Told in one line when a damaged file was moved aside and a new one started. */
  onWarning?: (warning: string) => void;
  /** Where the path came from, in words, for a directory that cannot be made. */
  directoryOrigin?: string;
  /** The clock, for the name a damaged file is moved aside to. */
  now?: () => number;
  /** What could not be done when the file cannot be used, in words (see HistoryOpenError). */
  doing?: string;
  /** How long statements, the opening's among them, wait for another process's lock (2 s unless given). */
  busyTimeoutMs?: number;
}

/** What a command does with the history: in words for its errors ("change the alerts in"), and whether it writes. */
export interface HistoryUse {
  doing: string;
  writes: boolean;
  /**
   * What it writes is a copy of what a server holds (the contact index), which running it again
   * makes again: it is not held in one transaction, which would keep every other process from
   * writing for as long as it reads the network.
   */
  copies?: boolean;
}

const BUSY_TIMEOUT_MS = 2000;

/** SQLite's error for a damaged file, or a HistoryOpenError made of one. */
export const isDamaged = (error: unknown): boolean => isDamage(error) || (error instanceof HistoryOpenError && isDamage(error.cause));

/**
 * Opens (or creates) the history file. A damaged one is moved aside (with its -wal and -shm) and a
 * new one started, with a warning; anything else that stops it is a HistoryOpenError, which the
 * callers report and go on without recording.
 */
export function openHistoryStore(path: string, options: OpenHistoryOptions = {}): HistoryStore {
  const doing = options.doing;
  try {
    ensureDirectory(dirname(path), options.directoryOrigin ?? 'the history path');
  } catch (error) {
    throw new HistoryOpenError(path, (error as Error).message, doing);
  }
  let file: FileId | undefined;
  try {
    return openFile(path, options);
  } catch (error) {
    file = error instanceof HistoryOpenError && isDamage(error.cause) ? error.file : undefined;
    if (file === undefined) throw historyFailure(path, error, doing, options.busyTimeoutMs);
  }
  return setAside(path, options, file);
}

/**
 * Moves the damaged file `file` at `path` aside (with its -wal and -shm) and starts a new one, into
 * which what is the user's own (the alerts and their log, the lots) is copied as far as the damaged
 * file still lets it be read; says so in one line naming both files and what was kept. When the
 * path names another file by now (another process found the damage first, moved it aside and
 * started a new one), nothing is moved: the file there is opened.
 */
function setAside(path: string, options: OpenHistoryOptions, file: FileId): HistoryStore {
  const doing = options.doing;
  // Unique per process and moment: two processes finding the same damaged file must not move
  // the second's new file over the first's damaged one.
  const aside = `${path}.damaged-${stamp((options.now ?? Date.now)())}-${process.pid}`;
  let there: FileId | undefined;
  try {
    there = statOrUndefined(path);
  } catch (error) {
    throw new HistoryOpenError(path, `it is damaged and cannot be moved aside: ${fsReason(error)}`, doing);
  }
  if (!sameFile(there, file)) return openHistoryStore(path, options);
  try {
    // What another process moved aside first is not there to move (nor to overwrite).
    for (const suffix of ['', '-wal', '-shm']) if (existsSync(path + suffix)) renameSync(path + suffix, aside + suffix);
  } catch (error) {
    throw new HistoryOpenError(path, `it is damaged and cannot be moved aside: ${fsReason(error)}`, doing);
  }
  let store: HistoryStore;
  try {
    store = openFile(path, options);
  } catch (error) {
    throw historyFailure(path, error, doing, options.busyTimeoutMs);
  }
  // Copied whether or not anyone is told (`onWarning?.(…)` would skip its argument, the copy, too).
  const kept = keepFrom(aside, store.db);
  options.onWarning?.(`the price history ${path} was damaged: moved aside to ${aside}; recording starts anew${kept}`);
  return store;
}

/**
 * A store whose statement found its file damaged (`error`), replaced: closed, and the file moved
 * aside and a new one started (setAside). When another process has done so already (the path
 * names another file than the one opened), the file there is opened; a store that cannot move
 * its file (one opened read-only) throws `error` in words.
 */
export function replaceDamaged(store: HistoryStore, error: unknown, options: OpenHistoryOptions = {}): HistoryStore {
  const opened = openedFiles.get(store);
  try {
    store.close();
  } catch {
    // Closing a damaged file may fail on its way out (a checkpoint): it is moved aside whole.
  }
  if (opened === undefined) throw historyFailure(store.path, error, options.doing);
  return setAside(store.path, options, opened);
}

/**
 * Whether the path of `store` names another file than the one it opened, or none: another process
 * moved it aside (finding it damaged) or it was removed, and what is written through `store` is
 * lost from the history. A path that cannot be looked at says nothing either way (false).
 */
export function movedAway(store: HistoryStore): boolean {
  const opened = openedFiles.get(store);
  if (opened === undefined) return false;
  try {
    return !sameFile(statOrUndefined(store.path), opened);
  } catch {
    return false;
  }
}

/** The user's own tables, copied from a damaged file, each with its name in the warning. */
const OWN_TABLES = [
  ['alerts', 'alerts'],
  ["alerts' log", 'alert_firings'],
  ['lots', 'lots'],
] as const;

/**
 * Copies the servers and the user's own tables (OWN_TABLES; with `series`, the symbols recorded)
 * from `from` into `to`, each with the columns `to` has, each table whole or not at all (its name
 * put in `lost`): a row a damaged page garbled (a NULL where none may be) loses its table, not
 * the rest. A log is copied only with its alerts. Returns how many alerts and lots were copied.
 */
function copyOwn(from: Database.Database, to: Database.Database, lost: string[], series = false): { alerts: number; lots: number } {
  // Whole tables, read in the order they are stored (no index is used: one may be the damage).
  const read = (table: string): Record<string, unknown>[] | undefined => {
    const columns = to.pragma(`table_info(${table})`) as { name: string }[];
    try {
      return from.prepare<[], Record<string, unknown>>(`SELECT ${columns.map((c) => c.name).join(', ')} FROM ${table}`).all();
    } catch {
      return undefined;
    }
  };
  const insert = (table: string, rows: readonly Record<string, unknown>[]) => {
    const columns = Object.keys(rows[0] ?? {});
    if (columns.length === 0) return;
    const put = to.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`);
    for (const row of rows) put.run(row);
  };
  const count: Record<string, number> = {};
  const sources = read('sources');
  // Not even its servers could be read: nothing of it is kept (nor said kept).
  if (!sources) throw new Error('no servers');
  return to.transaction(() => {
    insert('sources', sources);
    if (series) {
      const symbols = read('series');
      if (symbols) to.transaction(() => insert('series', symbols))();
    }
    for (const [name, table] of OWN_TABLES) {
      if (table === 'alert_firings' && !(count.alerts! > 0)) continue;
      const rows = read(table);
      try {
        if (!rows) throw new Error('not read');
        to.transaction(() => insert(table, rows))();
        count[table] = rows.length;
      } catch {
        lost.push(name);
      }
    }
    return { alerts: count.alerts ?? 0, lots: count.lots ?? 0 };
  })();
}

/** What was kept from the damaged file `aside` in the new file's `db`, in words for the warning. */
function keepFrom(aside: string, db: Database.Database): string {
  let old: Database.Database | undefined;
  let staged: Database.Database | undefined;
  let kept: { alerts: number; lots: number };
  const lost: string[] = [];
  try {
    // Read-write (nothing is written), so that closing it takes away the -wal and -shm its opening
    // made, as doctor's does; read-only where it may not be written.
    try {
      old = new Database(aside, { fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
    } catch {
      old = new Database(aside, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
    }
    let from = old;
    const version = old.pragma('user_version', { simple: true }) as number;
    if (version < SCHEMA_VERSION) {
      // An older file (found damaged as it was being upgraded): its rows as its version has them,
      // brought to this version by the migrations themselves, in memory, and copied from there.
      staged = new Database(':memory:');
      for (const migration of MIGRATIONS.slice(0, version)) staged.exec(migration);
      staged.pragma(`user_version = ${version}`);
      copyOwn(old, staged, lost, true);
      upgradeSchema(staged, MIGRATIONS, (reason) => new Error(reason));
      from = staged;
    }
    kept = copyOwn(from, db, lost);
    // Numbers used stay used: above the copied alerts' and log's, and any removed above both.
    let used = 0;
    try {
      used = from.prepare<[], number>("SELECT seq FROM sqlite_sequence WHERE name = 'alerts'").pluck().get() ?? 0;
    } catch {
      // Not known (the table could not be read): the alerts' and the log's numbers are.
    }
    db.exec(alertNumbersAbove(`max(${Number(used)}, (SELECT coalesce(max(alert), 0) FROM alert_firings))`));
    // The lot numbers given before, so that none is given again; garbled or absent (a file of
    // before lots were numbered, staged above), the kept lots' own numbers stand.
    try {
      const given = from.prepare<[], Record<string, unknown>>('SELECT source, symbol, last FROM lot_numbers').all();
      const put = db.prepare('INSERT INTO lot_numbers (source, symbol, last) VALUES (@source, @symbol, @last)');
      db.transaction(() => {
        for (const row of given) put.run(row);
      })();
    } catch {
      // Not known: the kept lots' numbers are (below).
    }
    db.exec(LAST_LOT_NUMBERS);
  } catch {
    // Not even its servers could be read (or written anew): nothing of it is kept.
    lost.splice(0, lost.length, 'alerts', 'lots');
    kept = { alerts: 0, lots: 0 };
  } finally {
    staged?.close();
    old?.close();
  }
  const counted = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const keptWords = [kept.alerts > 0 && counted(kept.alerts, 'alert'), kept.lots > 0 && counted(kept.lots, 'lot')].filter(Boolean).join(' and ');
  const lostWords = [...new Set(lost)].join(' and ');
  return (keptWords ? `, with its ${keptWords}` : '') + (lostWords ? `; its ${lostWords}, if any, could not be read (they stay in the file moved aside)` : '');
}

/** The file each store opened for writing, to tell whether another process has moved it aside since. */
const openedFiles = new WeakMap<HistoryStore, FileId>();

/**
 * Opens the history to read it only (`tickbook history`, and the commands that read it where it
 * may not be written): nothing is written, migrated or moved, and no lock is held that a
 * recording dashboard would wait for. A file of another schema version, or damaged, is a
 * HistoryOpenError; one made but with nothing recorded yet is undefined.
 */
export function openHistoryReader(path: string, doing = 'read the price history'): HistoryStore | undefined {
  refuseNotRegular(path, doing);
  let db: Database.Database;
  try {
    db = readableDatabase(path, (reason) => new HistoryOpenError(path, reason, doing), BUSY_TIMEOUT_MS);
  } catch (error) {
    throw historyFailure(path, error, doing);
  }
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    const version = db.pragma('user_version', { simple: true }) as number;
    // Made, but nothing recorded in it yet.
    if (version === 0) {
      db.close();
      return undefined;
    }
    if (version !== SCHEMA_VERSION) {
      throw new HistoryOpenError(
        path,
        version > SCHEMA_VERSION
          ? newerSchema(version, SCHEMA_VERSION)
          : `its schema (version ${version}) needs an upgrade: the dashboard or quote --watch makes it when it next records`,
        doing,
      );
    }
    return buildStore(db, path);
  } catch (error) {
    db.close();
    if (isDamage(error)) throw new HistoryOpenError(path, 'it is damaged (SQLite finds it corrupt)', doing, error);
    throw historyFailure(path, error, doing);
  }
}

/**
 * `read` of the history as it is (openHistoryReader, for `tickbook history`); undefined when
 * nothing is recorded. A file found damaged, on opening or on reading, is moved aside and a new
 * one started as the recorders do (setAside, with its warning), and nothing is read; one tickbook
 * may not write stays where it is, said to be damaged.
 */
export function readHistory<T>(path: string, read: (store: HistoryStore) => T, options: OpenHistoryOptions = {}): T | undefined {
  const doing = options.doing ?? 'read the price history';
  let store: HistoryStore | undefined;
  // The file read, as it was before SQLite opened it: another process that found the damage first
  // may have moved it aside since, and the file at the path then is not this one to move.
  let file: FileId | undefined;
  try {
    file = refuseNotRegular(path, doing);
    store = openHistoryReader(path, doing);
    return store === undefined ? undefined : read(store);
  } catch (error) {
    if (!isDamaged(error) || file === undefined || readOnlyReason(path) !== undefined) throw historyFailure(path, error, doing);
    store?.close();
    store = undefined;
    setAside(path, { ...options, doing }, file).close();
    return undefined;
  } finally {
    store?.close();
  }
}

/**
 * The history file at `path`, or undefined when there is none yet; anything but a regular file (a
 * FIFO, which would block SQLite's reads for ever) is a HistoryOpenError at once, saying what it is.
 */
const refuseNotRegular = (path: string, doing: string | undefined): Stats | undefined =>
  databaseFileAt(path, (reason, cause) => new HistoryOpenError(path, reason, doing, cause));

/** Refuses a use that writes of a file tickbook may not write, at once and in its own words. */
export function refuseReadOnly(path: string, use: HistoryUse): void {
  const readOnly = use.writes ? readOnlyReason(path) : undefined;
  if (readOnly !== undefined) throw new HistoryOpenError(path, `it is read-only (${readOnly})`, use.doing);
}

/**
 * The history as a command uses it. One that writes is refused at once, in its own words, by a
 * file it may not write; one that only reads reads such a file as it is (openHistoryReader), and
 * finds a file that is not there empty, making none. Otherwise the file is opened as the
 * recorders open it (upgraded, a damaged one moved aside).
 */
export function openHistoryFor(path: string, use: HistoryUse, options: OpenHistoryOptions = {}): HistoryStore {
  const there = refuseNotRegular(path, use.doing) !== undefined;
  refuseReadOnly(path, use);
  if (!use.writes && (!there || readOnlyReason(path) !== undefined)) {
    return (there ? openHistoryReader(path, use.doing) : undefined) ?? emptyHistory(path);
  }
  try {
    return openHistoryStore(path, { ...options, doing: use.doing });
  } catch (error) {
    // Writable by its mode, but not now (a file system mounted read-only since, a full disk): read
    // as it is. Anything else (a newer schema, a file that cannot be moved aside) is said as it is.
    const cause = sqliteCause(error);
    if (use.writes || !(isReadOnly(cause) || isFullDisk(cause, path))) throw error;
    return openHistoryReader(path, use.doing) ?? emptyHistory(path);
  }
}

/** A history with nothing in it, in memory: what a command that reads finds where there is no file. */
function emptyHistory(path: string): HistoryStore {
  const db = new Database(':memory:');
  upgradeSchema(db, MIGRATIONS, (reason) => new Error(reason));
  return buildStore(db, path);
}

/**
 * What a failure of SQLite (or of the file system) with the history means, as a HistoryOpenError
 * saying what could not be done and why in words ("the disk is full"); anything else unchanged.
 */
export function historyFailure(path: string, error: unknown, doing?: string, busyTimeoutMs = BUSY_TIMEOUT_MS): unknown {
  if (error instanceof HistoryOpenError) return error;
  const problem = sqliteProblem(error, busyTimeoutMs, path);
  if (problem !== undefined) return new HistoryOpenError(path, problem, doing, error);
  const fsCode = (error as { code?: unknown } | null | undefined)?.code;
  if (typeof fsCode === 'string' && fsCode.startsWith('E')) return new HistoryOpenError(path, fsReason(error), doing, error);
  return error;
}

/**
 * The ids of a server's alerts, for shell completion: the file opened read-only, waiting at most
 * `waitMs` for another process's lock, nothing written or moved. Throws as SQLite does (the
 * caller leaves out what cannot be read).
 */
export function alertIdsOf(path: string, source: string, waitMs: number): number[] {
  if (refuseNotRegular(path, 'read the alerts in') === undefined) return [];
  const db = new Database(path, { readonly: true, fileMustExist: true, timeout: waitMs });
  try {
    return db.prepare<[string], number>('SELECT a.id FROM alerts a JOIN sources s ON s.id = a.source WHERE s.key = ? ORDER BY a.id').pluck().all(source);
  } finally {
    db.close();
  }
}

/** 20261126T130501 (local time), for a file name. */
const stamp = (t: number): string => localDateTime(t).replace(/[-:]/g, '').replace(' ', 'T');

/**
 * Opens the history file at `path` (made when there is none) and notes which file that is
 * (openedFiles). SQLite opens it by name: the file the path names before and after the opening is
 * the one opened; when another process put another there meanwhile, that one is opened instead.
 * A file found damaged on opening is a HistoryOpenError naming the file (`file`), for setAside.
 */
function openFile(path: string, options: OpenHistoryOptions): HistoryStore {
  for (let tries = 1; ; tries++) {
    const file = regularFileMade(path, options.doing);
    let store: HistoryStore;
    try {
      store = connect(path, options);
    } catch (error) {
      if (isDamage(error)) throw new HistoryOpenError(path, sqliteProblem(error, 0)!, options.doing, error, file);
      throw error;
    }
    let there: FileId | undefined;
    try {
      there = statOrUndefined(path);
    } catch {
      there = undefined;
    }
    // Moved under it more than twice: taken as it is (a file wrongly noted is never moved aside
    // by setAside, and movedAway has the recorder open it again).
    if (sameFile(there, file) || tries === 3) {
      openedFiles.set(store, file);
      return store;
    }
    store.close();
  }
}

/**
 * The regular file at `path`, or one made there when there is none: private from the start (what
 * a user watches is theirs; SQLite gives -wal and -shm this mode). A symbolic link to a file not
 * made yet gets it made where it points, as SQLite would make it.
 */
function regularFileMade(path: string, doing: string | undefined): FileId {
  const there = refuseNotRegular(path, doing);
  if (there !== undefined) return there;
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    if ((error as { code?: string }).code !== 'EEXIST') throw error;
    const made = refuseNotRegular(path, doing);
    if (made !== undefined) return made;
    // EEXIST with nothing there: a link to nothing. O_NONBLOCK: a FIFO put there meanwhile is not waited on.
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_NONBLOCK | constants.O_NOCTTY, 0o600);
  }
  try {
    const made = fstatSync(fd);
    if (!made.isFile()) throw new HistoryOpenError(path, `it is ${kindOf(made)}, not a database file`, doing);
    return made;
  } finally {
    closeSync(fd);
  }
}

/** SQLite's connection to the file at `path`, set up as the recorders use it, the schema brought up to date. */
function connect(path: string, { busyTimeoutMs = BUSY_TIMEOUT_MS, doing }: OpenHistoryOptions): HistoryStore {
  const db = new Database(path);
  try {
    db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    // No checkpoint inside a poll's commit: SQLite's automatic one (every 1000 pages, about 15
    // polls of 20 symbols) made one poll in 15 take 6-70 ms. The recorder checkpoints on a timer
    // of its own instead (checkpoint()), where each page rewritten many times is copied once.
    db.pragma('wal_autocheckpoint = 0');
    // A poll writes the newest pages of each table; the dashboard's charts read from the OS's cache.
    holdPageCache(db);
    // The schema brought up to date under the write lock, so that two processes migrate it once;
    // a file up to date (nearly every start) needs no lock, and opens beside another process
    // that holds it writing. A newer tickbook's history is never moved aside or rewritten.
    if (db.pragma('user_version', { simple: true }) !== SCHEMA_VERSION) {
      db.exec('BEGIN IMMEDIATE');
      upgradeSchema(db, MIGRATIONS, (reason) => new HistoryOpenError(path, reason, doing));
      db.exec('COMMIT');
    }
    return buildStore(db, path);
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    db.close();
    throw error;
  }
}

const BAR_COLUMNS = 't, open, high, low, close, volume, first_t AS firstT, last_t AS lastT';

/** The tables whose records age out, oldest kind first, with how long each is kept. */
const AGEING = [
  ['ticks', RETENTION_MS.ticks],
  ['minute_bars', RETENTION_MS.minute],
  ['day_bars', RETENTION_MS.day],
] as const;

/** At most this much of one symbol's records is deleted in one compaction step. */
const SLICE_MS = { ticks: 3_600_000, minute_bars: 3 * DAY_MS, day_bars: 3650 * DAY_MS } as const;

function buildStore(db: Database.Database, path: string): HistoryStore {
  const findSource = db.prepare<[string], { id: number }>('SELECT id FROM sources WHERE key = ?');
  const addSource = db.prepare<[string], { id: number }>('INSERT INTO sources (key) VALUES (?) RETURNING id');
  const findSeries = db.prepare<[number, string], { id: number }>('SELECT id FROM series WHERE source = ? AND symbol = ?');
  const addSeries = db.prepare<[number, string], { id: number }>('INSERT INTO series (source, symbol) VALUES (?, ?) RETURNING id');
  const lastOf = db.prepare<[number], { t: number | null; volume: number | null }>('SELECT last_t AS t, last_volume AS volume FROM series WHERE id = ?');
  const setLast = db.prepare<[number, number, number]>('UPDATE series SET last_t = ?, last_volume = ? WHERE id = ?');
  const insertTick = db.prepare<[number, number, number, number]>('INSERT INTO ticks (series, t, price, volume) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING');
  const barStatements = (table: string) => ({
    get: db.prepare<[number, number], Bar>(`SELECT ${BAR_COLUMNS} FROM ${table} WHERE series = ? AND t = ?`),
    put: db.prepare(
      `INSERT OR REPLACE INTO ${table} (series, t, open, high, low, close, volume, first_t, last_t)
       VALUES (@series, @t, @open, @high, @low, @close, @volume, @firstT, @lastT)`,
    ),
    range: db.prepare<[number, number, number], Bar>(`SELECT ${BAR_COLUMNS} FROM ${table} WHERE series = ? AND t >= ? AND t <= ? ORDER BY t`),
  });
  const bars = { minute: barStatements('minute_bars'), day: barStatements('day_bars') };
  const tickRange = db.prepare<[number, number, number], Tick>('SELECT t, price, volume FROM ticks WHERE series = ? AND t >= ? AND t <= ? ORDER BY t');
  // The bare column `price` beside max(last_t) is the close of the bar that is last in the bucket.
  const minuteBuckets = db.prepare<[number, number, number, number], PricePoint>(
    `SELECT max(last_t) AS t, close AS price FROM minute_bars
     WHERE series = ? AND t >= ? AND t <= ? GROUP BY t / CAST(? AS INTEGER) ORDER BY 1`,
  );
  const tickBuckets = db.prepare<[number, number, number, number], PricePoint>(
    `SELECT max(t) AS t, price FROM ticks WHERE series = ? AND t >= ? AND t <= ? GROUP BY t / CAST(? AS INTEGER) ORDER BY 1`,
  );
  const earliestOf = db.prepare<[number, number, number], { t: number | null }>(
    `SELECT min(t) AS t FROM (SELECT min(first_t) AS t FROM day_bars WHERE series = ?
       UNION ALL SELECT min(first_t) FROM minute_bars WHERE series = ?
       UNION ALL SELECT min(t) FROM ticks WHERE series = ?)`,
  );
  const allSeries = db.prepare<[], { id: number }>('SELECT id FROM series ORDER BY id');
  const opensOn = db.prepare<[number, number], { symbol: string; open: number }>(
    'SELECT s.symbol, d.open FROM series s JOIN day_bars d ON d.series = s.id WHERE s.source = ? AND d.t = ?',
  );
  // The bare column `close` beside max(d.t) is that of the latest day bar before the day.
  const closesBefore = db.prepare<[number, number], { symbol: string; close: number }>(
    'SELECT s.symbol, d.close, max(d.t) FROM series s JOIN day_bars d ON d.series = s.id WHERE s.source = ? AND d.t < ? GROUP BY s.id',
  );
  const oldest = Object.fromEntries(
    AGEING.map(([table]) => [table, db.prepare<[number], { t: number | null }>(`SELECT min(t) AS t FROM ${table} WHERE series = ?`)]),
  ) as Record<(typeof AGEING)[number][0], Database.Statement<[number], { t: number | null }>>;
  const deleteBefore = Object.fromEntries(
    AGEING.map(([table]) => [table, db.prepare<[number, number]>(`DELETE FROM ${table} WHERE series = ? AND t < ?`)]),
  ) as Record<(typeof AGEING)[number][0], Database.Statement<[number, number]>>;

  /**
   * Series ids never change: each is found once. Only ids of series that are committed are kept
   * (see record): an id handed out by a poll that rolled back is given again to the next series.
   */
  const known = new Map<string, number>();
  const key = (source: string, symbol: string) => `${symbol}\u0000${source}`;

  /** A series' id, made when `create`; undefined when it is not there and not to be made. */
  function seriesOf(source: string, symbol: string, create: false): number | undefined;
  function seriesOf(source: string, symbol: string, create: true): number;
  function seriesOf(source: string, symbol: string, create: boolean): number | undefined {
    const id = known.get(key(source, symbol));
    if (id !== undefined) return id;
    const sourceId = sourceIdOf(source, create);
    if (sourceId === undefined) return undefined;
    const found = findSeries.get(sourceId, symbol)?.id ?? (create ? addSeries.get(sourceId, symbol)!.id : undefined);
    if (found !== undefined) known.set(key(source, symbol), found);
    return found;
  }

  /**
   * Servers' ids, found once (the alerts and the lots ask for theirs several times a poll). Only
   * an id read outside a transaction is kept: one read inside may be of a row the transaction
   * made and is yet to roll back.
   */
  const knownSources = new Map<string, number>();

  /** A server's id, made when `create`. */
  function sourceIdOf(source: string, create: boolean): number | undefined {
    const kept = knownSources.get(source);
    if (kept !== undefined) return kept;
    const found = findSource.get(source)?.id;
    if (found !== undefined && !db.inTransaction) knownSources.set(source, found);
    return found ?? (create ? addSource.get(source)!.id : undefined);
  }

  /** The reading recorded last (by any process: another may have recorded since). */
  const lastReading = (id: number): Pick<Tick, 't' | 'volume'> | undefined => {
    const row = lastOf.get(id);
    return row?.t === null || row?.t === undefined || row.volume === null ? undefined : { t: row.t, volume: row.volume };
  };

  /**
   * Each series' current bars and last reading as this connection last wrote them. They hold while
   * no other connection has written (PRAGMA data_version unchanged, read under the write lock): a
   * poll then writes each symbol without first reading what it wrote the poll before, four
   * statements a symbol instead of seven.
   */
  const written = new Map<number, { minute?: Bar; day?: Bar; last?: Pick<Tick, 't' | 'volume'> | null }>();
  let writtenVersion: number | undefined;
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();

  const recordTx = db.transaction((source: string, quotes: readonly Quote[], at: number) => {
    const version = dataVersion.get()!;
    if (version !== writtenVersion) {
      written.clear();
      writtenVersion = version;
    }
    for (const quote of quotes) {
      const id = seriesOf(source, quote.symbol, true);
      // The same instant recorded already (two dashboards at once): it counts once.
      if (insertTick.run(id, at, quote.price, quote.volume).changes === 0) continue;
      const tick = { t: at, price: quote.price, volume: quote.volume };
      let own = written.get(id);
      if (!own) written.set(id, (own = {}));
      const last = own.last === undefined ? lastReading(id) : (own.last ?? undefined);
      for (const size of ['minute', 'day'] as const) {
        const start = barStart(size, at);
        const before = own[size]?.t === start ? own[size] : bars[size].get.get(id, start);
        const bar = withTick(before, start, tick, tradedSince(size, last, tick));
        bars[size].put.run({ series: id, ...bar });
        own[size] = bar;
      }
      // A reading older than the last (a clock set back) leaves the last one standing.
      if (last === undefined || at >= last.t) {
        setLast.run(at, quote.volume, id);
        own.last = { t: at, volume: quote.volume };
      } else own.last = last;
    }
  });

  /** The next table and symbol with records older than kept, from where the last step left off. */
  let compactFrom = 0;
  const compactTx = db.transaction((now: number): boolean => {
    const ids = allSeries.all().map((row) => row.id);
    for (let i = 0; i < ids.length; i++) {
      const id = ids[(compactFrom + i) % ids.length]!;
      for (const [table, keep] of AGEING) {
        const cutoff = now - keep;
        const first = oldest[table].get(id)?.t;
        if (first === null || first === undefined || first >= cutoff) continue;
        deleteBefore[table].run(id, Math.min(cutoff, first + SLICE_MS[table]));
        compactFrom = (compactFrom + i) % ids.length;
        return true;
      }
    }
    return false;
  });

  return {
    path,
    db,
    sourceId: sourceIdOf,
    record(source, quotes, at) {
      if (quotes.length === 0) return;
      try {
        // Immediate: a transaction that reads first and then writes would fail at once
        // (SQLITE_BUSY) when another process wrote meanwhile, where taking the write lock first
        // waits its turn.
        recordTx.immediate(source, quotes, at);
      } catch (error) {
        // Ids made in the poll that rolled back were never kept, nor the bars it wrote.
        known.clear();
        written.clear();
        writtenVersion = undefined;
        throw error;
      }
    },
    ticks(source, symbol, from, to) {
      const id = seriesOf(source, symbol, false);
      return id === undefined ? [] : tickRange.all(id, from, to);
    },
    bars(source, symbol, size, from, to) {
      const id = seriesOf(source, symbol, false);
      return id === undefined ? [] : bars[size].range.all(id, barStart(size, from), to);
    },
    // Which records cover the span is judged from its end, not by reading the clock again: a
    // millisecond between the caller's clock and this one put a month's start past the minute bars.
    points(source, symbol, from, to, maxPoints, now = to) {
      const id = seriesOf(source, symbol, false);
      if (id === undefined) return [];
      // What is recorded may begin well inside the span (recording began an hour ago): the
      // resolution follows the prices there are, not the span's width.
      const firstTick = oldest.ticks.get(id)?.t ?? undefined;
      const firstMinute = oldest.minute_bars.get(id)?.t ?? undefined;
      const bucketOf = (start: number, least: number) => Math.max(least, Math.ceil((to - start) / Math.max(1, maxPoints) / least) * least);
      // Ticks while they cover the start and span at most three hours of prices; more of them
      // than points asked for are bucketed like the minute bars.
      if (from >= now - RETENTION_MS.ticks && firstTick !== undefined && to - Math.max(from, firstTick) <= 3 * 3_600_000) {
        const start = Math.max(from, firstTick);
        const bucket = bucketOf(start, 1000);
        return bucket <= 1000 ? tickRange.all(id, start, to).map(({ t, price }) => ({ t, price })) : tickBuckets.all(id, start, to, bucket);
      }
      // Minute bars, in buckets that give about maxPoints over the prices there are, for a month.
      if (from >= now - RETENTION_MS.minute && firstMinute !== undefined) {
        const start = Math.max(barStart('minute', from), firstMinute);
        return minuteBuckets.all(id, start, to, bucketOf(start, MINUTE_MS));
      }
      return bars.day.range.all(id, barStart('day', from), to).map(({ lastT, close }) => ({ t: lastT, price: close }));
    },
    dayReferences(source, dayStart) {
      const references = new Map<string, { open: number | undefined; close: number | undefined }>();
      const sourceId = sourceIdOf(source, false);
      if (sourceId === undefined) return references;
      for (const { symbol, open } of opensOn.all(sourceId, dayStart)) references.set(symbol, { open, close: undefined });
      for (const { symbol, close } of closesBefore.all(sourceId, dayStart)) references.set(symbol, { open: references.get(symbol)?.open, close });
      return references;
    },
    earliest(source, symbol) {
      const id = seriesOf(source, symbol, false);
      return id === undefined ? undefined : (earliestOf.get(id, id, id)?.t ?? undefined);
    },
    compactStep: (now) => compactTx.immediate(now),
    checkpoint: () => void db.pragma('wal_checkpoint(PASSIVE)'),
    waitForLocks: (ms) => void db.pragma(`busy_timeout = ${ms}`),
    close: () => db.close(),
  };
}
