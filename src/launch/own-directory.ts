// The one rule for where a code cache is kept, the dashboard's (dashboard-script.ts) and Node's for
// the ES modules (compile-cache.ts): V8 runs what a code cache holds, so a cache is kept only in a
// directory no one else could have put code in, or will be able to.
import type { Stats } from 'node:fs';
import { dirname } from 'node:path';
import { statOrUndefined } from '../config/stat-or-undefined.js';

/**
 * Whether `dir` is safe to keep code in: a directory itself, not a link, this user's, that no one
 * else may write to. One not made yet is safe when the nearest part of its path that is there is
 * a directory of this user's, where tickbook makes it (ensureDirectory, 0700): run by root (sudo)
 * for a user's home, the cache is left alone rather than made root's there. That part is asked
 * only whose it is: a home may be group-writable where each user has a group of their own, and
 * what tickbook makes in it no one else may write to.
 *
 * A link is followed above the directory, not as the directory itself. `~/.cache` linked to a
 * disk of the user's is the user's doing (only they, or root, can make a link in their home), and
 * what it leads to must be theirs as above. The cache directory itself is tickbook's to make, so a
 * link there is one tickbook did not make, and is refused even when it leads to a directory of the
 * user's, as is a link to a cache file: to keep the caches elsewhere, link the directory above
 * it, or set XDG_CACHE_HOME.
 */
export function safeForCode(dir: string): boolean {
  const uid = process.getuid?.();
  const ours = (stat: Stats): boolean => stat.isDirectory() && (uid === undefined || stat.uid === uid);
  try {
    const stat = statOrUndefined(dir, { followLinks: false });
    if (stat) return ours(stat) && (stat.mode & 0o022) === 0;
    for (let path = dirname(dir); ; path = dirname(path)) {
      const found = statOrUndefined(path);
      if (found) return ours(found);
      if (dirname(path) === path) return false;
    }
  } catch {
    // Something there that cannot be looked at (EACCES, ELOOP): not known to be safe.
    return false;
  }
}
