// What goes wrong with the price history file, in words: every way of opening it (to record, to
// read, for a command) fails with the one error, HistoryOpenError, naming the file and what could
// not be done, so that each caller can say it as it is and tell a damaged file from the rest.
import type { Stats } from 'node:fs';
import { fsReason } from '../config/fs-reason.js';
import { isDamage, sqliteProblem } from '../sqlite/problems.js';
import { databaseFileAt } from '../sqlite/database-file.js';

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

/** How long statements wait for another process's lock unless told: a failure to wait names it. */
export const BUSY_TIMEOUT_MS = 2000;

/** SQLite's error for a damaged file, or a HistoryOpenError made of one. */
export const isDamaged = (error: unknown): boolean => isDamage(error) || (error instanceof HistoryOpenError && isDamage(error.cause));

/**
 * The history file at `path`, or undefined when there is none yet; anything but a regular file (a
 * FIFO, which would block SQLite's reads for ever) is a HistoryOpenError at once, saying what it is.
 */
export const refuseNotRegular = (path: string, doing: string | undefined): Stats | undefined =>
  databaseFileAt(path, (reason, cause) => new HistoryOpenError(path, reason, doing, cause));

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
