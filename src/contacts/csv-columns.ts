// Contacts as CSV rows: the columns tickbook writes, and the columns it reads, found by their
// header in any order under the names common address books give them.
import type { Contact } from '../api/types.js';
import type { Options as StringifyOptions } from 'csv-stringify';
import { guardCell, QUOTED_MATCH, unguardCell } from './formula-guard.js';
import type { ImportFields, PhoneField } from './import-candidate.js';

/** The columns of an export, in order. */
export const CSV_COLUMNS = ['id', 'username', 'display_name', 'phone_number', 'avatar_url', 'created_at', 'last_active_at'] as const;

/**
 * How an export writes its CSV (RFC 4180, CRLF, a header): every cell through guardCell, every
 * cell holding a separator quoted. csv-stringify's own escape_formulas stays off: its rule has no
 * undoing (`'=kept` came back `=kept`), the guard's has.
 */
export const csvWriteOptions = (): StringifyOptions => ({
  header: true,
  columns: [...CSV_COLUMNS],
  record_delimiter: 'windows',
  cast: { string: guardCell },
  quoted_match: [...QUOTED_MATCH],
});

export const csvRowOf = (contact: Contact): Record<(typeof CSV_COLUMNS)[number], string> => ({
  id: contact.id,
  username: contact.username,
  display_name: contact.displayName ?? '',
  phone_number: contact.phoneNumber,
  avatar_url: contact.avatarUrl ?? '',
  created_at: contact.createdAt.toISOString(),
  last_active_at: contact.lastActiveAt?.toISOString() ?? '',
});

/** A header as compared: letters and digits only, lower case ("Phone 1 - Value" → "phone1value"). */
const key = (header: string): string => header.toLowerCase().replace(/[^a-z0-9]/g, '');

/** What each column can be called, by the key of its header. */
const ALIASES: Readonly<Record<string, keyof ImportFields | 'given' | 'family'>> = Object.fromEntries(
  (
    [
      ['id', ['id']],
      ['username', ['username', 'user', 'nickname', 'handle', 'login']],
      ['name', ['displayname', 'name', 'fullname', 'fn', 'contactname', 'formattedname']],
      ['given', ['firstname', 'givenname', 'first']],
      ['family', ['lastname', 'familyname', 'surname', 'last']],
      [
        'phones',
        ['phonenumber', 'phone', 'mobile', 'mobilephone', 'cell', 'cellphone', 'telephone', 'tel', 'phone1value', 'phone2value', 'phone3value',
          'primaryphone', 'homephone', 'businessphone', 'workphone', 'otherphone', 'mobilenumber'],
      ],
      ['avatarUrl', ['avatarurl', 'avatar', 'photo', 'photourl', 'picture', 'pictureurl', 'image']],
    ] as const
  ).flatMap(([field, names]) => names.map((name) => [name, field] as const)),
);

/** Which field each column of a header gives, by position; a column of no known name gives none. */
export function columnsOf(header: readonly string[]): (keyof ImportFields | 'given' | 'family' | undefined)[] {
  return header.map((h) => ALIASES[key(h)]);
}

/** Whether a header names at least a phone column (the one field every contact needs). */
export const hasPhoneColumn = (header: readonly string[]): boolean => columnsOf(header).includes('phones');

/** The fields of one row, its cells read by the header's columns. */
export function fieldsOfRow(columns: readonly (keyof ImportFields | 'given' | 'family' | undefined)[], cells: readonly string[]): ImportFields {
  let name: string | undefined;
  let given = '';
  let family = '';
  let username: string | undefined;
  let avatarUrl: string | undefined;
  let id: string | undefined;
  const phones: PhoneField[] = [];
  columns.forEach((column, i) => {
    // The export's guard undone first, then the spaces around the value.
    const cell = unguardCell(cells[i] ?? '').trim();
    if (cell === '' || column === undefined) return;
    if (column === 'name') name ??= cell;
    else if (column === 'given') given = cell;
    else if (column === 'family') family = cell;
    else if (column === 'username') username ??= cell;
    else if (column === 'avatarUrl') avatarUrl ??= cell;
    else if (column === 'id') id ??= cell;
    else phones.push({ value: cell });
  });
  const fromParts = `${given} ${family}`.trim();
  return { name: name ?? (fromParts === '' ? undefined : fromParts), username, phones, avatarUrl, ...(id !== undefined && { id }) };
}
