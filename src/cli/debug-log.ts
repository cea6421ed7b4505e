// The --debug-log file: one line per request, credentials never written, and bounded. A watch
// window left open for a week polls hundreds of thousands of times; past DEBUG_LOG_MAX_BYTES the
// file moves to FILE.1 (replacing the one before) and FILE starts again, so at most twice that
// is on disk. What is not the user's own log file is written and never moved: a pipe, a device,
// and anything reached through /dev or /proc (/dev/stderr is whatever the shell redirected it to).
import { closeSync, fstatSync, lstatSync, openSync, readlinkSync, realpathSync, renameSync, statSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { RequestLogEntry } from '../api/transport.js';
import { fsReason, fsWords } from '../config/fs-reason.js';
import { UsageError } from './usage.js';

export const DEBUG_LOG_MAX_BYTES = 10 * 1024 * 1024;

export function debugLogLine(entry: RequestLogEntry): string {
  const fields = [
    entry.time.toISOString(),
    entry.method,
    entry.url,
    entry.status === 0 ? '-' : String(entry.status),
    `${entry.ms.toFixed(1)}ms`,
    entry.requestId ?? '-',
    `retry=${entry.retry}`,
  ];
  if (entry.error) fields.push(JSON.stringify(entry.error));
  return `${fields.join(' ')}\n`;
}

export interface DebugLog {
  write(entry: RequestLogEntry): void;
  close(): void;
}

/**
 * Opens FILE to append (a usage error naming the option when it cannot be). The first write or
 * move that fails is reported once through `warn`, naming the option, and the log stops there: a
 * log of the requests is no reason to stop the requests themselves, nor to end a command that
 * did its work with a stack trace.
 */
export function openDebugLog(path: string, warn: (warning: string) => void, maxBytes = DEBUG_LOG_MAX_BYTES): DebugLog {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'a', 0o600);
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    // Opening to append creates the file, so a missing entry is a directory on the way.
    const why = code === 'ENOENT' ? 'no such directory' : (fsWords(code) ?? message);
    throw new UsageError(`option --debug-log: cannot write ${JSON.stringify(path)}: ${why}`);
  }
  const stat = fstatSync(fd);
  // A link (a dotfiles directory, /tmp/current.log) keeps pointing at the live file: its target moves.
  const target = stat.isFile() ? ownFile(path) : undefined;
  let size = stat.size;
  const stop = (what: string, error: unknown) => {
    warn(`option --debug-log: cannot ${what} ${JSON.stringify(path)} any more: ${fsReason(error)}; the log stops here`);
    close();
  };
  const close = () => {
    if (fd === undefined) return;
    try {
      closeSync(fd);
    } catch {
      // A close that fails (NFS, a failing disk) has lost nothing the writes did not report.
    }
    fd = undefined;
  };
  return {
    write(entry) {
      if (fd === undefined) return;
      const line = debugLogLine(entry);
      try {
        size += writeSync(fd, line);
      } catch (error) {
        stop('write', error);
        return;
      }
      if (target === undefined || size < maxBytes) return;
      try {
        const writing = fstatSync(fd);
        closeSync(fd);
        fd = undefined;
        // Another process on the same log (or logrotate) moved it already: this one was writing
        // to the moved file, and moving FILE now would put a fresh log over it.
        if (sameFile(writing, target)) renameSync(target, `${target}.1`);
        fd = openSync(target, 'a', 0o600);
        size = fstatSync(fd).size;
      } catch (error) {
        stop('start a new file for', error);
      }
    },
    close,
  };
}

/** The regular file `path` names, through its links, or undefined when it goes through /dev or /proc. */
function ownFile(path: string): string | undefined {
  const system = (p: string) => /^\/(dev|proc)(\/|$)/.test(p);
  try {
    let at = resolve(path);
    for (let hop = 0; hop < 40; hop++) {
      if (system(at)) return undefined;
      if (!lstatSync(at).isSymbolicLink()) break;
      at = resolve(dirname(at), readlinkSync(at));
    }
    const real = realpathSync(path);
    return system(real) ? undefined : real;
  } catch {
    return undefined;
  }
}

function sameFile(open: { dev: number; ino: number }, path: string): boolean {
  try {
    const named = statSync(path);
    return named.dev === open.dev && named.ino === open.ino;
  } catch {
    return false;
  }
}
