// What the terminal says of the mouse, when asked to (xterm's mouse tracking): presses, releases
// and the wheel, in SGR form (`CSI < b ; x ; y M|m`, mode 1006) or, from a terminal that does not
// know that form, the X10 form (`CSI M` and three bytes). Only presses and releases are asked
// for (mode 1000), never motion: a mouse moved over the dashboard sends nothing.

const CSI = '\u001b[';
/** Button events (1000) reported in SGR form (1006): on while the dashboard runs. */
export const MOUSE_ON = `${CSI}?1000h${CSI}?1006h`;
/** Both off again, in the reverse order, on every way out: left on, the shell would get the reports. */
export const MOUSE_OFF = `${CSI}?1006l${CSI}?1000l`;

/** The start of an X10 report: three bytes follow, whatever they are. */
export const X10_START = `${CSI}M`;
/** How long an X10 report is: `CSI M` and a byte each for the button, the column and the row. */
export const X10_LENGTH = X10_START.length + 3;

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

// eslint-disable-next-line no-control-regex
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
  if (sgr) return report(Number(sgr[1]), Number(sgr[2]), Number(sgr[3]), sgr[4] === 'm');
  if (piece.length === X10_LENGTH && piece.startsWith(X10_START)) {
    // Each byte is 32 more than its value, and the cell's 1-based.
    const [code, column, row] = [...piece.slice(X10_START.length)].map((char) => char.charCodeAt(0) - 32) as [number, number, number];
    return report(code, column, row, false);
  }
  return undefined;
}

/** Whether a piece of input is a mouse report of either form, acted on or not (never a key). */
export function isMouseReport(piece: string): boolean {
  return piece.startsWith(`${CSI}<`) ? /[Mm]$/.test(piece) : piece.length === X10_LENGTH && piece.startsWith(X10_START);
}
