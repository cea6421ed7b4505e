// Bytes checked as UTF-8 text a chunk at a time (src/text/text-bytes.ts): a character cut between
// two chunks is no fault, a bad byte or a NUL is found at its place in the whole, whatever the
// chunks, and the verdict is the same as a fatal TextDecoder's over the whole.
import { describe, expect, it } from 'vitest';
import { firstNonUtf8, TextBytesCheck, type TextFault } from '../../src/text/text-bytes.js';

/** The first fault of `bytes` fed in chunks of `size` (the last shorter). */
function faultOf(bytes: Buffer, size: number): TextFault | undefined {
  const check = new TextBytesCheck();
  for (let at = 0; at < bytes.length; at += size) {
    const fault = check.push(bytes.subarray(at, at + size));
    if (fault) return fault;
  }
  return check.end();
}

const SIZES = [1, 2, 3, 4, 5, 7, 64, 1 << 20];

describe('TextBytesCheck', () => {
  it('finds no fault in text of one- to four-byte characters, however the chunks cut them', () => {
    const text = Buffer.from('Zoë 😀 Jürgen 田中 ₿ Łukasz ok\r\n'.repeat(5));
    for (const size of SIZES) expect(faultOf(text, size), `chunks of ${size}`).toBeUndefined();
    expect(faultOf(Buffer.alloc(0), 1)).toBeUndefined();
  });

  it('finds a Latin-1 byte, an overlong form, a surrogate, a byte past U+10FFFF and a stray continuation at their offsets', () => {
    const cases: [bytes: number[], offset: number, byte: number][] = [
      [[0x4a, 0x6f, 0x73, 0xe9, 0x0d, 0x0a], 3, 0xe9],
      [[0x41, 0xc0, 0x80], 1, 0xc0],
      [[0x41, 0x42, 0xed, 0xa0, 0x80], 2, 0xed],
      [[0xf4, 0x90, 0x80, 0x80], 0, 0xf4],
      [[0xf5, 0x80, 0x80, 0x80], 0, 0xf5],
      [[0x61, 0x80, 0x62], 1, 0x80],
      [[0xe2, 0x82, 0x41], 0, 0xe2],
    ];
    for (const [bytes, offset, byte] of cases) {
      for (const size of SIZES) {
        const prefix = Buffer.from('é'.repeat(40));
        expect(faultOf(Buffer.concat([prefix, Buffer.from(bytes)]), size), `${bytes} in chunks of ${size}`).toEqual({ offset: prefix.length + offset, byte, kind: 'utf8' });
      }
    }
  });

  it('a character begun at the very end and never finished is a fault at its first byte', () => {
    for (const size of SIZES) expect(faultOf(Buffer.from([0x61, 0x62, 0xf0, 0x9f, 0x98]), size)).toEqual({ offset: 2, byte: 0xf0, kind: 'utf8' });
  });

  it('a NUL is a fault of its own, the first fault wins', () => {
    for (const size of SIZES) {
      expect(faultOf(Buffer.from('abc\0def'), size)).toEqual({ offset: 3, byte: 0, kind: 'nul' });
      expect(faultOf(Buffer.concat([Buffer.from('ab'), Buffer.from([0xe9]), Buffer.from('\0')]), size)).toEqual({ offset: 2, byte: 0xe9, kind: 'utf8' });
    }
  });

  it('agrees with a fatal TextDecoder on random bytes, fed whole or a byte at a time', () => {
    let x = 12_345;
    const next = () => (x = (x * 48_271) % 2_147_483_647);
    for (let round = 0; round < 2000; round++) {
      // Mostly text, a few random bytes: faults near valid multi-byte characters.
      const bytes = Buffer.from(Array.from({ length: 1 + (next() % 12) }, () => (next() % 4 === 0 ? next() % 256 : [0x61, 0xc3, 0xa9, 0xf0, 0x9f, 0x98, 0x80][next() % 7]!)));
      let valid = true;
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch {
        valid = false;
      }
      const nul = bytes.includes(0);
      for (const size of [1, bytes.length]) {
        const fault = faultOf(bytes, size);
        expect(fault === undefined, `${bytes.toString('hex')} in chunks of ${size}`).toBe(valid && !nul);
      }
      const index = firstNonUtf8(bytes);
      expect(index < 0, bytes.toString('hex')).toBe(valid);
      if (index >= 0) {
        new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, index));
      }
    }
  });
});
