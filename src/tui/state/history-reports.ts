// How the price recorder's words reach the dashboard's status line: a warning (a file moved aside,
// a write refused) as a notice that fades, and a trouble that lasts (another process holds the
// file, the disk is full) as an error that stays until the recorder says it is over.
import type { PriceRecorderOptions } from '../../store/price-recorder.js';
import type { StatusBoard } from './status.js';

export const historyReports = (status: StatusBoard): Pick<PriceRecorderOptions, 'onWarning' | 'onTrouble'> => ({
  onWarning: (warning) => status.notice(`warning: ${warning}`),
  onTrouble: (trouble, retryAt) => (trouble === undefined ? status.recover('history') : status.fail('history', trouble, retryAt)),
});

/**
 * How long the dashboard's statements wait for another process's lock on the history before the
 * file counts as held. They run on the thread that reads keys and draws frames, so the wait is a
 * freeze: 2 s (what quote --watch, alerts watch and the commands wait) froze the first poll that
 * met a long lock. Another tickbook holds the lock for milliseconds (bench:history on the shared
 * 2-core VM: a poll's record at most 51 ms, a compaction slice 8 ms, a command's change committed
 * to disk 5 ms), and a file held longer is said in the status line and tried without waiting
 * until a write works.
 */
export const DASHBOARD_LOCK_WAIT_MS = 250;

/** The dashboard's recorder: its words to the status line, and its short wait for a lock. */
export const dashboardRecording = (status: StatusBoard): Pick<PriceRecorderOptions, 'onWarning' | 'onTrouble' | 'lockWaitMs'> => ({
  ...historyReports(status),
  lockWaitMs: DASHBOARD_LOCK_WAIT_MS,
});
