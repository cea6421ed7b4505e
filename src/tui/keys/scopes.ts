// Which key scopes are live, innermost first, from what the screen shows.
import type { ContactsState } from '../state/contacts.js';
import type { Scope } from './keymap.js';

export type PaneName = 'contacts' | 'ticker';

/** What covers the panes, when anything does. */
export type Overlay = 'help' | 'messages';

export function activeScopes(focus: PaneName, overlay: Overlay | undefined, contacts: ContactsState, pickerOpen: boolean): Scope[] {
  if (overlay) return [overlay];
  if (focus === 'ticker') return pickerOpen ? ['ticker.picker'] : ['ticker', 'global'];
  switch (contacts.mode.kind) {
    case 'rename':
      return ['contacts.rename'];
    case 'confirm-delete':
      return ['contacts.confirm'];
    case 'create':
      return ['contacts.create'];
    case 'filter':
      return ['contacts.filter'];
    case 'browse':
      return contacts.view === 'detail' ? ['contacts.detail', 'global'] : ['contacts', 'global'];
  }
}
