// A SQLite file tickbook may read but not write, for both of its files (the sandbox's database and
// the price history): why it is so, and the file opened to be read all the same.
import Database from 'better-sqlite3';
import { accessSync, constants, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { statOrUndefined } from '../config/stat-or-undefined.js';
import { isFullDisk, sqliteCode } from './problems.js';

/**
 * Why an existing database may be read but not written, or undefined when it may be written (or
 * is not there, not a regular file, or not readable: opening it says why). SQLite writes its -wal
 * and -shm files beside the database, so a read-only directory makes a read-only database too.
 */
export function readOnlyReason(path: string): string | undefined {
  try {
    if (!statOrUndefined(path)?.isFile()) return undefined;
  } catch {
    return undefined;
  }
  const denied = (target: string, mode: number): string | undefined => {
    try {
      accessSync(target, mode);
      return undefined;
    } catch (error) {
      return (error as { code?: string }).code ?? 'EACCES';
    }
  };
  if (denied(path, constants.R_OK) !== undefined) return undefined;
  const dir = dirname(path);
  const file = denied(path, constants.W_OK);
  if (file !== undefined) return file === 'EROFS' ? 'its file system is read-only' : 'tickbook may not write it';
  const inDir = denied(dir, constants.W_OK | constants.X_OK);
  if (inDir !== undefined) return inDir === 'EROFS' ? 'its file system is read-only' : `tickbook may not write in ${dir}`;
  return undefined;
}

/**
 * The file opened read-only. A WAL database in a directory SQLite may not write cannot even be
 * read that way when its -shm file is missing (SQLITE_READONLY_DIRECTORY: "attempt to write a
 * readonly database"), nor on a full disk, where the -shm cannot grow; it is then read whole into memory, marked as a rollback-journal database
 * (header bytes 18 and 19), unless its -wal file still holds changes the copy would miss: then
 * `refuse` makes the error thrown, from the reason in words.
 */
export function readableDatabase(path: string, refuse: (reason: string) => Error, busyTimeoutMs = 5000): Database.Database {
  const db = new Database(path, { readonly: true, fileMustExist: true, timeout: busyTimeoutMs });
  try {
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return db;
  } catch (error) {
    db.close();
    const code = sqliteCode(error) ?? '';
    if (code !== 'SQLITE_READONLY_DIRECTORY' && !code.startsWith('SQLITE_CANTOPEN') && !isFullDisk(error, path)) throw error;
  }
  if ((statOrUndefined(`${path}-wal`)?.size ?? 0) > 0) {
    throw refuse(`it is read-only, and its latest changes are still in ${path}-wal, which SQLite cannot read without writing beside it`);
  }
  const image = readFileSync(path);
  if (image.length > 19 && image[18] === 2 && image[19] === 2) image[18] = image[19] = 1;
  return new Database(image, { readonly: true });
}
