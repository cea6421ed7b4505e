// Contacts as vCards (src/contacts/vcard.ts): folding at 75 octets, the vCard 4.0 an export
// writes, the 2.1 normaliser in front of ical.js, cards split out of a file's lines, and the
// fields read from 2.1, 3.0 and 4.0 cards as phones and address books write them.
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import type { Contact } from '../../src/api/types.js';
import { cardsOf, foldLine, normalise21, readCard, unfolded, vcardOf } from '../../src/contacts/vcard.js';

const octets = (text: string): number => Buffer.byteLength(text);
const crlf = (...lines: string[]): string => `${lines.join('\r\n')}\r\n`;

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
      phones: ['+442079460958'],
      photo: contact.avatarUrl,
      uid: contact.id,
    });
  });
});

describe('normalise21', () => {
  it('an Android card: quoted-printable decoded across soft line breaks, CHARSET dropped, bare TEL types as TYPE=', () => {
    // Android encodes every byte and breaks lines at 76 columns, here inside ü's two bytes.
    const android = crlf(
      'BEGIN:VCARD',
      'VERSION:2.1',
      'N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=4D=C3=BC=6C=6C=65=72;=4A=C3=BC=',
      '=72=67=65=6E;;;',
      'FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=4A=C3=BC=72=67=65=6E=20=4D=C3=',
      '=BC=6C=6C=65=72',
      'TEL;CELL;PREF:+49 170 1234567',
      'TEL;HOME;VOICE:+49 30 1234567',
      'END:VCARD',
    );
    expect(normalise21(android)).toBe(
      crlf(
        'BEGIN:VCARD',
        'VERSION:3.0',
        'N:Müller;Jürgen;;;',
        'FN:Jürgen Müller',
        'TEL;TYPE=CELL,PREF:+49 170 1234567',
        'TEL;TYPE=HOME,VOICE:+49 30 1234567',
        'END:VCARD',
      ),
    );
  });

  it('quoted-printable in Latin-1 with readable text and a soft break, a comma escaped, TYPE= and bare types merged', () => {
    const nokia = crlf(
      'BEGIN:VCARD',
      'VERSION:2.1',
      'FN;ENCODING=QUOTED-PRINTABLE;CHARSET=ISO-8859-1:Ren=E9e Fran=E7ois, Paris =',
      'office',
      'TEL;TYPE=WORK;FAX:+33 1 23 45 67 89',
      'NOTE;ENCODING=QUOTED-PRINTABLE:line one=0D=0Aline two',
      'END:VCARD',
    );
    expect(normalise21(nokia)).toBe(
      crlf(
        'BEGIN:VCARD',
        'VERSION:3.0',
        'FN:Renée François\\, Paris office',
        'TEL;TYPE=WORK,FAX:+33 1 23 45 67 89',
        'NOTE:line one\\nline two',
        'END:VCARD',
      ),
    );
    const read = readCard(nokia);
    expect(read).toMatchObject({ name: 'Renée François, Paris office', phones: ['+33 1 23 45 67 89'] });
  });

  it("drops the blank line Android writes after a photo, and the photo's base64 does not become a URL", () => {
    const card = crlf('BEGIN:VCARD', 'VERSION:2.1', 'FN:Lena Schmidt', 'TEL;CELL:+43 664 1234567', 'PHOTO;ENCODING=BASE64;JPEG:/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//', ' ////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=', '', 'END:VCARD');
    const normalised = normalise21(card);
    expect(normalised).not.toMatch(/\r\n\r\n/);
    expect(normalised).toContain('PHOTO;TYPE=JPEG:/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////wgALCAABAAEBAREA');
    expect(readCard(card)).toEqual({ name: 'Lena Schmidt', nickname: undefined, phones: ['+43 664 1234567'], photo: undefined, uid: undefined });
  });

  it('gives a 3.0 or 4.0 card back as it is', () => {
    const three = crlf('BEGIN:VCARD', 'VERSION:3.0', 'FN:A;B', 'TEL;CELL:+1', 'END:VCARD');
    const four = 'BEGIN:VCARD\nVERSION:4.0\nFN:X\nEND:VCARD\n';
    expect(normalise21(three)).toBe(three);
    expect(normalise21(four)).toBe(four);
  });
});

describe('readCard', () => {
  it('3.0 from an iPhone: item1.TEL groups, every TEL in order, X-ABLabel ignored, escaped commas read', () => {
    const card = crlf(
      'BEGIN:VCARD',
      'VERSION:3.0',
      'PRODID:-//Apple Inc.//iPhone OS 17.4//EN',
      'N:Appleseed;John;Q.;Dr.;Jr.',
      'FN:John Appleseed\\, Jr.',
      'NICKNAME:Johnny\\, the Apple',
      'item1.TEL;type=pref:+1 (408) 555-0126',
      'item1.X-ABLabel:_$!<Mobile>!$_',
      'TEL;type=CELL;type=VOICE:+1 (408) 555-0127',
      'item2.TEL:+44 20 7946 0958',
      'item2.X-ABLabel:Office',
      'PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//',
      ' ////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
      'UID:8F3E5A4C-9B2D-4E1F-8A7C-1D2E3F4A5B6C',
      'END:VCARD',
    );
    expect(readCard(card)).toEqual({
      name: 'John Appleseed, Jr.',
      nickname: 'Johnny, the Apple',
      phones: ['+1 (408) 555-0126', '+1 (408) 555-0127', '+44 20 7946 0958'],
      // Embedded image bytes are no avatar URL.
      photo: undefined,
      uid: '8F3E5A4C-9B2D-4E1F-8A7C-1D2E3F4A5B6C',
    });
  });

  it('3.0 with N and no FN: given, middle and family names, prefix and suffix left out', () => {
    const card = crlf('BEGIN:VCARD', 'VERSION:3.0', 'N:Doe\\, Jr.;Jane;Ann;Dr.;PhD', 'TEL:+1 212 555 0187', 'END:VCARD');
    expect(readCard(card)).toMatchObject({ name: 'Jane Ann Doe, Jr.', phones: ['+1 212 555 0187'] });
    const noName = crlf('BEGIN:VCARD', 'VERSION:3.0', 'N:;;;;', 'FN:', 'TEL:+44 7700 900987', 'END:VCARD');
    expect(readCard(noName)).toEqual({ name: undefined, nickname: undefined, phones: ['+44 7700 900987'], photo: undefined, uid: undefined });
  });

  it('an escaped semicolon in FN is a semicolon, in 3.0, 4.0 and a decoded 2.1 card', () => {
    for (const version of ['3.0', '4.0']) {
      const card = readCard(`BEGIN:VCARD\r\nVERSION:${version}\r\nFN:Doe\\, Jane\\; Dr.\r\nTEL:+442079460958\r\nEND:VCARD\r\n`);
      expect(card).toMatchObject({ name: 'Doe, Jane; Dr.' });
    }
    const qp = readCard('BEGIN:VCARD\r\nVERSION:2.1\r\nFN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:Se=C3=A1n O=3BBrien\r\nTEL;CELL:+353861234567\r\nEND:VCARD\r\n');
    expect(qp).toMatchObject({ name: 'Seán O;Brien' });
  });

  it('a 3.0 PHOTO written as a link without VALUE=uri (as Google writes it) is the avatar; an embedded image is not', () => {
    expect(readCard('BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nTEL:+442079460958\r\nPHOTO:https://x.example/p.png\r\nEND:VCARD\r\n')).toMatchObject({ photo: 'https://x.example/p.png' });
    expect(readCard('BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nTEL:+442079460958\r\nPHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQ\r\nEND:VCARD\r\n')).toMatchObject({ photo: undefined });
  });

  it('3.0 PHOTO given as a URI is the avatar', () => {
    const card = crlf('BEGIN:VCARD', 'VERSION:3.0', 'FN:A', 'TEL:+14085550100', 'PHOTO;VALUE=uri:https://example.com/a.jpg', 'END:VCARD');
    expect(readCard(card)).toMatchObject({ photo: 'https://example.com/a.jpg' });
  });

  it('4.0: tel: URIs give their number alone, without ;ext= or other parameters; PHOTO a URL', () => {
    const card = crlf(
      'BEGIN:VCARD',
      'VERSION:4.0',
      'FN:Ext Person',
      'TEL;VALUE=uri;TYPE=work:tel:+1-555-555-5555;ext=5555',
      'TEL;VALUE=uri;PREF=1;TYPE="voice,cell":tel:+33-1-23-45-67-89',
      'TEL;VALUE=text:+44 20 7946 0958',
      'PHOTO:https://example.com/photo.png',
      'END:VCARD',
    );
    expect(readCard(card)).toEqual({
      name: 'Ext Person',
      nickname: undefined,
      phones: ['+1-555-555-5555', '+33-1-23-45-67-89', '+44 20 7946 0958'],
      photo: 'https://example.com/photo.png',
      uid: undefined,
    });
  });

  it('a 2.1 card is read through the normaliser', () => {
    const card = crlf('BEGIN:VCARD', 'VERSION:2.1', 'N:Smith;Anna;;;', 'FN;ENCODING=QUOTED-PRINTABLE:Anna=20Sm=', 'ith', 'TEL;CELL;PREF:07700 900123', 'END:VCARD');
    expect(readCard(card)).toEqual({ name: 'Anna Smith', nickname: undefined, phones: ['07700 900123'], photo: undefined, uid: undefined });
  });

  it('a broken card is a problem saying why, not a throw', () => {
    expect(readCard(crlf('BEGIN:VCARD', 'VERSION:3.0', 'FN Broken', 'TEL:+14085550100', 'END:VCARD'))).toEqual({
      problem: 'not a vCard tickbook can read: invalid line (no token ";" or ":") "FN Broken"',
    });
    expect(readCard(crlf('BEGIN:VCARD', 'VERSION:3.0', 'FN:Cut short'))).toEqual({
      problem: 'not a vCard tickbook can read: invalid ical body. component began but did not end',
    });
    expect(readCard(crlf('BEGIN:VCALENDAR', 'VERSION:2.0', 'END:VCALENDAR'))).toEqual({ problem: 'not a vCard' });
  });
});

describe('cardsOf', () => {
  async function* linesOf(text: string) {
    yield* text.split(/\r?\n/);
  }
  const cards = async (text: string) => {
    const found: { raw: string | undefined; line: number }[] = [];
    for await (const card of cardsOf(linesOf(text))) found.push(card);
    return found;
  };

  it('each card with the line it begins on, text between cards ignored, CRLF ends whatever the file had', async () => {
    const text = ['junk before', 'BEGIN:VCARD', 'VERSION:3.0', 'FN:A', 'END:VCARD', '', 'begin:vcard', 'FN:B', ' folded', 'end:vcard', 'BEGIN:VCARD', 'FN:Unterminated'].join('\n');
    expect(await cards(text)).toEqual([
      { raw: crlf('BEGIN:VCARD', 'VERSION:3.0', 'FN:A', 'END:VCARD'), line: 2 },
      { raw: crlf('begin:vcard', 'FN:B', ' folded', 'end:vcard'), line: 7 },
      // The last card, cut short, is still given: readCard says what is wrong with it.
      { raw: crlf('BEGIN:VCARD', 'FN:Unterminated'), line: 11 },
    ]);
  });

  it('a card over the limit is given without its text, and the cards after it as ever, also when it is never ended', async () => {
    const bounded = async (lines: (string | { long: number })[], limit: number) => {
      const found: { raw: string | undefined; line: number }[] = [];
      for await (const card of cardsOf((async function* () { yield* lines; })(), limit)) found.push(card);
      return found;
    };
    // 'BEGIN:VCARD' is 11 bytes, 13 with its line end: a limit of 40 takes a card of three short lines.
    const small = ['BEGIN:VCARD', 'FN:A', 'END:VCARD'];
    expect(await bounded([...small, 'BEGIN:VCARD', `NOTE:${'x'.repeat(30)}`, 'END:VCARD', ...small], 40)).toEqual([
      { raw: crlf(...small), line: 1 },
      { raw: undefined, line: 4 },
      { raw: crlf(...small), line: 7 },
    ]);
    // No END:VCARD: the lines after the limit are passed over until the next BEGIN:VCARD.
    expect(await bounded(['BEGIN:VCARD', ...Array.from({ length: 50 }, () => 'NOTE:more'), ...small], 40)).toEqual([
      { raw: undefined, line: 1 },
      { raw: crlf(...small), line: 52 },
    ]);
    // A line too long to be kept makes its card too large; outside a card it is passed over.
    expect(await bounded([{ long: 99 }, 'BEGIN:VCARD', { long: 99 }, 'END:VCARD', ...small], 40)).toEqual([
      { raw: undefined, line: 2 },
      { raw: crlf(...small), line: 5 },
    ]);
  });
});
