// A sandbox database's path judged before SQLite is given it: SQLite's own answer for most of what
// can be wrong ("unable to open database file") names neither the file nor the reason, and it
// makes a file of a directory's name. (The file itself is made by sqlite/database-file.ts, as the
// price history's is.)
import { accessSync, constants } from 'node:fs';
import { dirname } from 'node:path';
import { DirectoryError, ensureDirectory } from '../config/directories.js';
import { statOrUndefined } from '../config/stat-or-undefined.js';
import { whyNoDirectory } from '../sqlite/database-file.js';
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
 * A path ending in "/" names a directory: SQLite would quietly drop the "/" and make a database
 * file of that name, somewhere the user did not mean.
 */
export function refuseDirectoryName(path: string): void {
  if (!/[\\/]$/.test(path) || statOrUndefined(path)?.isDirectory()) return;
  throw new DatabaseOpenError(path, 'it ends in "/", so it names a directory, not a database file');
}
