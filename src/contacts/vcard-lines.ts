// The physical lines of a vCard file, each told for what it is given the lines before it: a
// property (`item1.TEL;TYPE=CELL:…`, its group, name and parameters read leniently, 2.1's bare
// ones too) or the rest of one (a folded line, a quoted-printable soft line break, a base64 value
// run on over lines of its own, a line after a backslash, a line that is no property), a `#`
// comment or a blank line. The file's check and the card reader both read lines this way, so that
// what the check lets through (bytes in a charset a property declares) is what the reader decodes.
import { isUtf8 } from 'node:buffer';
import { firstNonUtf8, type TextFault } from '../text/text-bytes.js';
import { contentOf, type Line, type LongLine } from './text-lines.js';

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
  /** The bytes of the line that belong to a value: after the colon, or the whole (less a fold's space). */
  value: Buffer;
  /** The charset the property this line belongs to declares, when it does. */
  charset: string | undefined;
}

const NAME = /^(?:([A-Za-z0-9_-]+)\.)?([A-Za-z0-9_-]+)$/;
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

/** A line's property head (`item1.TEL;type=CELL;type=pref:`), or undefined when it has none. */
export function headOf(line: Buffer): PropertyHead | undefined {
  let colon = line.indexOf(COLON);
  if (colon < 0) return undefined;
  const semicolon = line.indexOf(SEMICOLON);
  if (semicolon < 0 || semicolon > colon) {
    // No parameters: the common case, read without splitting.
    const match = NAME.exec(line.toString('latin1', 0, colon));
    return match ? { group: match[1], name: match[2]!.toUpperCase(), params: [], valueAt: colon + 1, encoding: undefined, charset: undefined } : undefined;
  }
  const match = NAME.exec(line.toString('latin1', 0, semicolon));
  if (!match) return undefined;
  // A quoted parameter value may hold a colon or a semicolon (4.0's TYPE="voice,cell", LABEL="…").
  const texts: string[] = [];
  let from = semicolon + 1;
  let quoted = false;
  for (let at = from; ; at++) {
    if (at >= line.length) return undefined;
    const byte = line[at];
    if (byte === QUOTE) quoted = !quoted;
    else if (!quoted && (byte === SEMICOLON || byte === COLON)) {
      texts.push(line.toString('utf8', from, at));
      from = at + 1;
      if (byte === COLON) {
        colon = at;
        break;
      }
    }
  }
  const params: Param[] = [];
  let encoding: PropertyHead['encoding'];
  let charset: string | undefined;
  for (const text of texts) {
    const equals = text.indexOf('=');
    const name = equals < 0 ? '' : text.slice(0, equals).trim().toUpperCase();
    const values = valuesOf(equals < 0 ? text : text.slice(equals + 1)).map((value) => value.trim());
    params.push({ name, values });
    if (name === 'ENCODING' || name === '') encoding ??= ENCODINGS[values[0]!.toUpperCase()];
    else if (name === 'CHARSET' && values[0] !== '') charset = values[0];
  }
  return { group: match[1], name: match[2]!.toUpperCase(), params, valueAt: colon + 1, encoding, charset };
}

const isBlank = (line: Buffer): boolean => {
  for (const byte of line) if (byte !== 0x20 && byte !== 0x09) return false;
  return true;
};

/** Whether the bytes end with an odd number of backslashes (one that escapes nothing). */
function endsWithBackslash(line: Buffer): boolean {
  let count = 0;
  for (let at = line.length - 1; at >= 0 && line[at] === BACKSLASH; at--) count++;
  return count % 2 === 1;
}

/** Reads the physical lines of a vCard file (or of one card) in order. */
export class CardLineReader {
  #encoding: PropertyHead['encoding'];
  #charset: string | undefined;
  #softBreak = false;
  #backslash = false;

  /** What the next line (its bytes before its line end) is. */
  next(line: Buffer): CardLine {
    const softBreak = this.#softBreak;
    const backslash = this.#backslash;
    this.#softBreak = false;
    this.#backslash = false;
    if (isBlank(line)) {
      // A blank line ends a 2.1 base64 value.
      if (this.#encoding === 'base64') this.#encoding = undefined;
      return { kind: 'blank', value: line, charset: undefined };
    }
    const charset = this.#charset;
    if (softBreak) return this.#goOn('soft-break', line, charset);
    if (line[0] === 0x20 || line[0] === 0x09) return this.#goOn('folded', line.subarray(1), charset);
    if (line[0] === 0x23) return { kind: 'comment', value: line, charset: undefined };
    const head = headOf(line);
    if (head === undefined) {
      // Base64 has no colon: a line of it after a base64 value is more of that value.
      const kind = this.#encoding === 'base64' && line.indexOf(COLON) < 0 ? 'base64' : backslash ? 'backslash' : 'loose';
      return this.#goOn(kind, line, charset);
    }
    this.#encoding = head.encoding;
    this.#charset = head.charset;
    const value = line.subarray(head.valueAt);
    this.#after(value);
    return { kind: 'property', head, value, charset: head.charset };
  }

  /** A line of the property before it. */
  #goOn(kind: LineKind, value: Buffer, charset: string | undefined): CardLine {
    this.#after(value);
    return { kind, value, charset };
  }

  #after(value: Buffer): void {
    this.#softBreak = this.#encoding === 'quoted-printable' && value[value.length - 1] === 0x3d;
    this.#backslash = this.#encoding === undefined && endsWithBackslash(value);
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
    const content = contentOf(line);
    if (content.includes(0)) return { byte: 0, kind: 'nul' };
    const read = this.#lines.next(content);
    // A declared value is its card's to decode; the rest of the line is text as ever.
    const text = read.charset === undefined ? content : content.subarray(0, content.length - read.value.length);
    if (isUtf8(text)) return undefined;
    return { byte: text[firstNonUtf8(text)]!, kind: 'utf8' };
  }
}
