// Recorded prices, kept on this machine in a SQLite file of their own (not the sandbox's), opened
// here as the recorders (the dashboard, `quote --watch`, `alerts watch`) open it: made private,
// brought up to date under the write lock, and, when SQLite finds it damaged, moved aside with a
// new one started in its place (keeping what of the user's own it still lets be read), so that
// recording never stops for a file. What is recorded and read is history-records.ts's; the
// commands open it as history-use.ts says.
import Database from 'better-sqlite3';
import { existsSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import { ensureDirectory } from '../config/directories.js';
import { fsReason } from '../config/fs-reason.js';
import { statOrUndefined } from '../config/stat-or-undefined.js';
import { localDateTime } from '../text/time.js';
import { upgradeSchema } from '../sqlite/schema.js';
import { holdPageCache } from '../sqlite/page-cache.js';
import { isDamage, sqliteProblem } from '../sqlite/problems.js';
import { databaseFileMade } from '../sqlite/database-file.js';
import { BUSY_TIMEOUT_MS, type FileId, historyFailure, HistoryOpenError } from './history-failure.js';
import { buildStore, type HistoryStore } from './history-records.js';
import { keepFrom } from './history-salvage.js';
import { MIGRATIONS, SCHEMA_VERSION } from './history-schema.js';

// What openHistoryStore gives, named where the callers open it.
export type { HistoryStore, PricePoint } from './history-records.js';

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
export function setAside(path: string, options: OpenHistoryOptions, file: FileId): HistoryStore {
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

/** The file each store opened for writing, to tell whether another process has moved it aside since. */
const openedFiles = new WeakMap<HistoryStore, FileId>();

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
    const file = databaseFileMade(path, (reason, cause) => new HistoryOpenError(path, reason, options.doing, cause));
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
