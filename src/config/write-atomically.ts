// Files replaced whole: the config file, the dashboard's code cache (and, by the same temporary
// beside them, the files of output-file.ts).
import { randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Replaces `path` with `text` (or bytes) so that a reader, or a crash, sees the old file or the
 * new one and never half: a temporary beside it (`.NAME.PID.RANDOM.tmp`, same file system),
 * written and flushed, renamed over it, and the rename flushed. Mode 0600 whatever the umask: it
 * may hold a token. A failure removes the temporary and leaves `path` untouched.
 */
export function writeAtomically(path: string, text: string | Uint8Array): void {
  const temporary = temporaryBeside(path);
  try {
    const fd = openSync(temporary, 'wx', 0o600);
    try {
      fchmodSync(fd, 0o600);
      writeFileSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  flushDirectory(dirname(path));
}

/** The name of a temporary for `path`, beside it (the same file system): `.NAME.PID.RANDOM.tmp`. */
export const temporaryBeside = (path: string): string => join(dirname(path), temporaryName(basename(path)));

/** The name, in the same directory, of a temporary for the file named `name`. */
export const temporaryName = (name: string): string => `.${name}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;

/**
 * A rename is in the directory: flushing it makes the new name survive a crash. Not every file
 * system lets a directory be opened or flushed; the file itself is safe already.
 */
export function flushDirectory(dir: string): void {
  try {
    const dirFd = openSync(dir, 'r');
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  } catch {
    // Best effort only.
  }
}
