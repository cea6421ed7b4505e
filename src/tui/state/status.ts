// What the status line says: where tickbook is connected, the last request's latency, the latest
// error per source (cleared once that source succeeds again, or, for a server that could not be
// reached, once that server answers anything), and the latest notice, which fades. The last
// messages are kept for the message log.
import { useSyncExternalStore } from 'react';
import { ApiError } from '../../api/errors.js';
import type { RequestLogEntry } from '../../api/transport.js';

/**
 * `settings`: saving the watchlist and interval; only a save that works clears it. `history`: the
 * price history held by another process or on a full disk; cleared once recording works again.
 */
export type Source = 'contacts' | 'ticker' | 'symbols' | 'settings' | 'history';

/** How long a notice ("renamed to …") stays in the status line. */
export const NOTICE_MS = 5000;
/** Messages the log keeps; older ones go (bounded: a week of polling must not grow it). */
export const HISTORY_LIMIT = 50;

export interface StatusMessage {
  at: number;
  kind: 'error' | 'notice';
  text: string;
}

export interface StatusSnapshot {
  /** The newest error still standing, in words, and when it will be retried. */
  error: { source: Source; message: string; retryAt: number | undefined } | undefined;
  /** A short note about the last thing done ("renamed …"), until it fades or is replaced. */
  notice: string | undefined;
  /** Work under way, for the spinner. */
  busy: number;
  /** The latest messages, oldest first, at most HISTORY_LIMIT. */
  history: readonly StatusMessage[];
}

interface StandingError {
  message: string;
  retryAt: number | undefined;
  /** The server that could not be reached: any answer from it means the error has passed. */
  origin: string | undefined;
}

const originOf = (url: string): string | undefined => {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
};

/**
 * What the dashboard has to say, outside React: every feature and the client post to it (a
 * failure, a notice, a call under way), the status line and the message log read it.
 */
export class StatusBoard {
  #snapshot: StatusSnapshot = { error: undefined, notice: undefined, busy: 0, history: [] };
  /**
   * The last request's latency. Not part of the snapshot: a new figure is shown with the frame
   * its answer causes anyway, instead of costing a frame of its own.
   */
  latencyMs: number | undefined;
  readonly #errors = new Map<Source, StandingError>();
  readonly #listeners = new Set<() => void>();
  #noticeTimer: NodeJS.Timeout | undefined;
  readonly #now: () => number;
  readonly #noticeMs: number;

  /** `now` and `noticeMs` are for tests. */
  constructor(now: () => number = Date.now, noticeMs = NOTICE_MS) {
    this.#now = now;
    this.#noticeMs = noticeMs;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  readonly getSnapshot = (): StatusSnapshot => this.#snapshot;

  /** Every error standing, by source (the snapshot has only the newest): a screen reader says each once, and its end. */
  readonly standing = (): ReadonlyMap<Source, string> => new Map([...this.#errors].map(([source, error]) => [source, error.message]));

  /** Feed for the client's onRequest hook. */
  readonly request = (entry: RequestLogEntry): void => {
    if (entry.status === 0) return;
    this.latencyMs = entry.ms;
    if (this.#errors.size === 0) return;
    // The server answered: whatever said it could not be reached is no longer true.
    const origin = originOf(entry.url);
    let cleared = false;
    for (const [source, error] of this.#errors) {
      if (error.origin !== undefined && error.origin === origin) cleared = this.#errors.delete(source);
    }
    if (cleared) this.#publishError();
  };

  /**
   * The latest error of `source`. `cause` is the error itself: when it says a server could not be
   * reached, the message goes as soon as that server answers anything.
   */
  fail(source: Source, message: string, retryAt?: number, cause?: unknown): void {
    const before = this.#errors.get(source);
    const origin = cause instanceof ApiError && (cause.kind === 'network' || cause.kind === 'timeout') ? cause.origin : undefined;
    // The same error again, and the newest already (a symbol left out of every poll): nothing on
    // the status line changes, and nothing that shows it is drawn again.
    if (before && before.message === message && before.retryAt === retryAt && before.origin === origin && [...this.#errors.keys()].at(-1) === source) return;
    this.#errors.delete(source);
    this.#errors.set(source, { message, retryAt, origin });
    // A poll failing the same way every few seconds is one message in the log, not hundreds.
    const history = before?.message === message ? this.#snapshot.history : this.#logged('error', message);
    this.#publishError(history);
  }

  recover(source: Source): void {
    if (this.#errors.delete(source)) this.#publishError();
  }

  notice(text: string): void {
    clearTimeout(this.#noticeTimer);
    this.#noticeTimer = setTimeout(() => this.#set({ notice: undefined }), this.#noticeMs);
    // A notice must not keep the process alive (tests, quitting).
    this.#noticeTimer.unref?.();
    this.#set({ notice: text, history: this.#logged('notice', text) });
  }

  /** Counts work under way; returns the function that ends it. */
  begin(): () => void {
    this.#set({ busy: this.#snapshot.busy + 1 });
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.#set({ busy: this.#snapshot.busy - 1 });
    };
  }

  #logged(kind: StatusMessage['kind'], text: string): readonly StatusMessage[] {
    const history = this.#snapshot.history;
    const last = history.at(-1);
    // Said again straight away (a key held at the last page): one entry, at its latest time.
    const kept = last?.kind === kind && last.text === text ? history.slice(0, -1) : history;
    return [...kept, { at: this.#now(), kind, text }].slice(-HISTORY_LIMIT);
  }

  #publishError(history = this.#snapshot.history): void {
    const newest = [...this.#errors].at(-1);
    this.#set({ error: newest ? { source: newest[0], message: newest[1].message, retryAt: newest[1].retryAt } : undefined, history });
  }

  #set(change: Partial<StatusSnapshot>): void {
    this.#snapshot = { ...this.#snapshot, ...change };
    for (const listener of this.#listeners) listener();
  }
}

export function useStatus(store: StatusBoard): StatusSnapshot {
  return useSyncExternalStore(store.subscribe, store.getSnapshot);
}
