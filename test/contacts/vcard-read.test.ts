// Cards read (src/contacts/vcard-read.ts, with the values and fields it reads by): the fields read
// from 2.1, 3.0, 4.0 and unversioned cards as phones and address books write them: every property
// tickbook does not use passed over whatever its syntax, the ones it uses read in every form
// exporters write (2.1's bare parameters and quoted-printable in any version, the charsets a
// property declares, short N), which number is a mobile and which preferred, and a nested card
// kept out of the card holding it.
import { describe, expect, it } from 'vitest';
import { readCard } from '../../src/contacts/vcard-read.js';
import { card, crlf, fields, tel } from '../helpers/vcard-cards.js';

describe('readCard: 2.1 as phones and Outlook write it', () => {
  it('an Android card: quoted-printable across soft line breaks (one inside a character), CHARSET=UTF-8, bare TEL types', () => {
    // Android encodes every byte and breaks lines at 76 columns, here inside ü's two bytes.
    const android = card(
      'VERSION:2.1',
      'N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=4D=C3=BC=6C=6C=65=72;=4A=C3=BC=',
      '=72=67=65=6E;;;',
      'FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=4A=C3=BC=72=67=65=6E=20=4D=C3=',
      '=BC=6C=6C=65=72',
      'TEL;HOME;VOICE:+49 30 1234567',
      'TEL;CELL;PREF:+49 170 1234567',
      'END:VCARD',
    );
    expect(readCard(android)).toEqual(fields('Jürgen Müller', [tel('+49 30 1234567'), tel('+49 170 1234567', { mobile: true, preferred: true })]));
    // Without FN, the name is N's: given, then family.
    expect(readCard(android.replace(/FN;[^]*?=6C=72\r\n/, ''))).toMatchObject({ name: 'Jürgen Müller' });
  });

  it('quoted-printable in readable text with a soft break, a comma kept, TYPE= and bare types together; an escaped ; in a QP FN', () => {
    const nokia = card('VERSION:2.1', 'FN;ENCODING=QUOTED-PRINTABLE;CHARSET=ISO-8859-1:Ren=E9e Fran=E7ois, Paris =', 'office', 'TEL;TYPE=WORK;FAX:+33 1 23 45 67 89', 'NOTE;ENCODING=QUOTED-PRINTABLE:line one=0D=0Aline two', 'END:VCARD');
    expect(readCard(nokia)).toEqual(fields('Renée François, Paris office', [tel('+33 1 23 45 67 89')]));
    expect(readCard(card('VERSION:2.1', 'FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:Se=C3=A1n O=3BBrien', 'TEL;CELL:+353861234567'))).toMatchObject({ name: 'Seán O;Brien' });
  });

  it('a quoted-printable value that ends in "=" before a property or END:VCARD ends there; before other text it goes on', () => {
    // A phone that left a soft line break at the end of N: the TELs after it are the card's own.
    const swallow = card('VERSION:2.1', 'N;ENCODING=QUOTED-PRINTABLE;CHARSET=UTF-8:M=C3=BCller;Hans=', 'TEL;CELL:+4915112345678', 'TEL;WORK:+4930123456');
    expect(readCard(swallow)).toEqual(fields('Hans Müller', [tel('+4915112345678', { mobile: true }), tel('+4930123456')]));
    expect(readCard(card('VERSION:2.1', 'FN:Hans', 'NOTE;ENCODING=QUOTED-PRINTABLE:call=', 'item1.TEL;CELL:+4915112345678', 'X-ANDROID-CUSTOM:x'))).toEqual(fields('Hans', [tel('+4915112345678', { mobile: true })]));
    // Before END:VCARD: the card ends, not "cut short".
    expect(readCard(card('VERSION:2.1', 'TEL;CELL:+442079460958', 'FN;ENCODING=QUOTED-PRINTABLE:Bob='))).toEqual(fields('Bob', [tel('+442079460958', { mobile: true })]));
    // Text that is no property of a card (no name:, or a name no card has) goes on the value.
    expect(readCard(card('VERSION:2.1', 'FN;ENCODING=QUOTED-PRINTABLE:Flat =', 'Room:5', 'TEL:+442079460958'))).toMatchObject({ name: 'Flat Room:5' });
    expect(readCard(card('VERSION:2.1', 'FN;ENCODING=QUOTED-PRINTABLE:Meet at=', '10:30 Ltd', 'TEL:+442079460958'))).toMatchObject({ name: 'Meet at10:30 Ltd' });
  });

  it("Android's and Outlook's photos: base64 on one line or many, unindented, ended by a blank line; none becomes a URL", () => {
    const base64 = ['/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//', '////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA='];
    for (const photo of [
      ['PHOTO;ENCODING=BASE64;JPEG:' + base64[0], ` ${base64[1]}`, ''],
      ['PHOTO;TYPE=JPEG;ENCODING=BASE64:', ...base64, ''],
      ['PHOTO;ENCODING=BASE64:' + base64.join(''), '', 'NOTE:'],
      ['KEY;X509;ENCODING=BASE64:', `    ${base64[0]}`, `    ${base64[1]}`, '', ''],
    ]) {
      expect(readCard(card('VERSION:2.1', 'FN:Lena Schmidt', ...photo, 'TEL;CELL:+43 664 1234567')), photo[0]).toEqual(fields('Lena Schmidt', [tel('+43 664 1234567', { mobile: true })]));
    }
  });
});

describe('readCard: 3.0 and 4.0', () => {
  it('3.0 from an iPhone: item1.TEL groups, Apple\'s Mobile label, every TEL in order, escaped commas read', () => {
    const iphone = card(
      'VERSION:3.0',
      'PRODID:-//Apple Inc.//iPhone OS 17.4//EN',
      'N:Appleseed;John;Q.;Dr.;Jr.',
      'FN:John Appleseed\\, Jr.',
      'NICKNAME:Johnny\\, the Apple',
      'item1.TEL;type=pref:+1 (408) 555-0126',
      'item1.X-ABLabel:_$!<Mobile>!$_',
      'TEL;type=WORK;type=VOICE:+1 (408) 555-0127',
      'item2.TEL:+44 20 7946 0958',
      'item2.X-ABLabel:Office',
      'PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//',
      ' ////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
      'UID:8F3E5A4C-9B2D-4E1F-8A7C-1D2E3F4A5B6C',
    );
    expect(readCard(iphone)).toEqual(
      fields('John Appleseed, Jr.', [tel('+1 (408) 555-0126', { mobile: true, preferred: true }), tel('+1 (408) 555-0127'), tel('+44 20 7946 0958')], {
        nickname: 'Johnny, the Apple',
        uid: '8F3E5A4C-9B2D-4E1F-8A7C-1D2E3F4A5B6C',
      }),
    );
  });

  it('N gives the name without FN, in every short form: given, additional and family names (lists joined), prefix and suffix left out', () => {
    const cases: [string, string | undefined][] = [
      ['N:Doe\\, Jr.;Jane;Ann;Dr.;PhD', 'Jane Ann Doe, Jr.'],
      ['N:Doe;John;Richter,James;Mr.;Sr.', 'John Richter James Doe'],
      ['N:Brown', 'Brown'],
      ['N:Brown;Charlie', 'Charlie Brown'],
      ['N:;Charlie', 'Charlie'],
      ['N:;;;;', undefined],
      // Chinese, Japanese and Korean names are written family name first.
      ['N:田中;健二;;;', '田中 健二'],
      ['N:김;민준', '김 민준'],
      ['N:', undefined],
    ];
    for (const version of ['VERSION:2.1', 'VERSION:3.0', 'VERSION:4.0', 'X-NO-VERSION:1']) {
      for (const [n, name] of cases) expect(readCard(card(version, n, 'TEL:+1 212 555 0187')), `${version} ${n}`).toEqual(fields(name, [tel('+1 212 555 0187')]));
    }
    // An empty FN is no name: N's is taken.
    expect(readCard(card('VERSION:3.0', 'N:Brown;Charlie;;;', 'FN:', 'TEL:+44 7700 900987'))).toMatchObject({ name: 'Charlie Brown' });
    expect(readCard(card('VERSION:3.0', 'N:;;;;', 'FN:', 'TEL:+44 7700 900987'))).toEqual(fields(undefined, [tel('+44 7700 900987')]));
  });

  it('an escaped semicolon in FN is a semicolon; a name keeps its own spacing', () => {
    for (const version of ['3.0', '4.0']) expect(readCard(card(`VERSION:${version}`, 'FN:Doe\\, Jane\\; Dr.', 'TEL:+442079460958'))).toMatchObject({ name: 'Doe, Jane; Dr.' });
    expect(readCard(card('VERSION:4.0', 'FN:Ann  Lee', 'TEL:+442079460958'))).toMatchObject({ name: 'Ann  Lee' });
  });

  it('PHOTO: a link however it is written (Google without VALUE=uri, 2.1 VALUE=URL, Apple\'s escaped colon) is the avatar; an embedded image or data: URI is not', () => {
    const photo = (...lines: string[]) => (readCard(card('VERSION:3.0', 'FN:A', 'TEL:+442079460958', ...lines)) as { photo?: string }).photo;
    expect(photo('PHOTO:https://x.example/p.png')).toBe('https://x.example/p.png');
    expect(photo('PHOTO;VALUE=uri:https://example.com/a.jpg')).toBe('https://example.com/a.jpg');
    expect(photo('PHOTO;VALUE=URL;TYPE=JPEG:http://example.com/a.jpg')).toBe('http://example.com/a.jpg');
    expect(photo('PHOTO;VALUE=uri:https\\://example.com/a.jpg?size=64\\,64')).toBe('https://example.com/a.jpg?size=64,64');
    // 4.0 written raw, as RFC 6350 has URIs (and tickbook's export its commas and semicolons).
    expect((readCard(card('VERSION:4.0', 'FN:A', 'TEL:+442079460958', 'PHOTO;VALUE=uri:https://x.example/p.png?s=64,64;q=1')) as { photo?: string }).photo).toBe('https://x.example/p.png?s=64,64;q=1');
    expect(photo('PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQ')).toBeUndefined();
    expect(photo('PHOTO:data:image/jpeg;base64,/9j/4AAQ')).toBeUndefined();
    expect(photo('PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQ', 'PHOTO:https://x.example/second.png')).toBe('https://x.example/second.png');
  });

  it('4.0: tel: URIs give their number without their parameters, but for ;ext=, which the number is not whole without', () => {
    const four = card(
      'VERSION:4.0',
      'FN:Ext Person',
      'TEL;VALUE=uri;TYPE=work:tel:+1-555-555-5555;ext=5555',
      'TEL;VALUE=uri;PREF=1;TYPE="voice,cell":tel:+33-1-23-45-67-89',
      'TEL;VALUE=text:+44 20 7946 0958',
      'PHOTO:https://example.com/photo.png',
    );
    expect(readCard(four)).toEqual(
      fields('Ext Person', [tel('+1-555-555-5555;ext=5555'), tel('+33-1-23-45-67-89', { mobile: true, preferred: true }), tel('+44 20 7946 0958')], { photo: 'https://example.com/photo.png' }),
    );
  });
});

describe('readCard: which number is a mobile, and which the card prefers', () => {
  it.each([
    ['TEL;TYPE=CELL:', { mobile: true }],
    ['TEL;TYPE=cell,voice:', { mobile: true }],
    ['TEL;TYPE="voice,cell":', { mobile: true }],
    ['TEL;CELL:', { mobile: true }],
    ['TEL;CELL;VOICE:', { mobile: true }],
    ['TEL;TYPE=mobile:', { mobile: true }],
    ['TEL;type=IPHONE;type=CELL;type=VOICE:', { mobile: true }],
    ['item1.TEL;type=CELL:', { mobile: true }],
    ['TEL;PREF:', { preferred: true }],
    ['TEL;TYPE=pref:', { preferred: true }],
    ['TEL;TYPE=WORK,PREF:', { preferred: true }],
    ['TEL;PREF=1:', { preferred: true }],
    ['TEL;CELL;PREF:', { mobile: true, preferred: true }],
    ['TEL;TYPE=WORK;TYPE=VOICE:', {}],
    ['TEL;X-EVOLUTION-UI-SLOT=1;TYPE=HOME,VOICE:', {}],
  ])('%s → %j, beside a plain TEL', (head, kind) => {
    expect(readCard(card('VERSION:3.0', 'FN:A', 'TEL:+442079460001', `${head}+447700900123`))).toMatchObject({ phones: [tel('+442079460001'), tel('+447700900123', kind)] });
  });

  it('4.0 PREF ranks: the lowest is the one preferred, and the only one', () => {
    const phones = (readCard(card('VERSION:4.0', 'FN:A', 'TEL;PREF=2:+442079460001', 'TEL;PREF=1:+442079460002', 'TEL:+442079460003')) as { phones: unknown }).phones;
    expect(phones).toEqual([tel('+442079460001'), tel('+442079460002', { preferred: true }), tel('+442079460003')]);
  });
});

describe('readCard: what tickbook does not use is passed over, whatever its syntax', () => {
  const ada = ['FN:Ada Lovelace', 'TEL;TYPE=CELL:+447700900001'];
  const expected = fields('Ada Lovelace', [tel('+447700900001', { mobile: true })]);
  it.each([
    ["Mac Address Book's PHOTO;BASE64:, its value on folded lines indented by two", ['PHOTO;BASE64:', '  /9j/4AAQSkZJRgABAQAAAQABAAD/4QBARXhpZgAATU0AKgAAAAgAAYdpAAQAAAABAAAAGgAAAAAA', '  AqACAAQAAAABAAABAKADAAQAAAABAAABAAAAAAD/2wBDAAIBAQIBAQICAQICAgICAwUDAwMDAwYE']],
    ['bare type parameters in 3.0', ['VERSION:3.0', 'EMAIL;INTERNET;PREF:ada@example.com']],
    ['bare type parameters in 4.0', ['VERSION:4.0', 'ADR;HOME:;;1 Main St;London;;;UK']],
    ['no VERSION at all, as abook writes', ['N:Lovelace;Ada', 'EMAIL;INTERNET:ada@example.com', 'NOTE:abook']],
    ['a # comment line', ['# exported by hand', '#BEGIN:VCARD is not a card here']],
    ['a backslash-continued line', ['NOTE:first line\\', 'second line', 'X-NOTE:a\\', 'b\\', 'c']],
    ['a line break written raw inside an unused value', ['NOTE:Favourite colour', 'Blue: and green', 'more of the note']],
    ['a bare CR inside an X- value', ['X-MEMO:one\rtwo\rthree']],
    ["Evolution's quoted UUID parameters and folds", ['X-EVOLUTION-FILE-AS:Lovelace\\, Ada', 'EMAIL;TYPE=WORK;X-COUCHDB-UUID="83a75a5d-2777:45aa;bab5":ada.', ' lovelace@example.com']],
    ["Outlook's design XML with colons and semicolons", ['X-MS-OL-DESIGN;CHARSET=utf-8:<card xmlns="http://schemas.microsoft.com/office/outlook/12/electronicbusinesscards" ver="1.0"><img xmlns="" align="tleft" area="32" use="photo"/></card>']],
    ['a quoted-printable label with =0D=0A and soft breaks', ['LABEL;WORK;PREF;ENCODING=QUOTED-PRINTABLE:222 Broadway=0D=0A=', 'New York, NY 99999=0D=0A=', 'USA']],
    ['a 3.0 AGENT holding a card in one escaped line', ['AGENT:BEGIN:VCARD\\nFN:Susan Thomas\\nTEL:+1-919-555-1234\\nEND:VCARD\\n']],
    ['blank lines between properties', ['', '  ', 'X-A:1', '']],
  ])('%s', (_what, extra) => {
    expect(readCard(card(...extra, ...ada))).toEqual(expected);
    expect(readCard(card(...ada, ...extra))).toEqual(expected);
  });

  it('bare TEL types (TEL;HOME:, TEL;CELL:) in 3.0, 4.0 and a card without VERSION, as abook and khard write them', () => {
    for (const version of [['VERSION:3.0'], ['VERSION:4.0'], []]) {
      expect(readCard(card(...version, 'FN:Ada', 'TEL;HOME:+442079460002', 'TEL;WORK:+442079460003', 'TEL;CELL:+447700900001')), version.join()).toEqual(
        fields('Ada', [tel('+442079460002'), tel('+442079460003'), tel('+447700900001', { mobile: true })]),
      );
    }
  });

  it('the card as written whatever its line ends: CRLF, LF, CR CR LF (iPhone), CR (classic Mac)', () => {
    const lines = ['BEGIN:VCARD', 'VERSION:3.0', 'FN:Ada', ' Lovelace', 'PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQSkZJ', ' RgABAQAAAQABAAD', 'TEL;type=CELL:+447700900001', 'END:VCARD', ''];
    for (const end of ['\r\n', '\n', '\r\r\n', '\r']) expect(readCard(Buffer.from(lines.join(end))), JSON.stringify(end)).toEqual(fields('AdaLovelace', [tel('+447700900001', { mobile: true })]));
  });

  it('a nested card (2.1 AGENT) is not read into the card holding it: its name and numbers are its own', () => {
    const agent = ['AGENT:', 'BEGIN:VCARD', 'VERSION:2.1', 'N:Friday;Fred', 'TEL;CELL:+1-213-555-1234', 'END:VCARD'];
    expect(readCard(card('VERSION:2.1', 'N:Public;John', ...agent, 'TEL;WORK:+1-617-555-1212'))).toEqual(fields('John Public', [tel('+1-617-555-1212')]));
    expect(readCard(card('VERSION:2.1', 'FN:John Q. Public', 'AGENT:BEGIN:VCARD', 'FN:Fred Friday', 'TEL;CELL:+1-213-555-1234', 'END:VCARD'))).toEqual(fields('John Q. Public', []));
  });

  it('a card whose structure does not hold is refused, saying where, with a short excerpt of the line', () => {
    expect(readCard(card('VERSION:3.0', 'FN Broken', 'TEL:+14085550100'), { line: 12 })).toEqual({ problem: 'line 14 is not a property (name:value): "FN Broken"' });
    // A line no property after one tickbook uses: its value would be wrong.
    expect(readCard(card('VERSION:3.0', 'TEL:+1408555', '0100'))).toEqual({ problem: 'line 4 is not a property (name:value): "0100"' });
    const photo = 'A'.repeat(24_820);
    const refused = readCard(card('VERSION:3.0', 'FN:Mac', `!${photo}`));
    expect(refused).toEqual({ problem: `line 4 is not a property (name:value): "!${'A'.repeat(38)}…"` });
    expect(readCard(crlf('BEGIN:VCALENDAR', 'VERSION:2.0', 'END:VCALENDAR'))).toEqual({ problem: 'not a vCard (it does not begin with BEGIN:VCARD)' });
  });

  it('a card never ended is refused in tickbook\'s words, naming the line where it stops: the next card, the end of the file, a last line cut off', () => {
    const cut = crlf('BEGIN:VCARD', 'VERSION:3.0', 'FN:Cut short');
    expect(readCard(cut, { line: 12 })).toEqual({ problem: 'it has no END:VCARD: its last line is line 14' });
    expect(readCard(cut, { line: 12, unended: 'next card' })).toEqual({ problem: 'it has no END:VCARD before the next BEGIN:VCARD, at line 15' });
    expect(readCard(cut, { line: 12, unended: 'end of file' })).toEqual({ problem: 'it has no END:VCARD before the file ends, at line 14 (is the file cut short?)' });
    // Cut inside a line: no property (no colon) after FN, but the missing end is what is wrong.
    expect(readCard(`${cut}TEL;TYPE=CE`, { line: 12, unended: 'end of file' })).toEqual({
      problem: 'it has no END:VCARD before the file ends, at line 15, its last line cut off: "TEL;TYPE=CE" (is the file cut short?)',
    });
    // Blank lines before the next card are the unended card's.
    expect(readCard(`${cut}\r\n\r\n`, { line: 1, unended: 'next card' })).toEqual({ problem: 'it has no END:VCARD before the next BEGIN:VCARD, at line 6' });
    // Nothing of ical.js's words: "invalid ical body. component began but did not end".
    expect(JSON.stringify(readCard(cut))).not.toMatch(/ical|component/i);
  });
});

describe('readCard: a card of file size', () => {
  // Just under the 1 MiB a card may have: a list of its numbers or of a TEL's types as long as
  // the file makes it is walked, never spread into a call's arguments (which overflowed the stack
  // and stopped the whole import at this card).
  it('145,000 TEL lines, or a TYPE of 300,000 values, are read like any card', () => {
    const many = card('VERSION:3.0', 'FN:Many', 'TEL:1\r\n'.repeat(145_000) + 'TEL;TYPE=CELL,PREF:+447700900001');
    expect(many.length).toBeLessThan(1024 * 1024);
    const read = readCard(many) as { phones: { value: string; mobile?: boolean; preferred?: boolean }[] };
    expect(read.phones).toHaveLength(145_001);
    expect(read.phones.at(-1)).toEqual(tel('+447700900001', { mobile: true, preferred: true }));
    const types = card('VERSION:3.0', 'FN:Types', `TEL;TYPE="${'a,'.repeat(300_000)}CELL":+447700900002`);
    expect(types.length).toBeLessThan(1024 * 1024);
    expect(readCard(types)).toEqual(fields('Types', [tel('+447700900002', { mobile: true })]));
  });
});

describe('readCard: charsets a property declares', () => {
  const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))));
  const sjis = { ソニー: [0x83, 0x5c, 0x83, 0x6a, 0x81, 0x5b], 田中: [0x93, 0x63, 0x92, 0x86], 健二: [0x8c, 0x92, 0x93, 0xf1], ﾀﾅｶ: [0xc0, 0xc5, 0xb6] };

  it('Windows-1252 and ISO-8859-15, quoted-printable (Outlook) or raw 8-bit, € and smart quotes included', () => {
    expect(readCard(card('VERSION:2.1', 'N;CHARSET=Windows-1252;ENCODING=QUOTED-PRINTABLE:Fran=E7ois;Ren=E9e', 'TEL;CELL:+33612345678'))).toMatchObject({ name: 'Renée François' });
    expect(readCard(card('VERSION:2.1', 'FN;CHARSET=Windows-1252;ENCODING=QUOTED-PRINTABLE:=93Big=94 Bj=F6rn =80', 'TEL;CELL:+46701234567'))).toMatchObject({ name: '“Big” Björn €' });
    expect(readCard(card('VERSION:2.1', 'FN;CHARSET=ISO-8859-15;ENCODING=QUOTED-PRINTABLE:=BCuvre =A4', 'TEL:+33612345678'))).toMatchObject({ name: 'Œuvre €' });
    expect(readCard(bytes('BEGIN:VCARD\r\nVERSION:2.1\r\nFN;CHARSET=Windows-1252:Ren', [0xe9], 'e ', [0x93], 'Fran', [0xe7], 'ois', [0x94], '\r\nTEL:+33612345678\r\nEND:VCARD\r\n'))).toMatchObject({ name: 'Renée “François”' });
  });

  it('Shift_JIS (Japanese phones), raw 8-bit: a 0x5C second byte (ソ) is no backslash, nor its ; a separator', () => {
    const raw = bytes('BEGIN:VCARD\r\nVERSION:2.1\r\nN;CHARSET=SHIFT_JIS:', sjis.ソニー, ';', sjis.田中, ';;;\r\nSOUND;X-IRMC-N;CHARSET=SHIFT_JIS:', sjis.ﾀﾅｶ, ';;;;\r\nTEL;CELL:090-1234-5678\r\nEND:VCARD\r\n');
    expect(readCard(raw)).toEqual(fields('ソニー 田中', [tel('090-1234-5678', { mobile: true })]));
    const qp = card('VERSION:2.1', 'FN;CHARSET=SHIFT_JIS;ENCODING=QUOTED-PRINTABLE:=93=63=92=86=20=8C=92=93=F1', 'TEL;CELL:090-1234-5678');
    expect(readCard(qp)).toMatchObject({ name: '田中 健二' });
  });

  it('a byte the declared charset cannot decode refuses the card, naming the property and the byte; an unknown charset too; a value no property uses is not read', () => {
    const raw = bytes('BEGIN:VCARD\r\nVERSION:2.1\r\nFN;CHARSET=SHIFT_JIS:', sjis.田中, [0x85, 0x40], '\r\nTEL;CELL:090-1234-5678\r\nEND:VCARD\r\n');
    expect(readCard(raw)).toEqual({ problem: 'FN is not SHIFT_JIS text, as its CHARSET says (bytes 0x85 0x40)' });
    expect(readCard(bytes('BEGIN:VCARD\r\nFN;CHARSET=SHIFT_JIS:', sjis.田中, [0xa0], '\r\nEND:VCARD\r\n'))).toEqual({ problem: 'FN is not SHIFT_JIS text, as its CHARSET says (byte 0xA0)' });
    expect(readCard(card('VERSION:2.1', 'FN;CHARSET=X-MAC-KLINGON;ENCODING=QUOTED-PRINTABLE:=41', 'TEL:+1'))).toEqual({ problem: 'FN declares CHARSET=X-MAC-KLINGON, a character set tickbook cannot read' });
    const unused = bytes('BEGIN:VCARD\r\nVERSION:2.1\r\nFN:Tanaka\r\nNOTE;CHARSET=SHIFT_JIS:', [0x85, 0x40], '\r\nX-A;CHARSET=X-MAC-KLINGON:x\r\nTEL;CELL:090-1234-5678\r\nEND:VCARD\r\n');
    expect(readCard(unused)).toEqual(fields('Tanaka', [tel('090-1234-5678', { mobile: true })]));
  });

  it('UTF-16 on a property: refused when its value is raw 8-bit text (no UTF-16 can be), read when quoted-printable or base64 carries its bytes', () => {
    for (const charset of ['UTF-16', 'utf-16le', 'UTF-16BE', 'UNICODE']) {
      expect(readCard(card('VERSION:3.0', `FN;CHARSET=${charset}:Bobs`, 'TEL:+442079460958')), charset).toEqual({
        problem: `FN declares CHARSET=${charset}, which its value cannot be in: UTF-16 is no 8-bit text, and the value is written as one (save the file as UTF-8)`,
      });
    }
    const name = (line: string) => (readCard(card('VERSION:2.1', line, 'TEL:+442079460958')) as { name?: string }).name;
    expect(name('FN;CHARSET=UTF-16;ENCODING=QUOTED-PRINTABLE:=FF=FEB=00o=00b=00')).toBe('Bob');
    // A big-endian byte-order mark under the bare label, which TextDecoder reads as little-endian.
    expect(name('FN;CHARSET=UTF-16;ENCODING=QUOTED-PRINTABLE:=FE=FF=00B=00o=00b')).toBe('Bob');
    expect(name('FN;CHARSET=UTF-16BE;ENCODING=QUOTED-PRINTABLE:=00B=00o=00b')).toBe('Bob');
    expect(name(`FN;CHARSET=UTF-16LE;ENCODING=BASE64:${Buffer.from('Zoë', 'utf16le').toString('base64')}`)).toBe('Zoë');
  });

  it('quoted-printable bytes with no CHARSET are UTF-8: a Latin-1 byte there refuses the card (never a U+FFFD in a name)', () => {
    expect(readCard(card('VERSION:2.1', 'FN;ENCODING=QUOTED-PRINTABLE:Ren=E9e', 'TEL:+33612345678'))).toEqual({
      problem: 'FN: its quoted-printable bytes are not UTF-8 (byte 0xE9) and it declares no CHARSET they are in',
    });
  });

  it('in a file decoded from UTF-16, a raw value is text already; CHARSET speaks of quoted-printable bytes only', () => {
    const text = card('VERSION:2.1', 'FN;CHARSET=Windows-1252:Renée', 'N;CHARSET=Windows-1252;ENCODING=QUOTED-PRINTABLE:Fran=E7ois;Ren=E9e', 'TEL:+33612345678');
    expect(readCard(text, { decoded: true })).toMatchObject({ name: 'Renée' });
    expect(readCard(text.replace(/FN;.*\r\n/, ''), { decoded: true })).toMatchObject({ name: 'Renée François' });
  });
});
