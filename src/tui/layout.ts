// Which panes, which sizes: side by side on wide terminals, stacked on narrow ones (the ticker
// below, with the odd row), a single line when the terminal is too small; every frame one line
// shorter than the terminal.
import { frameRows, MIN_COLUMNS, MIN_ROWS, SIDE_BY_SIDE_COLUMNS, type TerminalSize } from './terminal/terminal-size.js';

export interface Box2 {
  width: number;
  height: number;
}

export type Layout =
  | { kind: 'too-small'; width: number }
  | { kind: 'side-by-side' | 'stacked'; width: number; panes: number; contacts: Box2; ticker: Box2 };

/** Lines outside the panes: the status line and the footer. */
const CHROME_ROWS = 2;
/** The contacts pane stacked is never shorter than this: borders, title, header, two rows, its bottom line. */
const MIN_STACKED_CONTACTS = 7;

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
  // The ticker has the odd row: with its status line up on its title row, six symbols and a line
  // of totals fit under it at 80x24, where the contacts keep five.
  const contactsHeight = Math.max(Math.floor(panes / 2), Math.min(MIN_STACKED_CONTACTS, panes - 1));
  return {
    kind: 'stacked',
    width: size.columns,
    panes,
    contacts: { width: size.columns, height: contactsHeight },
    ticker: { width: size.columns, height: panes - contactsHeight },
  };
}
