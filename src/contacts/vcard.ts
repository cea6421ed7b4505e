// Contacts as vCards: written as vCard 4.0 (RFC 6350), and read from the 2.1, 3.0 and 4.0 cards
// that phone and mail address books export. ical.js writes each property (its escaping) and
// parses 3.0 and 4.0; what it refuses of 2.1 (bare TYPE parameters, quoted-printable values and
// their soft line breaks) is put in 3.0 form first. Folding is done here: ical.js folds by
// characters, and the RFC says octets.
import ICAL from 'ical.js';
import type { Contact } from '../api/types.js';
import type { LongLine } from './text-lines.js';

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
 * stays a `,`), save that a space or a control character, which no URI holds and a line break
 * of which would end the property, is percent-encoded.
 */
const uriValue = (uri: string): string => uri.replace(/[\u0000-\u0020\u007f-\u009f]/g, (c) => encodeURIComponent(c));

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

/** What tickbook takes from a card. */
export interface CardFields {
  /** FN, or N's given and family names when there is no FN. */
  name: string | undefined;
  nickname: string | undefined;
  /** Every TEL, in order, as written (a tel: URI's number alone). */
  phones: string[];
  photo: string | undefined;
  uid: string | undefined;
}

/**
 * The cards of a file's lines, each as its raw text (CRLF ends), in order. A card larger than
 * `limit` bytes (or holding a line too long to be kept) is given with no text, at the line it
 * began on, and what follows it is passed over until the next BEGIN:VCARD: an END:VCARD missing
 * does not take in the rest of the file.
 */
export async function* cardsOf(lines: AsyncIterable<string | LongLine>, limit = Number.POSITIVE_INFINITY): AsyncGenerator<{ raw: string | undefined; line: number }> {
  let card: string[] | undefined;
  let size = 0;
  let start = 0;
  let n = 0;
  for await (const line of lines) {
    n++;
    if (typeof line !== 'string') {
      if (card) yield { raw: undefined, line: start };
      card = undefined;
      continue;
    }
    const upper = line.trim().toUpperCase();
    if (upper === 'BEGIN:VCARD') {
      card = [line];
      size = Buffer.byteLength(line) + 2;
      start = n;
      continue;
    }
    if (!card) continue;
    card.push(line);
    size += Buffer.byteLength(line) + 2;
    if (size > limit) {
      yield { raw: undefined, line: start };
      card = undefined;
    } else if (upper === 'END:VCARD') {
      yield { raw: `${card.join('\r\n')}\r\n`, line: start };
      card = undefined;
    }
  }
  if (card) yield { raw: `${card.join('\r\n')}\r\n`, line: start };
}

/** Quoted-printable bytes (=C3=BC) as the text they spell in `charset`. */
function decodeQuotedPrintable(value: string, charset: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < value.length; i++) {
    const hex = value[i] === '=' ? /^[0-9A-Fa-f]{2}/.exec(value.slice(i + 1, i + 3))?.[0] : undefined;
    if (hex) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      for (const byte of Buffer.from(value[i]!, 'utf8')) bytes.push(byte);
    }
  }
  const encoding = /^(utf-?8|iso-8859-1|latin1|us-ascii)$/i.test(charset) ? charset : 'utf-8';
  return new TextDecoder(encoding).decode(Uint8Array.from(bytes));
}

/** A text value escaped as 3.0 writes it: backslash, comma, semicolon and newline. */
const escapeText = (text: string): string => text.replace(/[\\,;]/g, (c) => `\\${c}`).replace(/\r?\n/g, '\\n');

/**
 * A 2.1 card in the form 3.0 readers take: quoted-printable values decoded (their soft line
 * breaks joined first), bare parameters (TEL;CELL;PREF) written as TYPE=CELL,PREF, and CHARSET
 * dropped. A card of another version is given back as it is.
 */
export function normalise21(raw: string): string {
  if (!/^VERSION:\s*2\.1\s*$/im.test(raw)) return raw;
  const joined: string[] = [];
  let softBreak = false;
  for (const line of unfolded(raw).split(/\r?\n/)) {
    // A quoted-printable value ending in "=" goes on in the next line (not indented).
    if (softBreak) joined[joined.length - 1] = joined.at(-1)!.slice(0, -1) + line;
    else joined.push(line);
    const current = joined.at(-1)!;
    const params = current.slice(0, Math.max(0, current.indexOf(':')));
    softBreak = /;ENCODING=QUOTED-PRINTABLE/i.test(params) && current.endsWith('=');
  }
  return `${joined
    .filter((line) => line !== '')
    .map((line) => {
      const colon = line.indexOf(':');
      if (colon < 0) return line;
      const [name, ...params] = line.slice(0, colon).split(';');
      let value = line.slice(colon + 1);
      const types: string[] = [];
      const kept: string[] = [];
      let encoding: string | undefined;
      let charset = 'utf-8';
      for (const param of params) {
        const [key, ...rest] = param.split('=');
        const upper = key!.toUpperCase();
        if (rest.length === 0) types.push(upper);
        else if (upper === 'ENCODING') encoding = rest.join('=').toUpperCase();
        else if (upper === 'CHARSET') charset = rest.join('=');
        else if (upper === 'TYPE') types.push(...rest.join('=').split(','));
        else kept.push(param);
      }
      if (encoding === 'QUOTED-PRINTABLE') {
        const decoded = decodeQuotedPrintable(value, charset);
        // Structured values (N, ADR) keep their semicolons; a text value is escaped anew.
        value = /^(N|ADR|ORG)$/i.test(name!) ? decoded.split(';').map(escapeText).join(';') : escapeText(decoded);
      }
      if (name!.toUpperCase() === 'VERSION') value = '3.0';
      return [name, ...kept, ...(types.length > 0 ? [`TYPE=${types.join(',')}`] : [])].join(';') + `:${value}`;
    })
    .join('\r\n')}\r\n`;
}

const textOf = (value: unknown): string | undefined => {
  // ical.js leaves a "\;" escaped in a text value (FN): a semicolon is all it meant.
  const text = (Array.isArray(value) ? value.join(' ') : typeof value === 'string' ? value : undefined)?.replace(/\\;/g, ';');
  const trimmed = text?.replace(/\s+/g, ' ').trim();
  return trimmed === '' ? undefined : trimmed;
};

const linkOf = (value: string | undefined): string | undefined => (value !== undefined && /^https?:\/\//i.test(value) ? value : undefined);

/** The fields of one card's raw text, or why it cannot be read. */
export function readCard(raw: string): CardFields | { problem: string } {
  let parsed: unknown;
  try {
    parsed = ICAL.parse(normalise21(raw));
  } catch (error) {
    return { problem: `not a vCard tickbook can read: ${(error as Error).message}` };
  }
  const card = new ICAL.Component(parsed as never);
  if (card.name !== 'vcard') return { problem: 'not a vCard' };
  const n = card.getFirstPropertyValue('n');
  const fromN = Array.isArray(n) ? textOf([n[1], n[2], n[0]].filter((part) => typeof part === 'string' && part !== '')) : undefined;
  const phones = card
    .getAllProperties('tel')
    .map((tel) => textOf(tel.getFirstValue()))
    .filter((value): value is string => value !== undefined)
    .map((value) => value.replace(/^tel:/i, '').replace(/;.*$/, ''));
  return {
    name: textOf(card.getFirstPropertyValue('fn')) ?? fromN,
    nickname: textOf(card.getFirstPropertyValue('nickname')),
    phones,
    // As written (3.0 types a PHOTO without VALUE=uri as binary, a link all the same), and only
    // when it is a link: an embedded image is no avatar URL.
    photo: linkOf(textOf(card.getFirstProperty('photo')?.toJSON()[3])),
    uid: textOf(card.getFirstPropertyValue('uid')),
  };
}
