// A fixed one-second window per caller: simple, predictable, and enough for a client to practise
// honouring Retry-After against.
import { HttpError } from './errors.js';

export class RateLimiter {
  readonly #perSecond: number;
  readonly #now: () => number;
  #window = -1;
  readonly #counts = new Map<string, number>();

  constructor(perSecond: number, now: () => number = Date.now) {
    this.#perSecond = perSecond;
    this.#now = now;
  }

  /** Counts one request by `caller`; throws 429 once the caller is over its rate this second. */
  take(caller: string): void {
    const nowMs = this.#now();
    const window = Math.floor(nowMs / 1000);
    if (window !== this.#window) {
      this.#window = window;
      this.#counts.clear();
    }
    const count = (this.#counts.get(caller) ?? 0) + 1;
    this.#counts.set(caller, count);
    if (count > this.#perSecond) {
      const retryAfter = Math.max(1, Math.ceil(((window + 1) * 1000 - nowMs) / 1000));
      throw new HttpError('rate_limited', `too many requests: at most ${this.#perSecond} per second`, {
        'retry-after': String(retryAfter),
      });
    }
  }
}
