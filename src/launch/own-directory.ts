// Whether a cache directory is the user's own: V8 runs what a code cache holds, so a cache is
// kept only where no one else could have put one.
import { statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Whether `dir`, or the nearest part of its path that exists, is a directory of this user's: run
 * by root (sudo) for a user's home, the cache is left alone, rather than made root's there.
 */
export function ownDirectory(dir: string): boolean {
  const uid = process.getuid?.();
  for (let path = dir; ; path = dirname(path)) {
    try {
      const stat = statSync(path);
      return stat.isDirectory() && (uid === undefined || stat.uid === uid);
    } catch {
      if (dirname(path) === path) return false;
    }
  }
}
