// What the terminal says of the mouse, when asked to (xterm's mouse tracking): presses, releases
// and the wheel, in SGR form (`CSI < b ; x ; y M|m`, mode 1006) or, from a terminal that does not
// know that form, the X10 form (`CSI M` and three bytes). Only presses and releases are asked
// for (mode 1000), never motion: a mouse moved over the dashboard sends nothing.

const CSI = '\u001b[';
/** Button events (1000) reported in SGR form (1006): on while the dashboard runs. */
export const MOUSE_ON = `${CSI}?1000h${CSI}?1006h`;
/** Both off again, in the reverse order, on every way out: left on, the shell would get the reports. */
export const MOUSE_OFF = `${CSI}?1006l${CSI}?1000l`;

export type MouseButton = 'left' | 'middle' | 'right';

export interface MouseReport {
  /** A press, a release (of whichever button: X10 does not say), or one step of the wheel. */
  action: 'press' | 'release' | 'wheel-up' | 'wheel-down';
  /** The button pressed or released; undefined for the wheel and an X10 release. */
  button: MouseButton | undefined;
  /** The cell, counted from 0 at the top left. */
  column: number;
  row: number;
  shift: boolean;
  alt: boolean;
  ctrl: boolean;
}

const SGR = /^\u001b\[<(\d{1,4});(\d{1,5});(\d{1,5})([Mm])$/;

const BUTTONS: readonly MouseButton[] = ['left', 'middle', 'right'];

/** The report from its button code and 1-based cell; undefined for what is not a press, release or wheel step. */
function report(code: number, column: number, row: number, released: boolean): MouseReport | undefined {
  // Motion (32) was not asked for; extra buttons (128 and up) and the sideways wheel are no action here.
  if (code & 32 || code >= 128 || column < 1 || row < 1) return undefined;
  const modifiers = { shift: (code & 4) !== 0, alt: (code & 8) !== 0, ctrl: (code & 16) !== 0 };
  const at = { column: column - 1, row: row - 1, ...modifiers };
  const low = code & 3;
  if (code & 64) {
    if (low > 1 || released) return undefined;
    return { action: low === 0 ? 'wheel-up' : 'wheel-down', button: undefined, ...at };
  }
  // X10 says a release as button 3, without saying which.
  if (low === 3) return released ? undefined : { action: 'release', button: undefined, ...at };
  return { action: released ? 'release' : 'press', button: BUTTONS[low], ...at };
}

/**
 * The report in one piece of input (as splitInput cuts it), or undefined when the piece is no
 * mouse report, or one of nothing acted on (motion, the sideways wheel, buttons past the third).
 */
export function parseMouseReport(piece: string): MouseReport | undefined {
  const sgr = SGR.exec(piece);
  return sgr ? report(Number(sgr[1]), Number(sgr[2]), Number(sgr[3]), sgr[4] === 'm') : undefined;
}

/** Whether a piece of input is an SGR mouse report, acted on or not (never a key). */
export const isMouseReport = (piece: string): boolean => piece.startsWith(`${CSI}<`) && /[Mm]$/.test(piece);

const ESC_BYTE = 0x1b;
const BRACKET = 0x5b;
const M_BYTE = 0x4d;
/** `ESC [ M` and three bytes: button, column and row, each 32 more than its value. */
const X10_LENGTH = 6;
const NOTHING = Buffer.alloc(0);

/**
 * X10 reports (from a terminal that does not know the SGR form) rewritten in SGR form, in the
 * bytes as they are read: past the 95th column or row a report's bytes are not UTF-8, and decoded
 * they would turn into replacement characters or swallow the key after them. A read that ends
 * where a report may have begun (`ESC [`, `ESC [ M`, part of its three bytes) is held until the
 * next read or `release`; a lone ESC is not (it is the Esc key, at once). Releases are
 * left out: nothing acts on them. Only while the mouse is reported: `ESC [ M` is otherwise some
 * terminals' F1.
 */
export class X10Rewriter {
  #held: Buffer = NOTHING;

  get holding(): boolean {
    return this.#held.length > 0;
  }

  /** What was held, as it came. */
  release(): Buffer {
    const held = this.#held;
    this.#held = NOTHING;
    return held;
  }

  rewrite(chunk: Buffer): Buffer {
    const bytes = this.#held.length > 0 ? Buffer.concat([this.#held, chunk]) : chunk;
    this.#held = NOTHING;
    const out: Buffer[] = [];
    let from = 0;
    for (let at = bytes.indexOf(ESC_BYTE); at >= 0; at = bytes.indexOf(ESC_BYTE, at + 1)) {
      if (bytes.length - at < X10_LENGTH) {
        // A lone ESC is not held: it is the Esc key, at once.
        const prefix = bytes[at + 1] === BRACKET && (bytes[at + 2] === undefined || bytes[at + 2] === M_BYTE);
        if (prefix) {
          out.push(bytes.subarray(from, at));
          this.#held = Buffer.from(bytes.subarray(at));
          from = bytes.length;
        }
        break;
      }
      if (bytes[at + 1] !== BRACKET || bytes[at + 2] !== M_BYTE) continue;
      const [code, column, row] = [bytes[at + 3]! - 32, bytes[at + 4]! - 32, bytes[at + 5]! - 32];
      out.push(bytes.subarray(from, at));
      if ((code & 3) !== 3 || code & 64) out.push(Buffer.from(`${CSI}<${code};${column};${row}M`));
      from = at + X10_LENGTH;
      at = from - 1;
    }
    if (from === 0) return bytes;
    out.push(bytes.subarray(from));
    return Buffer.concat(out);
  }
}
