// Ctrl-C and SIGTERM during `contacts import`: an import stopped part way still reports what it
// did (and writes its rejects), so a signal stops it in steps rather than ending the process.
import { signalStatus } from '../tui/terminal/hang-up.js';

/**
 * Ctrl-C or SIGTERM while the import runs. The first stops it where it is: nothing more is read,
 * nothing more sent, a create waiting out a 429 is not sent, and the creates under way are
 * answered; the report so far follows. A second cuts off those creates too (each is then failed,
 * "it may have been made": an import run again finds it). A third ends the process at once, for
 * what nothing else ends (a rejects FIFO whose reader reads nothing).
 */
export class Interruption {
  /** Aborted by the first signal: reading on, and sending. */
  readonly reading = new AbortController();
  /** Aborted by the second: the creates under way. */
  readonly sending = new AbortController();
  signal: NodeJS.Signals | undefined;
  readonly #on = (signal: NodeJS.Signals) => {
    if (this.signal === undefined) {
      this.signal = signal;
      this.reading.abort(new Error(`interrupted by ${signalWords(signal)}`));
    } else if (!this.sending.signal.aborted) {
      this.sending.abort(new Error(`interrupted by ${signalWords(signal)} before the server answered: it may have been created (an import run again finds it)`));
    } else {
      process.stderr.write('\ntickbook: stopping now, without the report\n');
      process.exit(signalStatus(this.signal));
    }
  };
  constructor() {
    process.on('SIGINT', this.#on);
    process.on('SIGTERM', this.#on);
  }
  end(): void {
    process.off('SIGINT', this.#on);
    process.off('SIGTERM', this.#on);
  }
}

/** A signal as the import names it. */
export const signalWords = (signal: NodeJS.Signals): string => (signal === 'SIGINT' ? 'Ctrl-C (SIGINT)' : signal);
