// The terminal's input as Ink reads it, one key sequence per settled render. An input handler
// only sees state as of the render it was subscribed in, and React subscribes a render's
// handlers a moment after drawing it (its passive effects). Two reads back to back (a script
// typing, a slow link, a busy moment), or an arrow key and letters in one read, would otherwise
// reach the handlers of the same render: a text field then edits the value it was drawn with
// and keys are lost. Pacing the input lets React draw and resubscribe in between.
import { BACKGROUND_ANSWER } from '../terminal/background.js';
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { partialMarkAtEnd, PASTE_END, PASTE_START } from './paste.js';
import { canonicalKey, splitInput } from './terminal-input.js';
import { isMouseReport, type MouseReport, parseMouseReport, X10Rewriter } from '../mouse/mouse-report.js';
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
/**
 * A paste that stalls this long (a slow link) goes into the field as far as it came, and the
 * paste goes on: what follows before its end mark is text too, never keys.
 */
const PASTE_STALL_MS = 2000;
/** A paste whose end mark has still not come after this long without input ends there. */
const PASTE_GIVE_UP_MS = 10_000;
/**
 * How long after a mouse report was cut off and dropped (its end later than SEQUENCE_WAIT_MS, a
 * slow link) the rest of it is still known for what it is, and dropped too rather than typed.
 */
const REPORT_TAIL_MS = 1000;
/** The rest of a cut SGR report: its numbers and final byte (after `ESC [ <`), or all of it after a lone ESC. */
const REPORT_TAIL = /^[\d;]*[Mm]/;
const REPORT_AFTER_ESC = /^\[<\d+;\d+;\d+[Mm]/;
/** The most of one paste kept (a one-line field holds far less; the rest is not held in memory). */
export const PASTE_MAX = 1024 * 1024;

/**
 * Told of each paste, in order with the keys around it: returns the text to type (into the field
 * that has focus), or undefined when the paste has nowhere to go.
 */
export type PasteHandler = (text: string) => string | undefined;

/**
 * Told of each mouse report, in order with the keys around it; `count` is how many of the same
 * wheel step in the same cell it stands for (a wheel turned fast, a touchpad's flick), `at` when
 * it arrived (a double-click is timed by the terminal's clock, not by when its turn came).
 */
export type MouseHandler = (report: MouseReport, count: number, at: number) => void;

/** A key sequence for Ink, a paste for the paste handler, or a mouse report for the mouse handler. */
type Queued = string | { paste: string } | { mouse: MouseReport; at: number };

const sameWheelStep = (a: Queued | undefined, b: MouseReport): boolean =>
  typeof a === 'object' && 'mouse' in a && a.mouse.action === b.action && a.mouse.column === b.column && a.mouse.row === b.row;

export class PacedInput extends Readable {
  readonly isTTY: boolean;
  readonly #source: TerminalInput;
  // Decoded here, once: Ink sets an encoding each time a handler subscribes, which would start
  // a new decoder between two halves of a character.
  readonly #decoder = new StringDecoder('utf8');
  /** Bounded by what the terminal sends faster than it is drawn (a paste is one entry). */
  readonly #queue: Queued[] = [];
  /** A read ending inside an escape sequence (or a paste's end mark), waiting for the rest. */
  #unfinished = '';
  #unfinishedTimer: NodeJS.Timeout | undefined;
  /** The text of a paste under way, between its marks. */
  #paste: string | undefined;
  #pasteTimer: NodeJS.Timeout | undefined;
  /** Where pastes go; without one they are dropped, never typed as keys. */
  pasteHandler: PasteHandler | undefined;
  /** Where mouse reports go; without one they are dropped (they are never keys). */
  mouseHandler: MouseHandler | undefined;
  /** The terminal has been asked to report the mouse: X10 reports are looked for, and cut reports' ends. */
  mouseReports = false;
  readonly #x10 = new X10Rewriter();
  #heldTimer: NodeJS.Timeout | undefined;
  /** The rest of a mouse report cut off and dropped, dropped too if it comes before `until`. */
  #reportTail: { until: number; pattern: RegExp } | undefined;
  /**
   * Asked when a key sequence's turn comes with the same one queued behind it: whether the run
   * may go to Ink as one key, `repeats` saying how many it stands for. A held Down is then one
   * render, not one per key; a text field, whose cursor keys are its own, is never given runs.
   */
  takesRuns: (() => boolean) | undefined;
  /** How many presses the key sequence Ink was given last stands for. */
  repeats = 1;
  #scheduled = false;
  /** Detached: the terminal is no longer this input's (the shell's again, or gone). */
  #detached = false;
  readonly #onData = (chunk: Buffer | string): void => {
    clearTimeout(this.#heldTimer);
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (!this.mouseReports) return this.#take(Buffer.concat([this.#x10.release(), bytes]));
    const rewritten = this.#x10.rewrite(bytes);
    this.#take(rewritten);
    // A read ending in a lone ESC is the Esc key at once; if it was a report cut just after its
    // ESC, the rest of it is dropped when it comes rather than typed.
    if (rewritten.at(-1) === 0x1b) this.#reportTail = { until: Date.now() + REPORT_TAIL_MS, pattern: REPORT_AFTER_ESC };
    if (this.#x10.holding) this.#heldTimer = setTimeout(() => this.#take(this.#x10.release()), SEQUENCE_WAIT_MS);
  };

  /** Takes bytes read from the terminal apart: keys, pastes, mouse reports. */
  #take(bytes: Buffer): void {
    if (bytes.length === 0) return;
    let text = this.#unfinished + this.#decoder.write(bytes);
    if (this.#reportTail) {
      if (Date.now() <= this.#reportTail.until) text = text.replace(this.#reportTail.pattern, '');
      this.#reportTail = undefined;
    }
    this.#unfinished = '';
    clearTimeout(this.#unfinishedTimer);
    const pieces: Queued[] = [];
    while (text !== '') {
      if (this.#paste !== undefined) {
        // Inside a paste everything is text until its end mark, control characters included.
        const end = text.indexOf(PASTE_END);
        if (end < 0) {
          const cut = partialMarkAtEnd(text, PASTE_END);
          this.#addToPaste(text.slice(0, text.length - cut));
          this.#unfinished = text.slice(text.length - cut);
          this.#waitForPasteEnd();
          break;
        }
        this.#addToPaste(text.slice(0, end));
        pieces.push(this.#endPaste());
        text = text.slice(end + PASTE_END.length);
        continue;
      }
      const start = text.indexOf(PASTE_START);
      const { pieces: keys, rest } = splitInput(start < 0 ? text : text.slice(0, start));
      pieces.push(...keys);
      if (start < 0) {
        if (rest !== '') {
          this.#unfinished = rest;
          this.#unfinishedTimer = setTimeout(() => {
            // Its end never came: what it is, if anything, goes on its own (a mouse report's
            // start is dropped, and the rest of it when it comes).
            if (this.#unfinished.startsWith('\u001b[<')) this.#reportTail = { until: Date.now() + REPORT_TAIL_MS, pattern: REPORT_TAIL };
            this.#enqueue([this.#unfinished]);
            this.#unfinished = '';
          }, SEQUENCE_WAIT_MS);
        }
        break;
      }
      if (rest !== '') pieces.push(rest);
      this.#paste = '';
      text = text.slice(start + PASTE_START.length);
    }
    this.#enqueue(pieces);
  }

  /** Arms the timers of a paste whose end has not come yet (see PASTE_STALL_MS, PASTE_GIVE_UP_MS). */
  #waitForPasteEnd(): void {
    clearTimeout(this.#pasteTimer);
    this.#pasteTimer = setTimeout(() => {
      // What came so far goes in now; a cut end mark waits on.
      if (this.#paste) this.#enqueue([{ paste: this.#paste }]);
      this.#paste = '';
      this.#pasteTimer = setTimeout(() => {
        // The end mark never came: the paste ends here, and what comes next is keys again.
        this.#addToPaste(this.#unfinished);
        this.#unfinished = '';
        const rest = this.#endPaste();
        this.#enqueue(rest.paste ? [rest] : []);
      }, PASTE_GIVE_UP_MS - PASTE_STALL_MS);
    }, PASTE_STALL_MS);
  }

  #addToPaste(text: string): void {
    if (this.#paste !== undefined && this.#paste.length < PASTE_MAX) this.#paste += text.slice(0, PASTE_MAX - this.#paste.length);
  }

  #endPaste(): { paste: string } {
    clearTimeout(this.#pasteTimer);
    const paste = { paste: this.#paste ?? '' };
    this.#paste = undefined;
    return paste;
  }

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
    clearTimeout(this.#pasteTimer);
    clearTimeout(this.#heldTimer);
    this.#paste = undefined;
    this.#source.off('data', this.#onData);
    this.#source.pause();
  }

  override _read(): void {
    // Data is pushed as it is paced, not pulled.
  }

  /** Queues what Ink can be given of these pieces; the rest (no key of ours) is dropped here. */
  #enqueue(pieces: readonly Queued[]): void {
    for (const piece of pieces) {
      // The terminal's answer to the background question (background.ts), not a key.
      if (typeof piece === 'string' && piece.startsWith(BACKGROUND_ANSWER)) {
        this.emit('background', piece);
        continue;
      }
      if (typeof piece === 'string' && isMouseReport(piece)) {
        const report = parseMouseReport(piece);
        // Releases take no turn: nothing acts on them.
        if (report && report.action !== 'release') this.#queue.push({ mouse: report, at: Date.now() });
        continue;
      }
      const key = typeof piece === 'string' ? canonicalKey(piece) : piece;
      if (key !== undefined) this.#queue.push(key);
    }
    this.#schedule();
  }

  #schedule(): void {
    if (this.#scheduled || this.#queue.length === 0) return;
    this.#scheduled = true;
    setImmediate(() => {
      const piece = this.#queue.shift();
      this.repeats = 1;
      if (typeof piece === 'object' && 'mouse' in piece) {
        let count = 1;
        if (piece.mouse.action.startsWith('wheel')) {
          while (sameWheelStep(this.#queue[0], piece.mouse)) {
            this.#queue.shift();
            count++;
          }
        }
        this.mouseHandler?.(piece.mouse, count, piece.at);
        this.#afterRender();
        return;
      }
      if (typeof piece === 'string' && this.#queue[0] === piece && this.takesRuns?.()) {
        while (this.#queue[0] === piece) {
          this.#queue.shift();
          this.repeats++;
        }
      }
      // A paste is asked about when its turn comes: the keys before it may have opened a field.
      const typed = typeof piece === 'object' ? this.pasteHandler?.(piece.paste) : piece;
      if (typed !== undefined && typed !== '') this.push(typed);
      this.#afterRender();
    });
  }

  /** Schedules the next piece once what this one caused is drawn. */
  #afterRender(): void {
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
  }
}
