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

/** Whether `error` is SQLite's for a damaged file: not a database at all, or one with a corrupt page. */
export function isDamage(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT'));
}

/** Whether `error` is SQLite's for a file another connection holds locked (past the busy timeout). */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/** Whether `error` is SQLite's for a full disk, for the database at `path`. */
export function isFullDisk(error: unknown, path: string): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string') return false;
  return code === 'SQLITE_FULL' || (code.startsWith('SQLITE_IOERR') && onFullDisk(path));
}

/**
 * The reason in words for a SQLite error, or undefined when it is not one of these. `path` (the
 * database's) lets an I/O error from a full disk be said as such.
 */
export function sqliteProblem(error: unknown, busyTimeoutMs: number, path?: string): string | undefined {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return undefined;
  if (code === 'SQLITE_NOTADB') return 'it is not a SQLite database';
  if (code.startsWith('SQLITE_CORRUPT')) return 'it is damaged (SQLite finds it corrupt)';
  if (code.startsWith('SQLITE_READONLY')) return 'it is read-only';
  if (isBusy(error)) return busyTimeoutMs > 0 ? `another process kept it locked for ${busyTimeoutMs / 1000} s` : 'another process holds it locked';
  if (code === 'SQLITE_FULL' || (path !== undefined && isFullDisk(error, path))) return 'the disk is full';
  if (code.startsWith('SQLITE_CANTOPEN') || code === 'SQLITE_PERM' || code.startsWith('SQLITE_IOERR')) {
    return `SQLite cannot open or read it (${(error as Error).message})`;
  }
  return undefined;
}
