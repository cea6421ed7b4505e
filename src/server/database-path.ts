// A sandbox database's path judged before SQLite is given it: SQLite's own answer for most of what
// can be wrong ("unable to open database file") names neither the file nor the reason, it makes a
// file of a directory's name, and it makes a new file with the umask's mode.
import { accessSync, closeSync, constants, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { DirectoryError, ensureDirectory } from '../config/directories.js';
import { fsReason } from '../config/fs-reason.js';
import { statOrUndefined } from '../config/stat-or-undefined.js';
import { DatabaseOpenError } from './store-errors.js';

/**
 * Says in words why `path` cannot be a database before SQLite tries, since SQLite's own answer
 * for most of these is "unable to open database file". Only a wanted directory is ever created.
 */
export function checkOpenable(path: string, createDirectory: boolean, origin: string): void {
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
export function createPrivately(path: string): void {
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

/**
 * A path ending in "/" names a directory: SQLite would quietly drop the "/" and make a database
 * file of that name, somewhere the user did not mean.
 */
export function refuseDirectoryName(path: string): void {
  if (!/[\\/]$/.test(path) || statOrUndefined(path)?.isDirectory()) return;
  throw new DatabaseOpenError(path, 'it ends in "/", so it names a directory, not a database file');
}
