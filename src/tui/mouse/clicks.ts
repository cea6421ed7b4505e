// Telling a double-click from two clicks: the second press comes soon after the first, on the
// same line and about the same column (a hand moves a little between the two).

/** How soon the second press must come: the common desktop default. */
export const DOUBLE_CLICK_MS = 400;

export interface Press {
  column: number;
  row: number;
  at: number;
}

export interface ClickRun extends Press {
  /** 1 for a click, 2 for the second of a double-click; a third starts again at 1. */
  count: number;
}

/** The run a press makes, after the run of the press before it (undefined for none). */
export function nextClick(previous: ClickRun | undefined, press: Press): ClickRun {
  const double =
    previous !== undefined &&
    previous.count === 1 &&
    press.row === previous.row &&
    Math.abs(press.column - previous.column) <= 1 &&
    press.at - previous.at >= 0 &&
    press.at - previous.at <= DOUBLE_CLICK_MS;
  return { ...press, count: double ? 2 : 1 };
}
