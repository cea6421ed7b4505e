// Both of tickbook's SQLite files (the sandbox's database and the price history) are opened only
// when they are regular files, or not there yet (tickbook then makes them). SQLite opens its files
// by path, and opening or reading a FIFO blocks until a writer comes: a FIFO made history.db hung
// Tab and `tickbook history` for ever, and `doctor` on either file. So what is at the path is
// looked at before SQLite is given it, and anything else is refused at once, saying what it is.
import type { Stats } from 'node:fs';
import { fsReason } from '../config/fs-reason.js';
import { kindOf } from '../config/regular-file.js';
import { statOrUndefined } from '../config/stat-or-undefined.js';

/**
 * The regular file at `path` (links followed), or undefined when nothing is there yet. A FIFO, a
 * device, a socket or a directory is `refuse`d at once with the reason in words (`it is a FIFO
 * (named pipe), not a database file`), and so is a path that cannot be looked at (`permission
 * denied (EACCES)`); `refuse` makes the error thrown, as the file's opener words its errors.
 */
export function databaseFileAt(path: string, refuse: (reason: string, cause?: unknown) => Error): Stats | undefined {
  let stats: Stats | undefined;
  try {
    stats = statOrUndefined(path);
  } catch (error) {
    throw refuse(fsReason(error), error);
  }
  if (stats !== undefined && !stats.isFile()) throw refuse(`it is ${kindOf(stats)}, not a database file`);
  return stats;
}
