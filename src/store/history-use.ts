// The price history as the commands use it (`history`, `alerts`, `holdings`, the contact index,
// shell completion), where the recorders open it to write (history-store.ts): a command that only
// reads must not make, migrate or move a file, nor wait behind a recording dashboard, and one that
// writes is refused in its own words by a file it may not write.
import Database from 'better-sqlite3';
import { newerSchema, upgradeSchema } from '../sqlite/schema.js';
import { isDamage, isFullDisk, isReadOnly, sqliteCause } from '../sqlite/problems.js';
import { readableDatabase, readOnlyReason } from '../sqlite/read-only.js';
import { BUSY_TIMEOUT_MS, type FileId, historyFailure, HistoryOpenError, isDamaged, refuseNotRegular } from './history-failure.js';
import { buildStore, type HistoryStore } from './history-records.js';
import { MIGRATIONS, SCHEMA_VERSION } from './history-schema.js';
import { openHistoryStore, type OpenHistoryOptions, setAside } from './history-store.js';

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
