// A contact's fields as people read them, for the CLI's `contacts get` and the dashboard's
// open contact alike: times both absolute and relative.
import { contactName, type Contact } from '../api/types.js';
import { sanitize } from './sanitize.js';
import { absoluteTime, relativeTime } from './time.js';

export function contactFields(contact: Contact, now: Date = new Date()): [label: string, value: string][] {
  const when = (date: Date | null) => (date ? `${absoluteTime(date)} (${relativeTime(date, now)})` : 'never');
  return [
    ['display name', contact.displayName ?? '(none: the username is shown)'],
    ['username', contact.username],
    ['phone', contact.phoneNumber],
    ['avatar', contact.avatarUrl ?? '(none)'],
    ['last active', when(contact.lastActiveAt)],
    ['created', when(contact.createdAt)],
    ['id', contact.id],
    ['conversation', contact.conversationId],
  ];
}

/** "Name (username)", sanitised (or `shown` another way): how a confirmation names a contact. */
export const contactLabel = (contact: Pick<Contact, 'displayName' | 'username'>, shown: (text: string) => string = sanitize): string =>
  `${shown(contactName(contact))} (${shown(contact.username)})`;
