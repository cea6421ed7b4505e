// Contacts as vCards: written as vCard 4.0 (RFC 6350), and read from the cards phone and mail
// address books export (2.1, 3.0, 4.0 or no VERSION at all). ical.js writes each property (its
// escaping); folding is done here: ical.js folds by characters, and the RFC says octets.
//
// Reading is done here too, a line at a time, leniently: ical.js parses by the letter of 3.0 and
// 4.0, so a card was refused whole for one property tickbook never uses (a Mac's `PHOTO;BASE64:`,
// a bare `TEL;CELL` in 3.0, a card without VERSION, a comment line), and each of 2.1's forms had to
// be rewritten into 3.0 before it could read them. Here only the structure has to hold (BEGIN and
// END, properties as name:value lines); the properties tickbook uses (FN, N, NICKNAME, TEL, PHOTO,
// UID) are read in every form exporters write, and every other one is passed over unread.
import { isUtf8 } from 'node:buffer';
import ICAL from 'ical.js';
import type { Contact } from '../api/types.js';
import { firstNonUtf8, hexByte } from '../text/text-bytes.js';
import { truncate } from '../text/width.js';
import type { PhoneField } from './import-candidate.js';
import { contentOf, type Line, LineSplitter, type LongLine } from './text-lines.js';
import { CardLineReader, headOf, type PropertyHead } from './vcard-lines.js';

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

/** What tickbook takes from a card. */
export interface CardFields {
  /** FN, or N's given, additional and family names when there is no FN. */
  name: string | undefined;
  nickname: string | undefined;
  /** Every TEL, in order, as written (a tel: URI's number alone), with what its TYPE and PREF say. */
  phones: PhoneField[];
  photo: string | undefined;
  uid: string | undefined;
}

/** One card of a file: its bytes as written (none when too large to keep), the line it begins on. */
export interface RawCard {
  raw: Buffer | undefined;
  line: number;
  /** A card never ended: what came instead of its END:VCARD (the next card, or the end of the file). */
  unended?: Unended | undefined;
}

/** What ends a card that has no END:VCARD. */
export type Unended = 'next card' | 'end of file';


/** Whether `bytes` begin with the byte-order mark a UTF-8 file may start with. */
const hasBom = (bytes: Buffer): boolean => bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;

/** Bytes without the byte-order mark a UTF-8 file may start with. */
const withoutBom = (bytes: Buffer): Buffer => (hasBom(bytes) ? bytes.subarray(3) : bytes);

const CR = 0x0d;

const isSpace = (byte: number | undefined): boolean => byte === 0x20 || byte === 0x09;

/** Where a line's text begins: after the BOM a file may start with, and (`indented`) its spaces and tabs. */
function textStart(raw: Buffer, size: number, indented: boolean): number {
  let from = hasBom(raw) ? 3 : 0;
  if (indented) while (from < size && isSpace(raw[from])) from++;
  return from;
}

/**
 * A BEGIN, END or AGENT line as the card reader reads it (any case, parameters, spaces around the
 * value: `BEGIN: VCARD`), normalised: `BEGIN:VCARD`, `END:VCARD`, `AGENT:BEGIN:VCARD`, `AGENT:`;
 * '' for a line that cannot be one (most lines: told by their first byte, not made into text).
 * `indented`: after spaces or tabs too (a card that begins indented is counted, and refused).
 */
function markOf({ raw, size }: Line, indented = false): string {
  const from = textStart(raw, size, indented);
  // BEGIN, END or AGENT, in any case; all short.
  const first = (raw[from] ?? 0) | 0x20;
  if (size - from > 80 || (first !== 0x62 && first !== 0x65 && first !== 0x61)) return '';
  const head = headOf(raw.subarray(from, size));
  if (head === undefined || (head.name !== 'BEGIN' && head.name !== 'END' && head.name !== 'AGENT')) return '';
  return `${head.name}:${raw.toString('latin1', from + head.valueAt, size).trim().toUpperCase()}`;
}

/**
 * A line of a file of LF (or CRLF) line ends that begins a card of lone-CR line ends (a classic
 * Mac's card after a Unix one: `cat unix.vcf mac.vcf`), split at its CRs, each part after the
 * first on the same line of the file: so that its cards end, and are counted, where they end, and
 * each is read by its own line ends. Any other line is given as it is: a lone CR inside a value of
 * an LF card stays text.
 */
export function crCardLines(line: Line | LongLine): (Line | LongLine)[] {
  if (!('raw' in line)) return [line];
  const { raw, size } = line;
  const from = textStart(raw, size, true);
  // BEGIN:VCARD and a CR right after it: within the first few bytes, told by the first.
  if (((raw[from] ?? 0) | 0x20) !== 0x62) return [line];
  const cr = raw.subarray(0, Math.min(size, from + 80)).indexOf(CR);
  if (cr < 0 || markOf({ raw: raw.subarray(0, cr), size: cr }, true) !== 'BEGIN:VCARD') return [line];
  const parts: Line[] = [];
  let start = 0;
  for (let at = cr; at >= 0 && at < size; at = raw.indexOf(CR, start)) {
    parts.push({ raw: raw.subarray(start, at + 1), size: at - start, ...(start > 0 && { sameLine: true }) });
    start = at + 1;
  }
  parts.push({ raw: raw.subarray(start), size: size - start, sameLine: true });
  return parts;
}

/**
 * The cards of a file's lines, each with its bytes exactly as written (its line ends, a stray CR),
 * in order, as the lines come. Every BEGIN:VCARD outside a card begins one, so that every card is
 * counted: one never ended is given when the next begins (its reader says what is wrong with it),
 * and a card nested in another (2.1's AGENT, `AGENT:` then BEGIN:VCARD) is part of the card that
 * holds it. A card larger than `limit` bytes (or holding a line too long to be kept) is given with
 * no bytes, at the line it began on, and what follows it is passed over until the next BEGIN:VCARD.
 */
export class CardSplitter {
  readonly #limit: number;
  #card: Buffer[] | undefined;
  #size = 0;
  #start = 0;
  #depth = 0;
  #afterAgent = false;
  /** The card began with spaces or tabs before its BEGIN:VCARD: its END:VCARD may have them too. */
  #indented = false;
  /** Lines so far. */
  #n = 0;

  constructor(limit = Number.POSITIVE_INFINITY) {
    this.#limit = limit;
  }

  /** The cards that end in `lines` (with those before them). */
  push(lines: readonly (Line | LongLine)[]): RawCard[] {
    const cards: RawCard[] = [];
    for (const line of lines) this.#line(line, cards);
    return cards;
  }

  /** The last card, when the file ends inside one. */
  end(): RawCard[] {
    const card = this.#card;
    this.#card = undefined;
    return card ? [{ raw: Buffer.concat(card), line: this.#start, unended: 'end of file' }] : [];
  }

  #line(line: Line | LongLine, cards: RawCard[]): void {
    if (!('raw' in line) || !line.sameLine) this.#n++;
    if (!('raw' in line)) {
      if (this.#card) cards.push({ raw: undefined, line: this.#start });
      this.#card = undefined;
      return;
    }
    // Outside a card a BEGIN:VCARD after spaces begins one too (its reader says why it cannot be
    // read); inside, an indented line is a folded one, unless the card itself began so.
    const mark = markOf(line, !this.#card || this.#indented);
    const begins = mark === 'BEGIN:VCARD';
    if (this.#card && begins && !this.#afterAgent) {
      // A card never ended: given as it is, and this one begun.
      cards.push({ raw: Buffer.concat(this.#card), line: this.#start, unended: 'next card' });
      this.#card = undefined;
    }
    if (!this.#card) {
      if (!begins) return;
      // Its bytes from BEGIN, without the BOM a file may start with.
      this.#card = [this.#n === 1 ? withoutBom(line.raw) : line.raw];
      this.#size = line.raw.length;
      this.#start = this.#n;
      this.#depth = 1;
      this.#afterAgent = false;
      this.#indented = isSpace(line.raw[textStart(line.raw, line.size, false)]);
      return;
    }
    this.#card.push(line.raw);
    this.#size += line.raw.length;
    if (begins || mark === 'AGENT:BEGIN:VCARD') this.#depth++;
    else if (mark === 'END:VCARD') this.#depth--;
    this.#afterAgent = mark === 'AGENT:';
    if (this.#size > this.#limit) {
      cards.push({ raw: undefined, line: this.#start });
      this.#card = undefined;
    } else if (this.#depth === 0) {
      cards.push({ raw: Buffer.concat(this.#card), line: this.#start });
      this.#card = undefined;
    }
  }
}

/** Why a card cannot be read, thrown inside the reader. */
class CardProblem extends Error {}

/** A few words of a line or value for a message: never the 24 KB of a photo. */
export const excerpt = (text: string): string => JSON.stringify(truncate(text.slice(0, 200), 40));

/** One property of a card: its head and its value's bytes, as they came over its lines. */
interface Property {
  head: PropertyHead;
  parts: Buffer[];
}

/** Properties whose value tickbook takes (and the card's own lines): a line that is no property after one breaks the card. */
const USED = new Set(['BEGIN', 'VERSION', 'FN', 'N', 'NICKNAME', 'TEL', 'PHOTO', 'UID']);

/**
 * WHATWG's windows-1252 for bytes 0x80 to 0x9F (€ ‚ ƒ „ … † ‡ ˆ ‰ Š ‹ Œ Ž ‘ ’ “ ” • – — ˜ ™ š › œ ž Ÿ;
 * the five it leaves as they are, too): Node since 20.18.3 decodes windows-1252 as Latin-1, so
 * that these became control characters (nodejs/node#60888).
 */
const WINDOWS_1252 = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

interface Decoder {
  readonly encoding: string;
  decode(bytes: Uint8Array): string;
}

/**
 * A strict decoder for a charset a card names (Node's TextDecoder knows the WHATWG ones), for
 * `bytes`, or undefined.
 */
function decoderFor(label: string, bytes: Uint8Array): Decoder | undefined {
  let decoder: Decoder;
  try {
    decoder = new TextDecoder(label, { fatal: true });
  } catch {
    return undefined;
  }
  // UTF-16 without its byte order (`UTF-16`, `UNICODE`) is little-endian to TextDecoder; the
  // big-endian byte-order mark says otherwise.
  if (decoder.encoding === 'utf-16le' && bytes[0] === 0xfe && bytes[1] === 0xff && !/le$/i.test(label)) return new TextDecoder('utf-16be', { fatal: true });
  // Latin-1, US-ASCII and windows-1252 are one encoding on the web: the last.
  if (decoder.encoding !== 'windows-1252') return decoder;
  return {
    encoding: decoder.encoding,
    decode: (bytes) => Array.from(bytes, (byte) => String.fromCharCode(byte >= 0x80 && byte < 0xa0 ? WINDOWS_1252[byte - 0x80]! : byte)).join(''),
  };
}

/** The bytes of the first character of `bytes` that `label`'s decoder cannot take, as hex. */
function firstUndecodable(bytes: Buffer, label: string): string {
  const decoder = new TextDecoder(label, { fatal: true });
  // Decoded a byte at a time: a character begins after the last one given out.
  let start = 0;
  for (let at = 0; at < bytes.length; at++) {
    try {
      if (decoder.decode(bytes.subarray(at, at + 1), { stream: true }) !== '') start = at + 1;
    } catch {
      return Array.from(bytes.subarray(start, at + 1), hexByte).join(' ');
    }
  }
  return Array.from(bytes.subarray(start), hexByte).join(' ');
}

/**
 * Quoted-printable text (=C3=BC) as the bytes it spells; a "=" at its very end is a soft line break
 * the next property cut short (see CardLineReader), no byte.
 */
function quotedPrintable(text: string): Buffer {
  const bytes: number[] = [];
  for (let at = 0; at < text.length; at++) {
    const pair = text[at] === '=' ? /^[0-9A-Fa-f]{2}/.exec(text.slice(at + 1, at + 3))?.[0] : undefined;
    if (text[at] === '=' && at === text.length - 1) break;
    if (pair) {
      bytes.push(parseInt(pair, 16));
      at += 2;
    } else bytes.push(text.charCodeAt(at) & 0xff);
  }
  return Buffer.from(bytes);
}

/** Splits at each `separator` no backslash escapes. */
function splitEscaped(text: string, separator: string): string[] {
  if (!text.includes('\\')) return text.split(separator);
  const parts: string[] = [];
  let part = '';
  for (let at = 0; at < text.length; at++) {
    const char = text[at]!;
    if (char === '\\' && at + 1 < text.length) {
      part += char + text[++at];
    } else if (char === separator) {
      parts.push(part);
      part = '';
    } else part += char;
  }
  parts.push(part);
  return parts;
}

/** Text with its escapes read: \n a line break, \, \; \: \\ the character. */
const unescaped = (text: string): string => (!text.includes('\\') ? text : text.replace(/\\([\s\S])/g, (_, char: string) => (char === 'n' || char === 'N' ? '\n' : char)));

const nonEmpty = (text: string | undefined): string | undefined => {
  const trimmed = text?.trim();
  return trimmed === '' ? undefined : trimmed;
};

/** How a card's values are read: in a UTF-16 file, text is decoded already (CHARSET then speaks of quoted-printable bytes only). */
interface ReadOptions {
  /** The file line the card begins on, for messages. */
  line?: number | undefined;
  decoded?: boolean | undefined;
  /** What came instead of its END:VCARD, when the splitter knows (for the message). */
  unended?: Unended | undefined;
}

class CardValues {
  constructor(readonly decoded: boolean) {}

  /** `bytes` of `property` as text, in the charset it declares (UTF-8 when none). */
  text(property: Property, bytes: Buffer, encoded: string | undefined): string {
    const name = property.head.name;
    const label = encoded === undefined && this.decoded ? undefined : property.head.charset;
    if (label === undefined) {
      if (isUtf8(bytes)) return bytes.toString('utf8');
      throw new CardProblem(`${name}: its ${encoded ? `${encoded} ` : ''}bytes are not UTF-8 (byte ${hexByte(bytes[firstNonUtf8(bytes)]!)}) and it declares no CHARSET they are in`);
    }
    const decoder = decoderFor(label, bytes);
    if (!decoder) throw new CardProblem(`${name} declares CHARSET=${label}, a character set tickbook cannot read`);
    // UTF-16 text is two bytes a character, most of them NUL for Latin letters: a value written
    // raw on a line of 8-bit text cannot be in it (decoded, "Bobs" would be two CJK characters).
    // Quoted-printable or base64 carry any bytes, so those are read.
    if (encoded === undefined && decoder.encoding.startsWith('utf-16')) {
      throw new CardProblem(`${name} declares CHARSET=${label}, which its value cannot be in: UTF-16 is no 8-bit text, and the value is written as one (save the file as UTF-8)`);
    }
    try {
      return decoder.decode(bytes);
    } catch {
      const bad = firstUndecodable(bytes, decoder.encoding);
      throw new CardProblem(`${name} is not ${label} text, as its CHARSET says (${bad.includes(' ') ? 'bytes' : 'byte'} ${bad})`);
    }
  }

  /**
   * A value's components (split at ";" when `structured`), each a list (split at ","), read:
   * quoted-printable and base64 decoded, then the charset, then escapes.
   */
  components(property: Property, structured: boolean): string[][] {
    const bytes = Buffer.concat(property.parts);
    const { encoding } = property.head;
    if (encoding === 'quoted-printable') {
      // Encoded text is ASCII: its separators are found before decoding (=3B is a ";" of the text).
      const text = bytes.toString('latin1');
      return (structured ? text.split(';') : [text]).map((part) => [this.text(property, quotedPrintable(part), 'quoted-printable')]);
    }
    const text = encoding === 'base64' ? this.text(property, Buffer.from(bytes.toString('latin1'), 'base64'), 'base64') : this.text(property, bytes, undefined);
    return (structured ? splitEscaped(text, ';') : [text]).map((part) => splitEscaped(part, ',').map(unescaped));
  }

  /** A text value whole (its commas its own). */
  whole(property: Property | undefined): string | undefined {
    if (!property) return undefined;
    return nonEmpty(this.components(property, false)[0]!.join(','));
  }
}

/** TYPE's values and 2.1's bare parameters, upper case (a quoted list, 4.0's TYPE="voice,cell", split too). */
function typesOf(head: PropertyHead): string[] {
  const types: string[] = [];
  for (const param of head.params) {
    if (param.name !== 'TYPE' && param.name !== '') continue;
    // A loop, not push(...list): a card may give a TYPE of 300,000 values, too many arguments for a call.
    for (const value of param.values) for (const type of value.toUpperCase().split(',')) types.push(type);
  }
  return types;
}

const MOBILE_TYPES = new Set(['CELL', 'MOBILE', 'IPHONE']);
/** Apple's label for a number of a group (`item1.X-ABLabel:_$!<Mobile>!$_`) that names a mobile. */
const MOBILE_LABEL = /^(?:_\$!<)?(?:mobile|cell|iphone)(?: phone)?(?:>!\$_)?$/i;

/** How strongly a TEL is preferred: 4.0's PREF=1 most, 2.1's and 3.0's PREF (in `types`) as 1; none undefined. */
function preferenceOf(head: PropertyHead, types: readonly string[]): number | undefined {
  const pref = head.params.find((param) => param.name === 'PREF');
  if (pref) return Number.parseInt(pref.values[0] ?? '', 10) || 1;
  return types.includes('PREF') ? 1 : undefined;
}

/** The fields of one card, from its bytes as written, or why it cannot be read. */
export function readCard(raw: Buffer | string, options: ReadOptions = {}): CardFields | { problem: string } {
  try {
    return fieldsOf(propertiesOf(typeof raw === 'string' ? Buffer.from(raw) : raw, options.line ?? 1, options.unended), new CardValues(options.decoded ?? false));
  } catch (error) {
    if (error instanceof CardProblem) return { problem: error.message };
    throw error;
  }
}

/**
 * Why a card with no END:VCARD is refused, in the file's lines: the card's line is the report's
 * (`phone.vcf card at line 12: …`), so this names where it stops; `cut`, its last line when that
 * is no property (a file cut short in the middle of one).
 */
function unendedProblem(lastLine: number, unended: Unended | undefined, cut: string | undefined): string {
  const cutOff = cut === undefined ? '' : `, its last line cut off: ${cut}`;
  if (unended === 'next card') return `it has no END:VCARD before the next BEGIN:VCARD, at line ${lastLine + 1}${cutOff}`;
  if (unended === 'end of file') return `it has no END:VCARD before the file ends, at line ${lastLine}${cutOff} (is the file cut short?)`;
  return `it has no END:VCARD: its last line is line ${lastLine}${cutOff}`;
}

/** The card's own properties, in order (a nested card's left out), once its structure is seen to hold. */
function propertiesOf(bytes: Buffer, firstLine: number, unended?: Unended): Property[] {
  const splitter = new LineSplitter(Number.POSITIVE_INFINITY);
  const lines = [...splitter.push(bytes), ...splitter.end()] as Line[];
  const reader = new CardLineReader();
  const properties: Property[] = [];
  let current: Property | undefined;
  let depth = 0;
  for (const [i, line] of lines.entries()) {
    const content = i === 0 ? withoutBom(contentOf(line)) : contentOf(line);
    const read = reader.next(content);
    const value = content.subarray(read.valueAt);
    if (read.kind === 'blank' || read.kind === 'comment') continue;
    const head = read.head;
    const mark = head && (head.name === 'BEGIN' || head.name === 'END' || head.name === 'AGENT') ? value.toString('latin1').trim().toUpperCase() : undefined;
    if (depth === 0) {
      if (read.kind === 'folded' && /^[ \t]+BEGIN[ \t]*:[ \t]*VCARD[ \t]*$/i.test(content.toString('latin1'))) {
        throw new CardProblem('BEGIN:VCARD is indented: a line that begins with a space or a tab goes on from the line before it (RFC 6350 folding), so nothing of the card can be read');
      }
      if (head?.name !== 'BEGIN' || mark !== 'VCARD') throw new CardProblem('not a vCard (it does not begin with BEGIN:VCARD)');
      depth = 1;
      current = { head, parts: [] };
      continue;
    }
    if (head) {
      if (head.name === 'END' && mark === 'VCARD') {
        if (--depth === 0) return properties;
        current = undefined;
        continue;
      }
      // A card within this one (2.1's AGENT): another person's, not read into this one.
      if ((head.name === 'BEGIN' && mark === 'VCARD') || (head.name === 'AGENT' && mark === 'BEGIN:VCARD')) depth++;
      if (depth > 1) {
        current = undefined;
        continue;
      }
      current = { head, parts: [value] };
      properties.push(current);
      continue;
    }
    if (depth > 1) continue;
    if (read.kind === 'loose' && (current === undefined || USED.has(current.head.name))) {
      // The card's last line with no END:VCARD after it: most likely a file cut short inside a
      // line; its missing end is what to say.
      if (i === lines.length - 1) throw new CardProblem(unendedProblem(firstLine + i, unended, excerpt(content.toString('utf8'))));
      throw new CardProblem(`line ${firstLine + i} is not a property (name:value): ${excerpt(content.toString('utf8'))}`);
    }
    if (!current) continue;
    if (read.kind === 'soft-break') {
      // The "=" that ended the line before is no byte of the value.
      const last = current.parts.length - 1;
      current.parts[last] = current.parts[last]!.subarray(0, -1);
    } else if (read.kind === 'backslash' || read.kind === 'loose') {
      // The backslash that ended the line before and this "n" are the escape of a line break.
      current.parts.push(Buffer.from(read.kind === 'loose' ? '\\n' : 'n'));
    }
    current.parts.push(value);
  }
  throw new CardProblem(unendedProblem(firstLine + Math.max(0, lines.length - 1), unended, undefined));
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** The name N gives: given, additional and family names (N:Brown alone is a family name), or family first for a name in Chinese, Japanese or Korean, as those are written. */
function nameOfN(n: Property | undefined, values: CardValues): string | undefined {
  if (!n) return undefined;
  const [family, given, additional] = values.components(n, true).map((list) => nonEmpty(list.map((item) => item.trim()).filter((item) => item !== '').join(' ')));
  const order = CJK.test(`${family ?? ''}${given ?? ''}`) ? [family, given, additional] : [given, additional, family];
  return nonEmpty(order.filter((part) => part !== undefined).join(' '));
}

/**
 * A TEL's number as written: a tel: URI's without its parameters (`;phone-context=`, `;isub=`),
 * but for `;ext=`, kept so that a number with an extension is refused as one is in any other
 * form (`x12`), not taken silently for the switchboard's number.
 */
function telNumber(value: string): string {
  const [number = '', ...params] = value.replace(/^tel:/i, '').split(';');
  const extension = params.find((param) => /^\s*ext=/i.test(param));
  return (extension === undefined ? number : `${number};${extension.trim()}`).trim();
}

function fieldsOf(properties: readonly Property[], values: CardValues): CardFields {
  const first = (name: string) => properties.find((property) => property.head.name === name);
  const labels = new Map<string, string>();
  for (const property of properties) {
    if (property.head.name === 'X-ABLABEL' && property.head.group !== undefined) labels.set(property.head.group.toLowerCase(), values.whole(property) ?? '');
  }
  const tels = properties
    .filter((property) => property.head.name === 'TEL')
    .map((property) => {
      const written = values.whole(property);
      const value = written === undefined ? undefined : telNumber(written);
      const label = property.head.group === undefined ? undefined : labels.get(property.head.group.toLowerCase());
      const types = typesOf(property.head);
      const mobile = types.some((type) => MOBILE_TYPES.has(type)) || (label !== undefined && MOBILE_LABEL.test(label));
      return { value, mobile, preference: preferenceOf(property.head, types) };
    })
    .filter((tel): tel is typeof tel & { value: string } => tel.value !== undefined && tel.value !== '');
  // The one the card prefers: the lowest PREF of its numbers. A loop, not Math.min(...list): a
  // card under the size limit may hold 145,000 TELs, too many arguments for a call.
  let best = Number.POSITIVE_INFINITY;
  for (const tel of tels) if (tel.preference !== undefined && tel.preference < best) best = tel.preference;
  const photo = properties
    .filter((property) => property.head.name === 'PHOTO' && property.head.encoding === undefined)
    .map((property) => values.whole(property))
    // As written, and only when it is a link: an embedded image is no avatar URL.
    .find((value) => value !== undefined && /^https?:\/\//i.test(value));
  const nickname = first('NICKNAME');
  return {
    name: values.whole(first('FN')) ?? nameOfN(first('N'), values),
    nickname: nickname && nonEmpty(values.components(nickname, false)[0]![0]),
    phones: tels.map((tel) => ({ value: tel.value, ...(tel.mobile && { mobile: true }), ...(tel.preference === best && { preferred: true }) })),
    photo,
    uid: values.whole(first('UID')),
  };
}
