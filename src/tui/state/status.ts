// What the status line says: where tickbook is connected, the last request's latency, and the
// latest error per source, which clears once that source succeeds again.
import { useSyncExternalStore } from 'react';
import type { RequestLogEntry } from '../../api/transport.js';

export type Source = 'contacts' | 'ticker' | 'symbols';

export interface StatusSnapshot {
  /** The newest error still standing, in words, and when it will be retried. */
  error: { source: Source; message: string; retryAt: number | undefined } | undefined;
  /** A short note about the last thing done ("renamed …"), shown until replaced. */
  notice: string | undefined;
  /** Work under way, for the spinner. */
  busy: number;
}

/** A tiny store outside React: the client reports into it from any call, the status line reads it. */
export class StatusStore {
  #snapshot: StatusSnapshot = { error: undefined, notice: undefined, busy: 0 };
  /**
   * The last request's latency. Not part of the snapshot: a new figure is shown with the frame
   * its answer causes anyway, instead of costing a frame of its own.
   */
  latencyMs: number | undefined;
  readonly #errors = new Map<Source, { message: string; retryAt: number | undefined }>();
  readonly #listeners = new Set<() => void>();

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  readonly getSnapshot = (): StatusSnapshot => this.#snapshot;

  /** Feed for the client's onRequest hook. */
  readonly request = (entry: RequestLogEntry): void => {
    if (entry.status !== 0) this.latencyMs = entry.ms;
  };

  fail(source: Source, message: string, retryAt?: number): void {
    this.#errors.delete(source);
    this.#errors.set(source, { message, retryAt });
    this.#publishError();
  }

  recover(source: Source): void {
    if (this.#errors.delete(source)) this.#publishError();
  }

  notice(text: string): void {
    this.#set({ notice: text });
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

  #publishError(): void {
    const newest = [...this.#errors].at(-1);
    this.#set({ error: newest ? { source: newest[0], ...newest[1] } : undefined });
  }

  #set(change: Partial<StatusSnapshot>): void {
    this.#snapshot = { ...this.#snapshot, ...change };
    for (const listener of this.#listeners) listener();
  }
}

export function useStatus(store: StatusStore): StatusSnapshot {
  return useSyncExternalStore(store.subscribe, store.getSnapshot);
}
