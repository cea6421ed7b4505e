// Asking again every interval until Ctrl-C or SIGTERM, for the commands that watch (quote --watch,
// alerts watch): a poll that fails is said once on stderr until it works again (then "answering
// again"), and a 429's wait is honoured; the loop ends with status 0.
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError } from '../api/errors.js';
import { sanitize } from '../text/sanitize.js';

/** A line on stderr, shown as any text from outside is. */
export const warn = (line: string): void => void process.stderr.write(`tickbook: ${sanitize(line)}\n`);

/**
 * The price recorder's lasting trouble (another process holds the history, a full disk) on stderr:
 * said when it starts or changes, and once when it is over.
 */
export function troubleOnStderr(): (trouble: string | undefined) => void {
  let said: string | undefined;
  return (trouble) => {
    if (trouble === said) return;
    warn(trouble === undefined ? 'price history: recording again' : `warning: ${trouble}`);
    said = trouble;
  };
}

export interface PollOptions {
  intervalS: number;
  now?: () => number;
  /** Told each time a poll fails (after it is said); a poll that works tells nothing. */
  onFailure?: () => void;
}

export async function pollUntilStopped(poll: (signal: AbortSignal) => Promise<void>, options: PollOptions): Promise<number> {
  const now = options.now ?? Date.now;
  const stop = new AbortController();
  const end = () => stop.abort();
  const signals = ['SIGINT', 'SIGTERM'] as const;
  for (const signal of signals) process.on(signal, end);
  let failing: string | undefined;
  try {
    while (!stop.signal.aborted) {
      const started = now();
      let delayMs = options.intervalS * 1000;
      try {
        await poll(stop.signal);
        if (failing !== undefined) warn('prices: answering again');
        failing = undefined;
      } catch (error) {
        if (stop.signal.aborted) break;
        const line = `prices: ${error instanceof ApiError ? error.describe() : (error as Error).message}`;
        // Failing the same way again is one line, not one per tick.
        if (line !== failing) warn(line);
        failing = line;
        options.onFailure?.();
        if (error instanceof ApiError && error.retryAfterMs !== undefined) delayMs = Math.max(delayMs, error.retryAfterMs);
      }
      await sleep(Math.max(0, delayMs - (now() - started)), undefined, { signal: stop.signal }).catch(() => undefined);
    }
    return 0;
  } finally {
    for (const signal of signals) process.off(signal, end);
  }
}
