// The bytes of a card's value as text: quoted-printable spelled out, and the character sets a
// property may declare (CHARSET=, as 2.1 cards and Outlook write it) decoded strictly, so that a
// byte a charset cannot take refuses the card, naming it, and never becomes a U+FFFD in a name.
import { hexByte } from '../text/text-bytes.js';

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
export function decoderFor(label: string, bytes: Uint8Array): Decoder | undefined {
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
export function firstUndecodable(bytes: Buffer, label: string): string {
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
export function quotedPrintable(text: string): Buffer {
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
