// The history file opened for a subcommand that writes to it (alerts, holdings), and closed after.
import { historyPath } from '../store/history-source.js';
import type { HistoryStore } from '../store/history-store.js';
import { warn } from './poll-loop.js';

/** Opens the history file for `body`, and closes it after, however `body` ends. */
export async function withHistoryFile<T>(body: (history: HistoryStore) => T | Promise<T>): Promise<T> {
  const { openHistoryStore } = await import('../store/history-store.js');
  const history = openHistoryStore(historyPath(), { onWarning: (w) => warn(`warning: ${w}`) });
  try {
    return await body(history);
  } finally {
    history.close();
  }
}
