// One pause for every call a command has under way at once (the import's creates, a few at a
// time): a 429 answered to any of them holds them all for as long as the server asks, since the
// others would only be refused too, and each call refused is sent again after it, so that none is
// counted twice or lost. The wait is the dashboard's (api/retry.ts): a Retry-After at its word,
// then longer if the server keeps refusing. A server asking for more than MAX_RETRY_AFTER_MS is
// not waited for: the caller stops, and says so.
import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiError } from '../api/errors.js';
import { MAX_RETRY_AFTER_MS } from '../api/transport.js';
import { retryDelayMs } from '../api/retry.js';

export interface PauseClock {
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason once `signal` aborts. */
  sleep(ms: number, signal: AbortSignal | undefined): Promise<void>;
}

const REAL_CLOCK: PauseClock = { now: Date.now, sleep: (ms, signal) => sleep(ms, undefined, { signal }) };

/** The longest wait between tries when the server says nothing of how long (no Retry-After). */
const MAX_BACKOFF_MS = 60_000;

/**
 * What a 429 means for the call it answered: wait `waitMs` from now and send it again (`fresh`
 * when this 429 began the pause, which is then said), or stop: the server asked for `tooLongMs`.
 */
export type SlowDown = { waitMs: number; fresh: boolean } | { tooLongMs: number };

export class RatePause {
  readonly #clock: PauseClock;
  /** Until when every call is held (the clock's ms); 0 before any pause. */
  #until = 0;
  /** Counts the pauses begun: a call carries the round it was sent in. */
  #round = 0;
  /** Pauses in a row with no call answered between them. */
  #inRow = 0;

  constructor(clock: PauseClock = REAL_CLOCK) {
    this.#clock = clock;
  }

  /** Until when calls are held (the clock's ms), for a countdown; in the past when none is. */
  get until(): number {
    return this.#until;
  }

  /**
   * Resolves when no pause holds (at once when none does) with the round the call goes in, to
   * give asked() if it is refused; rejects when `signal` aborts the wait.
   */
  async ready(signal?: AbortSignal): Promise<number> {
    for (;;) {
      signal?.throwIfAborted();
      const left = this.#until - this.#clock.now();
      if (left <= 0) return this.#round;
      await this.#clock.sleep(left, signal);
    }
  }

  /** A call was answered: the server takes requests again, and the next pause is its word again. */
  answered(): void {
    this.#inRow = 0;
  }

  /**
   * A 429 to a call sent in `round`. The first of a round begins a pause for all; the others
   * were sent before it began, so they only wait for it (and are sent again after it, with every
   * call held meanwhile).
   */
  asked(error: ApiError, round: number): SlowDown {
    if (error.retryAfterAskedMs !== undefined) return { tooLongMs: error.retryAfterAskedMs };
    const now = this.#clock.now();
    if (round !== this.#round) return { waitMs: Math.max(0, this.#until - now), fresh: false };
    const waitMs = retryDelayMs(error, this.#inRow++, MAX_BACKOFF_MS);
    this.#round++;
    this.#until = now + waitMs;
    return { waitMs, fresh: true };
  }
}

/** The most a server may ask an import to wait, in words: "5 minutes". */
export const LONGEST_WAIT_WORDS = `${MAX_RETRY_AFTER_MS / 60_000} minutes`;
