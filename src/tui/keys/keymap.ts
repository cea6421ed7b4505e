// Every key of the dashboard, as data: the router resolves presses from it, and the footer and
// the help overlay are drawn from it, so what is shown is what works.
import type { LineEdit } from '../state/line-edit.js';

export type Scope =
  | 'global'
  /** The terminal is too small to show the panes: nothing may act on what cannot be seen. */
  | 'hidden'
  | 'help'
  | 'messages'
  /** Any text field (rename, create, filter, picker): line editing. */
  | 'field'
  | 'contacts'
  | 'contacts.detail'
  | 'contacts.confirm'
  | 'contacts.rename'
  | 'contacts.create'
  | 'contacts.filter'
  /** The whole-list search over the contacts pane. */
  | 'contacts.search'
  | 'ticker'
  | 'ticker.picker'
  /** The watchlists menu, a list's name being typed, a list's delete being confirmed. */
  | 'ticker.lists'
  | 'ticker.list-name'
  | 'ticker.list-confirm'
  /** The columns editor of the list shown. */
  | 'ticker.columns'
  /** One symbol open: its figures and chart. */
  | 'detail'
  /** The alerts view (over the panes), an alert's form in it, a delete being confirmed. */
  | 'alerts'
  | 'alerts.form'
  | 'alerts.confirm'
  /** A symbol's lots (in the ticker pane), a lot's form, a delete being confirmed. */
  | 'holdings'
  | 'holdings.form'
  | 'holdings.confirm'
  /** Keys of the screen reader's mode (--screen-reader), before every scope but a text field's. */
  | 'reader';

export type Command =
  | 'quit'
  | 'suspend'
  | 'mouse'
  | 'focus-next'
  | 'focus-previous'
  | 'help'
  | 'help.close'
  | 'help.next-page'
  | 'help.previous-page'
  | 'messages'
  | 'messages.close'
  | 'messages.down'
  | 'messages.up'
  | 'messages.page-down'
  | 'messages.page-up'
  | 'field.clear'
  | 'field.delete-word'
  | 'field.left'
  | 'field.right'
  | 'field.start'
  | 'field.end'
  | 'field.word-left'
  | 'field.word-right'
  | 'field.delete-forward'
  | 'field.kill-end'
  | 'contacts.down'
  | 'contacts.up'
  | 'contacts.first'
  | 'contacts.last'
  | 'contacts.stop'
  | 'contacts.next-page'
  | 'contacts.previous-page'
  | 'contacts.toggle-active'
  | 'contacts.reload'
  | 'contacts.open'
  | 'contacts.back'
  | 'contacts.rename'
  | 'contacts.delete'
  | 'contacts.undo'
  | 'contacts.create'
  | 'contacts.filter'
  | 'contacts.search'
  | 'search.down'
  | 'search.up'
  | 'search.show'
  | 'search.mark'
  | 'search.close'
  | 'contacts.mark'
  | 'contacts.mark-all'
  | 'contacts.export'
  | 'contacts.copy-phone'
  | 'contacts.copy-username'
  | 'contacts.confirm-yes'
  | 'contacts.confirm-no'
  | 'field.submit'
  | 'field.cancel'
  | 'field.next'
  | 'field.previous'
  | 'ticker.down'
  | 'ticker.up'
  | 'ticker.first'
  | 'ticker.last'
  | 'ticker.pause'
  | 'ticker.faster'
  | 'ticker.slower'
  | 'ticker.sort'
  | 'ticker.move-down'
  | 'ticker.move-up'
  | 'ticker.remove'
  | 'ticker.undo'
  | 'ticker.refresh'
  | 'ticker.picker'
  | 'ticker.open'
  | 'ticker.flip-sort'
  | 'ticker.lists'
  | 'ticker.move-to-list'
  | 'ticker.next-list'
  | 'ticker.previous-list'
  | `ticker.list-${1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9}`
  | 'lists.down'
  | 'lists.up'
  | 'lists.choose'
  | 'lists.create'
  | 'lists.rename'
  | 'lists.delete'
  | 'lists.close'
  | 'lists.confirm-yes'
  | 'lists.confirm-no'
  | 'ticker.edit-columns'
  | 'columns.down'
  | 'columns.up'
  | 'columns.toggle'
  | 'columns.left'
  | 'columns.right'
  | 'columns.close'
  | 'detail.close'
  | 'detail.next'
  | 'detail.previous'
  | 'detail.span-longer'
  | 'detail.span-shorter'
  | 'detail.span-1h'
  | 'detail.span-1d'
  | 'detail.span-5d'
  | 'detail.span-1m'
  | 'detail.span-all'
  | 'picker.down'
  | 'picker.up'
  | 'picker.add'
  | 'alerts.new'
  | 'alerts.open'
  | 'alerts.close'
  | 'alerts.down'
  | 'alerts.up'
  | 'alerts.section'
  | 'alerts.edit'
  | 'alerts.pause'
  | 'alerts.snooze'
  | 'alerts.wake'
  | 'alerts.delete'
  | 'alerts.confirm-yes'
  | 'alerts.confirm-no'
  | 'holdings.open'
  | 'holdings.close'
  | 'holdings.down'
  | 'holdings.up'
  | 'holdings.add'
  | 'holdings.edit'
  | 'holdings.delete'
  | 'holdings.confirm-yes'
  | 'holdings.confirm-no'
  | 'ticker.privacy'
  | 'reader.price'
  | 'reader.where'
  | 'reader.pane'
  | 'reader.status';

export interface Binding {
  scope: Scope;
  /** Key names as keyPresses() (terminal-input.ts) gives them. */
  keys: readonly string[];
  /** How the keys are shown: "j/↓". */
  label: string;
  /** What the key does, in a few words. */
  help: string;
  command: Command;
  /** Shown in the footer of its scope. */
  footer?: boolean;
  /**
   * The footer's words for it when the line cannot hold every key's full words: a word or two
   * (`Enter chart`); '' when the key before it says it too (`n/p pages`). Without one, the full words.
   */
  brief?: string;
  /** Listed in the help on the line of the binding before it, whose label and text name both. */
  listedAbove?: boolean;
}

export const BINDINGS: readonly Binding[] = [
  // Global
  { scope: 'global', keys: ['tab'], label: 'Tab', help: 'next pane', command: 'focus-next', footer: true },
  { scope: 'global', keys: ['shift-tab'], label: 'S-Tab', help: 'previous pane', command: 'focus-previous' },
  { scope: 'global', keys: ['?'], label: '?', help: 'help: every key', command: 'help', footer: true, brief: '? help' },
  { scope: 'global', keys: ['q'], label: 'q', help: 'quit', command: 'quit', footer: true },
  { scope: 'global', keys: ['ctrl-c'], label: 'Ctrl-C', help: 'quit', command: 'quit' },
  { scope: 'global', keys: ['ctrl-z'], label: 'Ctrl-Z', help: 'suspend (fg resumes)', command: 'suspend' },
  // For a screen reader (--screen-reader): nothing is read that was not asked for, but what matters.
  { scope: 'reader', keys: ['t'], label: 't', help: 'read the selected price', command: 'reader.price' },
  { scope: 'reader', keys: ['o'], label: 'o', help: 'say where you are and what is selected', command: 'reader.where' },
  { scope: 'reader', keys: ['L'], label: 'L', help: 'read every row of the pane', command: 'reader.pane' },
  { scope: 'reader', keys: ['.'], label: '.', help: 'read the status line', command: 'reader.status' },
  { scope: 'global', keys: ['m'], label: 'm', help: 'messages, in full', command: 'messages' },
  { scope: 'global', keys: ['O'], label: 'O', help: 'mouse on / off', command: 'mouse' },
  // While the terminal is too small only leaving acts: a d and a y pressed then delete nothing.
  { scope: 'hidden', keys: ['q', 'ctrl-c'], label: 'q', help: 'quit', command: 'quit', footer: true },
  { scope: 'hidden', keys: ['ctrl-z'], label: 'Ctrl-Z', help: 'suspend', command: 'suspend', footer: true },
  // The terminal's own selection, to copy the size it asks for.
  { scope: 'hidden', keys: ['O'], label: 'O', help: 'mouse on / off', command: 'mouse' },
  { scope: 'help', keys: ['esc', '?', 'q', 'enter'], label: 'Esc', help: 'close help', command: 'help.close', footer: true, brief: 'Esc close' },
  // Pages only when the keys do not fit the screen: the help's title says so then.
  { scope: 'help', keys: ['pagedown', 'space', 'j', 'down', 'n'], label: 'PgDn/PgUp', help: 'next / previous page', command: 'help.next-page' },
  { scope: 'help', keys: ['pageup', 'k', 'up', 'p'], label: 'PgUp/k', help: 'previous page', command: 'help.previous-page', listedAbove: true },

  { scope: 'messages', keys: ['esc', 'm', 'q', 'enter'], label: 'Esc', help: 'close messages', command: 'messages.close', footer: true, brief: 'Esc close' },
  { scope: 'messages', keys: ['j', 'down'], label: 'j/↓', help: 'scroll to older', command: 'messages.down', footer: true, brief: 'j/k scroll' },
  { scope: 'messages', keys: ['k', 'up'], label: 'k/↑', help: 'scroll to newer', command: 'messages.up', footer: true, brief: '' },
  { scope: 'messages', keys: ['pagedown', 'space'], label: 'PgDn/PgUp', help: 'a page older / newer', command: 'messages.page-down' },
  { scope: 'messages', keys: ['pageup'], label: 'PgUp', help: 'a page newer', command: 'messages.page-up', listedAbove: true },

  // Contacts: the list
  { scope: 'contacts', keys: ['j', 'down'], label: 'j/k ↓/↑', help: 'next / previous contact', command: 'contacts.down' },
  { scope: 'contacts', keys: ['k', 'up'], label: 'k/↑', help: 'previous contact', command: 'contacts.up', listedAbove: true },
  { scope: 'contacts', keys: ['g', 'home'], label: 'g/G', help: 'first / last contact', command: 'contacts.first' },
  { scope: 'contacts', keys: ['G', 'end'], label: 'G', help: 'last contact', command: 'contacts.last', listedAbove: true },
  { scope: 'contacts', keys: ['n', 'pagedown'], label: 'n/PgDn', help: 'next page', command: 'contacts.next-page', footer: true, brief: 'n/p pages' },
  { scope: 'contacts', keys: ['p', 'pageup'], label: 'p/PgUp', help: 'previous page', command: 'contacts.previous-page', footer: true, brief: '' },
  { scope: 'contacts', keys: ['enter'], label: 'Enter', help: 'open contact', command: 'contacts.open', footer: true, brief: 'Enter open' },
  { scope: 'contacts', keys: ['e'], label: 'e', help: 'rename', command: 'contacts.rename', footer: true },
  { scope: 'contacts', keys: ['d'], label: 'd', help: 'delete (the marked ones)', command: 'contacts.delete', footer: true, brief: 'd delete' },
  { scope: 'contacts', keys: ['u'], label: 'u', help: 'undo delete', command: 'contacts.undo' },
  { scope: 'contacts', keys: ['c'], label: 'c', help: 'create contact', command: 'contacts.create', footer: true, brief: 'c create' },
  { scope: 'contacts', keys: ['/'], label: '/', help: 'search every contact', command: 'contacts.search', footer: true, brief: '/ search' },
  { scope: 'contacts', keys: ['f'], label: 'f', help: 'filter this page', command: 'contacts.filter' },
  { scope: 'contacts', keys: ['a'], label: 'a', help: 'all / active only', command: 'contacts.toggle-active', footer: true, brief: 'a all/active' },
  { scope: 'contacts', keys: ['r'], label: 'r', help: 'reload', command: 'contacts.reload' },
  { scope: 'contacts', keys: ['esc'], label: 'Esc', help: 'stop a jump / unmark all', command: 'contacts.stop' },
  { scope: 'contacts', keys: ['space'], label: 'Space/*', help: 'mark / mark all shown', command: 'contacts.mark' },
  { scope: 'contacts', keys: ['*'], label: '*', help: 'mark every contact shown', command: 'contacts.mark-all', listedAbove: true },
  { scope: 'contacts', keys: ['x'], label: 'x', help: 'export marked (or all)', command: 'contacts.export' },
  { scope: 'contacts', keys: ['y'], label: 'y/Y', help: 'copy phone / username', command: 'contacts.copy-phone' },
  { scope: 'contacts', keys: ['Y'], label: 'Y', help: 'copy the username', command: 'contacts.copy-username', listedAbove: true },

  // Contacts: one contact open
  { scope: 'contacts.detail', keys: ['esc', 'backspace', 'left'], label: 'Esc', help: 'back to the list', command: 'contacts.back', footer: true, brief: 'Esc back' },
  { scope: 'contacts.detail', keys: ['e'], label: 'e', help: 'rename', command: 'contacts.rename', footer: true },
  { scope: 'contacts.detail', keys: ['d'], label: 'd', help: 'delete', command: 'contacts.delete', footer: true },
  { scope: 'contacts.detail', keys: ['u'], label: 'u', help: 'undo delete', command: 'contacts.undo' },
  { scope: 'contacts.detail', keys: ['r'], label: 'r', help: 'reload', command: 'contacts.reload' },
  { scope: 'contacts.detail', keys: ['y'], label: 'y/Y', help: 'copy phone / username', command: 'contacts.copy-phone' },
  { scope: 'contacts.detail', keys: ['Y'], label: 'Y', help: 'copy the username', command: 'contacts.copy-username', listedAbove: true },

  // Contacts: confirming a delete (default No)
  { scope: 'contacts.confirm', keys: ['y', 'Y'], label: 'y', help: 'yes, delete', command: 'contacts.confirm-yes', footer: true },
  { scope: 'contacts.confirm', keys: ['n', 'N', 'esc', 'enter'], label: 'n/Enter/Esc', help: 'no, keep', command: 'contacts.confirm-no', footer: true },

  // Every text field: rename, create, filter, the picker
  { scope: 'field', keys: ['ctrl-u'], label: 'Ctrl-U', help: 'delete to the start', command: 'field.clear' },
  { scope: 'field', keys: ['ctrl-w'], label: 'Ctrl-W', help: 'delete the word before', command: 'field.delete-word' },
  // Moving and deleting at the cursor: the field itself acts on these (its cursor is its own).
  { scope: 'field', keys: ['left', 'ctrl-b'], label: '←/→', help: 'cursor (or Ctrl-B/F)', command: 'field.left' },
  { scope: 'field', keys: ['right', 'ctrl-f'], label: '→/Ctrl-F', help: 'cursor right', command: 'field.right', listedAbove: true },
  { scope: 'field', keys: ['home', 'ctrl-a'], label: 'Home/End', help: 'start / end (Ctrl-A/E)', command: 'field.start' },
  { scope: 'field', keys: ['end', 'ctrl-e'], label: 'End/Ctrl-E', help: 'to the end', command: 'field.end', listedAbove: true },
  { scope: 'field', keys: ['alt-b'], label: 'Alt-B/F', help: 'back / forward a word', command: 'field.word-left' },
  { scope: 'field', keys: ['alt-f'], label: 'Alt-F', help: 'forward a word', command: 'field.word-right', listedAbove: true },
  { scope: 'field', keys: ['delete', 'ctrl-d'], label: 'Del/Ctrl-D', help: 'delete at the cursor', command: 'field.delete-forward' },
  { scope: 'field', keys: ['ctrl-k'], label: 'Ctrl-K', help: 'delete to the end', command: 'field.kill-end' },

  // Text fields: rename, create, filter
  { scope: 'contacts.rename', keys: ['enter'], label: 'Enter', help: 'save name', command: 'field.submit', footer: true, brief: 'Enter save' },
  { scope: 'contacts.rename', keys: ['esc', 'ctrl-c'], label: 'Esc', help: 'cancel', command: 'field.cancel', footer: true },
  { scope: 'contacts.create', keys: ['enter'], label: 'Enter', help: 'create', command: 'field.submit', footer: true },
  { scope: 'contacts.create', keys: ['tab', 'down'], label: 'Tab/↓', help: 'next field', command: 'field.next', footer: true, brief: 'Tab/↓ next' },
  { scope: 'contacts.create', keys: ['shift-tab', 'up'], label: 'S-Tab/↑', help: 'previous field', command: 'field.previous', footer: true, brief: 'S-Tab/↑ previous' },
  { scope: 'contacts.create', keys: ['esc', 'ctrl-c'], label: 'Esc', help: 'cancel', command: 'field.cancel', footer: true },
  { scope: 'contacts.filter', keys: ['enter'], label: 'Enter', help: 'keep filter', command: 'field.submit', footer: true, brief: 'Enter keep' },
  { scope: 'contacts.filter', keys: ['esc', 'ctrl-c'], label: 'Esc', help: 'clear filter', command: 'field.cancel', footer: true, brief: 'Esc clear' },
  { scope: 'contacts.search', keys: ['down', 'tab', 'ctrl-n'], label: '↓/↑', help: 'next / previous match', command: 'search.down', footer: true, brief: '↓/↑ move' },
  { scope: 'contacts.search', keys: ['up', 'shift-tab', 'ctrl-p'], label: '↑', help: 'previous match', command: 'search.up', listedAbove: true },
  { scope: 'contacts.search', keys: ['enter'], label: 'Enter', help: 'show it in the list', command: 'search.show', footer: true, brief: 'Enter show' },
  { scope: 'contacts.search', keys: ['ctrl-t'], label: 'Ctrl-T', help: 'mark the match', command: 'search.mark', footer: true, brief: 'Ctrl-T mark' },
  { scope: 'contacts.search', keys: ['esc', 'ctrl-c'], label: 'Esc', help: 'close search', command: 'search.close', footer: true, brief: 'Esc close' },

  // Ticker
  { scope: 'ticker', keys: ['j', 'down'], label: 'j/k ↓/↑', help: 'next / previous symbol', command: 'ticker.down' },
  { scope: 'ticker', keys: ['k', 'up'], label: 'k/↑', help: 'previous symbol', command: 'ticker.up', listedAbove: true },
  { scope: 'ticker', keys: ['g', 'home'], label: 'g/G', help: 'first / last row', command: 'ticker.first' },
  { scope: 'ticker', keys: ['G', 'end'], label: 'G', help: 'last row', command: 'ticker.last', listedAbove: true },
  { scope: 'ticker', keys: ['enter'], label: 'Enter', help: 'open chart', command: 'ticker.open', footer: true, brief: 'Enter chart' },
  { scope: 'ticker', keys: ['/', 'i'], label: '/ or i', help: 'add symbols', command: 'ticker.picker', footer: true, brief: '/ add' },
  { scope: 'ticker', keys: ['x'], label: 'x', help: 'remove symbol', command: 'ticker.remove', footer: true, brief: 'x remove' },
  { scope: 'ticker', keys: ['u'], label: 'u', help: 'undo remove', command: 'ticker.undo' },
  { scope: 'ticker', keys: ['J'], label: 'J/K', help: 'move symbol down / up', command: 'ticker.move-down' },
  { scope: 'ticker', keys: ['K'], label: 'K', help: 'move symbol up', command: 'ticker.move-up', listedAbove: true },
  { scope: 'ticker', keys: ['s'], label: 's', help: 'cycle sort', command: 'ticker.sort', footer: true, brief: 's sort' },
  { scope: 'ticker', keys: ['S'], label: 'S', help: 'flip the sort', command: 'ticker.flip-sort' },
  { scope: 'ticker', keys: ['w'], label: 'w', help: 'watchlists', command: 'ticker.lists', footer: true, brief: 'w lists' },
  { scope: 'ticker', keys: ['M'], label: 'M', help: 'move symbol to a list', command: 'ticker.move-to-list' },
  { scope: 'ticker', keys: ['C'], label: 'C', help: 'choose columns', command: 'ticker.edit-columns' },
  { scope: 'ticker', keys: [']'], label: '[ ]', help: 'previous / next list', command: 'ticker.next-list' },
  { scope: 'ticker', keys: ['['], label: '[', help: 'previous list', command: 'ticker.previous-list', listedAbove: true },
  ...([1, 2, 3, 4, 5, 6, 7, 8, 9] as const).map(
    (n): Binding => ({ scope: 'ticker', keys: [String(n)], label: n === 1 ? '1-9' : String(n), help: n === 1 ? 'show list 1-9' : `show list ${n}`, command: `ticker.list-${n}`, ...(n > 1 && { listedAbove: true }) }),
  ),
  { scope: 'ticker', keys: ['space'], label: 'Space', help: 'pause / resume', command: 'ticker.pause', footer: true, brief: 'Space pause' },
  { scope: 'ticker', keys: ['+', '='], label: '+', help: 'poll less often', command: 'ticker.slower', footer: true, brief: '+/- interval' },
  { scope: 'ticker', keys: ['-', '_'], label: '-', help: 'poll more often', command: 'ticker.faster', footer: true, brief: '' },
  { scope: 'ticker', keys: ['r'], label: 'r', help: 'refresh now', command: 'ticker.refresh' },
  { scope: 'ticker', keys: ['a'], label: 'a', help: 'set an alert', command: 'alerts.new', footer: true, brief: 'a alert' },
  { scope: 'ticker', keys: ['A'], label: 'A', help: 'alerts view and log', command: 'alerts.open' },
  { scope: 'ticker', keys: ['h'], label: 'h', help: 'holdings of the symbol', command: 'holdings.open' },
  { scope: 'ticker', keys: ['$'], label: '$', help: 'hide / show money', command: 'ticker.privacy' },

  // One symbol open
  { scope: 'detail', keys: ['esc', 'backspace'], label: 'Esc', help: 'back to the watchlist', command: 'detail.close', footer: true, brief: 'Esc back' },
  { scope: 'detail', keys: ['j', 'down'], label: 'j/↓', help: 'next symbol', command: 'detail.next', footer: true, brief: 'j/k symbol' },
  { scope: 'detail', keys: ['k', 'up'], label: 'k/↑', help: 'previous symbol', command: 'detail.previous', footer: true, brief: '' },
  { scope: 'detail', keys: ['l', 'right', ']'], label: 'l/→', help: 'longer span', command: 'detail.span-longer', footer: true, brief: 'h/l span' },
  { scope: 'detail', keys: ['h', 'left', '['], label: 'h/←', help: 'shorter span', command: 'detail.span-shorter', footer: true, brief: '' },
  { scope: 'detail', keys: ['1'], label: '1-5', help: 'span 1h, 1d, 5d, 1m, all', command: 'detail.span-1h' },
  { scope: 'detail', keys: ['2'], label: '2', help: 'span 1 day', command: 'detail.span-1d', listedAbove: true },
  { scope: 'detail', keys: ['3'], label: '3', help: 'span 5 days', command: 'detail.span-5d', listedAbove: true },
  { scope: 'detail', keys: ['4'], label: '4', help: 'span 1 month', command: 'detail.span-1m', listedAbove: true },
  { scope: 'detail', keys: ['5'], label: '5', help: 'span: all recorded', command: 'detail.span-all', listedAbove: true },
  { scope: 'detail', keys: ['a'], label: 'a', help: 'set an alert', command: 'alerts.new', footer: true, brief: 'a alert' },
  { scope: 'detail', keys: ['A'], label: 'A', help: 'alerts view and log', command: 'alerts.open' },

  // The alerts view
  { scope: 'alerts', keys: ['esc', 'A', 'q'], label: 'Esc', help: 'close alerts', command: 'alerts.close', footer: true, brief: 'Esc close' },
  { scope: 'alerts', keys: ['j', 'down'], label: 'j/k', help: 'next / previous', command: 'alerts.down' },
  { scope: 'alerts', keys: ['k', 'up'], label: 'k/↑', help: 'previous', command: 'alerts.up', listedAbove: true },
  { scope: 'alerts', keys: ['tab'], label: 'Tab', help: 'alerts / fired log', command: 'alerts.section', footer: true, brief: 'Tab log' },
  { scope: 'alerts', keys: ['a', 'c'], label: 'a', help: 'new alert', command: 'alerts.new', footer: true, brief: 'a new' },
  { scope: 'alerts', keys: ['e', 'enter'], label: 'e', help: 'edit alert', command: 'alerts.edit', footer: true, brief: 'e edit' },
  { scope: 'alerts', keys: ['p', 'space'], label: 'p', help: 'pause / resume', command: 'alerts.pause', footer: true, brief: 'p pause' },
  { scope: 'alerts', keys: ['z'], label: 'z/Z', help: 'snooze 1 h more / wake', command: 'alerts.snooze', footer: true, brief: 'z/Z snooze' },
  { scope: 'alerts', keys: ['Z'], label: 'Z', help: 'wake (end the snooze)', command: 'alerts.wake', listedAbove: true },
  { scope: 'alerts', keys: ['d'], label: 'd', help: 'delete alert', command: 'alerts.delete', footer: true, brief: 'd delete' },
  { scope: 'alerts.confirm', keys: ['y', 'Y'], label: 'y/n', help: 'delete alert / keep it', command: 'alerts.confirm-yes', footer: true },
  { scope: 'alerts.confirm', keys: ['n', 'N', 'esc', 'enter'], label: 'n/Enter/Esc', help: 'no, keep', command: 'alerts.confirm-no', footer: true, listedAbove: true },
  { scope: 'alerts.form', keys: ['enter'], label: 'Enter', help: 'save', command: 'field.submit', footer: true },
  { scope: 'alerts.form', keys: ['tab', 'down'], label: 'Tab/↓', help: 'next field', command: 'field.next', footer: true, brief: 'Tab/↓ next' },
  { scope: 'alerts.form', keys: ['shift-tab', 'up'], label: 'S-Tab/↑', help: 'previous field', command: 'field.previous', footer: true, brief: 'S-Tab/↑ previous' },
  { scope: 'alerts.form', keys: ['esc', 'ctrl-c'], label: 'Esc', help: 'cancel', command: 'field.cancel', footer: true },

  // A symbol's holdings
  { scope: 'holdings', keys: ['j', 'down'], label: 'j/k', help: 'next / previous lot', command: 'holdings.down', footer: true },
  { scope: 'holdings', keys: ['k', 'up'], label: 'k/↑', help: 'previous lot', command: 'holdings.up', listedAbove: true },
  { scope: 'holdings', keys: ['a', 'c'], label: 'a', help: 'add a lot', command: 'holdings.add', footer: true },
  { scope: 'holdings', keys: ['e', 'enter'], label: 'e', help: 'edit lot', command: 'holdings.edit', footer: true },
  { scope: 'holdings', keys: ['d'], label: 'd', help: 'delete lot', command: 'holdings.delete', footer: true },
  { scope: 'holdings', keys: ['esc', 'h', 'q'], label: 'Esc', help: 'close', command: 'holdings.close', footer: true },
  { scope: 'holdings.confirm', keys: ['y', 'Y'], label: 'y/n', help: 'delete the lot / keep it', command: 'holdings.confirm-yes', footer: true },
  { scope: 'holdings.confirm', keys: ['n', 'N', 'esc', 'enter'], label: 'n/Enter/Esc', help: 'no, keep', command: 'holdings.confirm-no', footer: true, listedAbove: true },
  { scope: 'holdings.form', keys: ['enter'], label: 'Enter', help: 'save', command: 'field.submit', footer: true },
  { scope: 'holdings.form', keys: ['tab', 'down'], label: 'Tab/↓', help: 'next field', command: 'field.next', footer: true },
  { scope: 'holdings.form', keys: ['shift-tab', 'up'], label: 'S-Tab/↑', help: 'previous field', command: 'field.previous', footer: true },
  { scope: 'holdings.form', keys: ['esc', 'ctrl-c'], label: 'Esc', help: 'cancel', command: 'field.cancel', footer: true },

  // The watchlists menu
  { scope: 'ticker.lists', keys: ['j', 'down'], label: 'j/k', help: 'next / previous list', command: 'lists.down', footer: true, brief: 'j/k move' },
  { scope: 'ticker.lists', keys: ['k', 'up'], label: 'k/↑', help: 'previous list', command: 'lists.up', listedAbove: true },
  { scope: 'ticker.lists', keys: ['enter'], label: 'Enter', help: 'show it (or move there)', command: 'lists.choose', footer: true, brief: 'Enter show' },
  { scope: 'ticker.lists', keys: ['c'], label: 'c', help: 'new list', command: 'lists.create', footer: true, brief: 'c new' },
  { scope: 'ticker.lists', keys: ['e'], label: 'e', help: 'rename', command: 'lists.rename', footer: true },
  { scope: 'ticker.lists', keys: ['d'], label: 'd', help: 'delete list', command: 'lists.delete', footer: true, brief: 'd delete' },
  { scope: 'ticker.lists', keys: ['esc', 'w', 'q'], label: 'Esc', help: 'close', command: 'lists.close', footer: true },
  { scope: 'ticker.list-name', keys: ['enter'], label: 'Enter/Esc', help: 'save / cancel a name', command: 'field.submit', footer: true, brief: 'Enter save' },
  { scope: 'ticker.list-name', keys: ['esc', 'ctrl-c'], label: 'Esc', help: 'cancel', command: 'field.cancel', footer: true, listedAbove: true, brief: 'Esc cancel' },
  { scope: 'ticker.list-confirm', keys: ['y', 'Y'], label: 'y/n', help: 'delete the list / keep it', command: 'lists.confirm-yes', footer: true },
  { scope: 'ticker.list-confirm', keys: ['n', 'N', 'esc', 'enter'], label: 'n/Enter/Esc', help: 'no, keep', command: 'lists.confirm-no', footer: true, listedAbove: true },

  // The columns editor
  { scope: 'ticker.columns', keys: ['j', 'down'], label: 'j/k', help: 'next / previous column', command: 'columns.down', footer: true, brief: 'j/k move' },
  { scope: 'ticker.columns', keys: ['k', 'up'], label: 'k/↑', help: 'previous column', command: 'columns.up', listedAbove: true },
  { scope: 'ticker.columns', keys: ['space'], label: 'Space', help: 'show / hide column', command: 'columns.toggle', footer: true, brief: 'Space show/hide' },
  { scope: 'ticker.columns', keys: ['K', 'left'], label: 'K/J', help: 'move column left / right', command: 'columns.left', footer: true, brief: 'K/J reorder' },
  { scope: 'ticker.columns', keys: ['J', 'right'], label: 'J', help: 'move column right', command: 'columns.right', listedAbove: true },
  { scope: 'ticker.columns', keys: ['esc', 'enter', 'C', 'q'], label: 'Esc', help: 'done', command: 'columns.close', footer: true },

  // The symbol picker
  { scope: 'ticker.picker', keys: ['down', 'tab'], label: '↓', help: 'next match', command: 'picker.down', footer: true, brief: '↓/↑ move' },
  { scope: 'ticker.picker', keys: ['up', 'shift-tab'], label: '↑', help: 'previous match', command: 'picker.up', footer: true, brief: '' },
  { scope: 'ticker.picker', keys: ['enter'], label: 'Enter', help: 'add symbol', command: 'picker.add', footer: true, brief: 'Enter add' },
  { scope: 'ticker.picker', keys: ['esc', 'ctrl-c'], label: 'Esc', help: 'close', command: 'field.cancel', footer: true },
];

/** Scopes where typing goes to a text field: unbound keys stop there instead of reaching global. */
const TEXT_SCOPES: ReadonlySet<Scope> = new Set(['contacts.rename', 'contacts.create', 'contacts.filter', 'contacts.search', 'ticker.picker', 'ticker.list-name', 'alerts.form', 'holdings.form']);
/** Modal scopes swallow every other key too (but Ctrl-C). */
const MODAL_SCOPES: ReadonlySet<Scope> = new Set([...TEXT_SCOPES, 'hidden', 'help', 'messages', 'contacts.confirm', 'ticker.lists', 'ticker.list-confirm', 'ticker.columns', 'alerts.confirm', 'holdings', 'holdings.confirm']);

const find = (scope: Scope, name: string): Binding | undefined => BINDINGS.find((b) => b.scope === scope && b.keys.includes(name));

/**
 * The command for a key, looking through scopes from the innermost (a modal) out to global. A
 * text field's own keys come first, then those of every text field. A modal scope stops the
 * search: its keys, or nothing, except Ctrl-C, which quits. In a text field Ctrl-C is bound to
 * leave the field instead: nothing quits from inside one, and a second Ctrl-C, outside it, does.
 */
export function resolveKey(scopes: readonly Scope[], name: string | undefined): Command | undefined {
  if (name === undefined) return undefined;
  for (const scope of scopes) {
    const binding = find(scope, name) ?? (TEXT_SCOPES.has(scope) ? find('field', name) : undefined);
    if (binding) return binding.command;
    if (MODAL_SCOPES.has(scope)) return name === 'ctrl-c' ? 'quit' : undefined;
  }
  return undefined;
}

/** Every key name some binding uses. */
const KEY_NAMES: readonly string[] = [...new Set(BINDINGS.flatMap((b) => b.keys))];

/** Whether some key would run `command` now: the mouse does only what a key could do. */
export function canRun(scopes: readonly Scope[], command: Command): boolean {
  return KEY_NAMES.some((name) => resolveKey(scopes, name) === command);
}

/**
 * Commands that take a count: a run of the same key (held, or typed faster than it is drawn) is
 * one command moving that far, one state change and one render, not one per key.
 */
export const COUNTED: ReadonlySet<Command> = new Set<Command>([
  'help.next-page',
  'help.previous-page',
  'messages.down',
  'messages.up',
  'messages.page-down',
  'messages.page-up',
  'contacts.down',
  'contacts.up',
  'contacts.next-page',
  'contacts.previous-page',
  'ticker.down',
  'ticker.up',
  'detail.next',
  'detail.previous',
  'lists.down',
  'lists.up',
  'columns.down',
  'columns.up',
  'detail.span-longer',
  'detail.span-shorter',
  'picker.down',
  'picker.up',
  'search.down',
  'search.up',
  'alerts.down',
  'alerts.up',
  'holdings.down',
  'holdings.up',
]);

/** The contacts list's moves: made while one is under way, they add to it instead of waiting. */
export const CONTACT_MOVES: ReadonlySet<Command> = new Set<Command>([
  'contacts.down',
  'contacts.up',
  'contacts.next-page',
  'contacts.previous-page',
  'contacts.first',
  'contacts.last',
  'contacts.stop',
]);

export const bindingsFor = (scope: Scope): Binding[] => BINDINGS.filter((b) => b.scope === scope);

export const isTextScope = (scope: Scope): boolean => TEXT_SCOPES.has(scope);

/** The field's own edits, by command: the focused field applies them to its value and cursor. */
const FIELD_EDIT_TABLE = {
  'field.left': 'left',
  'field.right': 'right',
  'field.start': 'start',
  'field.end': 'end',
  'field.word-left': 'word-left',
  'field.word-right': 'word-right',
  'field.delete-forward': 'delete-forward',
  'field.kill-end': 'kill-end',
  'field.clear': 'kill-start',
  'field.delete-word': 'delete-word-back',
} as const satisfies Partial<Record<Command, LineEdit>>;
export const FIELD_EDITS: Partial<Record<Command, LineEdit>> = FIELD_EDIT_TABLE;
/** The commands that are a field's own edits. */
export type FieldEditCommand = keyof typeof FIELD_EDIT_TABLE;
export const FIELD_EDIT_COMMANDS = Object.keys(FIELD_EDIT_TABLE) as FieldEditCommand[];
