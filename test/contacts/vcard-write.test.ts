// Contacts written as vCards (src/contacts/vcard-write.ts): folding at 75 octets, and the vCard
// 4.0 an export writes, read back as the same contact.
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import type { Contact } from '../../src/api/types.js';
import { readCard } from '../../src/contacts/vcard-read.js';
import { foldLine, unfolded, vcardOf } from '../../src/contacts/vcard-write.js';
import { crlf } from '../helpers/vcard-cards.js';

const octets = (text: string): number => Buffer.byteLength(text);

/** The physical lines of a folded line, each checked to be at most 75 octets of whole characters. */
function physicalLines(folded: string): string[] {
  const lines = folded.split('\r\n');
  for (const [i, line] of lines.entries()) {
    expect(octets(line), `line ${i + 1}: ${JSON.stringify(line)}`).toBeLessThanOrEqual(75);
    // A character cut in two leaves half of it (a lone surrogate), which UTF-8 cannot carry.
    expect(Buffer.from(line, 'utf8').toString('utf8'), `line ${i + 1} holds half a character`).toBe(line);
    if (i > 0) expect(line.startsWith(' '), `continuation line ${i + 1} starts with the space unfolding removes`).toBe(true);
  }
  return lines;
}

describe('foldLine', () => {
  it('leaves a line of 75 octets alone and folds one of 76 after the 75th', () => {
    const exactly = `FN:${'a'.repeat(72)}`;
    expect(foldLine(exactly)).toBe(exactly);
    expect(foldLine(`${exactly}b`)).toBe(`${exactly}\r\n b`);
  });

  it('ASCII: 75 octets on the first line, then a space and 74 octets a line', () => {
    const line = `NOTE:${'x'.repeat(300)}`;
    const lines = physicalLines(foldLine(line));
    // 305 octets: 75 + 3 × 74, and the last 8 after their space.
    expect(lines.map(octets)).toEqual([75, 75, 75, 75, 9]);
  });

  it('2-byte characters: the lines fill to exactly 75 octets when the count allows it', () => {
    // "FN:" is 3 octets, then 36 é make 75; a continuation line holds 37 é (74) after its space.
    const line = `FN:${'é'.repeat(80)}`;
    const lines = physicalLines(foldLine(line));
    expect(lines.map(octets)).toEqual([75, 75, 15]);
    expect(lines[0]).toBe(`FN:${'é'.repeat(36)}`);
    expect(lines[1]).toBe(` ${'é'.repeat(37)}`);
  });

  it('3-byte characters are never split: a line stops short of 75 rather than cut one', () => {
    // 24 € after "FN:" is 75 octets; on a continuation line a 25th would make 76 with the space.
    const line = `FN:${'€'.repeat(50)}`;
    const lines = physicalLines(foldLine(line));
    expect(lines).toEqual([`FN:${'€'.repeat(24)}`, ` ${'€'.repeat(24)}`, ` ${'€'.repeat(2)}`]);
    expect(lines.map(octets)).toEqual([75, 73, 7]);
  });

  it('4-byte emoji are never split, wherever the 75th octet falls', () => {
    for (let pad = 0; pad < 4; pad++) {
      const line = `FN:${'a'.repeat(pad)}${'😀'.repeat(40)}`;
      const folded = foldLine(line);
      const lines = physicalLines(folded);
      // The first line ends on the last whole emoji within 75 octets.
      expect(octets(lines[0]!)).toBe(3 + pad + 4 * Math.floor((72 - pad) / 4));
      expect(unfolded(folded)).toBe(line);
    }
  });

  it('unfolding gives the line back whole, spaces at the fold and mixed widths included', () => {
    const lines = [
      '',
      'FN:short',
      `FN:${'A'.repeat(72)} B`, // a space right after the fold point stays a space
      `NOTE:${' '.repeat(150)}`,
      `FN:${'aé€😀'.repeat(30)}`,
      `FN:${'👨‍👩‍👧‍👦'.repeat(12)}`,
      `X-LONG:${'漢字かな'.repeat(40)}`,
    ];
    for (const line of lines) {
      const folded = foldLine(line);
      physicalLines(folded);
      expect(unfolded(folded)).toBe(line);
    }
  });

  it('unfolded takes CRLF or LF folds, with a space or a tab', () => {
    expect(unfolded('FN:Ada \r\n Lovelace\r\nTEL:+1\n\t44\r\n')).toBe('FN:Ada Lovelace\r\nTEL:+144\r\n');
    expect(unfolded('NOTE:a\n b\r\n\tc')).toBe('NOTE:abc');
  });
});

const ada: Contact = {
  id: 'ct_0mwxpj2v1002y669d8ebf',
  username: 'ada',
  phoneNumber: '+442079460958',
  avatarUrl: null,
  displayName: null,
  conversationId: 'cv_0mwxpj2v1002z1d1a5d36',
  lastActiveAt: null,
  createdAt: new Date('2026-01-02T03:04:05.678Z'),
};

describe('vcardOf', () => {
  it('a contact without a display name or avatar: FN is the username, no PHOTO, REV in whole seconds', () => {
    expect(vcardOf(ada)).toBe(
      crlf(
        'BEGIN:VCARD',
        'VERSION:4.0',
        'FN:ada',
        'NICKNAME:ada',
        'TEL;TYPE=cell:+442079460958',
        'UID:ct_0mwxpj2v1002y669d8ebf',
        'REV:20260102T030405Z',
        'END:VCARD',
      ),
    );
  });

  it('a contact with both: FN escaped as vCard text, PHOTO the URL', () => {
    const card = vcardOf({
      ...ada,
      username: 'ada.lovelace',
      displayName: 'Lovelace, Ada \\ Countess',
      avatarUrl: 'https://avatars.example/ada.png',
      lastActiveAt: new Date('2026-03-01T00:00:00Z'),
    });
    expect(card).toBe(
      crlf(
        'BEGIN:VCARD',
        'VERSION:4.0',
        'FN:Lovelace\\, Ada \\\\ Countess',
        'NICKNAME:ada.lovelace',
        'TEL;TYPE=cell:+442079460958',
        'PHOTO:https://avatars.example/ada.png',
        'UID:ct_0mwxpj2v1002y669d8ebf',
        'REV:20260102T030405Z',
        'END:VCARD',
      ),
    );
  });

  it('a long display name is folded at 75 octets between whole characters', () => {
    const card = vcardOf({ ...ada, displayName: '😀'.repeat(30) });
    expect(card).toBe(
      crlf(
        'BEGIN:VCARD',
        'VERSION:4.0',
        `FN:${'😀'.repeat(18)}`,
        ` ${'😀'.repeat(12)}`,
        'NICKNAME:ada',
        'TEL;TYPE=cell:+442079460958',
        'UID:ct_0mwxpj2v1002y669d8ebf',
        'REV:20260102T030405Z',
        'END:VCARD',
      ),
    );
  });

  it('PHOTO is a URI, not text: its commas and semicolons are written as they are, a space or control percent-encoded', () => {
    const lineOf = (card: string, name: string) => unfolded(card).split('\r\n').find((line) => line.startsWith(name));
    expect(lineOf(vcardOf({ ...ada, avatarUrl: 'https://img.example/a.png?size=64,64&crop=1;2' }), 'PHOTO')).toBe('PHOTO:https://img.example/a.png?size=64,64&crop=1;2');
    // A line break in a server's URL would end the property and start another.
    expect(lineOf(vcardOf({ ...ada, avatarUrl: 'https://img.example/a b\r\nTEL:+1\u0085.png' }), 'PHOTO')).toBe('PHOTO:https://img.example/a%20b%0D%0ATEL:+1%C2%85.png');
    // A long one is folded at 75 octets like any line, never inside a character.
    const long = `https://img.example/${'é,'.repeat(60)}.png`;
    const card = vcardOf({ ...ada, avatarUrl: long });
    for (const line of card.split('\r\n').slice(0, -1)) physicalLines(line);
    expect(lineOf(card, 'PHOTO')).toBe(`PHOTO:${long}`);
    expect(readCard(card)).toMatchObject({ photo: long });
  });

  it('TEL carries TYPE=cell and the number as text, which an RFC 6350 parser (ical.js) reads as the number', () => {
    const card = vcardOf(ada);
    expect(card).toContain('\r\nTEL;TYPE=cell:+442079460958\r\n');
    const [, properties] = ICAL.parse(card) as [string, [string, Record<string, string>, string, string][]];
    expect(properties.find(([name]) => name === 'tel')).toEqual(['tel', { type: 'cell' }, 'uri', '+442079460958']);
    // VERSION straight after BEGIN, as RFC 6350 asks.
    expect(card.startsWith('BEGIN:VCARD\r\nVERSION:4.0\r\n')).toBe(true);
  });

  it('what it writes reads back as the same contact', () => {
    const contact = { ...ada, username: 'x_y', displayName: 'Smith, John "Jack" \\ 😀'.repeat(2), avatarUrl: 'https://img.example/a.png?size=64,64&x=1' };
    expect(readCard(vcardOf(contact))).toEqual({
      name: contact.displayName,
      nickname: 'x_y',
      phones: [expect.objectContaining({ value: '+442079460958' })],
      photo: contact.avatarUrl,
      uid: contact.id,
    });
  });

  it('every avatar URL the sandbox takes reads back exactly: backslashes (before n, a comma, a semicolon, another), commas, semicolons, colons', () => {
    for (const avatarUrl of [
      'https://img.example/a\\name.png',
      'https://img.example/x\\,y;z.png',
      'https://img.example/\\\\;\\;,\\\\n\\N?q=a,b;c:d',
      'https://img.example/ends\\',
      `https://img.example/${'\\é,;'.repeat(40)}.png`,
    ]) {
      const card = vcardOf({ ...ada, avatarUrl });
      expect(readCard(card), avatarUrl).toMatchObject({ photo: avatarUrl });
      // A backslash is written as RFC 6350 asks of every value, \\; a comma or semicolon as it is.
      expect(unfolded(card).split('\r\n').find((line) => line.startsWith('PHOTO:')), avatarUrl).toBe(`PHOTO:${avatarUrl.replace(/\\/g, '\\\\')}`);
    }
  });
});
