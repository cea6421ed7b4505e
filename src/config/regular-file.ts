// Files tickbook reads that the user names or keeps (the config file, an import file) are read
// only when they are regular files. A FIFO blocks an open for reading until a writer comes, and a
// read until it writes: a `config.json` made a FIFO hung every command, Tab included. A device
// (`/dev/zero`) never ends. Opened without blocking, the file is looked at through its own
// descriptor (no window for a swap between a stat and the open), and refused by what it is.
import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';

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
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one. It
    // changes nothing for a regular file, whose reads never block.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    // A socket cannot be opened as a file at all.
    if ((error as { code?: string }).code === 'ENXIO') throw new NotRegularFileError(path, 'a socket');
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

/** The bytes of the regular file at `path`; see openRegularFile for what is refused. */
export function readRegularFile(path: string): Buffer {
  const fd = openRegularFile(path);
  try {
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}
