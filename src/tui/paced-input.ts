// The terminal's input as Ink reads it, one read per turn of the event loop. An input handler
// only sees state as of the render it was subscribed in, and React subscribes a render's
// handlers a moment after drawing it (its passive effects, run from the next turn). Two reads
// back to back (a script typing, a slow link, a busy moment) would otherwise both reach the
// handlers of the same render: ink-text-input then edits the value it was drawn with and the
// first key is lost. Pacing the reads lets React draw and resubscribe between them.
import { Readable } from 'node:stream';
import { unstable_LowPriority as LowPriority, unstable_scheduleCallback as scheduleCallback } from 'scheduler';

/** What is needed of process.stdin. */
export interface TerminalInput extends NodeJS.EventEmitter {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
  ref?(): unknown;
  unref?(): unknown;
  pause(): unknown;
  resume(): unknown;
}

export class PacedInput extends Readable {
  readonly isTTY: boolean;
  readonly #source: TerminalInput;
  readonly #queue: Buffer[] = [];
  #scheduled = false;
  readonly #onData = (chunk: Buffer | string): void => {
    this.#queue.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    this.#schedule();
  };

  constructor(source: TerminalInput) {
    super();
    this.#source = source;
    this.isTTY = source.isTTY === true;
    source.on('data', this.#onData);
  }

  setRawMode(mode: boolean): this {
    this.#source.setRawMode?.(mode);
    return this;
  }

  ref(): this {
    this.#source.ref?.();
    return this;
  }

  unref(): this {
    this.#source.unref?.();
    return this;
  }

  /** Stops reading the terminal: what is typed after this is the shell's. */
  detach(): void {
    this.#source.off('data', this.#onData);
    this.#source.pause();
  }

  override _read(): void {
    // Data is pushed as it is paced, not pulled.
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      const chunk = this.#queue.shift();
      if (chunk) this.push(chunk);
      // Ink reads the chunk on the next tick, and React queues its rendering and effects in its
      // scheduler; the following chunk waits behind them there, at a lower priority, and then
      // one timer turn more for the renders those effects cause (ink-text-input's cursor).
      process.nextTick(() =>
        scheduleCallback(LowPriority, () => {
          setTimeout(() => {
            this.#scheduled = false;
            if (this.#queue.length > 0) this.#schedule();
          }, 0);
        }),
      );
    });
  }
}
