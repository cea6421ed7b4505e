// The writes the user asked for that have not reached the server yet: those held back for an
// undo window, and those under way. It lives outside React, owned by whoever runs the dashboard,
// so that every way out (q, a signal, the terminal closing, a crash that took React down) sends
// what is held back and waits for what is under way: a confirmed delete is never lost, and one
// the server refuses (or never answers) once the user is leaving is reported, not dropped.
//
// Undo windows run on a monotonic clock: the wall clock can be stepped (by hand, by NTP, a VM
// resumed) and a window must neither stretch to an hour nor vanish. The countdown the screen
// shows reads the same clock (`now`) as the one the ledger sends by.

export type Clock = () => number;

export const monotonic: Clock = () => performance.now();

/** What wakes the ledger: the process's timers, or a test's, which runs them as its clock moves. */
export interface Timers {
  set(wake: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const realTimers: Timers = {
  set: (wake, ms) => setTimeout(wake, ms),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout | undefined),
};

/**
 * How long leaving waits for answers: as long as the transport waits for an answer's headers
 * (DEFAULT_TIMEOUTS.headersMs), so a DELETE sent on the way out gets its full chance, but a
 * server that never answers cannot keep the user from leaving.
 */
export const SETTLE_TIMEOUT_MS = 10_000;

/** A write that, once the user had begun to leave, failed or went unanswered. */
export type Unfinished =
  | { what: string; failed: true; error: unknown }
  /** No answer by the deadline: it may yet have been done. */
  | { what: string; failed: false; waitedMs: number };

interface Deferred {
  /** Undefined while held: the window does not run out while nobody can see it. */
  timer: unknown;
  /** When it is sent (on the ledger's clock), or, while held, how long it had left. */
  dueAt: number;
  heldLeftMs: number | undefined;
  send: () => Promise<unknown>;
}

export class WriteLedger {
  readonly #clock: Clock;
  /** Held back until their time comes or they are cancelled; one per key. */
  readonly #deferred = new Map<string, Deferred>();
  /** Under way, each with what it does in words when the caller said (for the report). */
  readonly #inFlight = new Map<Promise<unknown>, string | undefined>();
  /** The settling under way: every way out that asks shares its one deadline. */
  #settling: Promise<void> | undefined;
  /** Set when leaving begins: the clock reading at which waiting for answers stops. */
  #leaving: { by: number; timeoutMs: number } | undefined;
  readonly #unfinished: Unfinished[] = [];

  readonly #timers: Timers;

  constructor(clock: Clock = monotonic, timers: Timers = realTimers) {
    this.#clock = clock;
    this.#timers = timers;
  }

  /** The clock undo windows are measured on (a due time minus this is the time left). */
  readonly now = (): number => this.#clock();

  /**
   * Holds `send` back for `delayMs` (an undo window); returns when it is due, on `now`'s clock.
   * A write already held under the same key is sent at once: one undo window per key at a time.
   */
  defer(key: string, delayMs: number, send: () => Promise<unknown>): number {
    // Not left to the caller: an entry replaced without this would leave its timer to send the new one early.
    void this.sendNow(key);
    const deferred: Deferred = { timer: undefined, dueAt: this.#clock() + delayMs, heldLeftMs: undefined, send };
    this.#deferred.set(key, deferred);
    this.#arm(key, deferred);
    return deferred.dueAt;
  }

  /**
   * Stops the clock of a held-back write (its undo offer cannot be seen): it is sent by release,
   * settle or sendNow, never by its timer meanwhile. True when there was one running.
   */
  hold(key: string): boolean {
    const deferred = this.#deferred.get(key);
    if (!deferred || deferred.timer === undefined) return false;
    this.#timers.clear(deferred.timer);
    deferred.timer = undefined;
    deferred.heldLeftMs = Math.max(0, deferred.dueAt - this.#clock());
    return true;
  }

  /** Starts the clock of a held write again with the time it had left; its new due time, if any. */
  release(key: string): number | undefined {
    const deferred = this.#deferred.get(key);
    if (!deferred || deferred.heldLeftMs === undefined) return undefined;
    deferred.dueAt = this.#clock() + deferred.heldLeftMs;
    deferred.heldLeftMs = undefined;
    this.#arm(key, deferred);
    return deferred.dueAt;
  }

  /**
   * The timer only wakes the ledger: its own clock decides whether the window is over, so what
   * is sent agrees with what the countdown showed, whatever clock the timer keeps.
   */
  #arm(key: string, deferred: Deferred): void {
    deferred.timer = this.#timers.set(
      () => {
        if (this.#deferred.get(key) !== deferred) return;
        if (deferred.dueAt - this.#clock() > 0) this.#arm(key, deferred);
        else void this.sendNow(key);
      },
      Math.max(0, deferred.dueAt - this.#clock()),
    );
  }

  /** Forgets a held-back write (undone); true when there was one. */
  cancel(key: string): boolean {
    const deferred = this.#deferred.get(key);
    if (!deferred) return false;
    this.#timers.clear(deferred.timer);
    this.#deferred.delete(key);
    return true;
  }

  /** Sends a held-back write now, if there is one; resolves when it has ended. */
  sendNow(key: string): Promise<void> {
    const deferred = this.#deferred.get(key);
    if (!deferred) return Promise.resolve();
    this.cancel(key);
    // Sent now, not on a later tick: the caller's next step may depend on it having started. A
    // send that throws at once must not stop the others from being sent.
    let work: Promise<unknown>;
    try {
      work = deferred.send();
    } catch (error) {
      work = Promise.reject(error);
    }
    return this.track(work).then(
      () => undefined,
      () => undefined,
    );
  }

  /**
   * Remembers a write under way until it ends. With `what` ("delete Ann"), a rejection that
   * comes once leaving has begun, when the screen can no longer say so, is kept for unfinished().
   */
  track<T>(work: Promise<T>, what?: string): Promise<T> {
    this.#inFlight.set(work, what);
    work.then(
      () => this.#inFlight.delete(work),
      (error: unknown) => {
        // Not there any more: given up on at the deadline, and reported as unanswered already.
        if (!this.#inFlight.delete(work)) return;
        if (what !== undefined && this.#leaving) this.#unfinished.push({ what, failed: true, error });
      },
    );
    return work;
  }

  /**
   * Sends everything held back now and waits for every write under way, until `timeoutMs` after
   * the first call: a second way out (q, then the run ending) does not wait all over again.
   */
  settle(timeoutMs = SETTLE_TIMEOUT_MS): Promise<void> {
    this.#settling ??= this.#settle(timeoutMs).finally(() => {
      this.#settling = undefined;
    });
    return this.#settling;
  }

  async #settle(timeoutMs: number): Promise<void> {
    this.#leaving ??= { by: this.#clock() + timeoutMs, timeoutMs };
    for (const key of [...this.#deferred.keys()]) void this.sendNow(key);
    let timer: unknown;
    const deadline = new Promise<void>((resolve) => {
      timer = this.#timers.set(resolve, Math.max(0, this.#leaving!.by - this.#clock()));
    });
    // Writes that start while waiting (a send that leads to another) are waited for too.
    const all = async (): Promise<void> => {
      while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight.keys()]);
    };
    await Promise.race([all(), deadline]);
    this.#timers.clear(timer);
    // What has not answered by now is left behind: the caller closes the connections it uses.
    for (const [work, what] of this.#inFlight) {
      this.#inFlight.delete(work);
      if (what !== undefined) this.#unfinished.push({ what, failed: false, waitedMs: this.#leaving.timeoutMs });
    }
  }

  /** Writes that failed or went unanswered once leaving had begun, in the order they ended. */
  unfinished(): readonly Unfinished[] {
    return [...this.#unfinished];
  }

  /** Drops what is held back without sending it (a test's component going away). */
  discard(): void {
    for (const key of [...this.#deferred.keys()]) this.cancel(key);
  }
}
