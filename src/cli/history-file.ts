// The history file opened for a subcommand that reads or changes what it keeps (alerts, holdings,
// the contact index), and closed after. What fails is said in the command's own words, naming the
// file: "cannot change the alerts in PATH: it is read-only (…)", "…: the disk is full". A file
// found damaged by any statement is moved aside and a new one started (with what of the alerts
// and lots could still be read), said in a warning, and the command runs again on the new one.
// A change runs in one transaction, so that running it again makes it once: what its first
// statements wrote before a later one found the damage is undone, not copied into the new file.
import { historyPath } from '../store/history-source.js';
import type { HistoryStore } from '../store/history-store.js';
import type { HistoryUse } from '../store/history-use.js';
import { sqliteCode } from '../sqlite/problems.js';
import { warn } from './poll-loop.js';

/**
 * Opens the history file for `body`, and closes it after, however `body` ends. A `body` that
 * writes is synchronous and runs in one transaction, unless its use `copies` (see HistoryUse).
 */
export async function withHistoryFile<T>(use: HistoryUse, body: (history: HistoryStore) => T | Promise<T>): Promise<T> {
  const [{ historyFailure, isDamaged }, { openHistoryFor }, { replaceDamaged }] = await Promise.all([
    import('../store/history-failure.js'),
    import('../store/history-use.js'),
    import('../store/history-store.js'),
  ]);
  const path = historyPath();
  const options = { onWarning: (w: string) => warn(`warning: ${w}`), doing: use.doing };
  let history = openHistoryFor(path, use, options);
  const run = () => (use.writes && !use.copies ? inOneTransaction(history, body) : body(history));
  try {
    try {
      return await run();
    } catch (error) {
      if (!isDamaged(error)) throw error;
      history = replaceDamaged(history, error, options);
      return await run();
    }
  } catch (error) {
    // SQLite's own failures only: what else the command meets (the network) is its own to say.
    throw sqliteCode(error) !== undefined ? historyFailure(path, error, use.doing) : error;
  } finally {
    history.close();
  }
}

/**
 * `body` in one transaction, on disk when it returns (synchronous = FULL for its commit): taking
 * the write lock first (IMMEDIATE), so that reading and then writing never finds the file changed
 * meanwhile by another process; undone whole when any statement of it fails.
 */
function inOneTransaction<T>(history: HistoryStore, body: (history: HistoryStore) => T | Promise<T>): T {
  const { db } = history;
  db.pragma('synchronous = FULL');
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = body(history);
    // A transaction held across the network would keep every other process from writing.
    if (result instanceof Promise) throw new Error('a change to the history runs synchronously, in one transaction');
    db.exec('COMMIT');
    return result;
  } catch (error) {
    try {
      if (db.inTransaction) db.exec('ROLLBACK');
    } catch {
      // A damaged file may fail even this: closing the connection undoes what it wrote.
    }
    throw error;
  }
}
