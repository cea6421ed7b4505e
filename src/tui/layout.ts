// Which panes, which sizes: side by side on wide terminals, stacked on narrow ones, a single
// line when the terminal is too small; every frame one line shorter than the terminal.
import { frameRows, MIN_COLUMNS, MIN_ROWS, SIDE_BY_SIDE_COLUMNS, type TerminalSize } from './terminal.js';

export interface Box2 {
  width: number;
  height: number;
}

export type Layout =
  | { kind: 'too-small'; width: number }
  | { kind: 'side-by-side' | 'stacked'; width: number; panes: number; contacts: Box2; ticker: Box2 };

/** Lines outside the panes: the status line and the footer. */
const CHROME_ROWS = 2;

export function computeLayout(size: TerminalSize): Layout {
  if (size.columns < MIN_COLUMNS || size.rows < MIN_ROWS) return { kind: 'too-small', width: size.columns };
  const panes = frameRows(size) - CHROME_ROWS;
  if (size.columns >= SIDE_BY_SIDE_COLUMNS) {
    const contactsWidth = Math.floor(size.columns / 2);
    return {
      kind: 'side-by-side',
      width: size.columns,
      panes,
      contacts: { width: contactsWidth, height: panes },
      ticker: { width: size.columns - contactsWidth, height: panes },
    };
  }
  const contactsHeight = Math.ceil(panes / 2);
  return {
    kind: 'stacked',
    width: size.columns,
    panes,
    contacts: { width: size.columns, height: contactsHeight },
    ticker: { width: size.columns, height: panes - contactsHeight },
  };
}
