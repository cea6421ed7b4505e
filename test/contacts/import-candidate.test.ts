// What an imported card or row becomes (src/contacts/import-candidate.ts): the username derived
// from a name (or the phone), phone numbers read with and without a default country, and the
// field a refused record names. Importing a file again relies on the same input giving the same
// username every time.
import { describe, expect, it } from 'vitest';
import { columnsOf, fieldsOfRow } from '../../src/contacts/csv-columns.js';
import { fieldsOfCard } from '../../src/contacts/import-sources.js';
import type { CardFields } from '../../src/contacts/vcard-fields.js';
import { readCard } from '../../src/contacts/vcard-read.js';
import { candidateOf, defaultCountry, type ImportFields, phoneOf, phoneOrder, type PhoneField, usernameFrom, usernameWithPhone } from '../../src/contacts/import-candidate.js';

const PHONE = '+442079460958';
/** A card's or row's fields; phone numbers given as text are numbers with nothing said of them. */
const fields = ({ phones = [], ...over }: Partial<Omit<ImportFields, 'phones'>> & { phones?: readonly (string | PhoneField)[] }): ImportFields => ({
  name: undefined,
  username: undefined,
  avatarUrl: undefined,
  ...over,
  phones: phones.map((phone) => (typeof phone === 'string' ? { value: phone } : phone)),
});

describe('usernameFrom', () => {
  const cases: [name: string | undefined, username: string][] = [
    // Accents folded, lower case, a run of anything else one dot.
    ['José Álvarez-Núñez', 'jose.alvarez-nunez'],
    ['Zoë Löwenstein', 'zoe.lowenstein'],
    ['Chloé Martin', 'chloe.martin'],
    ['Nguyễn Văn An', 'nguyen.van.an'],
    ['Ñoño Pérez', 'nono.perez'],
    ['  Ada   Lovelace ', 'ada.lovelace'],
    ['Ada\tLovelace', 'ada.lovelace'],
    ["Sarah O'Connor", 'sarah.o.connor'],
    ['Dr. J. R. R. Tolkien!!', 'dr.j.r.r.tolkien'],
    ['Müller, Hans (Work)', 'muller.hans.work'],
    ['Smith, John "Jack"', 'smith.john.jack'],
    ['Mum 💐', 'mum'],
    ['__Agent_007__', 'agent_007'],
    ['ﬁne ①', 'fine.1'],
    // Latin letters beside others: the others drop out.
    ['Mei Ling 陳', 'mei.ling'],
    // No A–Z a–z 0–9 at all: the phone number's digits stand in.
    ['李伟', 'tel.442079460958'],
    ['田中 健二', 'tel.442079460958'],
    ['Ελένη Παπαδοπούλου', 'tel.442079460958'],
    ['💐🎉', 'tel.442079460958'],
    ['...', 'tel.442079460958'],
    [undefined, 'tel.442079460958'],
    ['', 'tel.442079460958'],
  ];
  it.each(cases)('%j → %s', (name, username) => {
    expect(usernameFrom(name, PHONE)).toBe(username);
  });

  it('a long name is cut at 32 characters, never leaving a dot, dash or underscore at the end', () => {
    expect(usernameFrom('Bartholomew Montgomery-Featherstonehaugh III', PHONE)).toBe('bartholomew.montgomery-featherst');
    // The 32nd character is the dot between two words: it goes, 31 remain.
    const first = 'Abcdefghijabcdefghijabcdefghija';
    expect(first).toHaveLength(31);
    expect(usernameFrom(`${first} Second`, PHONE)).toBe(first.toLowerCase());
    expect(usernameFrom(`${first}- Second`, PHONE)).toBe(first.toLowerCase());
    expect(usernameFrom('Maximilian Alexander von Hohenberg-Schwarzenfeld der Jüngere', PHONE)).toBe('maximilian.alexander.von.hohenbe');
    for (const name of ['a'.repeat(40), 'Anna Maria Magdalena Katharina Elisabeth Johanna', `${'x'.repeat(31)}..y`, `${'é'.repeat(30)}  ${'o'.repeat(10)}`]) {
      const username = usernameFrom(name, PHONE);
      expect(username.length, name).toBeLessThanOrEqual(32);
      expect(username, name).toMatch(/^[a-z0-9](?:[a-z0-9._-]*[a-z0-9])?$/);
    }
  });

  it('a phone-derived username fits 32 characters too', () => {
    expect(usernameFrom('李伟', '+861012345678')).toBe('tel.861012345678');
    expect(usernameFrom(undefined, '+123456789012345')).toBe('tel.123456789012345');
  });

  it('the same input gives the same username every time (a second import must find the first one)', () => {
    const names = ['José Álvarez-Núñez', '李伟', 'Bartholomew Montgomery-Featherstonehaugh III', undefined];
    const first = names.map((name) => usernameFrom(name, PHONE));
    for (let i = 0; i < 3; i++) expect(names.map((name) => usernameFrom(name, PHONE))).toEqual(first);
    // Two ways of writing the same name.
    expect(usernameFrom('José Núñez', PHONE)).toBe(usernameFrom('Jose\u0301 Nu\u0303n\u0303ez', PHONE));
  });
});

describe('usernameWithPhone', () => {
  it("adds a dot and the phone's last four digits, cut to fit 32", () => {
    expect(usernameWithPhone('john.smith', '+12065550142')).toBe('john.smith.0142');
    expect(usernameWithPhone('a'.repeat(32), '+12065550142')).toBe(`${'a'.repeat(27)}.0142`);
    // Cut where a dot would end the name part: the dot goes, not doubled.
    expect(usernameWithPhone(`${'a'.repeat(26)}.bcdef`, '+12065550142')).toBe(`${'a'.repeat(26)}.0142`);
  });
});

describe('phoneOf', () => {
  it('a number with its country code is taken as written, with or without a default country', () => {
    for (const country of [undefined, 'GB', 'US'] as const) {
      expect(phoneOf('+44 20 7946 0958', country)).toBe('+442079460958');
      expect(phoneOf('+1 (212) 555-0187', country)).toBe('+12125550187');
      expect(phoneOf('+44 (0) 20 7946 0958', country)).toBe('+442079460958');
    }
  });

  it('a national number needs --default-country, and reads in it', () => {
    const none = (raw: string) => ({ problem: `phone ${JSON.stringify(raw)} has no country code: give --default-country (e.g. GB, US) to say how to read it` });
    expect(phoneOf('020 7946 0958', undefined)).toEqual(none('020 7946 0958'));
    expect(phoneOf('020 7946 0958', 'GB')).toBe('+442079460958');
    expect(phoneOf('07700 900123', 'GB')).toBe('+447700900123');
    expect(phoneOf('0044 20 7946 0958', undefined)).toEqual(none('0044 20 7946 0958'));
    expect(phoneOf('0044 20 7946 0958', 'GB')).toBe('+442079460958');
    expect(phoneOf('(212) 555-0187', undefined)).toEqual(none('(212) 555-0187'));
    expect(phoneOf('(212) 555-0187', 'US')).toBe('+12125550187');
    // The international prefix of the country given: 00 from Germany to the US.
    expect(phoneOf('00 1 212 555 0187', 'DE')).toBe('+12125550187');
    expect(phoneOf('030 1234567', 'DE')).toBe('+49301234567');
  });

  it('an impossible number is refused, saying in which country it was read', () => {
    expect(phoneOf('12', 'GB')).toEqual({ problem: 'phone "12" is not a phone number in GB' });
    expect(phoneOf('555-0187', 'US')).toEqual({ problem: 'phone "555-0187" is not a phone number in US' });
    expect(phoneOf('1234567890123456789', 'GB')).toEqual({ problem: 'phone "1234567890123456789" is not a phone number in GB' });
    // With a "+", no country can mend it.
    const e164 = (raw: string) => ({ problem: `phone ${JSON.stringify(raw)} must be in E.164 form: "+" then 7 to 15 digits, the first not 0` });
    expect(phoneOf('+44 12', 'GB')).toEqual(e164('+44 12'));
    expect(phoneOf('+0 123 4567', undefined)).toEqual(e164('+0 123 4567'));
  });

  it('a number with its country code is the length its country has (possible, not strictly valid), as `create` takes it', () => {
    for (const country of [undefined, 'GB', 'US'] as const) {
      // The fictional ranges of examples and tests are possible numbers.
      expect(phoneOf('+1 212 555 0187', country)).toBe('+12125550187');
      expect(phoneOf('+44 7700 900123', country)).toBe('+447700900123');
      expect(phoneOf('+1-555-0123', country)).toEqual({ problem: 'phone "+1-555-0123" is too short for +1: 7 digits after it, where numbers there have 10' });
      expect(phoneOf('+1 (212) 204-34456', country)).toEqual({ problem: 'phone "+1 (212) 204-34456" is too long for +1: 11 digits after it, where numbers there have 10' });
    }
  });

  it('a value with letters or an "@" is no phone number, whatever its digits and whatever the default country', () => {
    for (const country of [undefined, 'US'] as const) {
      expect(phoneOf('6101231234@pagersample.com', country)).toEqual({ problem: 'phone "6101231234@pagersample.com" is not a phone number: it holds an "@" (an address, not a number)' });
      expect(phoneOf('ext. 12', country)).toEqual({ problem: 'phone "ext. 12" is not a phone number: it is an extension (12) with no number' });
      expect(phoneOf('call me', country)).toEqual({ problem: 'phone "call me" is not a phone number: it holds letters' });
    }
  });
});

describe('defaultCountry', () => {
  it('a two-letter code in any case, or why not', () => {
    expect(defaultCountry('gb')).toBe('GB');
    expect(defaultCountry(' us ')).toBe('US');
    expect(defaultCountry('XX')).toBe('"XX" is not a country code tickbook knows (two letters, e.g. GB, US, DE)');
    expect(defaultCountry('GBR')).toBe('"GBR" is not a country code tickbook knows (two letters, e.g. GB, US, DE)');
  });
});

describe('candidateOf', () => {
  it('a contact from a name and a phone: the username derived, the name tidied', () => {
    expect(candidateOf(fields({ name: ' Ada \n Lovelace ', phones: ['+44 20 7946 0958'] }), undefined)).toEqual({
      contact: { username: 'ada.lovelace', phoneNumber: '+442079460958', displayName: 'Ada Lovelace' },
    });
  });

  it('a username, avatar and name given are kept (trimmed); no name, no display name', () => {
    expect(candidateOf(fields({ name: 'Ada', username: ' ada_l ', phones: ['+442079460958'], avatarUrl: ' https://a.example/ada.png ' }), undefined)).toEqual({
      contact: { username: 'ada_l', phoneNumber: '+442079460958', displayName: 'Ada', avatarUrl: 'https://a.example/ada.png' },
    });
    expect(candidateOf(fields({ phones: ['+86 10 1234 5678'] }), undefined)).toEqual({ contact: { username: 'tel.861012345678', phoneNumber: '+861012345678' } });
  });

  it('the first phone that reads as one is taken, in order', () => {
    const phones = ['n/a', '020 7946 0958', '+1 408 555 0100'];
    expect(candidateOf(fields({ name: 'Ada', phones }), undefined)).toMatchObject({ contact: { phoneNumber: '+14085550100' } });
    // With a country, the national number is usable and comes first.
    expect(candidateOf(fields({ name: 'Ada', phones }), 'GB')).toMatchObject({ contact: { phoneNumber: '+442079460958' } });
    // None usable: the first one's problem.
    expect(candidateOf(fields({ name: 'Ada', phones: ['020 7946 0958', 'ext. 12'] }), undefined)).toEqual({
      field: 'phone',
      problem: 'phone "020 7946 0958" has no country code: give --default-country (e.g. GB, US) to say how to read it',
    });
    // An impossible number is passed over for a possible one after it.
    expect(candidateOf(fields({ name: 'Ada', phones: ['+1-555-0123', '+1 212 555 0187'] }), undefined)).toMatchObject({ contact: { phoneNumber: '+12125550187' } });
  });

  it('a number with an extension is refused, however the extension is written (x12, ext. 12, a tel: URI\'s ;ext=12), and gives way to another number', () => {
    const extension = (raw: string, ext: string) => ({ problem: `phone ${JSON.stringify(raw)} is not a phone number: it ends in an extension (${ext}), which a contact's number cannot have (E.164 has none)` });
    for (const country of [undefined, 'US'] as const) {
      for (const [raw, ext] of [['+1 212 555 0187 x12', '12'], ['+1 212 555 0187x12', '12'], ['+1 212 555 0187 ext. 12', '12'], ['+1 212 555 0187 Ext 4021', '4021'], ['(212) 555-0187 extension 7', '7'], ['+1-212-555-0187;ext=12', '12']]) {
        expect(phoneOf(raw!, country), raw).toEqual(extension(raw!, ext!));
      }
    }
    // One rule for a card's TEL however it is written: text with x12, or a tel: URI with ;ext=12.
    const tels = (...lines: string[]) => (readCard(['BEGIN:VCARD', 'VERSION:4.0', 'FN:Bob', ...lines, 'END:VCARD', ''].join('\r\n')) as CardFields).phones;
    for (const line of ['TEL;VALUE=uri:tel:+1-212-555-0187;ext=12', 'TEL:+1 212 555 0187 x12']) {
      expect(candidateOf(fieldsOfCard({ name: 'Bob', nickname: undefined, phones: tels(line), photo: undefined, uid: undefined }), undefined), line).toEqual({ field: 'phone', problem: expect.stringMatching(/ is not a phone number: it ends in an extension \(12\)/) });
      expect(candidateOf(fieldsOfCard({ name: 'Bob', nickname: undefined, phones: tels(line, 'TEL;TYPE=home:+1 212 555 0100'), photo: undefined, uid: undefined }), undefined), line).toMatchObject({ contact: { phoneNumber: '+12125550100' } });
    }
  });

  it('a mobile is taken before the rest (of two mobiles, the one the file prefers), then the one the file prefers, then the first, each in the file’s order', () => {
    const work = { value: '+442079460001' };
    const home = { value: '+442079460002', preferred: true };
    const cell = { value: '+447700900003', mobile: true };
    const cell2 = { value: '+447700900004', mobile: true, preferred: true };
    expect(phoneOrder([work, home, cell])).toEqual([cell, home, work]);
    expect(phoneOrder([work, cell, cell2, home])).toEqual([cell2, cell, home, work]);
    expect(phoneOrder([cell2, work, cell])).toEqual([cell2, cell, work]);
    expect(phoneOrder([work, { value: '+442079460005' }])).toEqual([work, { value: '+442079460005' }]);
    expect(candidateOf(fields({ name: 'Ada', phones: [work, home, cell] }), undefined)).toMatchObject({ contact: { phoneNumber: '+447700900003' } });
    expect(candidateOf(fields({ name: 'Ada', phones: [work, home] }), undefined)).toMatchObject({ contact: { phoneNumber: '+442079460002' } });
    // A mobile that is no number gives way to the next usable one.
    expect(candidateOf(fields({ name: 'Ada', phones: [work, { value: 'n/a', mobile: true }] }), undefined)).toMatchObject({ contact: { phoneNumber: '+442079460001' } });
  });

  it('of two mobiles the preferred one is taken: a vCard\'s TYPE=CELL,PREF after a TYPE=CELL, Google\'s "* Mobile" after "Mobile"', () => {
    const card = readCard(
      ['BEGIN:VCARD', 'VERSION:3.0', 'FN:Two Mobiles', 'TEL;TYPE=CELL:+447700900111', 'TEL;TYPE=CELL,PREF:+447700900222', 'END:VCARD', ''].join('\r\n'),
    ) as CardFields;
    expect(candidateOf(fieldsOfCard(card), undefined)).toEqual({
      contact: { username: 'two.mobiles', phoneNumber: '+447700900222', displayName: 'Two Mobiles' },
      taken: { phone: '+447700900222', why: 'mobile', of: 2 },
    });
    // 4.0's PREF=1 among mobiles, and 2.1's bare CELL;PREF.
    const four = readCard(['BEGIN:VCARD', 'VERSION:4.0', 'FN:Ann', 'TEL;TYPE=cell;PREF=2:+447700900111', 'TEL;TYPE=cell;PREF=1:+447700900222', 'END:VCARD', ''].join('\r\n')) as CardFields;
    expect(candidateOf(fieldsOfCard(four), undefined)).toMatchObject({ contact: { phoneNumber: '+447700900222' } });
    const two = readCard(['BEGIN:VCARD', 'VERSION:2.1', 'FN:Ann', 'TEL;CELL:+447700900111', 'TEL;CELL;PREF:+447700900222', 'END:VCARD', ''].join('\r\n')) as CardFields;
    expect(candidateOf(fieldsOfCard(two), undefined)).toMatchObject({ contact: { phoneNumber: '+447700900222' } });
    const header = ['Name', 'Phone 1 - Type', 'Phone 1 - Value', 'Phone 2 - Type', 'Phone 2 - Value'];
    const row = fieldsOfRow(columnsOf(header), ['Ann', 'Mobile', '+447700900111', '* Mobile', '+447700900222']);
    expect(candidateOf(row, undefined)).toEqual({ contact: { username: 'ann', phoneNumber: '+447700900222', displayName: 'Ann' }, taken: { phone: '+447700900222', why: 'mobile', of: 2 } });
  });

  it('says which number was taken when it is not the first written: the mobile, the one preferred, or the first that is a number', () => {
    const work = { value: '+442079460001' };
    const home = { value: '+442079460002', preferred: true };
    const cell = { value: '+44 7700 900003', mobile: true };
    const taken = (...phones: PhoneField[]) => (candidateOf(fields({ name: 'Ada', phones }), undefined) as { taken?: unknown }).taken;
    expect(taken(work, home, cell)).toEqual({ phone: '+447700900003', why: 'mobile', of: 3 });
    expect(taken(work, home)).toEqual({ phone: '+442079460002', why: 'preferred', of: 2 });
    expect(taken({ value: 'n/a', mobile: true }, work)).toEqual({ phone: '+442079460001', why: 'first', of: 2 });
    // The first written taken, or only one: nothing to say.
    expect(taken(cell, work)).toBeUndefined();
    expect(taken(work, { value: '+442079460005' })).toBeUndefined();
    expect(taken(work)).toBeUndefined();
    // Google's several in one cell count each; the same number written twice counts once, and
    // taken where it was first written (Outlook's Primary Phone, the mobile again) is not said.
    expect(taken(work, { value: '+44 7700 900005 ::: +44 7700 900006', mobile: true })).toEqual({ phone: '+447700900005', why: 'mobile', of: 3 });
    expect(taken(work, { value: '+447700900003', preferred: true }, cell)).toEqual({ phone: '+447700900003', why: 'mobile', of: 2 });
    expect(taken({ value: '+447700900003', preferred: true }, work, cell)).toBeUndefined();
  });

  it('each problem names its field', () => {
    const refusals: [ImportFields, { field: string; problem: string }][] = [
      [fields({ name: 'Ada' }), { field: 'phone', problem: 'no phone number' }],
      [fields({ name: 'Ada', phones: ['  ', ''] }), { field: 'phone', problem: 'no phone number' }],
      [fields({}), { field: 'phone', problem: 'neither a name nor a phone number' }],
      [fields({ name: '   ', avatarUrl: 'https://a.example/x.png' }), { field: 'phone', problem: 'neither a name nor a phone number' }],
      [fields({ name: 'x'.repeat(65), phones: ['+442079460958'] }), { field: 'name', problem: 'name is longer than 64 characters' }],
      [fields({ name: 'Ada\u0007', phones: ['+442079460958'] }), { field: 'name', problem: 'name holds control characters' }],
      [fields({ name: 'Ada\u202eecalevoL', phones: ['+442079460958'] }), { field: 'name', problem: 'name holds control characters' }],
    ];
    for (const [input, expected] of refusals) expect(candidateOf(input, 'GB'), JSON.stringify(input).slice(0, 120)).toEqual(expected);
  });

  it('a nickname the contract does not take as a username is made into one, and a photo that is no link is left out', () => {
    const made = (username: string) => candidateOf(fields({ name: 'Ada', phones: ['+442079460958'], username }), 'GB');
    expect(made('ada lovelace')).toEqual({ contact: { username: 'ada.lovelace', phoneNumber: '+442079460958', displayName: 'Ada' } });
    expect(made('a'.repeat(33))).toEqual({ contact: { username: 'a'.repeat(32), phoneNumber: '+442079460958', displayName: 'Ada' } });
    expect(made('José')).toEqual({ contact: { username: 'jose', phoneNumber: '+442079460958', displayName: 'Ada' } });
    for (const avatarUrl of ['ftp://a.example/x.png', 'data:image/png;base64,iVBORw0KGgo=', `https://a.example/${'a'.repeat(2031)}`]) {
      expect(candidateOf(fields({ name: 'Ada', phones: ['+442079460958'], avatarUrl }), 'GB')).toEqual({ contact: { username: 'ada', phoneNumber: '+442079460958', displayName: 'Ada' } });
    }
  });

  it('reads Google\'s several numbers in one cell, and letters of their own in a username', () => {
    expect(candidateOf(fields({ name: 'Łukasz Żółć', phones: ['bad ::: +48 22 123 45 67'] }), undefined)).toEqual({
      contact: { username: 'lukasz.zolc', phoneNumber: '+48221234567', displayName: 'Łukasz Żółć' },
      taken: { phone: '+48221234567', why: 'first', of: 2 },
    });
    expect(candidateOf(fields({ name: 'Bjørn Straße Ægir', phones: ['+4791234567'] }), undefined)).toMatchObject({ contact: { username: 'bjorn.strasse.aegir' } });
  });

  it('limits are counted in characters: 64 emoji or accented letters make a name, 2048 characters an avatar', () => {
    const name = '😀'.repeat(64);
    expect(candidateOf(fields({ name, phones: ['+442079460958'] }), undefined)).toEqual({
      contact: { username: 'tel.442079460958', phoneNumber: '+442079460958', displayName: name },
    });
    const avatarUrl = `https://a.example/${'a'.repeat(2030)}`;
    expect(avatarUrl).toHaveLength(2048);
    expect(candidateOf(fields({ name: 'é'.repeat(64), phones: ['+442079460958'], avatarUrl }), undefined)).toMatchObject({ contact: { avatarUrl, username: 'e'.repeat(32) } });
  });
});
