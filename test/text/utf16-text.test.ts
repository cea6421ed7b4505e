// UTF-16 text as UTF-8 bytes a chunk at a time (src/text/utf16-text.ts): the byte-order mark found
// and dropped, either byte order, a byte or a surrogate pair cut between chunks carried over, and
// the first unpaired surrogate, odd byte or NUL a fault on its line.
import { describe, expect, it } from 'vitest';
import { type Utf16Fault, Utf16Text, utf16Of } from '../../src/text/utf16-text.js';

const LE = (text: string): Buffer => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const BE = (text: string): Buffer => {
  const le = Buffer.from(text, 'utf16le');
  return Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(le).swap16()]);
};

/** `bytes` through Utf16Text in chunks of `size`: the text, or the first fault. */
function transcoded(bytes: Buffer, size: number): string | Utf16Fault {
  const text = new Utf16Text(utf16Of(bytes)!);
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) {
    const chunk = text.push(bytes.subarray(at, at + size));
    if ('line' in chunk) return chunk;
    out.push(chunk);
  }
  return text.end() ?? Buffer.concat(out).toString('utf8');
}

describe('Utf16Text', () => {
  const text = 'Name\tMobile Phone\r\nZoë 😀 Łukasz\t+44 7700 900001\r\n李伟\t+86 139 1234 5678\r\n';

  it('finds the byte order by the mark; anything else is not UTF-16', () => {
    expect(utf16Of(LE('a'))).toBe('utf-16le');
    expect(utf16Of(BE('a'))).toBe('utf-16be');
    expect(utf16Of(Buffer.from('\uFEFFa'))).toBeUndefined();
    expect(utf16Of(Buffer.from('ab'))).toBeUndefined();
  });

  it.each([
    ['little-endian', LE],
    ['big-endian', BE],
  ])('%s: the text without its mark, however the chunks fall (inside a character, inside a surrogate pair)', (_order, encode) => {
    const bytes = encode(text);
    for (const size of [1, 2, 3, 5, 7, bytes.length]) expect(transcoded(bytes, size), `chunks of ${size}`).toBe(text);
  });

  it('an unpaired surrogate, a NUL or a byte left over is a fault on its line', () => {
    for (const size of [1, 3, 1000]) {
      expect(transcoded(LE('a\r\nb\r\nc\uD800d\r\n'), size), `chunks of ${size}`).toEqual({ line: 3, kind: 'utf16' });
      expect(transcoded(BE('a\nb\uDC00\n'), size)).toEqual({ line: 2, kind: 'utf16' });
      expect(transcoded(LE('a\n\nb\0'), size)).toEqual({ line: 3, kind: 'nul' });
      expect(transcoded(Buffer.concat([LE('a\nb'), Buffer.from([0x41])]), size)).toEqual({ line: 2, kind: 'utf16' });
      expect(transcoded(LE('a\nb\uD83D'), size)).toEqual({ line: 2, kind: 'utf16' });
    }
  });
});
