// Runs the dashboard's bundle, one CommonJS script, through node:vm with a V8 code cache kept in
// the user's cache directory. Most of a start is V8 parsing and compiling the bundle as the first
// frame calls it; from a cache, a start skips that (median to the first frame 370 -> 286 ms at
// 80x24, docs/dev/performance.md). Node 22 does this for ES modules (module.enableCompileCache); Node 20 can keep
// compiled code only for a script, so the dashboard's bundle is one (scripts/bundle.mjs).
//
// The cache is written once, when the first frame is out and no usable cache was found, and
// named by what decides whether V8 can use it: the bundle (its build key, size and time), Node's
// version and architecture, and the flags. It is kept only in a directory safe to keep code in
// (own-directory.ts, the rule Node's compile cache is kept by too). Anything wrong with it or its
// directory (missing, unreadable, damaged, another user's, one V8 refuses) means a start compiled
// as without it; never a failure.
import { createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { crc32 } from 'node:zlib';
import { ensureDirectory } from '../config/directories.js';
import { cacheDir } from '../config/paths.js';
import { writeAtomically } from '../config/write-atomically.js';
import { onFirstFrame } from './first-frame.js';
import { safeForCode } from './own-directory.js';

/** What became of the cache for this run. */
export type CacheUse =
  /** V8 took it: nothing compiled that it held. */
  | 'used'
  /** None could be read (none yet, no cache directory, one not safe for code): written after the first frame, where safe. */
  | 'absent'
  /** Damaged (its checksum), or refused by V8: written again after the first frame. */
  | 'rejected';

export interface ScriptRun {
  use: CacheUse;
  /** Where the cache is (or would be), or undefined when there is none to keep. */
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

/** Caches of other builds (or Nodes, or flags) kept beside this one's: two installs taking turns keep theirs. */
const OTHERS_KEPT = 2;
/** A temporary file older than this is a write that died half way. */
const STALE_TEMPORARY_MS = 60_000;
const CACHE_FILE = /^dashboard-[0-9a-f]{16}\.v8cache$/;
/** writeAtomically's temporary for a cache: `.NAME.PID.RANDOM.tmp`. */
const TEMPORARY_FILE = /^\.dashboard-[0-9a-f]{16}\.v8cache\.\d+\.[0-9a-f]{8}\.tmp$/;
/**
 * Before V8's bytes: a mark and a CRC-32 of them. A release V8 checks a cache's header but not
 * its body (--verify-snapshot-checksum is for debug builds), and a damaged body could crash it.
 */
const MARK = Buffer.from('tbv8');
const HEADER_BYTES = MARK.length + 4;

/** The cache's file name: a new build, Node or set of flags gets its own. */
export function cacheName(source: string, bundle: { size: number; mtimeMs: number }, flags: readonly string[]): string {
  const build = /\/\/# tickbook-build=([0-9a-f]+)\n?$/.exec(source.slice(-64))?.[1] ?? '';
  // The size and time too: V8 checks a cache against the source's length alone, and an edited
  // bundle keeps its build line.
  const parts = [build, bundle.size, bundle.mtimeMs, process.version, process.arch, ...flags];
  return `dashboard-${createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 16)}.v8cache`;
}

const uid = (): number | undefined => process.getuid?.();

type Read = { data: Buffer } | { damaged: true } | undefined;

/**
 * The cache's bytes, when the file is this user's and no one else could have written it (V8 runs
 * what a cache holds): a regular file, not through a link, owned by the user, not writable by
 * others, and whole by its checksum.
 */
function readCache(path: string): Read {
  let fd: number | undefined;
  try {
    // O_NONBLOCK: a FIFO put in its place opens at once (and is refused as not a file).
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const stat = fstatSync(fd);
    if (!stat.isFile() || (uid() !== undefined && stat.uid !== uid()) || (stat.mode & 0o022) !== 0) return undefined;
    const bytes = readFileSync(fd);
    const data = bytes.subarray(HEADER_BYTES);
    const whole = bytes.length > HEADER_BYTES && bytes.subarray(0, MARK.length).equals(MARK) && bytes.readUInt32BE(MARK.length) === crc32(data);
    return whole ? { data } : { damaged: true };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Replaces the cache whole (a start reading it meanwhile sees the old one or the new), and keeps the directory tidy. */
function writeCache(dir: string, name: string, data: Buffer): void {
  try {
    // One part at a time: Node's recursive mkdir never returns under /proc, after the first frame.
    ensureDirectory(dir, 'the code cache');
    const header = Buffer.alloc(HEADER_BYTES);
    MARK.copy(header);
    header.writeUInt32BE(crc32(data), MARK.length);
    // Flushed before it has the name: a crash leaves the old cache or the new, not a torn one.
    writeAtomically(join(dir, name), Buffer.concat([header, data]));
    tidy(dir, name);
  } catch {
    // A cache is an optimisation: a read-only or full disk costs the next start its speed only.
  }
}

/**
 * Leaves this cache and the newest few others (another install, another Node), and removes
 * writes that died half way. Only files of these name patterns are touched.
 */
function tidy(dir: string, name: string): void {
  const now = Date.now();
  const others: { file: string; mtimeMs: number }[] = [];
  for (const file of readdirSync(dir)) {
    try {
      const { mtimeMs } = lstatSync(join(dir, file));
      if (TEMPORARY_FILE.test(file) && now - mtimeMs > STALE_TEMPORARY_MS) rmSync(join(dir, file), { force: true });
      else if (CACHE_FILE.test(file) && file !== name) others.push({ file, mtimeMs });
    } catch {
      // Gone meanwhile: another start tidied it.
    }
  }
  others.sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const { file } of others.slice(OTHERS_KEPT)) rmSync(join(dir, file), { force: true });
}

/** Compiles and runs the bundle as Node runs a CommonJS module, from the cache when there is one. */
export function runDashboardScript(options: ScriptOptions): ScriptRun {
  const fd = openSync(options.file, 'r');
  let source: string;
  let bundle: { size: number; mtimeMs: number };
  try {
    bundle = fstatSync(fd);
    source = readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
  const name = cacheName(source, bundle, options.flags);
  const dir = options.cacheDir !== undefined && safeForCode(options.cacheDir) ? options.cacheDir : undefined;
  const cacheFile = dir === undefined ? undefined : join(dir, name);
  const read = cacheFile === undefined ? undefined : readCache(cacheFile);
  const cachedData = read && 'data' in read ? read.data : undefined;
  const script = new Script(Module.wrap(source), { filename: options.file, ...(cachedData && { cachedData }) });
  const use: CacheUse = read === undefined ? 'absent' : 'damaged' in read || script.cachedDataRejected ? 'rejected' : 'used';
  let saved = use === 'used';
  const run: ScriptRun = {
    use,
    cacheFile,
    save() {
      if (saved || dir === undefined) return;
      saved = true;
      let data: Buffer;
      try {
        data = script.createCachedData();
      } catch {
        return;
      }
      writeCache(dir, name, data);
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
  const nodeOptions = [...process.execArgv, process.env.NODE_OPTIONS ?? ''];
  let dir: string | undefined;
  try {
    dir = cacheDir();
  } catch {
    // No home (a uid without a passwd entry, HOME unset): every start compiles.
  }
  let run: ScriptRun | undefined;
  onFirstFrame(() => setImmediate(() => run?.save()));
  run = runDashboardScript({ file, cacheDir: dir, flags: nodeOptions });
  return run;
}
