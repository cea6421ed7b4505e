// Contacts as CSV rows (src/contacts/csv-columns.ts): the row an export writes, the columns an
// import finds by their header in any order and under the names address books give them, and a
// spreadsheet-safe cell (formula-guard.ts, tested there) read back as it was.
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import type { Contact } from '../../src/api/types.js';
import { columnsOf, CSV_COLUMNS, csvRowOf, csvWriteOptions, fieldsOfRow, hasPhoneColumn } from '../../src/contacts/csv-columns.js';

/** The fields of one row under a header, as an import reads them. */
/** A row's fields, its phone numbers as their text (nothing said of them by these headers). */
const read = (header: string[], cells: string[]) => {
  const { phones, ...rest } = fieldsOfRow(columnsOf(header), cells);
  return { ...rest, phones: phones.map((phone) => phone.value) };
};

/** The columns of a header as compared here: a field's name, or a phone column and what it says of its numbers. */
const columns = (header: string[]) =>
  columnsOf(header).map((column) =>
    column === undefined
      ? undefined
      : column.field !== 'phones'
        ? column.field
        : column.kindAt !== undefined
          ? `phones, kind in ${header[column.kindAt]}`
          : column.mobile
            ? 'phones, mobile'
            : column.preferred
              ? 'phones, preferred'
              : 'phones',
  );

describe('columnsOf', () => {
  it('finds each field under its aliases, in any case and spelling of spaces, dashes and underscores', () => {
    expect(columns(['DISPLAY_NAME', 'Phone Number', 'avatar-url', 'User Name', 'Full Name', 'CELL', 'Surname', 'first', 'Contact Name', 'Photo URL', 'e-mail', 'id'])).toEqual([
      'name',
      'phones',
      'avatarUrl',
      'username',
      'name',
      'phones, mobile',
      'family',
      'given',
      'name',
      'avatarUrl',
      undefined,
      // An export's id: the contact's identity for an import back into its list.
      'id',
    ]);
  });

  it("a Google Contacts header: Name, Given Name, Family Name, Nickname, Photo, Phone N - Value read with its - Type", () => {
    const header = ['Name', 'Given Name', 'Additional Name', 'Family Name', 'Nickname', 'Photo', 'Group Membership', 'Phone 1 - Type', 'Phone 1 - Value', 'Phone 2 - Type', 'Phone 2 - Value'];
    expect(columns(header)).toEqual(['name', 'given', undefined, 'family', 'username', 'avatarUrl', undefined, undefined, 'phones, kind in Phone 1 - Type', undefined, 'phones, kind in Phone 2 - Type']);
    expect(hasPhoneColumn(header)).toBe(true);
  });

  it("Google's newer header: Phone N - Label, any N, and a value with no type column beside it", () => {
    const header = ['First Name', 'Last Name', 'Phone 12 - Value', 'Phone 1 - Label', 'Phone 1 - Value', 'Phone 12 - Label', 'Phone 3 - Value'];
    expect(columns(header)).toEqual(['given', 'family', 'phones, kind in Phone 12 - Label', undefined, 'phones, kind in Phone 1 - Label', undefined, 'phones']);
  });

  it('an Outlook header: First Name, Last Name and every phone column, the mobile ones and Primary Phone said so', () => {
    const header = ['First Name', 'Middle Name', 'Last Name', 'E-mail Address', 'Home Phone', 'Business Phone', 'Mobile Phone', 'Other Phone', 'Primary Phone', 'Company', 'Home Phone 2', 'Business Phone 2', 'Company Main Phone', 'Pager', 'Business Fax'];
    expect(columns(header)).toEqual(['given', undefined, 'family', undefined, 'phones', 'phones', 'phones, mobile', 'phones', 'phones, preferred', undefined, 'phones', 'phones', 'phones', undefined, undefined]);
  });

  it("Thunderbird's header: Display Name, Nickname, Work Phone, Home Phone, Mobile Number (not fax or pager)", () => {
    const header = ['First Name', 'Last Name', 'Display Name', 'Nickname', 'Primary Email', 'Work Phone', 'Home Phone', 'Fax Number', 'Pager Number', 'Mobile Number', ''];
    expect(columns(header)).toEqual(['given', 'family', 'name', 'username', undefined, 'phones', 'phones', undefined, undefined, 'phones, mobile', undefined]);
  });

  it('a header without a phone column is said to have none', () => {
    expect(hasPhoneColumn(['Name', 'Email', 'Phonetic Name', 'Phone 1 - Type'])).toBe(false);
    expect(hasPhoneColumn([])).toBe(false);
    expect(hasPhoneColumn(['name', 'MOBILE'])).toBe(true);
  });
});

describe('fieldsOfRow', () => {
  it('reads the same row alike whatever the order of its columns', () => {
    const expected = { name: 'Ada Lovelace', username: 'ada', phones: ['+442079460958'], avatarUrl: 'https://a.example/ada.png' };
    expect(read(['username', 'display_name', 'phone_number', 'avatar_url'], ['ada', 'Ada Lovelace', '+442079460958', 'https://a.example/ada.png'])).toEqual(expected);
    expect(read(['Avatar', 'Phone', 'Full name', 'Handle'], ['https://a.example/ada.png', '+442079460958', 'Ada Lovelace', 'ada'])).toEqual(expected);
  });

  it('first and last name make the name when there is no name column, or its cell is empty', () => {
    expect(read(['First Name', 'Last Name', 'Mobile'], ['Grace', 'Hopper', '+12125550100'])).toEqual({ name: 'Grace Hopper', username: undefined, phones: ['+12125550100'], avatarUrl: undefined });
    expect(read(['Last Name', 'First Name', 'Mobile'], ['Hopper', 'Grace', '+12125550100'])).toMatchObject({ name: 'Grace Hopper' });
    expect(read(['Name', 'Given Name', 'Family Name', 'Phone'], ['', 'Grace', 'Hopper', '+1'])).toMatchObject({ name: 'Grace Hopper' });
    expect(read(['First Name', 'Last Name', 'Mobile'], ['', 'Hopper', '+1'])).toMatchObject({ name: 'Hopper' });
    expect(read(['First Name', 'Last Name', 'Mobile'], ['  ', '', '+1'])).toMatchObject({ name: undefined });
    // A name column given wins over the parts.
    expect(read(['Name', 'Given Name', 'Family Name', 'Phone'], ['Rear Admiral Grace Hopper', 'Grace', 'Hopper', '+1'])).toMatchObject({ name: 'Rear Admiral Grace Hopper' });
  });

  it('every phone column in order, empty cells skipped; cells trimmed; missing cells are empty', () => {
    expect(read(['Home Phone', 'Business Phone', 'Mobile Phone', 'Other Phone'], [' ', ' +1 425 555 0100 ', '', '07700 900123'])).toMatchObject({
      phones: ['+1 425 555 0100', '07700 900123'],
    });
    expect(read(['Name', 'Phone', 'Photo'], ['Ada'])).toEqual({ name: 'Ada', username: undefined, phones: [], avatarUrl: undefined });
  });

  it('strips the quote a spreadsheet-safe export put before + = - @', () => {
    expect(read(['display_name', 'phone_number'], ["'=HYPERLINK(\"x\")", "'+442079460958"])).toMatchObject({ name: '=HYPERLINK("x")', phones: ['+442079460958'] });
  });

  it("takes off only the guard's quote: one more quote than the export added stays", () => {
    expect(read(['display_name', 'username'], ["''=kept", "'-dash"])).toMatchObject({ name: "'=kept", username: '-dash' });
    expect(read(['display_name'], ["'\uFF1D1+1"])).toMatchObject({ name: '\uFF1D1+1' });
    expect(read(['display_name'], ["Bob;'=1+1;x"])).toMatchObject({ name: 'Bob;=1+1;x' });
  });
});

describe('fieldsOfRow: what a row says of its numbers', () => {
  const phones = (header: string[], cells: string[]) => fieldsOfRow(columnsOf(header), cells).phones;

  it("a mobile column's numbers are mobiles, Outlook's Primary Phone the one preferred, the rest neither", () => {
    expect(phones(['Business Phone', 'Mobile Phone', 'Primary Phone', 'Cell'], ['+1 425 555 0100', '+1 425 555 0101', '+1 425 555 0102', '+1 425 555 0103'])).toEqual([
      { value: '+1 425 555 0100', mobile: false, preferred: false },
      { value: '+1 425 555 0101', mobile: true, preferred: false },
      { value: '+1 425 555 0102', mobile: false, preferred: true },
      { value: '+1 425 555 0103', mobile: true, preferred: false },
    ]);
  });

  it("Google's Phone N - Type (or - Label) says it per row: Mobile (or Cell, iPhone) a mobile, a * before it the one starred", () => {
    const header = ['Name', 'Phone 1 - Type', 'Phone 1 - Value', 'Phone 2 - Label', 'Phone 2 - Value'];
    expect(phones(header, ['Ada', 'Work', '+44 20 7946 0001', 'Mobile', '+44 7700 900001'])).toEqual([
      { value: '+44 20 7946 0001', mobile: false, preferred: false },
      { value: '+44 7700 900001', mobile: true, preferred: false },
    ]);
    expect(phones(header, ['Ada', '* Home', '+44 20 7946 0002', '* Mobile', '+44 7700 900002 ::: +44 7700 900003'])).toEqual([
      { value: '+44 20 7946 0002', mobile: false, preferred: true },
      { value: '+44 7700 900002 ::: +44 7700 900003', mobile: true, preferred: true },
    ]);
    expect(phones(header, ['Ada', 'iPhone', '+44 7700 900004', 'cell', '+44 7700 900005'])).toMatchObject([{ mobile: true }, { mobile: true }]);
    // No type given, or a custom one: nothing said.
    expect(phones(header, ['Ada', '', '+44 20 7946 0006', 'Mobiles of old', '+44 20 7946 0007'])).toMatchObject([{ mobile: false }, { mobile: false }]);
  });
});

describe('csvRowOf', () => {
  const contact: Contact = {
    id: 'ct_0mwxpj2v1002y669d8ebf',
    username: 'ada',
    phoneNumber: '+442079460958',
    avatarUrl: 'https://a.example/ada.png',
    displayName: 'Lovelace, Ada',
    conversationId: 'cv_1',
    lastActiveAt: new Date('2026-03-04T05:06:07.000Z'),
    createdAt: new Date('2026-01-02T03:04:05.000Z'),
  };

  it('one cell per column, in the order of the header', () => {
    expect(CSV_COLUMNS).toEqual(['id', 'username', 'display_name', 'phone_number', 'avatar_url', 'created_at', 'last_active_at']);
    const row = csvRowOf(contact);
    expect(Object.keys(row)).toEqual([...CSV_COLUMNS]);
    expect(row).toEqual({
      id: 'ct_0mwxpj2v1002y669d8ebf',
      username: 'ada',
      display_name: 'Lovelace, Ada',
      phone_number: '+442079460958',
      avatar_url: 'https://a.example/ada.png',
      created_at: '2026-01-02T03:04:05.000Z',
      last_active_at: '2026-03-04T05:06:07.000Z',
    });
  });

  it('no display name, avatar or activity: empty cells', () => {
    expect(csvRowOf({ ...contact, displayName: null, avatarUrl: null, lastActiveAt: null })).toMatchObject({ display_name: '', avatar_url: '', last_active_at: '' });
  });

  it('an exported row, written the way the export writes it, imports as the same contact', () => {
    const text = stringify([csvRowOf({ ...contact, displayName: '-Ann, "the" @one' })], csvWriteOptions());
    const [header, cells] = parse(text, { relax_quotes: true }) as string[][];
    expect(read(header!, cells!)).toEqual({ id: 'ct_0mwxpj2v1002y669d8ebf', name: '-Ann, "the" @one', username: 'ada', phones: ['+442079460958'], avatarUrl: 'https://a.example/ada.png' });
  });
});
