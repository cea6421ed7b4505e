// Which key scopes are live, innermost first, from what the screen shows.
import type { ContactsState } from '../state/contacts.js';
import type { Scope } from './keymap.js';

export type PaneName = 'contacts' | 'ticker';

export function activeScopes(focus: PaneName, helpOpen: boolean, contacts: ContactsState, pickerOpen: boolean): Scope[] {
  if (helpOpen) return ['help'];
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
