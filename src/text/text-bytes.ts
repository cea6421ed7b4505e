// Bytes checked as UTF-8 text a chunk at a time, the whole of a file and never all of it at once:
// an import refuses a file with one bad byte anywhere, where decoding it would have put U+FFFD in
// a name without a word. A character cut between two chunks is carried to the next.
import { isUtf8 } from 'node:buffer';

/** The first byte that makes the text not text: where it is in the whole, and what. */
export interface TextFault {
  /** Bytes before it, counted from the first chunk's start. */
  offset: number;
  byte: number;
  kind: 'nul' | 'utf8';
}

/** A byte as messages name it: 0xE9. */
export const hexByte = (byte: number): string => `0x${byte.toString(16).toUpperCase().padStart(2, '0')}`;

/** How many bytes at the end of `bytes` begin a character that goes on past it (0 to 3). */
function cutAtEnd(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    if (byte < 0xc0) return 0;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
    return length > back ? back : 0;
  }
  return 0;
}

/** The index of the first byte of `bytes` that is not well-formed UTF-8 (RFC 3629), or -1. */
export function firstNonUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; ) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      i++;
      continue;
    }
    const more = lead >= 0xc2 && lead <= 0xdf ? 1 : lead >= 0xe0 && lead <= 0xef ? 2 : lead >= 0xf0 && lead <= 0xf4 ? 3 : -1;
    if (more < 0 || i + more >= bytes.length) return i;
    for (let k = 1; k <= more; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return i;
    // Overlong forms, UTF-16 surrogates and code points past U+10FFFF, by the second byte.
    const second = bytes[i + 1]!;
    if ((lead === 0xe0 && second < 0xa0) || (lead === 0xed && second > 0x9f) || (lead === 0xf0 && second < 0x90) || (lead === 0xf4 && second > 0x8f)) return i;
    i += more + 1;
  }
  return -1;
}

export class TextBytesCheck {
  #carry: Buffer = Buffer.alloc(0);
  /** Bytes pushed before the carry's first (from `offset`, the first chunk's place in the whole). */
  #offset: number;

  constructor(offset = 0) {
    this.#offset = offset;
  }

  /** The first fault in what has come so far, or undefined. */
  push(chunk: Buffer): TextFault | undefined {
    const bytes = this.#carry.length > 0 ? Buffer.concat([this.#carry, chunk]) : chunk;
    const start = this.#offset;
    const cut = cutAtEnd(bytes);
    const whole = bytes.subarray(0, bytes.length - cut);
    const nul = whole.indexOf(0);
    const bad = isUtf8(whole) ? -1 : firstNonUtf8(whole);
    // Copied: a kept slice would hold the whole chunk.
    this.#carry = Buffer.from(bytes.subarray(bytes.length - cut));
    this.#offset = start + whole.length;
    if (nul >= 0 && (bad < 0 || nul < bad)) return { offset: start + nul, byte: 0, kind: 'nul' };
    if (bad >= 0) return { offset: start + bad, byte: whole[bad]!, kind: 'utf8' };
    return undefined;
  }

  /** At the end: a character begun and never finished is a fault too. */
  end(): TextFault | undefined {
    return this.#carry.length > 0 ? { offset: this.#offset, byte: this.#carry[0]!, kind: 'utf8' } : undefined;
  }
}
