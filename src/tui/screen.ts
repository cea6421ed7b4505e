// The dashboard's own screen writer. Ink renders in debug mode, handing over each whole frame;
// this writes only the lines that changed, at absolute positions, on the alternate screen.
// (Ink 6's incremental renderer places a frame that ends in a newline one row too low on every
// render, so its diffing cannot be used; absolute positions cannot drift.)
import { EventEmitter } from 'node:events';

const CSI = '\u001b[';
export const ENTER_ALT_SCREEN = `${CSI}?1049h`;
export const LEAVE_ALT_SCREEN = `${CSI}?1049l`;
const HIDE_CURSOR = `${CSI}?25l`;
const SHOW_CURSOR = `${CSI}?25h`;
// With auto-wrap off, a line that is somehow too wide is clipped instead of breaking the layout.
const AUTOWRAP_OFF = `${CSI}?7l`;
const AUTOWRAP_ON = `${CSI}?7h`;
const CLEAR = `${CSI}2J`;
// Bracketed paste: the terminal marks a paste (`CSI 200~ … CSI 201~`), so it goes into a field
// as text, never as keys (paced-input.ts). Off again on every way out, or the shell gets the marks.
export const PASTE_MARKS_ON = `${CSI}?2004h`;
export const PASTE_MARKS_OFF = `${CSI}?2004l`;
// Synchronized output: terminals that know it show the whole update at once, the rest ignore it.
const BEGIN_SYNC = `${CSI}?2026h`;
const END_SYNC = `${CSI}?2026l`;
// Erased before it is written: erasing after would also take the last column's character, as
// the cursor stays on it with auto-wrap off.
const ERASE_LINE = `${CSI}2K`;

const moveTo = (row: number): string => `${CSI}${row + 1};1H`;

// Colours and styles (SGR) are the only escape sequences a frame may carry; any other sequence
// or control character is dropped here, so text that missed sanitising still cannot steer the
// terminal.
// eslint-disable-next-line no-control-regex
const UNSAFE = /\u001b\[[0-9;:]*m|\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[^[\]])?|[\u0000-\u001a\u001c-\u001f\u007f-\u009f]/g;

/** The line with every escape sequence but SGR, and every control character, removed. */
export const onlyStyles = (line: string): string =>
  line.replace(UNSAFE, (match) => (/^\u001b\[[0-9;:]*m$/.test(match) ? match : ''));

export interface Terminal extends NodeJS.EventEmitter {
  columns?: number;
  rows?: number;
  write(data: string): boolean;
}

/** What Ink is given as its stdout: it reports the terminal's size and takes whole frames. */
export class FrameSink extends EventEmitter {
  readonly isTTY = true;
  readonly #screen: Screen;

  constructor(screen: Screen) {
    super();
    this.#screen = screen;
  }

  get columns(): number {
    return this.#screen.size.columns;
  }

  get rows(): number {
    return this.#screen.size.rows;
  }

  write(frame: string): boolean {
    this.#screen.frame(frame);
    return true;
  }
}

export class Screen {
  readonly sink: FrameSink;
  readonly #terminal: Terminal;
  #previous: string[] = [];
  #pending: string | undefined;
  #flushScheduled = false;
  #active = false;
  /** The terminal is gone: nothing is written to it any more. */
  #gone = false;
  /** Bytes written to the terminal so far (for the benchmark). */
  bytesWritten = 0;

  /** How each line is drawn: as it is, or turned into what the terminal can draw. */
  readonly #draw: (line: string) => string;

  constructor(terminal: Terminal, draw: (line: string) => string = (line) => line) {
    this.#terminal = terminal;
    this.#draw = draw;
    this.sink = new FrameSink(this);
    terminal.on('resize', this.#onResize);
  }

  get size(): { columns: number; rows: number } {
    return { columns: this.#terminal.columns || 80, rows: this.#terminal.rows || 24 };
  }

  get active(): boolean {
    return this.#active;
  }

  enter(): void {
    if (this.#active) return;
    this.#active = true;
    this.#previous = [];
    this.#write(ENTER_ALT_SCREEN + HIDE_CURSOR + AUTOWRAP_OFF + PASTE_MARKS_ON + CLEAR);
    if (this.#pending !== undefined) this.#schedule();
  }

  leave(): void {
    if (!this.#active) return;
    this.#active = false;
    this.#write(PASTE_MARKS_OFF + AUTOWRAP_ON + SHOW_CURSOR + LEAVE_ALT_SCREEN);
  }

  /**
   * Input is no longer read (the app is ending, its writes still settling): a paste from now on
   * is the shell's, so the terminal must not mark it for us.
   */
  stopPasteMarks(): void {
    if (this.#active) this.#write(PASTE_MARKS_OFF);
  }

  /** The terminal has gone away: from now on nothing is written to it, not even the way out. */
  hangUp(): void {
    this.#gone = true;
    this.#active = false;
  }

  dispose(): void {
    this.leave();
    this.#terminal.off('resize', this.#onResize);
  }

  /** Takes a whole frame from Ink; frames arriving in one tick are drawn once. */
  frame(frame: string): void {
    this.#pending = frame;
    this.#schedule();
  }

  /** Draws the pending frame now: the lines that differ from what is on screen. */
  flush(): void {
    this.#flushScheduled = false;
    if (!this.#active || this.#pending === undefined) return;
    const lines = this.#pending.split('\n').map((line) => this.#draw(onlyStyles(line)));
    this.#pending = undefined;
    let out = '';
    const count = Math.max(lines.length, this.#previous.length);
    for (let row = 0; row < count; row++) {
      const line = lines[row] ?? '';
      if (line === (this.#previous[row] ?? '') && row < this.#previous.length) continue;
      out += moveTo(row) + ERASE_LINE + line;
    }
    this.#previous = lines;
    if (out !== '') this.#write(BEGIN_SYNC + out + END_SYNC);
  }

  #schedule(): void {
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    // A timer, not an immediate: React subscribes new input handlers in effects it runs on an
    // immediate after the commit, and a field must not be on screen before it takes keys.
    setTimeout(() => this.flush(), 0);
  }

  readonly #onResize = (): void => {
    // After a resize the terminal may have moved or cut lines: start from a clean screen.
    if (this.#active) this.#write(CLEAR);
    this.#previous = [];
    this.sink.emit('resize');
  };

  #write(data: string): void {
    if (this.#gone) return;
    this.bytesWritten += Buffer.byteLength(data);
    this.#terminal.write(data);
  }
}
