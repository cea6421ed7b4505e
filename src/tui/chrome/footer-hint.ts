// What the footer says before the pane's keys: an undo on offer, or what the marks are for. Said
// only where its key would do it now: over the alerts view, in a form or a field, `u` is no undo
// (in a field it types a u), and an offer said there would be a promise the key does not keep.
import { BINDINGS, type Command, resolveKey, type Scope } from '../keys/keymap.js';

export interface FooterOffers {
  /** A contact's delete (or the marked ones') can still be undone. */
  contactsUndo: boolean;
  /** The symbol last removed can still be put back (its undo window, the ticker controller's, is open). */
  tickerUndo: boolean;
  /** Contacts marked. */
  marked: number;
}

/** "u undo delete": the key and what it does, as the keymap says (the help says the same). */
function said(command: Command): string {
  const binding = BINDINGS.find((b) => b.command === command)!;
  return `${binding.label} ${binding.help}`;
}

export function footerHint(scopes: readonly Scope[], offers: FooterOffers): string | undefined {
  const u = resolveKey(scopes, 'u');
  if (offers.contactsUndo && u === 'contacts.undo') return said('contacts.undo');
  // d and Esc act on the marks in the list itself, not in a contact, a field or a prompt.
  if (offers.marked > 0 && scopes[0] === 'contacts') return `${offers.marked} marked: d deletes them, Esc unmarks`;
  if (offers.tickerUndo && u === 'ticker.undo') return said('ticker.undo');
  return undefined;
}
