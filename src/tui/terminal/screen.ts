// The dashboard's own screen writer. Ink renders in debug mode, handing over each whole frame;
// this writes only what changed, at absolute positions, on the alternate screen: of a line that
// changed, the span of cells that differ (line-cells.ts), so a tick that changes a price writes
// about that price. (Ink 6's incremental renderer places a frame that ends in a newline one row
// too low on every render, so its diffing cannot be used; absolute positions cannot drift.)
import { EventEmitter } from 'node:events';
import { MOUSE_OFF, MOUSE_ON } from '../mouse/mouse-report.js';
import { changedRuns, changedSpan, DEFAULT_STYLE, drawCells, endStyle, parseLine, type LineCells, type Style } from './line-cells.js';

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
// as text, never as keys (keys/terminal-reader.ts). Off again on every way out, or the shell gets the marks.
export const PASTE_MARKS_ON = `${CSI}?2004h`;
/** Asks whether the terminal has the kitty keyboard protocol (it answers `CSI ? flags u`, or nothing). */
export const KITTY_KEYS_QUERY = `${CSI}?u`;
/** The kitty keyboard protocol's first level, pushed while the screen is ours: keys without ambiguity. */
export const KITTY_KEYS_ON = `${CSI}>1u`;
/** Pops what KITTY_KEYS_ON pushed: the shell gets the keys it had. */
export const KITTY_KEYS_OFF = `${CSI}<u`;
export const PASTE_MARKS_OFF = `${CSI}?2004l`;
// Synchronized output: terminals that know it show the whole update at once, the rest ignore it.
const BEGIN_SYNC = `${CSI}?2026h`;
const END_SYNC = `${CSI}?2026l`;
// Erased before it is written: erasing after would also take the last column's character, as
// the cursor stays on it with auto-wrap off.
const ERASE_LINE = `${CSI}2K`;
// After a span, from the cursor on: the cursor is never on a column the span wrote (see flush).
const ERASE_TO_END = `${CSI}K`;
const RESET = `${CSI}0m`;

/** What a jump forward costs, in bytes (`CSI n C`): unchanged cells that cost more to write again are jumped over. */
const RUN_GAP = 4;

/** The cursor `columns` to the right, on its row. */
const forward = (columns: number): string => (columns === 1 ? `${CSI}C` : `${CSI}${columns}C`);

const moveTo = (row: number, column = 0): string => `${CSI}${row + 1};${column + 1}H`;

// Colours and styles (SGR) are the only escape sequences a frame may carry; any other sequence
// or control character is dropped here, so text that missed sanitising still cannot steer the
// terminal.
const UNSAFE = /\u001b\[[0-9;:]*m|\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[^[\]])?|[\u0000-\u001a\u001c-\u001f\u007f-\u009f]/g;

/** The line with every escape sequence but SGR, and every control character, removed. */
export const onlyStyles = (line: string): string =>
  line.replace(UNSAFE, (match) => (/^\u001b\[[0-9;:]*m$/.test(match) ? match : ''));

export interface Terminal extends NodeJS.EventEmitter {
  columns?: number;
  rows?: number;
  write(data: string): boolean;
}

type WriteDone = (error?: Error | null) => void;

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

  /**
   * Takes a frame as a stream's write does, and calls back once it is on the terminal: Ink 8 waits
   * for the callback of an empty write before it lets the process end.
   */
  write(frame: string, encodingOrDone?: BufferEncoding | WriteDone, done?: WriteDone): boolean {
    this.#screen.frame(frame);
    const callback = typeof encodingOrDone === 'function' ? encodingOrDone : done;
    if (callback) {
      this.#screen.flush();
      process.nextTick(callback);
    }
    return true;
  }
}

export class Screen {
  readonly sink: FrameSink;
  readonly #terminal: Terminal;
  #previous: string[] = [];
  /** The lines of #previous as Ink gave them, before onlyStyles and #draw. */
  #previousRaw: string[] = [];
  /** The cells of the lines in #previous, parsed when a line is first compared. */
  #previousCells: (LineCells | undefined)[] = [];
  /**
   * The terminal's SGR state (reset on enter). Spans start from it, so a run of spans in one
   * colour sets that colour once.
   */
  #style: Style = DEFAULT_STYLE;
  /**
   * The last span left its style set, for the next span only: before anything else (a whole
   * line, an erase, the end of the frame) it is reset.
   */
  #open = false;
  #pending: string | undefined;
  #flushScheduled = false;
  #active = false;
  /** The terminal reports the mouse while the screen is ours (the O key turns it off and on). */
  #mouse = false;
  /** The kitty keyboard protocol is on while the screen is ours (the terminal said it has it). */
  #kittyKeys = false;
  /** The terminal is gone: nothing is written to it any more. */
  #gone = false;
  /** Bytes written to the terminal so far (for the benchmark). */
  bytesWritten = 0;
  readonly #drawn: { promise: Promise<void>; resolve: () => void };
  /** A frame has been written: from then on, frames wait for the effects of their render. */
  #shown = false;

  /** How each line is drawn: as it is, or turned into what the terminal can draw. */
  readonly #draw: (line: string) => string;

  /**
   * For a screen reader: the shell's screen stays, nothing is drawn (the reader's output writes
   * lines of its own through `signal`), and on a dumb terminal no control sequence is sent at all.
   */
  readonly #reader: { plain: boolean } | undefined;

  constructor(terminal: Terminal, draw: (line: string) => string = (line) => line, reader?: { plain: boolean }) {
    this.#terminal = terminal;
    this.#draw = draw;
    this.#reader = reader;
    this.sink = new FrameSink(this);
    terminal.on('resize', this.#onResize);
    let resolve!: () => void;
    this.#drawn = { promise: new Promise<void>((done) => (resolve = done)), resolve };
  }

  /** Resolves once the first frame is written to the terminal (never, if none is). */
  get firstFrame(): Promise<void> {
    return this.#drawn.promise;
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
    if (this.#reader) {
      if (!this.#reader.plain) this.#write(PASTE_MARKS_ON + (this.#kittyKeys ? KITTY_KEYS_ON : ''));
      return;
    }
    this.#previous = [];
    this.#previousCells = [];
    // Whatever style the shell left set would colour the cleared screen, and spans count on
    // knowing the style they start from.
    this.#write(ENTER_ALT_SCREEN + HIDE_CURSOR + AUTOWRAP_OFF + PASTE_MARKS_ON + (this.#mouse ? MOUSE_ON : '') + (this.#kittyKeys ? KITTY_KEYS_ON : '') + RESET + CLEAR);
    this.#style = DEFAULT_STYLE;
    this.#open = false;
    if (this.#pending !== undefined) this.#schedule();
  }

  leave(): void {
    if (!this.#active) return;
    this.#active = false;
    if (this.#reader) {
      if (!this.#reader.plain) this.#write((this.#kittyKeys ? KITTY_KEYS_OFF : '') + PASTE_MARKS_OFF);
      return;
    }
    this.#write((this.#kittyKeys ? KITTY_KEYS_OFF : '') + (this.#mouse ? MOUSE_OFF : '') + PASTE_MARKS_OFF + AUTOWRAP_ON + SHOW_CURSOR + LEAVE_ALT_SCREEN);
  }

  /** Whether the terminal reports the mouse while the screen is ours; said to it at once if it is. */
  set mouse(on: boolean) {
    if (on === this.#mouse) return;
    this.#mouse = on;
    if (this.#active) this.#write(on ? MOUSE_ON : MOUSE_OFF);
  }

  /** Whether the terminal sends keys in the kitty keyboard protocol while the screen is ours; said to it at once. */
  set kittyKeys(on: boolean) {
    if (on === this.#kittyKeys) return;
    this.#kittyKeys = on;
    if (this.#active) this.#write(on ? KITTY_KEYS_ON : KITTY_KEYS_OFF);
  }

  /**
   * Input is no longer read (the app is ending, its writes still settling): a paste or a click
   * from now on is the shell's, so the terminal must not mark or report it for us.
   */
  stopReports(): void {
    if (!this.#active || this.#reader?.plain) return;
    this.#write(PASTE_MARKS_OFF + (this.#mouse ? MOUSE_OFF : '') + (this.#kittyKeys ? KITTY_KEYS_OFF : ''));
    // Popped once: a second pop on leaving would take what the shell pushed.
    this.#kittyKeys = false;
  }

  /**
   * Bytes that are not drawing (the bell, a desktop notification) sent as they are, between
   * frames; nothing while the screen is not ours (suspended, left) or the terminal is gone.
   */
  signal(bytes: string): void {
    if (this.#active && bytes !== '') this.#write(bytes);
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

  /**
   * Takes a whole frame from Ink; frames arriving in one tick are drawn once. The first is drawn
   * at once: nothing on it takes keys yet (keys read meanwhile wait in the terminal reader for
   * the key router), and the effects the first render starts (the first requests, ~20 ms) need
   * not hold up the first sight of it.
   */
  frame(frame: string): void {
    // Read, not seen: the frame (empty, as the reader's view draws nothing) is only the sign that the dashboard is up.
    if (this.#reader) return this.#drawn.resolve();
    // An empty write is no frame: drawn, it would blank the screen.
    if (frame === '') return;
    this.#pending = frame;
    if (!this.#shown && this.#active) this.flush();
    else this.#schedule();
  }

  /** Draws the pending frame now: the lines, or the spans of lines, that differ from what is on screen. */
  flush(): void {
    this.#flushScheduled = false;
    if (!this.#active || this.#pending === undefined) return;
    const raw = this.#pending.split('\n');
    // A line as Ink gave it last frame is drawn as it was then: most of a frame is.
    const lines = raw.map((line, row) => (row < this.#previous.length && line === this.#previousRaw[row] ? this.#previous[row]! : this.#draw(onlyStyles(line))));
    this.#pending = undefined;
    const cells: (LineCells | undefined)[] = [];
    const { columns } = this.size;
    let out = '';
    const count = Math.max(lines.length, this.#previous.length);
    for (let row = 0; row < count; row++) {
      const line = lines[row] ?? '';
      const known = row < this.#previous.length;
      const previous = this.#previous[row] ?? '';
      if (line === previous && known) {
        cells[row] = this.#previousCells[row];
        continue;
      }
      const whole = moveTo(row) + ERASE_LINE + line;
      // Nothing to compare with after enter or a resize (the screen was cleared): whole lines.
      if (!known) {
        out += this.#wholeLine(whole, line);
        continue;
      }
      const before = this.#previousCells[row] ?? parseLine(previous);
      const after = parseLine(line);
      cells[row] = after;
      const span = this.#span(row, before, after, columns);
      if (span?.text === '') continue; // The same cells, in other words (a style set and unset).
      // A span is taken only when it saves at least half the bytes: short of that the whole
      // line costs about the same, and it is the plain write of a first frame, repainting the
      // row from a clean erase.
      if (span !== undefined && 2 * Buffer.byteLength(span.text) <= Buffer.byteLength(whole)) {
        out += span.text;
        this.#style = span.style;
        this.#open = span.style.key !== '';
      } else {
        out += this.#wholeLine(whole, line);
      }
    }
    out += this.#closeStyle();
    this.#previous = lines;
    this.#previousRaw = raw;
    this.#previousCells = cells;
    if (out !== '') {
      this.#write(BEGIN_SYNC + out + END_SYNC);
      this.#shown = true;
      this.#drawn.resolve();
    }
  }

  /**
   * What to write for the changed cells of one row ('' for none) and the SGR state it leaves the
   * terminal in, or undefined when only the whole line will do.
   */
  #span(row: number, before: LineCells, after: LineCells, columns: number): { text: string; style: Style } | undefined {
    // With auto-wrap off, a line wider than the terminal has its last character drawn over the
    // last column: not where its cells say. Such a line is written whole, as it always was, and
    // so is one whose styles the cells cannot stand for.
    if (before.width > columns || after.width > columns || before.opaque || after.opaque) return undefined;
    const span = changedSpan(before, after);
    if (span === undefined) return { text: '', style: this.#style };
    let text = '';
    let style = this.#style;
    /** Where the cursor is after the last run: the column after it (never the last column: runs follow). */
    let at: number | undefined;
    for (const run of changedRuns(before, after, span, RUN_GAP)) {
      const drawn = drawCells(after, run.first, run.end, style);
      // Within the row, a jump forward is shorter than a move to the row and column.
      text += (at === undefined ? moveTo(row, run.column) : forward(run.column - at)) + drawn.text;
      style = drawn.style ?? style;
      at = run.endColumn;
    }
    if (!span.erase) return { text, style };
    // The line got narrower, so the span ended left of the last column and the cursor is on the
    // first column to erase (were it on the last column, written, erasing would take that
    // character). Erased cells take the background in force: the default one.
    if (style.key !== '') text += RESET;
    return { text: text + ERASE_TO_END, style: DEFAULT_STYLE };
  }

  /**
   * A line is written whole as it came, in the style the terminal is in: a line that leaves a
   * style set (Ink's never do) sets it for what follows, as it always has.
   */
  #wholeLine(whole: string, line: string): string {
    const out = this.#closeStyle() + whole;
    this.#style = endStyle(line, this.#style);
    return out;
  }

  #closeStyle(): string {
    if (!this.#open) return '';
    this.#open = false;
    this.#style = DEFAULT_STYLE;
    return RESET;
  }

  #schedule(): void {
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    // A timer, not an immediate: React subscribes new input handlers in effects it runs on an
    // immediate after the commit, and a field must not be on screen before it takes keys.
    setTimeout(() => this.flush(), 0);
  }

  readonly #onResize = (): void => {
    // After a resize the terminal may have moved or cut lines: start from a clean screen. Not the
    // reader's, whose lines are the user's to scroll back through.
    if (this.#active && !this.#reader) {
      // The cleared screen takes the background in force: the default one.
      this.#write(this.#style.key === '' ? CLEAR : RESET + CLEAR);
      this.#style = DEFAULT_STYLE;
    }
    this.#previous = [];
    this.#previousCells = [];
    this.sink.emit('resize');
  };

  #write(data: string): void {
    if (this.#gone) return;
    this.bytesWritten += Buffer.byteLength(data);
    this.#terminal.write(data);
  }
}
