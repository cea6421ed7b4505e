// A line on stderr redrawn in place while a command works (an import, a search reading the list),
// on a terminal only: piped or redirected, stderr gets none of it. For a screen reader, which
// would read every redraw, a line of its own at most every READER_EVERY_MS, with no bar.
import { localeIsUtf8 } from '../text/locale.js';
import { progressBar } from '../text/progress-bar.js';
import { sanitize } from '../text/sanitize.js';
import { screenReaderWanted } from '../text/screen-reader.js';

/** How often a screen reader is told how far the work has come. */
export const READER_EVERY_MS = 10_000;

export class ProgressLine {
  readonly #on = process.stderr.isTTY === true;
  readonly #reader: boolean;
  #last = 0;

  /** `screenReader`: the command's --screen-reader (TICKBOOK_SCREEN_READER=1 asks for it too). */
  constructor(screenReader?: boolean) {
    this.#reader = screenReaderWanted(process.env, screenReader);
  }

  /** Whether the line is shown at all (stderr is a terminal). */
  get shown(): boolean {
    return this.#on;
  }
  /** Shows `text`, at most ten times a second unless `force`. */
  show(text: string, force = false): void {
    if (!this.#on) return;
    const now = Date.now();
    if (this.#reader) {
      // The first at once, then now and then (or at once when it must be said: a wait the server
      // asked for): each a line a reader reads once, in order.
      if (!force && this.#last !== 0 && now - this.#last < READER_EVERY_MS) return;
      this.#last = now;
      process.stderr.write(`${sanitize(text).trim()}\n`);
      return;
    }
    if (!force && now - this.#last < 100) return;
    this.#last = now;
    // A pty that does not say its width (script) is taken as 80 columns.
    const width = Math.max(20, (process.stderr.columns || 80) - 1);
    process.stderr.write(`\r\u001b[2K${sanitize(text).slice(0, width)}`);
  }
  /** Clears the line, for what is printed next. */
  done(): void {
    if (this.#on && !this.#reader) process.stderr.write('\r\u001b[2K');
  }
  /** A bar of `width` cells, `done` of `total` full; none for a screen reader (the percentage beside it says it). */
  bar(done: number, total: number, width: number): string {
    return this.#reader ? '' : progressBar(done, total, width, localeIsUtf8(process.env));
  }
}
