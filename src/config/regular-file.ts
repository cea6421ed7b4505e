// Files tickbook reads that the user names or keeps (the config file, an import file) are read
// only when they are regular files. A FIFO blocks an open for reading until a writer comes, and a
// read until it writes: a `config.json` made a FIFO hung every command, Tab included. A device
// (`/dev/zero`) never ends, and opening one has effects of its own (a watchdog armed, a tape
// rewound, a serial line's DTR raised, a terminal made the controlling one): what is not a regular
// file is refused by what the path is, before any open. The open itself cannot block or take a
// terminal (a swap after the look); the file is then looked at again through its own descriptor.
import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats, statSync } from 'node:fs';

/** A path that is there but is not a regular file: what it is instead, in words. */
export class NotRegularFileError extends Error {
  override readonly name = 'NotRegularFileError';
  readonly code = 'ENOTREG';
  constructor(
    readonly path: string,
    /** "a FIFO (named pipe)", "a directory", … */
    readonly kind: string,
  ) {
    super(`${path} is ${kind}, not a regular file`);
  }
}

/** What a file that is not a regular one is, in words. */
export function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * A descriptor of the regular file at `path` (links followed), open for reading; the caller closes
 * it. Throws NotRegularFileError for anything else, and the file system's own error (ENOENT,
 * EACCES, …) when it cannot be opened.
 */
export function openRegularFile(path: string): number {
  const named = statSync(path);
  if (!named.isFile()) throw new NotRegularFileError(path, kindOf(named));
  let fd: number;
  try {
    // Swapped for a FIFO since the look, it is not waited on (O_NONBLOCK changes nothing for a
    // regular file, whose reads never block); a terminal is not made this process's.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (error) {
    // Swapped for a socket, or a device no driver answers: said by what it is now.
    if ((error as { code?: string }).code === 'ENXIO') throw new NotRegularFileError(path, kindAt(path));
    throw error;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new NotRegularFileError(path, kindOf(stats));
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** What is at `path` now, in words, for an open that failed ENXIO. */
function kindAt(path: string): string {
  try {
    return kindOf(statSync(path));
  } catch {
    return 'not a regular file';
  }
}

/** The bytes of the regular file at `path`; see openRegularFile for what is refused. */
export function readRegularFile(path: string): Buffer {
  const fd = openRegularFile(path);
  try {
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}
