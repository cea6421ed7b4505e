// The terminal's input as Ink reads it, one key sequence per settled render. An input handler
// only sees state as of the render it was subscribed in, and React subscribes a render's
// handlers a moment after drawing it (its passive effects). Two reads back to back (a script
// typing, a slow link, a busy moment), or an arrow key and letters in one read, would otherwise
// reach the handlers of the same render: ink-text-input then edits the value it was drawn with
// and keys are lost. Pacing the input lets React draw and resubscribe in between.
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
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

/**
 * A read cut into what Ink will see as separate keys: escape sequences and control keys (Enter,
 * Backspace, Ctrl-U) on their own, and the text between them whole (a paste stays one piece;
 * Ink hands it to a field in one go).
 */
// eslint-disable-next-line no-control-regex
const PIECES = /\u001b(?:\u001b?\[[0-?]*[ -/]*[@-~]|\u001b?O[\s\S]|[\s\S])?|[\u0000-\u001a\u001c-\u001f\u007f]|[^\u0000-\u001f\u007f]+/g;
/** A read that stops inside an escape sequence: the rest is in the next read. */
// eslint-disable-next-line no-control-regex
const UNFINISHED = /\u001b(?:\[[0-?]*[ -/]*|O)?$/;
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
  readonly #onData = (chunk: Buffer | string): void => {
    const text = this.#unfinished + (typeof chunk === 'string' ? chunk : this.#decoder.write(chunk));
    this.#unfinished = '';
    clearTimeout(this.#unfinishedTimer);
    let complete = text;
    // A lone Esc is a key: only a longer start of a sequence waits for its end.
    const cut = UNFINISHED.exec(text);
    if (cut && cut[0].length > 1) {
      this.#unfinished = cut[0];
      this.#unfinishedTimer = setTimeout(() => {
        // Its end never came: Ink makes of it what it can.
        this.#queue.push(this.#unfinished);
        this.#unfinished = '';
        this.#schedule();
      }, SEQUENCE_WAIT_MS);
      complete = text.slice(0, cut.index);
    }
    for (const piece of complete.match(PIECES) ?? []) this.#queue.push(piece);
    this.#schedule();
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
    clearTimeout(this.#unfinishedTimer);
    this.#source.off('data', this.#onData);
    this.#source.pause();
  }

  override _read(): void {
    // Data is pushed as it is paced, not pulled.
  }

  #schedule(): void {
    if (this.#scheduled || this.#queue.length === 0) return;
    this.#scheduled = true;
    setImmediate(() => {
      const piece = this.#queue.shift();
      if (piece !== undefined) this.push(piece);
      // Ink reads the piece on the next tick, and React queues its rendering and effects in its
      // scheduler; the next piece waits behind them there, at a lower priority, and then one
      // timer turn more for the renders those effects cause (ink-text-input's cursor).
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
