// What SQLite's failures on opening or writing a file mean, in words, for both of tickbook's files
// (the sandbox's database and the price history): SQLite's own message for most of them is
// "unable to open database file", and for a full disk often "disk I/O error".
import { statfsSync } from 'node:fs';
import { dirname } from 'node:path';

/** Free space below this is a full disk: SQLite's -shm alone grows 32 KiB at a time. */
const FULL_BELOW_BYTES = 1 << 20;

/**
 * Whether the file system `path` is on has no room left. A full disk is SQLITE_FULL when SQLite
 * sees ENOSPC itself, but SQLITE_IOERR (SHMSIZE, WRITE, …) where it only sees that a write or a
 * mapping failed: those are told apart by asking the file system.
 */
export function onFullDisk(path: string): boolean {
  try {
    const space = statfsSync(dirname(path));
    return space.bavail * space.bsize < FULL_BELOW_BYTES;
  } catch {
    return false;
  }
}

/**
 * SQLite's result code of `error` (`SQLITE_BUSY`, `SQLITE_CORRUPT_INDEX`, …), or undefined when it
 * is not SQLite's. Any thrown value is taken (undefined, null, a string): the predicates below are
 * asked about the causes of errors, which may be missing.
 */
export function sqliteCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}

/**
 * The SQLite error behind `error`: the cause of one that wraps it (a HistoryOpenError, a
 * DatabaseOpenError made of SQLite's), else `error` itself (one tickbook made on its own, with no
 * SQLite error behind it, is then not SQLite's, and no predicate here holds for it).
 */
export const sqliteCause = (error: unknown): unknown => (error instanceof Error && error.cause !== undefined ? error.cause : error);

/** Whether `error` is SQLite's for a damaged file: not a database at all, or one with a corrupt page. */
export function isDamage(error: unknown): boolean {
  const code = sqliteCode(error);
  return code !== undefined && (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT'));
}

/** Whether `error` is SQLite's for a file another connection holds locked (past the busy timeout). */
export function isBusy(error: unknown): boolean {
  const code = sqliteCode(error);
  return code !== undefined && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/** Whether `error` is SQLite's for a file it may not write (a file system mounted read-only since it opened, …). */
export const isReadOnly = (error: unknown): boolean => sqliteCode(error)?.startsWith('SQLITE_READONLY') === true;

/** Whether `error` is SQLite's for a full disk, for the database at `path`. */
export function isFullDisk(error: unknown, path: string): boolean {
  const code = sqliteCode(error);
  if (code === undefined) return false;
  return code === 'SQLITE_FULL' || (code.startsWith('SQLITE_IOERR') && onFullDisk(path));
}

/**
 * The reason in words for a SQLite error, or undefined when it is not one of these. `path` (the
 * database's) lets an I/O error from a full disk be said as such.
 */
export function sqliteProblem(error: unknown, busyTimeoutMs: number, path?: string): string | undefined {
  const code = sqliteCode(error);
  if (code === undefined) return undefined;
  if (code === 'SQLITE_NOTADB') return 'it is not a SQLite database';
  if (code.startsWith('SQLITE_CORRUPT')) return 'it is damaged (SQLite finds it corrupt)';
  if (isReadOnly(error)) return 'it is read-only';
  if (isBusy(error)) return busyTimeoutMs > 0 ? `another process kept it locked for ${busyTimeoutMs / 1000} s` : 'another process holds it locked';
  if (code === 'SQLITE_FULL' || (path !== undefined && isFullDisk(error, path))) return 'the disk is full';
  if (code.startsWith('SQLITE_CANTOPEN') || code === 'SQLITE_PERM' || code.startsWith('SQLITE_IOERR')) {
    return `SQLite cannot open or read it (${(error as Error).message})`;
  }
  return undefined;
}
