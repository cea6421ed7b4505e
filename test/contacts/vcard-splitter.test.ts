// Cards split out of a file's lines byte for byte (src/contacts/vcard-splitter.ts): every card
// counted however it is written or cut, each read as itself.
import { describe, expect, it } from 'vitest';
import { LineSplitter } from '../../src/contacts/text-lines.js';
import { readCard } from '../../src/contacts/vcard-read.js';
import { CardSplitter, crCardLines } from '../../src/contacts/vcard-splitter.js';
import { crlf, fields, tel } from '../helpers/vcard-cards.js';

describe('CardSplitter', () => {
  /** The cards of `text`, its lines split from chunks of 7 bytes: cards and their line ends cut anywhere. */
  const cards = (text: string | Buffer, limit?: number) => {
    const bytes = typeof text === 'string' ? Buffer.from(text) : text;
    const lines = new LineSplitter(limit ?? Number.POSITIVE_INFINITY);
    const splitter = new CardSplitter(limit);
    const found = [];
    for (let at = 0; at < bytes.length; at += 7) found.push(...splitter.push(lines.push(bytes.subarray(at, at + 7)).flatMap(crCardLines)));
    found.push(...splitter.push(lines.end().flatMap(crCardLines)), ...splitter.end());
    return found.map(({ raw, line }) => ({ raw: raw?.toString('latin1'), line }));
  };

  it('each card with the line it begins on and its bytes exactly as written; text between cards ignored; a BOM left out', () => {
    const text = ['\uFEFFjunk before', 'BEGIN:VCARD', 'VERSION:3.0', 'FN:A', 'END:VCARD', '', 'begin:vcard', 'FN:B', ' folded', 'end:vcard', 'BEGIN:VCARD', 'FN:Unterminated'].join('\n');
    expect(cards(text)).toEqual([
      { raw: 'BEGIN:VCARD\nVERSION:3.0\nFN:A\nEND:VCARD\n', line: 2 },
      { raw: 'begin:vcard\nFN:B\n folded\nend:vcard\n', line: 7 },
      // The last card, cut short, is still given: readCard says what is wrong with it.
      { raw: 'BEGIN:VCARD\nFN:Unterminated', line: 11 },
    ]);
    const iphone = 'BEGIN:VCARD\r\r\nVERSION:3.0\r\r\nPHOTO;ENCODING=b:/9j/\r\r\n AAA=\r\r\nX-A:one\rtwo\r\r\nEND:VCARD\r\r\n';
    expect(cards(`\uFEFF${iphone}${iphone}`)).toEqual([
      { raw: iphone, line: 1 },
      { raw: iphone, line: 7 },
    ]);
    const latin = Buffer.from('BEGIN:VCARD\r\nFN;CHARSET=ISO-8859-1:Ren\xe9e\r\nEND:VCARD\r\n', 'latin1');
    expect((cards(latin))[0]!.raw).toBe(latin.toString('latin1'));
  });

  it('every card is counted: one never ended is given when the next begins; a nested AGENT card is part of the card holding it', () => {
    const text = crlf('BEGIN:VCARD', 'FN:Never ended', 'BEGIN:VCARD', 'FN:Next', 'END:VCARD', 'BEGIN:VCARD', 'VERSION:2.1', 'N:Public;John', 'AGENT:', 'BEGIN:VCARD', 'N:Friday;Fred', 'END:VCARD', 'TEL:+1', 'END:VCARD', 'BEGIN:VCARD', 'AGENT:BEGIN:VCARD', 'FN:Fred', 'END:VCARD', 'FN:John', 'END:VCARD');
    const found = cards(text);
    expect(found.map((c) => c.line)).toEqual([1, 3, 6, 15]);
    expect(found[0]!.raw).toBe(crlf('BEGIN:VCARD', 'FN:Never ended'));
    expect(found[2]!.raw).toBe(crlf('BEGIN:VCARD', 'VERSION:2.1', 'N:Public;John', 'AGENT:', 'BEGIN:VCARD', 'N:Friday;Fred', 'END:VCARD', 'TEL:+1', 'END:VCARD'));
    expect(found[3]!.raw).toBe(crlf('BEGIN:VCARD', 'AGENT:BEGIN:VCARD', 'FN:Fred', 'END:VCARD', 'FN:John', 'END:VCARD'));
    expect(readCard(Buffer.from(found[0]!.raw!, 'latin1'), { line: found[0]!.line, unended: 'next card' })).toEqual({ problem: 'it has no END:VCARD before the next BEGIN:VCARD, at line 3' });
  });

  it('every card is counted however it is written: lone-CR line ends after an LF card (cat unix.vcf mac.vcf), an indented card, BEGIN: VCARD', () => {
    const unix = 'BEGIN:VCARD\nVERSION:3.0\nFN:Unix\nTEL:+442079460958\nEND:VCARD\n';
    const mac = 'BEGIN:VCARD\rVERSION:3.0\rFN:Mac\rTEL:+442079460957\rEND:VCARD\r';
    const third = 'BEGIN:VCARD\nFN:Third\nTEL:+442079460956\nEND:VCARD\n';
    // The Mac cards are on one line of the file (it has no LF): at its line, each of them.
    expect(cards(unix + mac)).toEqual([{ raw: unix, line: 1 }, { raw: mac, line: 6 }]);
    expect(cards(`${unix}${mac}\n${third}`)).toEqual([{ raw: unix, line: 1 }, { raw: `${mac}\n`, line: 6 }, { raw: third, line: 7 }]);
    expect(cards(unix + mac + mac.replace('Mac', 'Mac2'))).toEqual([{ raw: unix, line: 1 }, { raw: mac, line: 6 }, { raw: mac.replace('Mac', 'Mac2'), line: 6 }]);
    expect(readCard(Buffer.from(mac))).toEqual(fields('Mac', [tel('+442079460957')]));
    // A lone CR inside a value of an LF card is still text.
    const stray = 'BEGIN:VCARD\nX-A:one\rBEGIN:VCARD\rtwo\nFN:A\nEND:VCARD\n';
    expect(cards(stray)).toEqual([{ raw: stray, line: 1 }]);

    const indented = '  BEGIN:VCARD\n  FN:Two\n  TEL:+442079460957\n  END:VCARD\n';
    const spaced = 'BEGIN: VCARD\nFN:Three\nTEL:+442079460956\nEND: VCARD\n';
    expect(cards(unix + indented + spaced + third)).toEqual([
      { raw: unix, line: 1 },
      { raw: indented, line: 6 },
      { raw: spaced, line: 10 },
      { raw: third, line: 14 },
    ]);
    expect(readCard(Buffer.from(indented))).toEqual({ problem: 'BEGIN:VCARD is indented: a line that begins with a space or a tab goes on from the line before it (RFC 6350 folding), so nothing of the card can be read' });
    expect(readCard(Buffer.from(spaced))).toEqual(fields('Three', [tel('+442079460956')]));
    // An indented line inside a card is a folded one, never its end or another card's beginning.
    const folded = 'BEGIN:VCARD\nNOTE:a\n END:VCARD\n BEGIN:VCARD\nFN:A\nEND:VCARD\n';
    expect(cards(folded)).toEqual([{ raw: folded, line: 1 }]);
  });

  it('a card over the limit is given without its bytes, and the cards after it as ever, also when it is never ended', () => {
    // 'BEGIN:VCARD' is 11 bytes, 13 with its line end: a limit of 40 takes a card of three short lines.
    const small = crlf('BEGIN:VCARD', 'FN:A', 'END:VCARD');
    expect(cards(small + crlf('BEGIN:VCARD', `NOTE:${'x'.repeat(30)}`, 'END:VCARD') + small, 40)).toEqual([
      { raw: small, line: 1 },
      { raw: undefined, line: 4 },
      { raw: small, line: 7 },
    ]);
    // No END:VCARD: the lines after the limit are passed over until the next BEGIN:VCARD.
    expect(cards(crlf('BEGIN:VCARD', ...Array.from({ length: 50 }, () => 'NOTE:more')) + small, 40)).toEqual([
      { raw: undefined, line: 1 },
      { raw: small, line: 52 },
    ]);
    // A line too long to be kept makes its card too large; outside a card it is passed over.
    expect(cards(crlf('x'.repeat(99), 'BEGIN:VCARD', 'y'.repeat(99), 'END:VCARD') + small, 40)).toEqual([
      { raw: undefined, line: 2 },
      { raw: small, line: 5 },
    ]);
  });
});
