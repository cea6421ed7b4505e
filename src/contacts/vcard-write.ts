// Contacts written as vCard 4.0 (RFC 6350), for `contacts export`. ical.js writes each property
// (its escaping); folding is done here: ical.js folds by characters, and the RFC says octets.
import ICAL from 'ical.js';
import type { Contact } from '../api/types.js';

/** RFC 6350 3.2: a line longer than 75 octets is folded, CRLF then one space. */
const FOLD_OCTETS = 75;

/** A content line folded at 75 octets, never inside a character's UTF-8 bytes. */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let part = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char);
    // Continuation lines begin with the space that unfolding removes: 74 octets of text each.
    const room = parts.length === 0 ? FOLD_OCTETS : FOLD_OCTETS - 1;
    if (octets + size > room) {
      parts.push(part);
      part = '';
      octets = 0;
    }
    part += char;
    octets += size;
  }
  parts.push(part);
  return parts.join('\r\n ');
}

const seconds = (date: Date): string => date.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '');

/**
 * A URI as a vCard value: as it is (RFC 6350 escapes text values, not URIs: a `,` in a link
 * stays a `,`, which abook and khard read as written), save that a space or a control character,
 * which no URI holds and a line break of which would end the property, is percent-encoded, and a
 * backslash, which no URI holds either (RFC 3986) but a server may keep in one, is written `\\`.
 * The reader takes a PHOTO's escapes off in every version, since a backslash in a URI can only be
 * a writer's escape (ical.js and vobject write a URI's comma `\,`, Apple its colon `https\:`): so
 * `a\name` comes back `a\name`, not a line break, and `x\,y` comes back `x\,y`, not `x,y`.
 */
const uriValue = (uri: string): string => uri.replace(/[\u0000-\u0020\u007f-\u009f]/g, (c) => encodeURIComponent(c)).replace(/\\/g, '\\\\');

/** One contact as a vCard 4.0, CRLF line ends, folded. */
export function vcardOf(contact: Contact): string {
  const card = new ICAL.Component('vcard');
  card.addPropertyWithValue('version', '4.0');
  card.addPropertyWithValue('fn', contact.displayName ?? contact.username);
  card.addPropertyWithValue('nickname', contact.username);
  // TEL's own value type, text (ical.js escapes it as text), with TYPE=cell: abook files a TEL
  // by its TYPE (none: dropped) and keeps the value whole (a tel: URI would be its number, tel:
  // and all), khard reads either, and RFC 6350 allows text for TEL.
  card.addPropertyWithValue('tel', contact.phoneNumber).setParameter('type', 'cell');
  card.addPropertyWithValue('uid', contact.id);
  const lines = unfolded(card.toString()).split('\r\n');
  // PHOTO written here: ical.js escapes a URI's commas as a text value's. Before UID, as before.
  if (contact.avatarUrl !== null) lines.splice(lines.length - 2, 0, `PHOTO:${uriValue(contact.avatarUrl)}`);
  // REV, a timestamp (ical.js writes one given as text as "null"): the contact's creation, the
  // last change the list knows of.
  lines.splice(lines.length - 1, 0, `REV:${seconds(contact.createdAt)}`);
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}

/** Folded lines joined again (RFC 6350 3.2), whatever line ends the text has. */
export const unfolded = (text: string): string => text.replace(/\r?\n[ \t]/g, '');
