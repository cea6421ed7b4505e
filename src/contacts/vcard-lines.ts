// The physical lines of a vCard file, each told for what it is given the lines before it: a
// property (`item1.TEL;TYPE=CELL:…`, its group, name and parameters read leniently, 2.1's bare
// ones too) or the rest of one (a folded line, a quoted-printable soft line break, a base64 value
// run on over lines of its own, a line after a backslash, a line that is no property), a `#`
// comment or a blank line. The file's check and the card reader both read lines this way, so that
// what the check lets through (bytes in a charset a property declares) is what the reader decodes.
import { isUtf8 } from 'node:buffer';
import { firstNonUtf8, type TextFault } from '../text/text-bytes.js';
import type { Line, LongLine } from './text-lines.js';

export interface Param {
  /** Upper case; '' for a bare 2.1 parameter (`TEL;CELL`). */
  name: string;
  /** Unquoted, a list split at its commas. */
  values: string[];
}

export interface PropertyHead {
  group: string | undefined;
  /** Upper case. */
  name: string;
  params: Param[];
  /** Where its value begins in the line's bytes (after the colon). */
  valueAt: number;
  encoding: 'quoted-printable' | 'base64' | undefined;
  /** The CHARSET it declares, as written. */
  charset: string | undefined;
}

export type LineKind =
  | 'property'
  /** Begins with a space or a tab: the property before it goes on (RFC 6350 3.2). */
  | 'folded'
  /** After a quoted-printable value that ended with "=". */
  | 'soft-break'
  /** A line of base64 after a base64 value (2.1 writes them so, ended by a blank line). */
  | 'base64'
  /** After a line that ended with a backslash: the value goes on, a line break in it. */
  | 'backslash'
  /** No property, and none of the above: part of the property before it, as written. */
  | 'loose'
  | 'comment'
  | 'blank';

export interface CardLine {
  kind: LineKind;
  /** For a property. */
  head?: PropertyHead | undefined;
  /** Where in the line the bytes of a value begin: after the colon, after a fold's space, or 0. */
  valueAt: number;
  /** The charset the property this line belongs to declares, when it does. */
  charset: string | undefined;
}

const COLON = 0x3a;
const SEMICOLON = 0x3b;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

const ENCODINGS: Readonly<Record<string, PropertyHead['encoding']>> = { 'QUOTED-PRINTABLE': 'quoted-printable', BASE64: 'base64', B: 'base64' };

/** A parameter's values: quotes taken off, a list split at commas outside quotes. */
function valuesOf(text: string): string[] {
  const values: string[] = [];
  let value = '';
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (char === ',' && !quoted) {
      values.push(value);
      value = '';
    } else value += char;
  }
  values.push(value);
  return values;
}

/** Whether `byte` may be in a property's name or group: letters, digits, "-" (and "_", leniently). */
const isNameByte = (byte: number): boolean =>
  (byte >= 0x61 && byte <= 0x7a) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x30 && byte <= 0x39) || byte === 0x2d || byte === 0x5f;

/** The property head (`item1.TEL;type=CELL;type=pref:`) of a line's first `size` bytes, or undefined when it has none. */
export function headOf(line: Buffer, size = line.length): PropertyHead | undefined {
  // The name (and group) first, a byte at a time: a line that is no property is told by its first
  // few bytes, never searched through (a base64 line is a megabyte).
  let end = 0;
  while (end < size && isNameByte(line[end]!)) end++;
  let dot = -1;
  if (end > 0 && end < size && line[end] === 0x2e) {
    dot = end++;
    while (end < size && isNameByte(line[end]!)) end++;
  }
  const stop = end < size ? line[end] : undefined;
  if (end === dot + 1 || (stop !== COLON && stop !== SEMICOLON)) return undefined;
  const group = dot < 0 ? undefined : line.toString('latin1', 0, dot);
  const name = line.toString('latin1', dot + 1, end).toUpperCase();
  if (stop === COLON) return { group, name, params: [], valueAt: end + 1, encoding: undefined, charset: undefined };
  // Parameters to the colon; a quoted value may hold a colon or a semicolon (4.0's TYPE="voice,cell", LABEL="…").
  const texts: string[] = [];
  let from = end + 1;
  let colon = -1;
  let quoted = false;
  for (let at = from; at < size && colon < 0; at++) {
    const byte = line[at];
    if (byte === QUOTE) quoted = !quoted;
    else if (!quoted && (byte === SEMICOLON || byte === COLON)) {
      texts.push(line.toString('utf8', from, at));
      from = at + 1;
      if (byte === COLON) colon = at;
    }
  }
  if (colon < 0) return undefined;
  const params: Param[] = [];
  let encoding: PropertyHead['encoding'];
  let charset: string | undefined;
  for (const text of texts) {
    const equals = text.indexOf('=');
    const key = equals < 0 ? '' : text.slice(0, equals).trim().toUpperCase();
    const values = valuesOf(equals < 0 ? text : text.slice(equals + 1)).map((value) => value.trim());
    params.push({ name: key, values });
    if (key === 'ENCODING' || key === '') encoding ??= ENCODINGS[values[0]!.toUpperCase()];
    else if (key === 'CHARSET' && values[0] !== '') charset = values[0];
  }
  return { group, name, params, valueAt: colon + 1, encoding, charset };
}

/** The properties of vCard 2.1, 3.0 (RFC 2426) and 4.0 (RFC 6350), and the card's own lines. */
const CARD_PROPERTIES = new Set([
  'BEGIN', 'END', 'VERSION', 'SOURCE', 'KIND', 'XML', 'FN', 'N', 'NICKNAME', 'PHOTO', 'BDAY', 'ANNIVERSARY', 'GENDER', 'ADR', 'LABEL',
  'TEL', 'EMAIL', 'MAILER', 'IMPP', 'LANG', 'TZ', 'GEO', 'TITLE', 'ROLE', 'LOGO', 'AGENT', 'ORG', 'MEMBER', 'RELATED', 'CATEGORIES',
  'NOTE', 'PRODID', 'REV', 'SORT-STRING', 'SOUND', 'UID', 'CLIENTPIDMAP', 'URL', 'KEY', 'FBURL', 'CALADRURI', 'CALURI', 'CLASS', 'NAME', 'PROFILE',
]);

/** Whether a line reads as a property a card has (`TEL;CELL:`, `item1.X-ABLabel:`, `END:VCARD`), not as text that holds a colon. */
const isCardProperty = (head: PropertyHead | undefined): boolean => head !== undefined && (CARD_PROPERTIES.has(head.name) || head.name.startsWith('X-'));

function isBlank(line: Buffer, size: number): boolean {
  for (let at = 0; at < size; at++) if (line[at] !== 0x20 && line[at] !== 0x09) return false;
  return true;
}

/** Whether the bytes from `from` to `to` end with an odd number of backslashes (one that escapes nothing). */
function endsWithBackslash(line: Buffer, from: number, to: number): boolean {
  let count = 0;
  for (let at = to - 1; at >= from && line[at] === BACKSLASH; at--) count++;
  return count % 2 === 1;
}

/** Reads the physical lines of a vCard file (or of one card) in order. */
export class CardLineReader {
  #encoding: PropertyHead['encoding'];
  #charset: string | undefined;
  #softBreak = false;
  #backslash = false;

  /** What the next line is, from its first `size` bytes (those before its line end). */
  next(line: Buffer, size = line.length): CardLine {
    const softBreak = this.#softBreak;
    const backslash = this.#backslash;
    this.#softBreak = false;
    this.#backslash = false;
    if (isBlank(line, size)) {
      // A blank line ends a 2.1 base64 value.
      if (this.#encoding === 'base64') this.#encoding = undefined;
      return { kind: 'blank', valueAt: 0, charset: undefined };
    }
    const charset = this.#charset;
    // After a quoted-printable line ending in "=", the value goes on (RFC 2045's soft line break),
    // but not into a line that reads as a property of the card or END:VCARD: a phone that leaves
    // a "=" at the end of a value (the last of N) would have its next property read into the
    // name, its mobile lost, and before END:VCARD the card cut short. Android's own parser
    // (VCardParserImpl_V21.getQuotedPrintablePart) joins whatever line comes; a line that begins
    // `TEL;CELL:` or `END:VCARD` is far likelier the next property than the value's text, which
    // after a soft break is more "=XX" or words (a colon in them follows no property's name).
    const head = softBreak || (line[0] !== 0x20 && line[0] !== 0x09 && line[0] !== 0x23) ? headOf(line, size) : undefined;
    if (softBreak && !isCardProperty(head)) return this.#goOn('soft-break', line, 0, size, charset);
    if (line[0] === 0x20 || line[0] === 0x09) return this.#goOn('folded', line, 1, size, charset);
    if (line[0] === 0x23) return { kind: 'comment', valueAt: 0, charset: undefined };
    if (head === undefined) {
      // Base64 has no colon: a line of it after a base64 value is more of that value.
      const kind = this.#encoding === 'base64' && line.subarray(0, size).indexOf(COLON) < 0 ? 'base64' : backslash ? 'backslash' : 'loose';
      return this.#goOn(kind, line, 0, size, charset);
    }
    this.#encoding = head.encoding;
    this.#charset = head.charset;
    this.#after(line, head.valueAt, size);
    return { kind: 'property', head, valueAt: head.valueAt, charset: head.charset };
  }

  /** A line of the property before it. */
  #goOn(kind: LineKind, line: Buffer, valueAt: number, size: number, charset: string | undefined): CardLine {
    this.#after(line, valueAt, size);
    return { kind, valueAt, charset };
  }

  /** What the end of a value's line says of the next: a soft line break, a backslash. */
  #after(line: Buffer, from: number, to: number): void {
    this.#softBreak = this.#encoding === 'quoted-printable' && to > from && line[to - 1] === 0x3d;
    this.#backslash = this.#encoding === undefined && endsWithBackslash(line, from, to);
  }

  /** A line too long to be read: what follows it is read afresh. */
  skip(): void {
    this.#encoding = undefined;
    this.#charset = undefined;
    this.#softBreak = false;
    this.#backslash = false;
  }
}

/** A byte that makes a line not text, and what kind of fault it is. */
export type ByteFault = Pick<TextFault, 'byte' | 'kind'>;

/**
 * The bytes rule of a vCard file, a line at a time: text is UTF-8 with no NUL, but for the value
 * of a property that declares its CHARSET (and the lines it goes on over), which its card's reader
 * decodes in that charset. A line's first fault, or undefined.
 */
export class CardBytesCheck {
  readonly #lines = new CardLineReader();

  line(line: Line | LongLine): ByteFault | undefined {
    if (!('raw' in line)) {
      this.#lines.skip();
      return line.fault;
    }
    // The line as written: its line end is ASCII, no NUL, no fault.
    const { raw, size } = line;
    if (raw.includes(0)) return { byte: 0, kind: 'nul' };
    const read = this.#lines.next(raw, size);
    // A declared value is its card's to decode; the rest of the line is text as ever.
    const text = read.charset === undefined ? raw : raw.subarray(0, read.valueAt);
    if (isUtf8(text)) return undefined;
    return { byte: text[firstNonUtf8(text)]!, kind: 'utf8' };
  }
}
