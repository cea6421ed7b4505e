// The terminal going away (its window closed, its connection dropped): how it shows, and the
// status that says so. Kept apart from the dashboard so the command line can read it without
// loading Ink.
import { constants } from 'node:os';

/** The status a shell reports for a process `signal` ended: 128 + its number (SIGINT: 130). */
export const signalStatus = (signal: NodeJS.Signals): number => 128 + constants.signals[signal];

/** The status when the terminal went away: 128 + SIGHUP, as a shell reports a hung-up job. */
export const HUNG_UP = signalStatus('SIGHUP');

/** Errors reading or writing a terminal that mean it is gone. */
const TERMINAL_GONE = new Set(['EIO', 'EPIPE', 'ENXIO', 'EBADF', 'ECONNRESET']);

export const isTerminalGone = (error: unknown): boolean => TERMINAL_GONE.has((error as { code?: string })?.code ?? '');

/**
 * Ends the process as SIGHUP's default action does. Not process.exit: at exit Node 20 restores the
 * terminal's settings and aborts with a native stack when the terminal is gone (fixed in Node 24,
 * nodejs/node#58200). The caller has already sent what was pending and closed its files.
 */
export function endByHangUp(): void {
  process.removeAllListeners('SIGHUP');
  process.kill(process.pid, 'SIGHUP');
}
