// A file's lines from its bytes, bounded (src/contacts/text-lines.ts): every line end address books
// write (LF, CRLF, iPhone's CR CR LF, a classic Mac's lone CR), a lone CR inside a line of any other
// file kept as text, each line's bytes with its line end as written (so that they add up to the
// file), however the chunks fall; a line over the limit given by its length and its first bad
// byte; where the lines read so far end, in bytes.
import { describe, expect, it } from 'vitest';
import { contentOf, type Line, LineSplitter, type LongLine } from '../../src/contacts/text-lines.js';

type Split = { text: string; end: string } | LongLine;

function bySplitter(bytes: Buffer, size: number, limit = 1 << 20): Split[] {
  const splitter = new LineSplitter(limit);
  const lines: (Line | LongLine)[] = [];
  for (let at = 0; at < bytes.length; at += size) lines.push(...splitter.push(bytes.subarray(at, at + size)));
  lines.push(...splitter.end());
  expect(splitter.offset).toBe(bytes.length);
  const kept = lines.filter((line): line is Line => 'raw' in line);
  // Nothing lost, nothing changed: the lines as written are the file.
  if (kept.length === lines.length) expect(Buffer.concat(kept.map((line) => line.raw)).equals(bytes)).toBe(true);
  return lines.map((line) => ('raw' in line ? { text: contentOf(line).toString('utf8'), end: line.raw.subarray(line.size).toString('latin1') } : line));
}

const lines = (...pairs: [string, string][]): Split[] => pairs.map(([text, end]) => ({ text, end }));

const CASES: [name: string, text: string, expected: Split[]][] = [
  ['CRLF', 'BEGIN:VCARD\r\nFN:Zoë 😀\r\nEND:VCARD\r\n', lines(['BEGIN:VCARD', '\r\n'], ['FN:Zoë 😀', '\r\n'], ['END:VCARD', '\r\n'])],
  ['LF, a blank line, no end at the end', 'a\nb\n\nc', lines(['a', '\n'], ['b', '\n'], ['', '\n'], ['c', ''])],
  ['iPhone: CR CR LF, a fold after it', 'BEGIN:VCARD\r\r\nPHOTO:/9j/\r\r\n AAA=\r\r\nEND:VCARD\r\r\n', lines(['BEGIN:VCARD', '\r\r\n'], ['PHOTO:/9j/', '\r\r\n'], [' AAA=', '\r\r\n'], ['END:VCARD', '\r\r\n'])],
  ['classic Mac: lone CRs, two of them a blank line', 'BEGIN:VCARD\rFN:A\r\rEND:VCARD\r', lines(['BEGIN:VCARD', '\r'], ['FN:A', '\r'], ['', '\r'], ['END:VCARD', '\r'])],
  ['a lone CR inside a CRLF file is text', 'BEGIN:VCARD\r\nX-NOTE:one\rtwo\r\nEND:VCARD\r\n', lines(['BEGIN:VCARD', '\r\n'], ['X-NOTE:one\rtwo', '\r\n'], ['END:VCARD', '\r\n'])],
  ['a lone CR inside an LF file is text, even at its end', 'a\nb\r\rc\nd\r', lines(['a', '\n'], ['b\r\rc', '\n'], ['d', '\r'])],
  ['ends mixed after the first', 'a\r\nb\nc\r\r\nd', lines(['a', '\r\n'], ['b', '\n'], ['c', '\r\r\n'], ['d', ''])],
  ['a BOM and CJK', '\uFEFFBEGIN:VCARD\nN:田中;健二\n', lines(['\uFEFFBEGIN:VCARD', '\n'], ['N:田中;健二', '\n'])],
  ['blank lines only', '\r\n\r\n', lines(['', '\r\n'], ['', '\r\n'])],
];

describe('LineSplitter', () => {
  it.each(CASES)('%s: the lines and their ends as written, in chunks of any size', (_name, text, expected) => {
    const bytes = Buffer.from(text);
    for (const size of [1, 2, 3, 5, 7, bytes.length]) expect(bySplitter(bytes, size), `chunks of ${size}`).toEqual(expected);
  });

  it('a line over the limit is given as its length in bytes (with its first bad byte), and the lines around it as ever', () => {
    const text = Buffer.from('short\r\n0123456789é\r\nnext\nlast é');
    for (const size of [1, 4, text.length]) {
      expect(bySplitter(text, size, 10), `chunks of ${size}`).toEqual([...lines(['short', '\r\n']), { long: 12 }, ...lines(['next', '\n'], ['last é', ''])]);
    }
    expect(bySplitter(Buffer.from('x'.repeat(100)), 7, 10)).toEqual([{ long: 100 }]);
    // Its bytes are not kept to be checked later: a bad one is said, where it is in the whole.
    const bad = Buffer.concat([Buffer.from('ok\r\n'), Buffer.from('0123456789'), Buffer.from([0xe9]), Buffer.from('x\r\n')]);
    for (const size of [1, 3, bad.length]) {
      expect(bySplitter(bad, size, 10), `chunks of ${size}`).toEqual([...lines(['ok', '\r\n']), { long: 12, fault: { offset: 14, byte: 0xe9, kind: 'utf8' } }]);
    }
  });

  it('says where the lines read so far end', () => {
    const splitter = new LineSplitter(100);
    const texts = (found: (Line | LongLine)[]) => found.map((line) => ('raw' in line ? line.raw.toString('latin1') : line));
    expect(texts(splitter.push(Buffer.from('ab\r\ncd')))).toEqual(['ab\r\n']);
    expect(splitter.offset).toBe(4);
    // Whether the CR ends the line is not known until what follows it is.
    expect(texts(splitter.push(Buffer.from('e\r')))).toEqual([]);
    expect(splitter.offset).toBe(4);
    expect(texts(splitter.push(Buffer.from('\r')))).toEqual([]);
    expect(texts(splitter.push(Buffer.from('\nf')))).toEqual(['cde\r\r\n']);
    expect(splitter.offset).toBe(10);
    expect(texts(splitter.end())).toEqual(['f']);
    expect(splitter.offset).toBe(11);
  });
});
