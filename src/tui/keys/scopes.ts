// Which key scopes are live, innermost first, from what the screen shows.
import type { ContactsState } from '../contacts/contacts-state.js';
import { isTextScope, type Scope } from './keymap.js';

export type PaneName = 'contacts' | 'ticker';

/** What covers the panes, when anything does. */
export type Overlay = 'help' | 'messages';

/** What the screen shows, as far as which keys apply. */
export interface ScreenNow {
  focus: PaneName;
  /** The help or the message log, over everything. */
  overlay?: Overlay | undefined;
  contacts: ContactsState;
  pickerOpen?: boolean;
  /**
   * The terminal is too small to show the panes. Whatever was open (a delete prompt, a field, an
   * overlay) stays as it was, untouched by keys, until it can be seen again.
   */
  hidden?: boolean;
  /** A symbol is open over both panes. */
  detailOpen?: boolean;
  /** The scope of what is open in the ticker pane (the watchlists menu, the columns, holdings). */
  paneModal?: Scope | undefined;
  /** The scope of a view over both panes besides the chart (the alerts view). */
  cover?: Scope | undefined;
  /** The whole-list search is open over the contacts pane. */
  searching?: boolean;
  /** The dashboard is read by a screen reader: its keys come first, unless a field takes the letters. */
  reader?: boolean;
}

export function activeScopes(screen: ScreenNow): Scope[] {
  const scopes = screenScopes(screen);
  return screen.reader && !isTextScope(scopes[0]!) && scopes[0] !== 'hidden' ? ['reader', ...scopes] : scopes;
}

function screenScopes({
  focus,
  overlay,
  contacts,
  pickerOpen = false,
  hidden = false,
  detailOpen = false,
  paneModal,
  cover,
  searching = false,
}: ScreenNow): Scope[] {
  if (hidden) return ['hidden'];
  if (overlay) return [overlay];
  // Opened from the chart or the panes, it closes back to them; the help and the log open over it.
  if (cover) return cover === 'alerts' ? ['alerts', 'global'] : [cover];
  // An open symbol covers both panes; the help and the log open over it and close back to it.
  if (detailOpen) return ['detail', 'global'];
  if (focus === 'ticker') return pickerOpen ? ['ticker.picker'] : paneModal ? [paneModal] : ['ticker', 'global'];
  if (searching) return ['contacts.search'];
  switch (contacts.mode.kind) {
    case 'rename':
      return ['contacts.rename'];
    case 'confirm-delete':
    case 'confirm-batch':
      return ['contacts.confirm'];
    case 'create':
      return ['contacts.create'];
    case 'filter':
      return ['contacts.filter'];
    case 'browse':
      return contacts.view === 'detail' ? ['contacts.detail', 'global'] : ['contacts', 'global'];
  }
}
