// Runs the dashboard's bundle, one CommonJS script, through node:vm with a V8 code cache kept in
// the user's cache directory. Most of a start is V8 parsing and compiling the bundle as the first
// frame calls it; from a cache, a start skips that (median to the first frame 401 -> 262 ms at
// 80x24, README). Node 22 does this for ES modules (module.enableCompileCache); Node 20 can keep
// compiled code only for a script, so the dashboard's bundle is one (scripts/bundle.mjs).
//
// The cache is written once, when the first frame is out and no usable cache was found, and
// named by what decides whether V8 can use it: the bundle's contents, Node's version and
// architecture, and the V8 flags. Anything wrong with it (missing, unreadable, another user's, one
// V8 refuses) means a start compiled as without it; it is never a reason to fail.
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { cacheDir } from '../config/paths.js';
import { onFirstFrame } from './first-frame.js';

/** What became of the cache for this run. */
export type CacheUse =
  /** V8 took it: nothing compiled that it held. */
  | 'used'
  /** None could be read (none yet, no cache directory, not ours): written after the first frame. */
  | 'absent'
  /** V8 refused it (another build of V8 with the same name): written again after the first frame. */
  | 'rejected';

export interface ScriptRun {
  use: CacheUse;
  /** Where the cache is (or would be), or undefined when there is no cache directory. */
  cacheFile: string | undefined;
  /**
   * Writes the cache from what has been compiled by now, once, unless this run used one. Never
   * throws: a cache that cannot be written is left for the next start to try.
   */
  save(): void;
}

export interface ScriptOptions {
  /** The bundle: CommonJS, ending in a `//# tickbook-build=` line (scripts/bundle.mjs). */
  file: string;
  /** Where caches are kept; undefined for none. */
  cacheDir: string | undefined;
  /** What V8 was started with besides the script: `process.execArgv`, NODE_OPTIONS. */
  flags: readonly string[];
}

const CACHE_NAME = /^dashboard-[0-9a-f]{16}\.v8cache(\.\d+\.tmp)?$/;

/** The cache's file name: a new build, Node or set of flags gets its own. */
export function cacheName(source: string, flags: readonly string[]): string {
  const build = /\/\/# tickbook-build=([0-9a-f]+)\n?$/.exec(source)?.[1] ?? createHash('sha256').update(source).digest('hex');
  const key = createHash('sha256').update([build, process.version, process.arch, ...flags].join('\0')).digest('hex');
  return `dashboard-${key.slice(0, 16)}.v8cache`;
}

/**
 * The cache's bytes, when the file is this user's and no one else could have written it: V8 runs
 * what a cache holds, so one another user could change is not read.
 */
function readOwnFile(path: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const stat = fstatSync(fd);
    const uid = process.getuid?.();
    if (!stat.isFile() || (uid !== undefined && stat.uid !== uid) || (stat.mode & 0o022) !== 0) return undefined;
    return readFileSync(fd);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Replaces the cache whole (a start reading it meanwhile sees the old one or the new), and drops older builds'. */
function writeCache(dir: string, name: string, data: Buffer): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const path = join(dir, name);
    const temporary = `${path}.${process.pid}.tmp`;
    try {
      writeFileSync(temporary, data, { mode: 0o600, flag: 'wx' });
      renameSync(temporary, path);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw error;
    }
    // Only files of this name pattern are ours to remove; whatever else the directory holds stays.
    for (const other of readdirSync(dir)) {
      if (other !== name && CACHE_NAME.test(other) && !other.startsWith(`${name}.`)) rmSync(join(dir, other), { force: true });
    }
  } catch {
    // A cache is an optimisation: a read-only or full disk costs the next start its speed only.
  }
}

/** Compiles and runs the bundle as Node runs a CommonJS module, from the cache when there is one. */
export function runDashboardScript(options: ScriptOptions): ScriptRun {
  const source = readFileSync(options.file, 'utf8');
  const name = cacheName(source, options.flags);
  const cacheFile = options.cacheDir === undefined ? undefined : join(options.cacheDir, name);
  const cachedData = cacheFile === undefined ? undefined : readOwnFile(cacheFile);
  const script = new Script(Module.wrap(source), { filename: options.file, ...(cachedData && { cachedData }) });
  const use: CacheUse = cachedData === undefined ? 'absent' : script.cachedDataRejected ? 'rejected' : 'used';
  let saved = use === 'used';
  const run: ScriptRun = {
    use,
    cacheFile,
    save() {
      if (saved || options.cacheDir === undefined) return;
      saved = true;
      let data: Buffer;
      try {
        data = script.createCachedData();
      } catch {
        return;
      }
      writeCache(options.cacheDir, name, data);
    },
  };
  const module = { exports: {} };
  const main = script.runInThisContext() as (exports: object, require: NodeJS.Require, module: object, filename: string, dirname: string) => void;
  main.call(module.exports, module.exports, createRequire(options.file), module, options.file, dirname(options.file));
  return run;
}

/**
 * The launcher's part: runs the bundle and keeps its cache once the dashboard's first frame is
 * out (a run that draws none keeps none). The write waits for the frame's own turn of the event
 * loop to end.
 */
export function launchDashboard(file: string): ScriptRun {
  let run: ScriptRun | undefined;
  onFirstFrame(() => setImmediate(() => run?.save()));
  run = runDashboardScript({ file, cacheDir: cacheDir(), flags: [...process.execArgv, process.env.NODE_OPTIONS ?? ''] });
  return run;
}
