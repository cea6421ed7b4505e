// Where every key goes on the help screen: groups flowed down columns as wide as their longest
// entry, a heading never left alone at the foot of a column, and pages when the screen cannot
// hold them all (a short terminal gets pages, not entries cut to a few letters).
import { width } from '../../text/width.js';
import { BINDINGS, type Scope } from '../keys/keymap.js';

export interface HelpLine {
  heading: boolean;
  /** The key ("j/↓"), or the group's title for a heading. */
  key: string;
  /** What the key does; empty for a heading. */
  text: string;
}

export interface HelpLayout {
  /** Pages of columns of lines. */
  pages: HelpLine[][][];
  columnWidth: number;
  keyWidth: number;
}

/** Spaces between two columns. */
export const HELP_COLUMN_GAP = 2;
const KEY_WIDTH_MAX = 12;
const CONTINUED = ' (cont.)';

/** The help's groups, in the order it shows them: a title and the scopes whose keys it lists. */
export const HELP_GROUPS: readonly (readonly [string, readonly Scope[]])[] = [
  ['Anywhere', ['global']],
  ['Contacts, and one open', ['contacts', 'contacts.detail']],
  ['Confirming a delete', ['contacts.confirm']],
  ['Renaming, creating, filtering', ['contacts.rename', 'contacts.create', 'contacts.filter']],
  ['Searching every contact (/)', ['contacts.search']],
  ['Ticker', ['ticker']],
  ['Watchlists menu', ['ticker.lists', 'ticker.list-name', 'ticker.list-confirm']],
  ['Columns (C)', ['ticker.columns']],
  ['An open symbol', ['detail']],
  ['Alerts view (A)', ['alerts', 'alerts.confirm', 'alerts.form']],
  ['Holdings (h)', ['holdings', 'holdings.confirm', 'holdings.form']],
  ['Symbol picker', ['ticker.picker']],
  ['Any text field', ['field']],
  ['Messages', ['messages']],
  ['This help', ['help']],
  ['Terminal too small', ['hidden']],
];

/** The keys only a screen reader's dashboard has (--screen-reader): its help says them, not the drawn one's. */
export const READER_GROUP = ['With --screen-reader', ['reader']] as const satisfies readonly [string, readonly Scope[]];

/** Every binding under its group's heading, in keymap order; a key that does the same in two scopes of a group, once. */
export function helpLines(): HelpLine[] {
  const lines: HelpLine[] = [];
  for (const [title, scopes] of HELP_GROUPS) {
    lines.push({ heading: true, key: title, text: '' });
    const said = new Set<string>();
    for (const binding of BINDINGS.filter((b) => scopes.includes(b.scope) && !b.listedAbove)) {
      const line = `${binding.label} ${binding.help}`;
      if (said.has(line)) continue;
      said.add(line);
      lines.push({ heading: false, key: binding.label, text: binding.help });
    }
  }
  return lines;
}

/** Lays `lines` out in a space `columns` wide and `rows` tall. */
export function layoutHelp(lines: readonly HelpLine[], columns: number, rows: number): HelpLayout {
  const entries = lines.filter((l) => !l.heading);
  const keyWidth = Math.min(KEY_WIDTH_MAX, Math.max(1, ...entries.map((l) => width(l.key))));
  const natural = Math.max(
    keyWidth + 1 + Math.max(0, ...entries.map((l) => width(l.text))),
    ...lines.filter((l) => l.heading).map((l) => width(l.key + CONTINUED)),
  );
  const perPage = Math.max(1, Math.floor((columns + HELP_COLUMN_GAP) / (natural + HELP_COLUMN_GAP)));
  const columnWidth = perPage === 1 ? Math.max(1, columns) : natural;
  const height = Math.max(1, rows);

  const flowed: HelpLine[][] = [[]];
  let title = '';
  const current = (): HelpLine[] => flowed.at(-1)!;
  const startColumn = (): void => {
    flowed.push([]);
    // A group that goes on in the next column says so, if there is room for more than that.
    if (title !== '' && height >= 3) flowed.at(-1)!.push({ heading: true, key: title + CONTINUED, text: '' });
  };
  for (const line of lines) {
    if (line.heading) {
      title = '';
      // A heading needs at least one of its entries below it in the same column.
      if (current().length > 0 && current().length + 2 > height) startColumn();
      title = line.key;
    } else if (current().length >= height) {
      startColumn();
    }
    current().push(line);
  }

  const pages: HelpLine[][][] = [];
  for (let i = 0; i < flowed.length; i += perPage) pages.push(flowed.slice(i, i + perPage));
  return { pages, columnWidth, keyWidth };
}
