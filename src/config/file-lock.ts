// A lock beside a file that several processes read, change and write back: the config file, which
// two dashboards on one home and `tickbook config` all save. Each save reads the file as it is,
// applies its change and renames the new file over it; two of them interleaved would each write
// what it read, and the second would undo the first. The lock is a file made with O_EXCL
// (`.NAME.lock`, beside the file, on the same file system): the one that makes it holds it, every
// other waits. Node has no flock(2), and a lock file works the same on every file system that
// renames atomically, NFS included; its drawback, a lock left behind by a process killed while it
// held it, is answered by what the file says: the holder's pid and host, a dead pid on this host
// taken as gone at once, any lock older than a save could ever take as gone too.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, type Stats, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { kindOf } from './regular-file.js';

/** Waiting on a holder longer than this gives up: a save holds the lock for milliseconds. */
const WAIT_MS = 3_000;
/** A lock this old is left behind, whoever wrote it: no save takes so long. */
const STALE_MS = 10_000;

/** The lock could not be taken: another process holds it (or something else is in its place). */
export class FileLockError extends Error {
  override readonly name = 'FileLockError';
  constructor(
    readonly lockPath: string,
    /** What is wrong, in words, naming the lock (not the file it locks). */
    readonly reason: string,
  ) {
    super(reason);
  }
}

export interface FileLockOptions {
  /** How long to wait for another holder (default 3 s). */
  waitMs?: number;
  /** How old a lock is taken as left behind (default 10 s). */
  staleMs?: number;
}

/** The lock file of `path`: `.NAME.lock` beside it. */
export const lockPathOf = (path: string): string => join(dirname(path), `.${basename(path)}.lock`);

/**
 * Runs `fn` holding the lock of `path`, and lets go after, whatever `fn` does. Throws the file
 * system's error when the lock cannot be made (a read-only directory: EACCES), or a FileLockError
 * when another process holds it past the wait.
 */
export function withFileLock<T>(path: string, fn: () => T, options: FileLockOptions = {}): T {
  const lock = lockPathOf(path);
  const held = acquire(lock, options);
  try {
    return fn();
  } finally {
    // Only our own: one taken as left behind and made again by another is theirs now.
    removeIfStill(lock, held);
  }
}

function acquire(lock: string, { waitMs = WAIT_MS, staleMs = STALE_MS }: FileLockOptions): Stats {
  const deadline = Date.now() + waitMs;
  for (let pause = 1; ; pause = Math.min(pause * 2, 50)) {
    const made = tryMake(lock);
    if (made) return made;
    const holder = lstatOrUndefined(lock);
    // Let go between the two looks: try again at once.
    if (!holder) continue;
    if (!holder.isFile()) {
      throw new FileLockError(lock, `its lock ${lock} is ${holder.isSymbolicLink() ? 'a symbolic link' : kindOf(holder)}, not a lock file; remove it`);
    }
    const who = holderOf(lock);
    if (isLeftBehind(holder, who, staleMs)) {
      // Only the very lock judged: another may have taken it away and made a new one meanwhile.
      removeIfStill(lock, holder);
      continue;
    }
    if (Date.now() >= deadline) {
      const by = who ? ` by process ${who.pid}${who.host === hostname() ? '' : ` on ${who.host}`}` : '';
      throw new FileLockError(lock, `another tickbook is saving it (${lock} is held${by}); try again, or remove that file if no tickbook is running`);
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, pause);
  }
}

/** The lock made and this process written in it, or undefined when one is there already. */
function tryMake(lock: string): Stats | undefined {
  let fd: number;
  try {
    // O_EXCL: made here or not at all, and never through a link put in its place.
    fd = openSync(lock, 'wx', 0o600);
  } catch (error) {
    if ((error as { code?: string }).code === 'EEXIST') return undefined;
    throw error;
  }
  try {
    writeSync(fd, `${process.pid} ${hostname()}\n`);
    return fstatSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The pid and host a lock file names, or undefined while it is being written (or unreadable). */
function holderOf(lock: string): { pid: number; host: string } | undefined {
  let fd: number;
  try {
    fd = openSync(lock, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const bytes = Buffer.alloc(512);
    const text = bytes.toString('utf8', 0, readSync(fd, bytes, 0, bytes.length, 0));
    const match = /^(\d+) (\S+)\n/.exec(text);
    return match ? { pid: Number(match[1]), host: match[2]! } : undefined;
  } finally {
    closeSync(fd);
  }
}

function isLeftBehind(lock: Stats, who: { pid: number; host: string } | undefined, staleMs: number): boolean {
  if (Date.now() - lock.mtimeMs > staleMs) return true;
  return who !== undefined && who.host === hostname() && !isRunning(who.pid);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: there, another user's.
    return (error as { code?: string }).code !== 'ESRCH';
  }
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Removes the lock if it is still the file `was`. */
function removeIfStill(lock: string, was: Stats): void {
  const now = lstatOrUndefined(lock);
  if (now === undefined || now.ino !== was.ino || now.dev !== was.dev) return;
  try {
    unlinkSync(lock);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') throw error;
  }
}
