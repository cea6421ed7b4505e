// Contacts that may be one person twice: those sharing a phone number, and those sharing a
// display name (compared without case or accents), for the user to review. Nothing is merged.
import { type Contact } from '../api/types.js';

export interface DuplicateGroup {
  by: 'phone' | 'name';
  /** The number, or the name as the first of them writes it. */
  value: string;
  contacts: Contact[];
}

/** A name as compared: accents dropped, spaces collapsed, lower case. */
const nameKey = (name: string): string => name.normalize('NFKD').replace(/\p{M}/gu, '').replace(/\s+/g, ' ').trim().toLowerCase();

/** Every group of two or more, phone numbers first, each group in the list's order. */
export function duplicatesOf(contacts: Iterable<Contact>): DuplicateGroup[] {
  const byPhone = new Map<string, Contact[]>();
  const byName = new Map<string, Contact[]>();
  const add = (map: Map<string, Contact[]>, key: string, contact: Contact) => {
    const group = map.get(key);
    if (group) group.push(contact);
    else map.set(key, [contact]);
  };
  for (const contact of contacts) {
    add(byPhone, contact.phoneNumber, contact);
    if (contact.displayName !== null && contact.displayName.trim() !== '') add(byName, nameKey(contact.displayName), contact);
  }
  const groups = (map: Map<string, Contact[]>, by: DuplicateGroup['by']): DuplicateGroup[] =>
    [...map.values()]
      .filter((group) => group.length > 1)
      .map((group) => ({ by, value: by === 'phone' ? group[0]!.phoneNumber : group[0]!.displayName!, contacts: group }));
  return [...groups(byPhone, 'phone'), ...groups(byName, 'name')];
}
