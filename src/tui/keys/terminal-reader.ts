// The terminal's input, read once: every read cut into whole key sequences (a sequence cut
// between two reads waits for the rest), bracketed pastes, mouse reports and the terminal's
// answers taken out, and the keys named (terminal-input.ts). Each read goes to the one handler
// as a batch of events, in the order they came, handled at once against the latest state:
// nothing waits for a render between two keys.
import { BACKGROUND_ANSWER } from '../terminal/background.js';
import { EventEmitter } from 'node:events';
import { StringDecoder } from 'node:string_decoder';
import { partialMarkAtEnd, PASTE_END, PASTE_START } from './paste.js';
import { type KeyPress, keyPresses, splitInput } from './terminal-input.js';
import { isMouseReport, type MouseReport, parseMouseReport, X10Rewriter } from '../mouse/mouse-report.js';

/** What is needed of process.stdin. */
export interface TerminalInput extends NodeJS.EventEmitter {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
  pause(): unknown;
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
/**
 * What the rest of a sequence cut off and dropped looks like: `whole`, all of it, dropped when it
 * comes; `partial`, a read that is only the start of it (cut again), dropped while waiting for the
 * rest. Never typed: the tail of a background answer would type "ff/ff…" (f opens the filter), of
 * the kitty answer "1u" (u undoes a delete).
 */
interface Tail {
  whole: RegExp;
  partial: RegExp;
}

/** The rest of a cut SGR report: its numbers and final byte (after `ESC [ <`). */
const REPORT_TAIL: Tail = { whole: /^[\d;]*[Mm]/, partial: /^[\d;]+$/ };
/** The rest of a cut private CSI (`ESC [ ?`: the kitty keyboard answer): its parameters and final byte. */
const PRIVATE_CSI_TAIL: Tail = { whole: /^[0-?]*[ -/]*[@-~]/, partial: /^[0-?]+[ -/]*$/ };
/** The rest of a cut string control (OSC, DCS, APC, PM, SOS: the background answer): up to its terminator. */
const STRING_TAIL: Tail = { whole: /^(?:\\|[^\u0007\u001b]*(?:\u0007|\u001b\\))/, partial: /^[^\u0007\u001b]+\u001b?$/ };
/**
 * The rest of a report or an answer cut just after its ESC. A read ending in ESC is the Esc key
 * at once, so what follows is dropped only when it can be nothing a person types: a mouse report,
 * the kitty answer, or an OSC answer begun with its number. `[` and `]` alone are keys.
 */
const AFTER_ESC_TAIL: Tail = {
  whole: /^(?:\[<\d+;\d+;\d+[Mm]|\[\?[\d;]*u|\]\d[^\u0007\u001b]*(?:\u0007|\u001b\\))/,
  partial: /^(?:\[<[\d;]*|\[\?[\d;]*|\]\d[^\u0007\u001b]*\u001b?)$/,
};

/** What the rest looks like after `text`, a start of `tail` cut again (its ST's ESC the last, the backslash alone). */
function continued(tail: Tail, text: string): Tail {
  if (tail !== AFTER_ESC_TAIL) return tail;
  return text.startsWith('[<') ? REPORT_TAIL : text.startsWith('[?') ? PRIVATE_CSI_TAIL : STRING_TAIL;
}

/** What the rest of `start`, a sequence whose end came too late and was dropped, looks like. */
function tailOf(start: string): Tail | undefined {
  if (start.startsWith('\u001b[<')) return REPORT_TAIL;
  if (start.startsWith('\u001b[?')) return PRIVATE_CSI_TAIL;
  if (/^\u001b[\]PX^_]/.test(start)) return STRING_TAIL;
  return undefined;
}
/** The most of one paste kept (a one-line field holds far less; the rest is not held in memory). */
export const PASTE_MAX = 1024 * 1024;

const sameWheelStep = (a: MouseReport, b: MouseReport): boolean => a.action === b.action && a.column === b.column && a.row === b.row;

/** One thing the terminal sent: a key, a paste (its text, between the marks), or a mouse report. */
export type InputEvent =
  | { kind: 'key'; key: KeyPress }
  | { kind: 'paste'; text: string }
  /**
   * `count`: how many of the same wheel step in the same cell it stands for (a wheel turned fast,
   * a touchpad's flick); `at`: when it arrived (a double-click is timed by the terminal's clock).
   */
  | { kind: 'mouse'; report: MouseReport; count: number; at: number };

/** Told of each read's events, in order, as one batch. */
export type InputHandler = (events: readonly InputEvent[]) => void;

/** A piece of a read: a key sequence or a run of text, or a paste. */
type Piece = string | { paste: string };

/** The answer to the kitty keyboard protocol's query (`CSI ? u`): the flags the terminal has on. */
const KITTY_ANSWER = /^\u001b\[\?\d*u$/;

/**
 * Events seen before anything handles them (the first keys, typed while the dashboard draws its
 * first frame): kept for the handler, up to this many, rather than lost.
 */
const EARLY_MAX = 1024;

export class TerminalReader extends EventEmitter {
  readonly isTTY: boolean;
  readonly #source: TerminalInput;
  // Decoded here, once, so a character cut between two reads is whole.
  readonly #decoder = new StringDecoder('utf8');
  /** A read ending inside an escape sequence (or a paste's end mark), waiting for the rest. */
  #unfinished = '';
  #unfinishedTimer: NodeJS.Timeout | undefined;
  /** The text of a paste under way, between its marks. */
  #paste: string | undefined;
  #pasteTimer: NodeJS.Timeout | undefined;
  #handler: InputHandler | undefined;
  readonly #early: InputEvent[] = [];
  /** The terminal has been asked to report the mouse: X10 reports are looked for, and cut reports' ends. */
  mouseReports = false;
  readonly #x10 = new X10Rewriter();
  #heldTimer: NodeJS.Timeout | undefined;
  /** The rest of a report or an answer cut off and dropped, dropped too if it comes before `until`. */
  #droppedTail: { until: number; tail: Tail } | undefined;
  /** Detached: the terminal is no longer this input's (the shell's again, or gone). */
  #detached = false;
  readonly #onData = (chunk: Buffer | string): void => {
    clearTimeout(this.#heldTimer);
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    const rewritten = this.mouseReports ? this.#x10.rewrite(bytes) : Buffer.concat([this.#x10.release(), bytes]);
    this.#take(rewritten);
    // A read ending in a lone ESC is the Esc key at once; if it was a report or an answer cut just
    // after its ESC, the rest of it is dropped when it comes rather than typed.
    if (rewritten.at(-1) === 0x1b && this.#paste === undefined) this.#droppedTail = { until: Date.now() + REPORT_TAIL_MS, tail: AFTER_ESC_TAIL };
    if (!this.mouseReports) return;
    if (this.#x10.holding) this.#heldTimer = setTimeout(() => this.#take(this.#x10.release()), SEQUENCE_WAIT_MS);
  };

  /** Takes bytes read from the terminal apart: keys, pastes, mouse reports. */
  #take(bytes: Buffer): void {
    if (bytes.length === 0) return;
    let text = this.#unfinished + this.#decoder.write(bytes);
    if (this.#droppedTail) {
      const { until, tail } = this.#droppedTail;
      this.#droppedTail = undefined;
      if (Date.now() <= until) {
        // Its start only, cut again: dropped, and the rest still looked for.
        if (tail.partial.test(text)) return void (this.#droppedTail = { until, tail: continued(tail, text) });
        text = text.replace(tail.whole, '');
      }
    }
    this.#unfinished = '';
    clearTimeout(this.#unfinishedTimer);
    const pieces: Piece[] = [];
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
            // Its end never came: what it is, if anything, goes on its own (a report's or an
            // answer's start is dropped, and the rest of it when it comes).
            const tail = tailOf(this.#unfinished);
            if (tail) this.#droppedTail = { until: Date.now() + REPORT_TAIL_MS, tail };
            this.#deliver([this.#unfinished]);
            this.#unfinished = '';
          }, SEQUENCE_WAIT_MS);
        }
        break;
      }
      if (rest !== '') pieces.push(rest);
      this.#paste = '';
      text = text.slice(start + PASTE_START.length);
    }
    this.#deliver(pieces);
  }

  /** Arms the timers of a paste whose end has not come yet (see PASTE_STALL_MS, PASTE_GIVE_UP_MS). */
  #waitForPasteEnd(): void {
    clearTimeout(this.#pasteTimer);
    this.#pasteTimer = setTimeout(() => {
      // What came so far goes in now; a cut end mark waits on.
      if (this.#paste) this.#deliver([{ paste: this.#paste }]);
      this.#paste = '';
      this.#pasteTimer = setTimeout(() => {
        // The end mark never came: the paste ends here, and what comes next is keys again.
        this.#addToPaste(this.#unfinished);
        this.#unfinished = '';
        const rest = this.#endPaste();
        this.#deliver(rest.paste ? [rest] : []);
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
    super();
    this.#source = source;
    this.isTTY = source.isTTY === true;
    source.on('data', this.#onData);
  }

  /** Where each read's events go; events that came before there was one are handed to it first. */
  set handler(handler: InputHandler | undefined) {
    this.#handler = handler;
    if (handler && this.#early.length > 0) handler(this.#early.splice(0));
  }

  get handler(): InputHandler | undefined {
    return this.#handler;
  }

  // Once detached, the terminal is not touched again: on a terminal that has gone away that
  // fails (EIO).
  setRawMode(mode: boolean): void {
    if (!this.#detached && this.isTTY) this.#source.setRawMode?.(mode);
  }

  /** Stops reading the terminal: what is typed after this is the shell's. */
  detach(): void {
    this.#detached = true;
    this.#early.length = 0;
    clearTimeout(this.#unfinishedTimer);
    clearTimeout(this.#pasteTimer);
    clearTimeout(this.#heldTimer);
    this.#paste = undefined;
    this.#source.off('data', this.#onData);
    this.#source.pause();
  }

  /** Names what can be named of these pieces and hands them on as one batch; the rest (no key of ours) is dropped here. */
  #deliver(pieces: readonly Piece[]): void {
    if (this.#detached) return;
    const events: InputEvent[] = [];
    for (const piece of pieces) {
      if (typeof piece === 'object') {
        // An empty paste (the marks alone, or an end mark after a stalled paste) is nothing.
        if (piece.paste !== '') events.push({ kind: 'paste', text: piece.paste });
        continue;
      }
      // The terminal's answers (background.ts; the kitty keyboard query), not keys.
      if (piece.startsWith(BACKGROUND_ANSWER)) {
        // Only a whole answer (ended by BEL or ST); one cut off and let go is no colour.
        if (/(?:\u0007|\u001b\\)$/.test(piece)) this.emit('background', piece);
        continue;
      }
      if (KITTY_ANSWER.test(piece)) {
        this.emit('kitty', piece);
        continue;
      }
      if (isMouseReport(piece)) {
        const report = parseMouseReport(piece);
        // Releases are no events: nothing acts on them.
        if (!report || report.action === 'release') continue;
        const last = events.at(-1);
        // The same wheel step in the same cell, again: one step of more.
        if (report.action.startsWith('wheel') && last?.kind === 'mouse' && sameWheelStep(last.report, report)) last.count++;
        else events.push({ kind: 'mouse', report, count: 1, at: Date.now() });
        continue;
      }
      for (const key of keyPresses(piece)) events.push({ kind: 'key', key });
    }
    if (events.length === 0) return;
    if (this.#handler) this.#handler(events);
    else this.#early.push(...events.slice(0, Math.max(0, EARLY_MAX - this.#early.length)));
  }
}
