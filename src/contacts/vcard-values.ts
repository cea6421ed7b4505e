// A card's property values read: the encoding (quoted-printable, base64), then the charset, then
// the escapes, split into components and lists where the property has them. Apart from the card's
// structure (vcard-read.ts), which only says where each value's bytes are.
import { isUtf8 } from 'node:buffer';
import { firstNonUtf8, hexByte } from '../text/text-bytes.js';
import { decoderFor, firstUndecodable, quotedPrintable } from './vcard-charsets.js';
import type { PropertyHead } from './vcard-lines.js';

/** Why a card cannot be read, thrown inside the reader. */
export class CardProblem extends Error {}

/** One property of a card: its head and its value's bytes, as they came over its lines. */
export interface Property {
  head: PropertyHead;
  parts: Buffer[];
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

export const nonEmpty = (text: string | undefined): string | undefined => {
  const trimmed = text?.trim();
  return trimmed === '' ? undefined : trimmed;
};

export class CardValues {
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
