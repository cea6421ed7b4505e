// A line on stderr redrawn in place while a command works (an import, a search reading the list),
// on a terminal only: piped or redirected, stderr gets none of it.
import { localeIsUtf8 } from '../text/locale.js';
import { progressBar } from '../text/progress-bar.js';
import { sanitize } from '../text/sanitize.js';

export class ProgressLine {
  readonly #on = process.stderr.isTTY === true;
  #last = 0;
  /** Whether the line is shown at all (stderr is a terminal). */
  get shown(): boolean {
    return this.#on;
  }
  /** Shows `text`, at most ten times a second unless `force`. */
  show(text: string, force = false): void {
    if (!this.#on) return;
    const now = Date.now();
    if (!force && now - this.#last < 100) return;
    this.#last = now;
    // A pty that does not say its width (script) is taken as 80 columns.
    const width = Math.max(20, (process.stderr.columns || 80) - 1);
    process.stderr.write(`\r\u001b[2K${sanitize(text).slice(0, width)}`);
  }
  /** Clears the line, for what is printed next. */
  done(): void {
    if (this.#on) process.stderr.write('\r\u001b[2K');
  }
  /** A bar of `width` cells, `done` of `total` full. */
  bar(done: number, total: number, width: number): string {
    return progressBar(done, total, width, localeIsUtf8(process.env));
  }
}
