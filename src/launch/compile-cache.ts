// Every command but the dashboard runs from the ES modules, whose compiled code Node 22+ keeps in
// its own compile cache (module.enableCompileCache), here in the cache directory's `compile/`:
// `tickbook contacts list` 280 -> 249 ms (docs/dev/performance.md).
// Node's cache holds what V8 compiled as each module loaded, not the functions a first frame
// compiles as it runs: with it, the dashboard's start was 1.22x-1.36x what it is from its own
// code cache (dashboard-script.ts, on Ink 8; docs/patches.md), which it keeps.
//
// V8 runs what a cache holds, so the cache directory and `compile/` in it must be safe to keep code
// in (own-directory.ts: this user's, not a link, writable by no one else), as the dashboard's
// is; it is kept only in a cache directory that exists already (see enableModuleCompileCache);
// Node makes its own directory in it (named by Node's version and the uid) and each file with
// mkstemp (0600), renamed into place. Anything wrong (no home, a file in the way, /proc, a
// read-only disk) means a start without the cache, never a failure or a wait.
import { existsSync } from 'node:fs';
import { constants, enableCompileCache } from 'node:module';
import { join } from 'node:path';
import { ensureDirectory } from '../config/directories.js';
import { cacheDir } from '../config/paths.js';
import { safeForCode } from './own-directory.js';

/** Node's compile cache for the ES modules, in the cache directory. */
export const compileCacheDir = (): string => join(cacheDir(), 'compile');

/**
 * Turns Node's compile cache on in the cache directory's `compile/`: the directory Node took, or
 * undefined when none is kept (or NODE_COMPILE_CACHE had turned one on already, or
 * NODE_DISABLE_COMPILE_CACHE it off). Never throws.
 *
 * Only in a cache directory that is there already (the dashboard's code cache or shell completion
 * made it): a command makes nothing in a home it was not asked to write to, not even on a usage
 * mistake.
 */
export function enableModuleCompileCache(): string | undefined {
  // Node makes its directory in ours with mode 0777 less the umask: 0700, as ours.
  const umask = process.umask(0o077);
  try {
    const base = cacheDir();
    if (!existsSync(base) || !safeForCode(base)) return undefined;
    const at = compileCacheDir();
    // Made first, one part at a time: Node's own recursive mkdir never ends under /proc.
    ensureDirectory(at, 'the compile cache');
    if (!safeForCode(at)) return undefined;
    const result = enableCompileCache(at);
    return result.status === constants.compileCacheStatus.ENABLED ? result.directory : undefined;
  } catch {
    return undefined;
  } finally {
    process.umask(umask);
  }
}
