// The one way tickbook creates directories. Node's recursive mkdir loops forever where the file
// system answers mkdir with ENOENT although the parent exists (/proc, /sys): it takes ENOENT as
// "make the parent first", finds the parent there (EEXIST), and starts again. Walking the path
// one component at a time with plain mkdir gives up at the first component that cannot be made.
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fsReason } from './fs-reason.js';
import { statOrUndefined } from './stat-or-undefined.js';

/** Why a directory could not be created, in words; `path` is the component that failed. */
export class DirectoryError extends Error {
  override readonly name = 'DirectoryError';
  constructor(
    /** The directory that was wanted. */
    readonly wanted: string,
    /** Where the wanted path came from, in words: `XDG_DATA_HOME=/proc`, `option --db`. */
    readonly origin: string,
    /** The reason alone, for callers that word the line themselves. */
    readonly reason: string,
  ) {
    super(`cannot create the directory ${wanted} (from ${origin}): ${reason}`);
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Makes `path` and any missing parents, new ones with `mode`; an existing directory (or a
 * symbolic link to one) is left as it is. Throws a DirectoryError naming the first component
 * that is not a directory or cannot be made, at once, never looping.
 */
export function ensureDirectory(path: string, origin: string, mode = 0o700): void {
  const wanted = resolve(path);
  const missing: string[] = [];
  // Up to the first component that exists; it must be a directory.
  for (let at = wanted; ; at = dirname(at)) {
    let found;
    try {
      // Missing, or under a file (ENOTDIR): the walk goes on up and finds which.
      found = statOrUndefined(at);
    } catch (error) {
      throw new DirectoryError(wanted, origin, `cannot look at ${at}: ${fsReason(error)}`);
    }
    if (found) {
      if (!found.isDirectory()) throw new DirectoryError(wanted, origin, `${at} is not a directory`);
      break;
    }
    if (at === dirname(at)) break;
    missing.unshift(at);
  }
  // Then down again, one plain mkdir each.
  for (const at of missing) {
    try {
      mkdirSync(at, { mode });
    } catch (error) {
      // Made by someone else meanwhile is as good, if it is a directory.
      if ((error as { code?: string }).code === 'EEXIST' && isDirectory(at)) continue;
      const where = at === wanted ? '' : `cannot create ${at}: `;
      // The parent is there (it was checked first): this file system does not let one be made here.
      const reason = (error as { code?: string }).code === 'ENOENT' ? 'the file system does not allow creating it (ENOENT)' : fsReason(error);
      throw new DirectoryError(wanted, origin, `${where}${reason}`);
    }
  }
}
