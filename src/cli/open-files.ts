// The open-file limit, checked before anything opens: under a low `ulimit -n` every later failure
// wears another name (SQLite's "unable to open database file", a dropped connection, a module
// that "cannot be found"), and none of them says what to change.
import { readFileSync } from 'node:fs';

/**
 * Descriptors tickbook may hold at once, with room to spare. Measured: the dashboard on the
 * embedded sandbox holds 31 (the terminal, libuv's loops and pipes, the database with its WAL
 * and shared memory, both ends of its sockets), and a remote server may take up to 8 pooled
 * connections per origin; `quote` fails below 26.
 */
export const NEEDED_OPEN_FILES = 64;

/** The soft limit on open files (`ulimit -n`), where the system says it; undefined elsewhere. */
export function openFileLimit(limits: () => string = () => readFileSync('/proc/self/limits', 'utf8')): number | undefined {
  let text: string;
  try {
    text = limits();
  } catch {
    return undefined;
  }
  const soft = /^Max open files\s+(\S+)/m.exec(text)?.[1];
  if (soft === undefined || soft === 'unlimited') return undefined;
  const value = Number(soft);
  return Number.isInteger(value) ? value : undefined;
}

/** The line saying the limit is too low for tickbook, or undefined when it is enough (or unknown). */
export function openFileProblem(limit = openFileLimit()): string | undefined {
  if (limit === undefined || limit >= NEEDED_OPEN_FILES) return undefined;
  return `too many open files would be needed: the limit is ${limit} (ulimit -n) and tickbook needs ${NEEDED_OPEN_FILES}; raise it with ulimit -n 1024`;
}
