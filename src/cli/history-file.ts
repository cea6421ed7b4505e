// The history file opened for a subcommand that reads or changes what it keeps (alerts, holdings,
// the contact index), and closed after. What fails is said in the command's own words, naming the
// file: "cannot change the alerts in PATH: it is read-only (…)", "…: the disk is full". A file
// found damaged by any statement is moved aside and a new one started (with what of the alerts
// and lots could still be read), said in a warning, and the command runs again on the new one.
import { historyPath } from '../store/history-source.js';
import type { HistoryStore, HistoryUse } from '../store/history-store.js';
import { sqliteCode } from '../sqlite/problems.js';
import { warn } from './poll-loop.js';

/** Opens the history file for `body`, and closes it after, however `body` ends. */
export async function withHistoryFile<T>(use: HistoryUse, body: (history: HistoryStore) => T | Promise<T>): Promise<T> {
  const { historyFailure, isDamaged, openHistoryFor, replaceDamaged } = await import('../store/history-store.js');
  const path = historyPath();
  const options = { onWarning: (w: string) => warn(`warning: ${w}`), doing: use.doing };
  let history = openHistoryFor(path, use, options);
  try {
    try {
      return await body(history);
    } catch (error) {
      if (!isDamaged(error)) throw error;
      history = replaceDamaged(history, error, options);
      return await body(history);
    }
  } catch (error) {
    // SQLite's own failures only: what else the command meets (the network) is its own to say.
    throw sqliteCode(error) !== undefined ? historyFailure(path, error, use.doing) : error;
  } finally {
    history.close();
  }
}
