// Whether a card or row the import reads is a contact the list holds already, and else the
// username it is made with. A username the file gives is the contact's own: held with the same
// number it is that contact. One the import derived from a name (usernameFrom) is not: it drops
// letters (李伟 and 王芳 are both `tel.` and the number's digits) and is cut at 32 characters, so
// two people of one family on one home line would share it, and a phone number alone would decide.
// A derived username held with the same number is that contact only when the display name is the
// same too; another person gets a username of their own, the same one every time the file is read.
import type { NewContact } from '../api/types.js';
import { usernameWithPhone } from './import-candidate.js';

/** A contact the list holds, as it is compared. */
export interface HeldContact {
  phoneNumber: string;
  displayName: string | null | undefined;
}

export type Placement = { present: true } | { username: string } | { problem: string };

/** The usernames tried for one person before the import gives up on finding one free. */
const TRIES = 100;

/**
 * Where `contact` goes, given the contacts the list holds by username (`held`, any case):
 * already present, or to be made with `username`, or refused. `derived`: its username was made
 * from its name or number, the file gave none. Its display name is as the import would store it.
 */
export function placeOf(contact: NewContact & { username: string; phoneNumber: string }, derived: boolean, held: (username: string) => HeldContact | undefined): Placement {
  if (!derived) {
    const holder = held(contact.username);
    if (holder === undefined) return { username: contact.username };
    if (holder.phoneNumber === contact.phoneNumber) return { present: true };
    return { problem: `username ${contact.username} belongs to another contact (with another phone number)` };
  }
  // The name's username, then with the number's last digits (two John Smiths), then those and a
  // count (a third person of one family on one line, whose names give no letters A–Z).
  for (let n = 0; n < TRIES; n++) {
    const username = n === 0 ? contact.username : usernameWithPhone(contact.username, contact.phoneNumber, n);
    const holder = held(username);
    if (holder === undefined) return { username };
    // Nothing the card or row gives is lost when both are the same (two rows with neither a name
    // nor a username, one number, are one).
    if (holder.phoneNumber === contact.phoneNumber && (holder.displayName ?? undefined) === contact.displayName) return { present: true };
  }
  return { problem: `username ${contact.username} and the ${TRIES - 1} made from it with its phone number belong to other contacts` };
}
