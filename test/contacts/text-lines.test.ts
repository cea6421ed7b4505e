// A file's lines from its bytes, bounded (src/contacts/text-lines.ts): the lines node:readline
// gives (as the vCard import read them before), however the chunks fall, and a line over the
// limit given by its length alone; where the lines read so far end, in bytes.
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type LongLine, LineSplitter } from '../../src/contacts/text-lines.js';

async function byReadline(text: Buffer): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of createInterface({ input: Readable.from([text.toString('utf8')]), crlfDelay: Number.POSITIVE_INFINITY })) lines.push(line);
  return lines;
}

function bySplitter(text: Buffer, size: number, limit = 1 << 20): (string | LongLine)[] {
  const splitter = new LineSplitter(limit);
  const lines: (string | LongLine)[] = [];
  for (let at = 0; at < text.length; at += size) lines.push(...splitter.push(text.subarray(at, at + size)));
  lines.push(...splitter.end());
  expect(splitter.offset).toBe(text.length);
  return lines;
}

const TEXTS = [
  'BEGIN:VCARD\r\nFN:Zoë 😀\r\nEND:VCARD\r\n',
  'a\nb\n\nc',
  'lone\rcr\r\rthen\r\nboth\n\r',
  '\r\n\r\n',
  '\uFEFFBEGIN:VCARD\nN:田中;健二\n',
  'no end',
];

describe('LineSplitter', () => {
  it.each(TEXTS)('%j: the lines readline gives, in chunks of any size', async (text) => {
    const bytes = Buffer.from(text);
    const expected = await byReadline(bytes);
    for (const size of [1, 2, 3, 5, bytes.length]) expect(bySplitter(bytes, size), `chunks of ${size}`).toEqual(expected);
  });

  it('a line over the limit is given as its length in bytes, and the lines around it as ever', () => {
    const text = Buffer.from('short\r\n0123456789é\r\nnext\nlast é');
    for (const size of [1, 4, text.length]) {
      expect(bySplitter(text, size, 10), `chunks of ${size}`).toEqual(['short', { long: 12 }, 'next', 'last é']);
    }
    expect(bySplitter(Buffer.from('x'.repeat(100)), 7, 10)).toEqual([{ long: 100 }]);
  });

  it('says where the lines read so far end', () => {
    const splitter = new LineSplitter(100);
    expect(splitter.push(Buffer.from('ab\r\ncd'))).toEqual(['ab']);
    expect(splitter.offset).toBe(4);
    expect(splitter.push(Buffer.from('e\r'))).toEqual(['cde']);
    expect(splitter.offset).toBe(8);
    // The LF of a CRLF cut between two chunks: the same line end, and counted.
    expect(splitter.push(Buffer.from('\n'))).toEqual([]);
    expect(splitter.offset).toBe(9);
  });
});
