// Both of tickbook's SQLite files (the sandbox's database and the price history) are opened only
// when they are regular files, or not there yet (tickbook then makes them). SQLite opens its files
// by path, and opening or reading a FIFO blocks until a writer comes: a FIFO made history.db hung
// Tab and `tickbook history` for ever, and `doctor` on either file. So what is at the path is
// looked at before SQLite is given it, and anything else is refused at once, saying what it is.
// A symbolic link there is followed only when the user meant it (their own, or root's), as for the
// files written on the user's word (config/output-file.ts): one another account planted at a path
// given (`--db /tmp/x.db`) would have tickbook make or write a database where that account chose.
import { closeSync, constants, fstatSync, openSync, readlinkSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fsReason } from '../config/fs-reason.js';
import { kindOf } from '../config/regular-file.js';
import { statOrUndefined } from '../config/stat-or-undefined.js';

/** Makes the error thrown from the reason in words, as the file's opener words its errors. */
export type Refuse = (reason: string, cause?: unknown) => Error;

const MAX_LINKS = 40;

/**
 * The regular file at `path` (links followed), or undefined when nothing is there yet. A FIFO, a
 * device, a socket or a directory is `refuse`d at once with the reason in words (`it is a FIFO
 * (named pipe), not a database file`), and so is a path that cannot be looked at (`permission
 * denied (EACCES)`) and a symbolic link on the way that another account owns (`/tmp/x.db is a
 * symbolic link owned by another user (uid 1001): not followed`).
 */
export function databaseFileAt(path: string, refuse: Refuse): Stats | undefined {
  return lookAt(path, refuse).stats;
}

/**
 * The regular file at `path` (databaseFileAt), or one made there when there is none yet: private
 * from the start (0600; SQLite would make it with the umask's 0644, and gives its -wal and -shm
 * files the database's own mode), since it holds the user's contacts or alerts. A symbolic link to
 * nothing yet is followed as one to a file is, and the file made where the links end. It is made
 * exclusively (O_EXCL), so that nothing put there meanwhile is opened or written: what another
 * process made first (two starting on one new file) is looked at as it is. An existing file keeps
 * the mode it has: it is the user's.
 */
export function databaseFileMade(path: string, refuse: Refuse): Stats {
  for (let tries = 1; ; tries++) {
    const { stats, end } = lookAt(path, refuse);
    if (stats !== undefined) return stats;
    let fd: number;
    try {
      fd = openSync(end, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
    } catch (error) {
      if ((error as { code?: string }).code === 'EEXIST' && tries < 3) continue;
      throw refuse(end === path ? `cannot create it: ${fsReason(error)}` : `it is a symbolic link to ${end}, ${whyNotMade(end, error)}`, error);
    }
    try {
      return fstatSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}

/**
 * What is at `path` (`stats`, undefined for nothing) and where its links end (`end`, `path` when it
 * is no link), each link on the way the user's or root's.
 */
function lookAt(path: string, refuse: Refuse): { stats: Stats | undefined; end: string } {
  const uid = process.geteuid?.() ?? 0;
  let end = path;
  for (let links = 0; ; links++) {
    const stats = inWords(() => statOrUndefined(end, { followLinks: false }), refuse);
    if (!stats?.isSymbolicLink()) {
      if (stats !== undefined && !stats.isFile()) throw refuse(`it is ${kindOf(stats)}, not a database file`);
      return { stats, end };
    }
    if (stats.uid !== uid && stats.uid !== 0) throw refuse(`${end} is a symbolic link owned by another user (uid ${stats.uid}): not followed`);
    if (links === MAX_LINKS) throw refuse(fsReason({ code: 'ELOOP' }));
    end = resolve(dirname(end), inWords(() => readlinkSync(end), refuse));
  }
}

/** `look()`, a failure of the file system `refuse`d in words. */
function inWords<T>(look: () => T, refuse: Refuse): T {
  try {
    return look();
  } catch (error) {
    throw refuse(fsReason(error), error);
  }
}

/** Why the file at the end of a link could not be made, after "it is a symbolic link to END, ". */
function whyNotMade(end: string, error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    try {
      return `and ${whyNoDirectory(dirname(end))}`;
    } catch {
      // A directory on the way that cannot be looked at: the failure says what there is to say.
    }
  }
  return `which cannot be made: ${fsReason(error)}`;
}

/** Why the directory `dir` is not there: it is missing, or a part of it is a file. */
export function whyNoDirectory(dir: string): string {
  for (let at = dir; ; at = dirname(at)) {
    const found = statOrUndefined(at);
    if (found && !found.isDirectory()) return `${at} is not a directory`;
    if (found || at === dirname(at)) break;
  }
  return `the directory ${dir} does not exist`;
}
