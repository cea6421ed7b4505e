// The terminal's input as Ink reads it, one key sequence per settled render. An input handler
// only sees state as of the render it was subscribed in, and React subscribes a render's
// handlers a moment after drawing it (its passive effects). Two reads back to back (a script
// typing, a slow link, a busy moment), or an arrow key and letters in one read, would otherwise
// reach the handlers of the same render: a text field then edits the value it was drawn with
// and keys are lost. Pacing the input lets React draw and resubscribe in between.
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { canonicalKey, splitInput } from './keys/terminal-input.js';
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

/** How long to wait for the rest of an escape sequence cut between two reads. */
const SEQUENCE_WAIT_MS = 20;

export class PacedInput extends Readable {
  readonly isTTY: boolean;
  readonly #source: TerminalInput;
  // Decoded here, once: Ink sets an encoding each time a handler subscribes, which would start
  // a new decoder between two halves of a character.
  readonly #decoder = new StringDecoder('utf8');
  readonly #queue: string[] = [];
  /** A read ending inside an escape sequence, waiting for the rest. */
  #unfinished = '';
  #unfinishedTimer: NodeJS.Timeout | undefined;
  #scheduled = false;
  /** Detached: the terminal is no longer this input's (the shell's again, or gone). */
  #detached = false;
  readonly #onData = (chunk: Buffer | string): void => {
    const text = this.#unfinished + (typeof chunk === 'string' ? chunk : this.#decoder.write(chunk));
    this.#unfinished = '';
    clearTimeout(this.#unfinishedTimer);
    const { pieces, rest } = splitInput(text);
    if (rest !== '') {
      this.#unfinished = rest;
      this.#unfinishedTimer = setTimeout(() => {
        // Its end never came: what it is, if anything, goes on its own.
        this.#enqueue([this.#unfinished]);
        this.#unfinished = '';
      }, SEQUENCE_WAIT_MS);
    }
    this.#enqueue(pieces);
  };

  constructor(source: TerminalInput) {
    super({ encoding: 'utf8' });
    this.#source = source;
    this.isTTY = source.isTTY === true;
    source.on('data', this.#onData);
  }

  override setEncoding(_encoding?: BufferEncoding): this {
    return this;
  }

  // Once detached, the terminal is not touched again: Ink restores the mode on its way out, and
  // on a terminal that has gone away that fails (EIO).
  setRawMode(mode: boolean): this {
    if (!this.#detached) this.#source.setRawMode?.(mode);
    return this;
  }

  ref(): this {
    if (!this.#detached) this.#source.ref?.();
    return this;
  }

  unref(): this {
    if (!this.#detached) this.#source.unref?.();
    return this;
  }

  /** Stops reading the terminal: what is typed after this is the shell's. */
  detach(): void {
    this.#detached = true;
    this.#queue.length = 0;
    clearTimeout(this.#unfinishedTimer);
    this.#source.off('data', this.#onData);
    this.#source.pause();
  }

  override _read(): void {
    // Data is pushed as it is paced, not pulled.
  }

  /** Queues what Ink can be given of these pieces; the rest (no key of ours) is dropped here. */
  #enqueue(pieces: readonly string[]): void {
    for (const piece of pieces) {
      const key = canonicalKey(piece);
      if (key !== undefined) this.#queue.push(key);
    }
    this.#schedule();
  }

  #schedule(): void {
    if (this.#scheduled || this.#queue.length === 0) return;
    this.#scheduled = true;
    setImmediate(() => {
      const piece = this.#queue.shift();
      if (piece !== undefined) this.push(piece);
      // Ink reads the piece on the next tick, and React queues its rendering and effects in its
      // scheduler; the next piece waits behind them there, at a lower priority, and then one
      // timer turn more for the renders those effects cause (a field's cursor).
      process.nextTick(() =>
        scheduleCallback(LowPriority, () => {
          setTimeout(() => {
            this.#scheduled = false;
            this.#schedule();
          }, 0);
        }),
      );
    });
  }
}
