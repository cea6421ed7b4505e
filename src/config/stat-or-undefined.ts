// What is at a path, when nothing there is an answer too: the data directory walked up to the
// first part that exists, a database file not made yet, a -wal file SQLite has taken away.
import { lstatSync, type Stats, statSync } from 'node:fs';

/**
 * The stats of what is at `path` (links followed, unless `followLinks` is false: then a link's
 * own), or undefined when nothing is: it is missing (ENOENT), or a part of it is a file
 * (ENOTDIR). Any other failure (EACCES, ELOOP) is thrown: it says something is there that cannot
 * be looked at.
 */
export function statOrUndefined(path: string, { followLinks = true } = {}): Stats | undefined {
  try {
    return followLinks ? statSync(path) : lstatSync(path);
  } catch (error) {
    const code = (error as { code?: string } | null | undefined)?.code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}
