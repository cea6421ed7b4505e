// A program in a real pseudo-terminal (util-linux `script`), its output fed into a headless
// terminal emulator (@xterm/headless) so the benchmark can read the screen as a user sees it:
// which cells changed, which row is in reverse video, when a frame showed something. Every wait
// has a deadline and says so, so a bad figure is reported, never waited on for ever.
import { Unicode11Addon } from '@xterm/addon-unicode11';
import xterm from '@xterm/headless';
import { type ChildProcessByStdio, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';

const { Terminal } = xterm;
type Emulator = InstanceType<typeof Terminal>;
type Cell = NonNullable<ReturnType<NonNullable<ReturnType<Emulator['buffer']['active']['getLine']>>['getCell']>>;

const CLOCK_TICKS = 100;
const quote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `quietMs` have passed since the time `last` gives (or after `timeoutMs` regardless). */
export async function quietFor(last: () => number, quietMs: number, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const wait = last() + quietMs - performance.now();
    if (wait <= 0 || performance.now() > deadline) return;
    await sleep(Math.min(wait, deadline - performance.now()) + 1);
  }
}

export interface PtyOptions {
  /** The program and its arguments. */
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  columns: number;
  rows: number;
  /**
   * Unicode 11's widths, as string-width counts them (an emoji two columns): what the screenshot
   * draws. Off for the benchmarks, whose figures were taken with xterm's default (Unicode 6).
   */
  unicode11?: boolean;
}

/** One cell as drawn: its text and every attribute, so a change of colour alone counts. */
export interface DrawnCell {
  text: string;
  look: string;
}

/** A colour as the terminal holds it: its default (undefined), a palette index, or '#rrggbb'. */
export type CellColour = number | string | undefined;

/** One cell with what it looks like, for a picture of the screen. */
export interface StyledCell {
  /** '' for the second half of a wide character (its first half holds it). */
  text: string;
  /** Columns the character takes: 1, 2 for a wide one, 0 for a wide one's second half. */
  width: number;
  fg: CellColour;
  bg: CellColour;
  bold: boolean;
  dim: boolean;
  italic: boolean;
  underline: boolean;
  inverse: boolean;
  invisible: boolean;
}

export class PtyApp {
  /** performance.now() just before `script` was started. */
  readonly startedAt: number;
  /** Bytes the program wrote to the terminal so far. */
  bytes = 0;
  /** When the last chunk that has been through the emulator arrived. */
  lastArrival = 0;
  readonly columns: number;
  readonly rows: number;
  #child: ChildProcessByStdio<Writable, Readable, null>;
  #term: Emulator;
  #observers = new Set<(arrivedAt: number) => void>();
  #pid: number | undefined;

  constructor(options: PtyOptions) {
    this.columns = options.columns;
    this.rows = options.rows;
    this.#term = new Terminal({ cols: options.columns, rows: options.rows, scrollback: 0, allowProposedApi: true });
    if (options.unicode11) {
      this.#term.loadAddon(new Unicode11Addon());
      this.#term.unicode.activeVersion = '11';
    }
    const command = `stty cols ${options.columns} rows ${options.rows}; exec ${options.argv.map(quote).join(' ')}`;
    this.startedAt = performance.now();
    this.#child = spawn('script', ['-qfec', command, '/dev/null'], { env: options.env, stdio: ['pipe', 'pipe', 'inherit'] });
    this.#child.stdout.on('data', (chunk: Buffer) => {
      const arrivedAt = performance.now();
      this.bytes += chunk.length;
      this.#term.write(new Uint8Array(chunk), () => {
        this.lastArrival = arrivedAt;
        for (const observe of this.#observers) observe(arrivedAt);
      });
    });
    // A closed pipe after the program is gone is not the benchmark's failure.
    this.#child.stdin.on('error', () => undefined);
  }

  get exited(): boolean {
    return this.#child.exitCode !== null || this.#child.signalCode !== null;
  }

  /** The program's own process (script's child, which the shell exec'd into). */
  get pid(): number {
    if (this.#pid === undefined) {
      const children = execFileSync('pgrep', ['-P', String(this.#child.pid)], { encoding: 'utf8' }).trim().split('\n');
      this.#pid = Number(children[0]);
    }
    return this.#pid;
  }

  cpuSeconds(): number {
    const fields = readFileSync(`/proc/${this.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  }

  rssMb(): number {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${this.pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
  }

  send(keys: string): number {
    const sentAt = performance.now();
    this.#child.stdin.write(keys);
    return sentAt;
  }

  /** Called with each chunk's arrival time once the emulator has drawn it; returns the undo. */
  observe(observer: (arrivedAt: number) => void): () => void {
    this.#observers.add(observer);
    return () => this.#observers.delete(observer);
  }

  /**
   * Resolves with the arrival time of the chunk after which `test` first held (now, if it holds
   * already), or undefined after `timeoutMs`.
   */
  until(test: () => boolean, timeoutMs: number): Promise<number | undefined> {
    if (test()) return Promise.resolve(performance.now());
    return new Promise((resolve) => {
      const done = (at: number | undefined) => {
        clearTimeout(timer);
        stop();
        resolve(at);
      };
      const stop = this.observe((arrivedAt) => {
        if (test()) done(arrivedAt);
      });
      const timer = setTimeout(() => done(undefined), timeoutMs);
    });
  }

  /** Resolves once nothing has arrived for `quietMs` (or after `timeoutMs` regardless). */
  quiet(quietMs: number, timeoutMs: number): Promise<void> {
    return quietFor(() => this.lastArrival, quietMs, timeoutMs);
  }

  /** The screen as text, one string a row. */
  lines(): string[] {
    const buffer = this.#term.buffer.active;
    return Array.from({ length: this.rows }, (_, y) => buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '');
  }

  text(): string {
    return this.lines().join('\n');
  }

  /**
   * Each row of the screen as its cells, and one position past the last column (undefined) so a
   * run that reaches the edge ends there. The cell object is reused: read it before the next.
   */
  *#rows(): Generator<Generator<Cell | undefined>> {
    const buffer = this.#term.buffer.active;
    const columns = this.columns;
    let cell: Cell | undefined;
    for (let y = 0; y < this.rows; y++) {
      const line = buffer.getLine(buffer.viewportY + y);
      yield (function* () {
        for (let x = 0; x <= columns; x++) {
          cell = x < columns ? line?.getCell(x, cell) : undefined;
          yield cell;
        }
      })();
    }
  }

  /** Every cell of the screen, row by row. */
  cells(): DrawnCell[] {
    return this.styledRows().flatMap((row) =>
      row.map(({ text, fg, bg, bold, dim, italic, underline, inverse, invisible }) => ({
        text,
        look: `${fg}/${bg}/${+bold}${+dim}${+italic}${+underline}${+inverse}${+invisible}`,
      })),
    );
  }

  /** Every cell of the screen with its colours and attributes, row by row. */
  styledRows(): StyledCell[][] {
    const colour = (mode: 'Fg' | 'Bg', cell: Cell): CellColour => {
      if (cell[`is${mode}Default`]()) return undefined;
      const value = cell[`get${mode}Color`]();
      return cell[`is${mode}RGB`]() ? `#${value.toString(16).padStart(6, '0')}` : value;
    };
    const rows: StyledCell[][] = [];
    for (const row of this.#rows()) {
      const cells: StyledCell[] = [];
      for (const cell of row) {
        if (cells.length === this.columns) break;
        if (!cell) {
          cells.push({ text: ' ', width: 1, fg: undefined, bg: undefined, bold: false, dim: false, italic: false, underline: false, inverse: false, invisible: false });
          continue;
        }
        cells.push({
          text: cell.getWidth() === 0 ? '' : cell.getChars() || ' ',
          width: cell.getWidth(),
          fg: colour('Fg', cell),
          bg: colour('Bg', cell),
          bold: cell.isBold() !== 0,
          dim: cell.isDim() !== 0,
          italic: cell.isItalic() !== 0,
          underline: cell.isUnderline() !== 0,
          inverse: cell.isInverse() !== 0,
          invisible: cell.isInvisible() !== 0,
        });
      }
      rows.push(cells);
    }
    return rows;
  }

  /** The runs of reverse-video cells on the screen, as text: where a selection is drawn. */
  inverseRuns(): string[] {
    const runs: string[] = [];
    for (const row of this.#rows()) {
      let run = '';
      for (const cell of row) {
        if (cell?.isInverse()) {
          run += cell.getChars() || (cell.getWidth() === 0 ? '' : ' ');
        } else if (run !== '') {
          runs.push(run);
          run = '';
        }
      }
    }
    return runs;
  }

  /** Sends `key` (q), and ends the program if it has not gone in `timeoutMs`. */
  async quit(key: string, timeoutMs = 5000): Promise<boolean> {
    if (!this.exited) this.send(key);
    const deadline = performance.now() + timeoutMs;
    while (!this.exited && performance.now() < deadline) await sleep(20);
    const clean = this.exited;
    if (!clean) this.kill();
    return clean;
  }

  kill(): void {
    if (this.exited) return;
    if (this.#pid !== undefined) {
      try {
        process.kill(this.#pid, 'SIGTERM');
      } catch {
        // Gone already.
      }
    }
    this.#child.kill('SIGTERM');
  }
}
