// The one rule for a file tickbook writes on the user's word (`contacts export --output`,
// `contacts import --rejects`, the dashboard's x export). A file, or a name not there yet, is
// written beside and renamed over at the end, mode 0600: a failure leaves the old file. A FIFO, a
// terminal, /dev/null or /dev/stdout is written to as the stream it is, never replaced. Nothing
// another account could have put in the way is used: a symbolic link is followed only when it is
// one the user meant (their own, or root's, as /dev/stdout is), or writing "to /tmp/x" would
// replace whatever file of the user's a link planted there points at; a FIFO or a device only
// when it is the user's or root's, since whoever made a FIFO reads what is written to it; and in
// a shared (sticky) directory another account's file is theirs, not replaced (elsewhere a file of
// another account is replaced, never written into: nothing of the user's reaches it). The path is
// followed a component at a time, each directory held as it is reached (see Dir), so that the
// directory checked is the one written in. Anything else is refused by what it is.
import { closeSync, constants, createWriteStream, fchmodSync, fstatSync, fsyncSync, linkSync, lstatSync, openSync, readlinkSync, renameSync, rmSync, type Stats, statSync } from 'node:fs';
import { Socket } from 'node:net';
import { basename, dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import { isatty, WriteStream as TtyWriteStream } from 'node:tty';
import { fsReason } from './fs-reason.js';
import { kindOf } from './regular-file.js';
import { flushDirectory, temporaryName } from './write-atomically.js';

export class OutputFileError extends Error {
  override readonly name = 'OutputFileError';
  constructor(
    /** The path concerned: the one given, or a link on the way to it. */
    readonly path: string,
    /** Why, in words: "no such file or directory (ENOENT)", "a directory: not written". */
    readonly reason: string,
    /** Refused or failed before a byte was written: nothing was done. */
    readonly opening: boolean,
    /** Refused by what the path is (then the message is "PATH is REASON"), not a failed call. */
    readonly refused = false,
  ) {
    super(refused ? `${path} is ${reason}` : `cannot write ${path}: ${reason}`);
  }

  /** The reason first, for a status line a long path must not push it off. */
  reasonFirst(): string {
    return this.refused ? `${this.reason}: ${this.path}` : `${this.reason}: cannot write ${this.path}`;
  }
}

/** A file open for writing by the rule above. */
export interface OutputFile {
  readonly stream: Writable;
  /** All written: a file is flushed and renamed over the old one, a stream ended. The path written (a fresh file's name taken). */
  finish(): Promise<string>;
  /** Given up: the temporary removed (the old file stays), a stream closed. Safe after finish. */
  abandon(): void;
}

/**
 * Writes `text`, waiting while the reader is behind; a stream that failed throws its error. The
 * wait ends on a failure or a close as well as a drain: a stream that failed takes no more and
 * never drains, and a wait for that would hold whoever waits for ever (or, with nothing else
 * pending, let the process end without a word).
 */
export async function put(out: Writable, text: string | Uint8Array): Promise<void> {
  if (out.errored) throw out.errored;
  if (out.destroyed) throw closedStream();
  if (out.write(text)) return;
  await new Promise<void>((done, fail) => {
    const settle = () => {
      out.off('drain', settle).off('error', settle).off('close', settle);
      if (out.errored) fail(out.errored);
      else if (out.destroyed) fail(closedStream());
      else done();
    };
    out.on('drain', settle).on('error', settle).on('close', settle);
  });
}

const closedStream = () => Object.assign(new Error('the stream was closed before all was written'), { code: 'ERR_STREAM_DESTROYED' });

const MAX_LINKS = 40;

const euid = (): number => process.geteuid?.() ?? 0;
const codeOf = (error: unknown): string | undefined => (error as { code?: string }).code;

/**
 * O_PATH (Linux; not in Node's constants): a descriptor that stands for a directory without the
 * right to list it, as a walk needs only the right to pass through (a home directory of mode 0711).
 * Its value is the generic one, that of every architecture Node is built for on Linux.
 */
const O_PATH = 0o10000000;
const PINNING_ARCHES = new Set(['x64', 'arm64', 'arm', 'ia32', 'ppc64', 's390x', 'riscv64', 'loong64']);
let pinnable: boolean | undefined;

/** Whether a directory's descriptor can stand for it in a path here (/proc/self/fd/N/NAME): Linux. */
function canPin(): boolean {
  if (pinnable === undefined) {
    try {
      pinnable = process.platform === 'linux' && PINNING_ARCHES.has(process.arch) && statSync('/proc/self/fd').isDirectory();
    } catch {
      pinnable = false;
    }
  }
  return pinnable;
}

/**
 * A directory the walk has reached: its path (no link in it) and, where it can be, a descriptor
 * held on it. Its entries are named through the descriptor (/proc/self/fd/N/NAME), which the
 * kernel looks up in the directory held: another account that can rename a directory on the path
 * cannot move what is looked at, made or renamed into a directory of its choosing meanwhile.
 */
class Dir {
  private constructor(
    readonly path: string,
    readonly fd: number | undefined,
  ) {}
  static root(): Dir {
    return Dir.#open('/', '/');
  }
  /** `name` in this directory, as the kernel should find it. */
  entry(name: string): string {
    return this.fd === undefined ? join(this.path, name) : `/proc/self/fd/${this.fd}/${name}`;
  }
  /** The directory `name` in this one: a directory, not a link (the walk follows links itself). */
  child(name: string): Dir {
    return Dir.#open(this.entry(name), join(this.path, name));
  }
  parent(): Dir {
    return Dir.#open(this.entry('..'), dirname(this.path));
  }
  /** The directory itself, to open (to flush it). */
  get self(): string {
    return this.fd === undefined ? this.path : `/proc/self/fd/${this.fd}`;
  }
  /** Whether anyone may make entries in it and only their owners remove them (as in /tmp). */
  get sticky(): boolean {
    return ((this.fd === undefined ? statSync(this.path) : fstatSync(this.fd)).mode & 0o1000) !== 0;
  }
  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
  }
  static #open(at: string, path: string): Dir {
    return new Dir(path, canPin() ? openSync(at, O_PATH | constants.O_DIRECTORY | constants.O_NOFOLLOW) : undefined);
  }
}

/** `from` given up for `to` (opened from it first). */
function moveTo(from: Dir, to: Dir): Dir {
  from.close();
  return to;
}

/**
 * Where a path leads: this process's own descriptor (as the path names it), or an entry of a
 * directory held (`stats` from lstat, undefined when it is not there yet; no `name` when the path
 * names the directory itself).
 */
type Destination = { own: number; path: string } | { own?: undefined; dir: Dir; name: string | undefined; stats: Stats | undefined };

/**
 * Follows `path` a component at a time, as the kernel does, each directory held as it is reached,
 * refusing a symbolic link that is neither the user's nor root's. Only a path that names this
 * process's own descriptor (/proc/self/fd/1, /dev/fd/1) is taken as it is; every other one under
 * /proc is followed like any path (/proc/self/root/tmp/x is /tmp/x, its links checked). The last
 * component may be missing (a new file).
 */
function destinationOf(path: string): Destination {
  const uid = euid();
  // Not path.resolve: it would take `link/..` away before the link is followed.
  const absolute = path.startsWith('/') ? path : `${process.cwd()}/${path}`;
  const partsOf = (text: string) => text.split('/').filter((part) => part !== '' && part !== '.');
  const pending = partsOf(absolute);
  let dir = Dir.root();
  let links = 0;
  try {
    for (;;) {
      const named = `${dir.path === '/' ? '' : dir.path}/${pending.join('/')}`;
      const own = ownDescriptor(named);
      if (own !== undefined) {
        dir.close();
        return { own, path: named };
      }
      const part = pending.shift();
      if (part === undefined) return { dir, name: undefined, stats: undefined };
      if (part === '..') {
        dir = moveTo(dir, dir.parent());
        continue;
      }
      const entry = dir.entry(part);
      let stats: Stats | undefined;
      try {
        stats = lstatSync(entry);
      } catch (error) {
        if (codeOf(error) !== 'ENOENT' || pending.length > 0) throw error;
      }
      if (stats?.isSymbolicLink()) {
        if (stats.uid !== uid && stats.uid !== 0) throw new OutputFileError(join(dir.path, part), `a symbolic link owned by another user (uid ${stats.uid}): not followed`, true, true);
        if (++links > MAX_LINKS) throw Object.assign(new Error('ELOOP: too many symbolic links'), { code: 'ELOOP' });
        const target = readlinkSync(entry);
        pending.unshift(...partsOf(target));
        if (target.startsWith('/')) dir = moveTo(dir, Dir.root());
        continue;
      }
      if (pending.length === 0) return { dir, name: part, stats };
      dir = moveTo(dir, dir.child(part));
    }
  } catch (error) {
    dir.close();
    throw error;
  }
}

/** The directory `path` names, held, by the same walk. */
function directoryOf(path: string): Dir {
  const found = destinationOf(path);
  if (found.own !== undefined) throw Object.assign(new Error('ENOTDIR: not a directory'), { code: 'ENOTDIR' });
  if (found.name === undefined) return found.dir;
  try {
    if (found.stats === undefined) throw Object.assign(new Error('ENOENT: no such file or directory'), { code: 'ENOENT' });
    return found.dir.child(found.name);
  } finally {
    found.dir.close();
  }
}

/**
 * This process's own descriptor that a path names (/proc/self/fd/1 is stdout; on macOS and the
 * BSDs /dev/fd/1, a directory of its own there, not a link to /proc), if it is one.
 */
function ownDescriptor(path: string): number | undefined {
  const match = /^\/(?:proc\/(self|thread-self|\d+)(?:\/task\/\d+)?|dev)\/fd\/(\d+)$/.exec(path);
  if (!match || (match[1] !== undefined && match[1] !== 'self' && match[1] !== 'thread-self' && Number(match[1]) !== process.pid)) return undefined;
  return Number(match[2]);
}

/** A stream on a descriptor tickbook did not open (stdout): written to, never closed. */
function borrowed(stream: Writable, shown: string): OutputFile {
  return {
    stream,
    finish: () =>
      new Promise<string>((done, fail) => {
        if (stream.errored) fail(stream.errored);
        else stream.write('', (error) => (error ? fail(error) : done(shown)));
      }),
    abandon: () => {},
  };
}

/** Closes a stream tickbook opened, and settles when it has. */
function ended(stream: Writable): Promise<void> {
  return new Promise<void>((done, fail) => {
    if (stream.errored) {
      fail(stream.errored);
      return;
    }
    stream.once('error', fail);
    // The callback is given the error of a write that fails after every write was taken.
    stream.end((error?: Error | null) => (error ? fail(error) : done()));
  });
}

/**
 * A FIFO, a terminal or another character device, written to as it is. Opened without blocking:
 * a FIFO nobody reads would hold the open for ever (ENXIO says so at once instead). `named` is
 * what the walk found at `at`; a descriptor of this process's own (`own`) is opened through
 * its link, anything else must still be what was found (not a link put in its place).
 */
function openStream(at: string, shown: string, named: Stats, own: boolean): OutputFile {
  let fd: number;
  try {
    // A file named as this process's descriptor is appended to, as the shell that opened it left it.
    fd = openSync(at, constants.O_WRONLY | constants.O_NONBLOCK | constants.O_NOCTTY | (named.isFile() ? constants.O_APPEND : 0) | (own ? 0 : constants.O_NOFOLLOW));
  } catch (error) {
    if (codeOf(error) === 'ENXIO' && named.isFIFO()) throw new OutputFileError(shown, 'a FIFO (named pipe) that nothing is reading: not written', true, true);
    throw error;
  }
  let stream: Writable;
  try {
    const stats = fstatSync(fd);
    if (!own && (stats.dev !== named.dev || stats.ino !== named.ino)) throw new OutputFileError(shown, 'it was replaced as it was opened: not written', true);
    // A FIFO through libuv's pipe handle (as Node writes stdout to a pipe): a full pipe is
    // waited on, not an EAGAIN error.
    if (stats.isFIFO()) stream = new Socket({ fd, readable: false });
    else if (isatty(fd)) stream = new TtyWriteStream(fd);
    else if (stats.isCharacterDevice() || stats.isFile()) stream = createWriteStream('', { fd });
    else throw new OutputFileError(shown, `${kindOf(stats)}: not written`, true, true);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  // Kept until finish or abandon say what became of it (an error of a write is met there).
  stream.on('error', () => {});
  return {
    stream,
    finish: async () => {
      await ended(stream);
      stream.destroy();
      return shown;
    },
    abandon: () => stream.destroy(),
  };
}

/**
 * A file written beside `name` in `dir` (held: it is closed at the end) and renamed over it at the
 * end; `fresh`: linked to the first free name of `name`, `name-2`, `name-3`, … instead, so that
 * it replaces nothing. `shown` is the path as given.
 */
function openReplacement(dir: Dir, name: string, shown: string, fresh: boolean): OutputFile {
  const temporary = temporaryName(name);
  const fd = openSync(dir.entry(temporary), 'wx', 0o600);
  let stream: Writable;
  try {
    // Whatever the umask, and whatever mode an older file at `name` had.
    fchmodSync(fd, 0o600);
    // Not closed when it finishes (it is flushed first); closed by destroy, which waits for a
    // write under way: closed here meanwhile, its number could be another file's by then.
    stream = createWriteStream('', { fd, autoClose: false });
  } catch (error) {
    closeSync(fd);
    rmSync(dir.entry(temporary), { force: true });
    throw error;
  }
  stream.on('error', () => {});
  const closed = () =>
    new Promise<void>((done) => {
      if (stream.closed) done();
      else stream.once('close', () => done()).destroy();
    });
  let settled = false;
  return {
    stream,
    finish: async () => {
      settled = true;
      let written = name;
      try {
        await ended(stream);
        fsyncSync(fd);
        await closed();
        if (fresh) written = linkFresh(dir, temporary, name);
        else renameSync(dir.entry(temporary), dir.entry(name));
      } catch (error) {
        stream.destroy();
        rmSync(dir.entry(temporary), { force: true });
        dir.close();
        throw error;
      }
      flushDirectory(dir.self);
      dir.close();
      return fresh ? join(dirname(shown), written) : shown;
    },
    abandon: () => {
      if (settled) return;
      settled = true;
      stream.destroy();
      rmSync(dir.entry(temporary), { force: true });
      dir.close();
    },
  };
}

/**
 * The finished `temporary` given the first free name of `name`, `name-2`, `name-3`, … (before
 * the extension) and removed: a link fails where the name is taken, by anything, so nothing is
 * replaced, whoever made a name meanwhile. The name taken.
 */
function linkFresh(dir: Dir, temporary: string, name: string): string {
  const dot = name.lastIndexOf('.');
  const [base, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  let hardLinks = true;
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? name : `${base}-${n}${extension}`;
    try {
      if (hardLinks) linkSync(dir.entry(temporary), dir.entry(candidate));
      else {
        // A file system without hard links (FAT): the name taken by a file made exclusively, the
        // temporary renamed over it.
        closeSync(openSync(dir.entry(candidate), 'wx', 0o600));
        renameSync(dir.entry(temporary), dir.entry(candidate));
        return candidate;
      }
    } catch (error) {
      const code = codeOf(error);
      if (code === 'EEXIST') continue;
      if (hardLinks && (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS')) {
        hardLinks = false;
        n--;
        continue;
      }
      throw error;
    }
    rmSync(dir.entry(temporary));
    return candidate;
  }
}

/**
 * `path` open for writing by the rule at the top of this file; `dash` lets `-` be stdout; `fresh`
 * makes a new file that replaces nothing (under the next free name, see linkFresh). Throws
 * OutputFileError (opening) when it is refused or cannot be opened; the stream's own failures
 * come from put and finish, as file system errors (see outputFailure).
 */
export async function openOutputFile(path: string, options: { dash?: boolean; fresh?: boolean } = {}): Promise<OutputFile> {
  if (path === '-' && options.dash) return borrowed(process.stdout, path);
  try {
    if (options.fresh) {
      const dir = directoryOf(dirname(path));
      try {
        return openReplacement(dir, basename(path), path, true);
      } catch (error) {
        dir.close();
        throw error;
      }
    }
    const destination = destinationOf(path);
    if (destination.own !== undefined) return ownStream(destination.own, destination.path, path);
    const { dir, name, stats } = destination;
    let held = false;
    try {
      if (name === undefined) throw new OutputFileError(path, 'a directory: not written', true, true);
      const uid = euid();
      if (stats === undefined || stats.isFile()) {
        // Replaced, it would be removed: in a shared directory another account's file is theirs.
        if (stats !== undefined && stats.uid !== uid && dir.sticky) {
          throw new OutputFileError(path, `a file owned by another user (uid ${stats.uid}) in a shared directory (sticky, as /tmp is): not replaced`, true, true);
        }
        const file = openReplacement(dir, name, path, false);
        held = true;
        return file;
      }
      if (stats.isFIFO() || stats.isCharacterDevice()) {
        // Whoever owns a FIFO reads what is written to it (a device, whatever it does with it).
        if (stats.uid !== uid && stats.uid !== 0) throw new OutputFileError(path, `${kindOf(stats)} owned by another user (uid ${stats.uid}): not written`, true, true);
        return openStream(dir.entry(name), path, stats, false);
      }
      throw new OutputFileError(path, `${kindOf(stats)}: not written`, true, true);
    } finally {
      if (!held) dir.close();
    }
  } catch (error) {
    if (error instanceof OutputFileError) throw error;
    throw new OutputFileError(path, fsReason(error), true);
  }
}

/** This process's descriptor `fd`, named `at`: stdout and stderr as they are, another opened anew. */
function ownStream(fd: number, at: string, shown: string): OutputFile {
  if (fd === 1) return borrowed(process.stdout, shown);
  if (fd === 2) return borrowed(process.stderr, shown);
  const stats = fstatSync(fd);
  if (stats.isFIFO() || stats.isCharacterDevice() || stats.isFile()) return openStream(at, shown, stats, true);
  throw new OutputFileError(shown, `${kindOf(stats)}: not written`, true, true);
}

/** A failure met while writing `path` (after it was opened), as an OutputFileError. */
export function outputFailure(path: string, error: unknown): unknown {
  if (error instanceof OutputFileError) return error;
  return (error as { code?: string }).code?.startsWith('E') ? new OutputFileError(path, fsReason(error), false) : error;
}
