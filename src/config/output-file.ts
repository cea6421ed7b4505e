// The one rule for a file tickbook writes on the user's word (`contacts export --output`,
// `contacts import --rejects`, the dashboard's x export). A file, or a name not there yet, is
// written beside and renamed over at the end, mode 0600: a failure leaves the old file. A FIFO, a
// terminal, /dev/null or /dev/stdout is written to as the stream it is, never replaced. A symbolic
// link is followed only when it is one the user meant (their own, or root's, as /dev/stdout is):
// a link another account planted in a shared directory is not, or writing "to /tmp/x" would
// replace whatever file of the user's it points at. Anything else is refused by what it is.
import { closeSync, constants, createWriteStream, fchmodSync, fstatSync, fsyncSync, lstatSync, openSync, readlinkSync, renameSync, rmSync, type Stats, statSync } from 'node:fs';
import { Socket } from 'node:net';
import { dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import { isatty, WriteStream as TtyWriteStream } from 'node:tty';
import { fsReason } from './fs-reason.js';
import { kindOf } from './regular-file.js';
import { flushDirectory, temporaryBeside } from './write-atomically.js';

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
  /** All written: a file is flushed and renamed over the old one, a stream ended. */
  finish(): Promise<void>;
  /** Given up: the temporary removed (the old file stays), a stream closed. Safe after finish. */
  abandon(): void;
}

/**
 * Writes `text`, waiting while the reader is behind; a stream that failed throws its error. The
 * wait ends on a failure or a close as well as a drain: a stream that failed takes no more and
 * never drains, and a wait for that would hold whoever waits for ever (or, with nothing else
 * pending, let the process end without a word).
 */
export async function put(out: Writable, text: string): Promise<void> {
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

/** Where a path leads: a file path (every link on the way checked), or a path under /proc. */
type Destination = { at: string; proc: false } | { at: string; proc: true };

/**
 * Follows `path` a component at a time, as the kernel does, refusing a symbolic link that is
 * neither the user's nor root's. Stops at /proc, whose links (/proc/self/fd/1) name open files,
 * not paths. The last component may be missing (a new file).
 */
function destinationOf(path: string): Destination {
  const uid = process.geteuid?.() ?? 0;
  // Not path.resolve: it would take `link/..` away before the link is followed.
  const absolute = path.startsWith('/') ? path : `${process.cwd()}/${path}`;
  const pending = absolute.split('/').filter((part) => part !== '');
  let at = '/';
  let links = 0;
  while (pending.length > 0) {
    if (at === '/proc' || at.startsWith('/proc/')) return { at: join(at, ...pending), proc: true };
    const part = pending.shift()!;
    if (part === '.') continue;
    if (part === '..') {
      at = dirname(at);
      continue;
    }
    const next = join(at, part);
    let stats: Stats;
    try {
      stats = lstatSync(next);
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT' && pending.length === 0) return { at: next, proc: false };
      throw error;
    }
    if (!stats.isSymbolicLink()) {
      at = next;
      continue;
    }
    if (stats.uid !== uid && stats.uid !== 0) throw new OutputFileError(next, `a symbolic link owned by another user (uid ${stats.uid}): not followed`, true, true);
    if (++links > MAX_LINKS) throw Object.assign(new Error('ELOOP: too many symbolic links'), { code: 'ELOOP' });
    const target = readlinkSync(next);
    pending.unshift(...target.split('/').filter((p) => p !== ''));
    if (target.startsWith('/')) at = '/';
  }
  if (at === '/proc' || at.startsWith('/proc/')) return { at, proc: true };
  return { at, proc: false };
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
function borrowed(stream: Writable): OutputFile {
  return {
    stream,
    finish: () =>
      new Promise<void>((done, fail) => {
        if (stream.errored) fail(stream.errored);
        else stream.write('', (error) => (error ? fail(error) : done()));
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
 * a FIFO nobody reads would hold the open for ever (ENXIO says so at once instead).
 */
function openStream(path: string, shown: string, named: Stats): OutputFile {
  let fd: number;
  try {
    // A file named through /proc is appended to, as the shell that opened it left it.
    fd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK | constants.O_NOCTTY | (named.isFile() ? constants.O_APPEND : 0));
  } catch (error) {
    if ((error as { code?: string }).code === 'ENXIO' && named.isFIFO()) throw new OutputFileError(shown, 'a FIFO (named pipe) that nothing is reading: not written', true, true);
    throw error;
  }
  let stream: Writable;
  try {
    const stats = fstatSync(fd);
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
    },
    abandon: () => stream.destroy(),
  };
}

/** A file written beside `target` and renamed over it at the end. */
function openReplacement(target: string): OutputFile {
  const temporary = temporaryBeside(target);
  const fd = openSync(temporary, 'wx', 0o600);
  let stream: Writable;
  try {
    // Whatever the umask, and whatever mode an older file at `target` had.
    fchmodSync(fd, 0o600);
    // Not closed when it finishes (it is flushed first); closed by destroy, which waits for a
    // write under way: closed here meanwhile, its number could be another file's by then.
    stream = createWriteStream('', { fd, autoClose: false });
  } catch (error) {
    closeSync(fd);
    rmSync(temporary, { force: true });
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
      try {
        await ended(stream);
        fsyncSync(fd);
        await closed();
        renameSync(temporary, target);
      } catch (error) {
        stream.destroy();
        rmSync(temporary, { force: true });
        throw error;
      }
      flushDirectory(dirname(target));
    },
    abandon: () => {
      if (settled) return;
      settled = true;
      stream.destroy();
      rmSync(temporary, { force: true });
    },
  };
}

/**
 * `path` open for writing by the rule at the top of this file; `dash` lets `-` be stdout. Throws
 * OutputFileError (opening) when it is refused or cannot be opened; the stream's own failures
 * come from put and finish, as file system errors (see outputFailure).
 */
export async function openOutputFile(path: string, options: { dash?: boolean } = {}): Promise<OutputFile> {
  if (path === '-' && options.dash) return borrowed(process.stdout);
  try {
    const destination = destinationOf(path);
    const own = ownDescriptor(destination.at);
    if (own === 1) return borrowed(process.stdout);
    if (own === 2) return borrowed(process.stderr);
    let stats: Stats | undefined;
    try {
      stats = statSync(destination.at);
    } catch (error) {
      if ((error as { code?: string }).code !== 'ENOENT' || destination.proc) throw error;
    }
    // A file named through /proc is another process's open file: written where it is, not replaced.
    if (stats === undefined || (stats.isFile() && !destination.proc)) return openReplacement(destination.at);
    if (stats.isFIFO() || stats.isCharacterDevice() || stats.isFile()) return openStream(destination.at, path, stats);
    throw new OutputFileError(path, `${kindOf(stats)}: not written`, true, true);
  } catch (error) {
    if (error instanceof OutputFileError) throw error;
    throw new OutputFileError(path, fsReason(error), true);
  }
}

/** A failure met while writing `path` (after it was opened), as an OutputFileError. */
export function outputFailure(path: string, error: unknown): unknown {
  if (error instanceof OutputFileError) return error;
  return (error as { code?: string }).code?.startsWith('E') ? new OutputFileError(path, fsReason(error), false) : error;
}
