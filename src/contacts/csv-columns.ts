// Contacts as CSV rows: the columns tickbook writes, and the columns it reads, found by their
// header in any order under the names common address books give them.
import type { Contact } from '../api/types.js';
import type { Options as StringifyOptions } from 'csv-stringify';
import { guardCell, QUOTED_MATCH, unguardCell } from './formula-guard.js';
import type { ImportFields, PhoneField } from './import-candidate.js';

/** The columns of an export, in order. */
export const CSV_COLUMNS = ['id', 'username', 'display_name', 'phone_number', 'avatar_url', 'created_at', 'last_active_at'] as const;

/**
 * How an export writes its CSV (RFC 4180, CRLF, a header): every cell through guardCell (the
 * first of a row as the start of a line), every cell holding a separator quoted. csv-stringify's
 * own escape_formulas stays off: its rule has no undoing (`'=kept` came back `=kept`), the
 * guard's has.
 */
export const csvWriteOptions = (): StringifyOptions => ({
  header: true,
  columns: [...CSV_COLUMNS],
  record_delimiter: 'windows',
  cast: { string: (cell, context) => guardCell(cell, context.index === 0) },
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

/** What a column of a header gives. */
export type CsvColumn =
  | { field: 'id' | 'name' | 'username' | 'avatarUrl' | 'given' | 'family' }
  /**
   * Phone numbers, and what the column's name says of them (Mobile Phone, Outlook's Primary
   * Phone), or, for Google's `Phone N - Value`, the column beside it that says it per row
   * (`Phone N - Type` or `- Label`: `Mobile`, a `*` before the one starred).
   */
  | { field: 'phones'; mobile: boolean; preferred: boolean; kindAt: number | undefined };

/** What each column can be called, by the key of its header. */
const ALIASES: Readonly<Record<string, CsvColumn>> = Object.fromEntries(
  (
    [
      [{ field: 'id' }, ['id']],
      [{ field: 'username' }, ['username', 'user', 'nickname', 'handle', 'login']],
      [{ field: 'name' }, ['displayname', 'name', 'fullname', 'fn', 'contactname', 'formattedname']],
      [{ field: 'given' }, ['firstname', 'givenname', 'first']],
      [{ field: 'family' }, ['lastname', 'familyname', 'surname', 'last']],
      [{ field: 'avatarUrl' }, ['avatarurl', 'avatar', 'photo', 'photourl', 'picture', 'pictureurl', 'image']],
      [
        { field: 'phones', mobile: false, preferred: false, kindAt: undefined },
        ['phonenumber', 'phone', 'telephone', 'tel', 'homephone', 'homephone2', 'businessphone', 'businessphone2', 'workphone', 'otherphone', 'companymainphone'],
      ],
      // Outlook's Mobile Phone, Thunderbird's Mobile Number, and the plain names people give them.
      [{ field: 'phones', mobile: true, preferred: false, kindAt: undefined }, ['mobile', 'mobilephone', 'mobilephone2', 'mobilenumber', 'cell', 'cellphone', 'cellnumber', 'cellular']],
      [{ field: 'phones', mobile: false, preferred: true, kindAt: undefined }, ['primaryphone']],
    ] as const
  ).flatMap(([column, names]) => names.map((name) => [name, column] as const)),
);

/** The kinds of number a Google `Phone N - Type` names a mobile (its own words, and Apple's). */
const MOBILE_KINDS = new Set(['mobile', 'cell', 'cellular', 'iphone']);

/** Which field each column of a header gives, by position; a column of no known name gives none. */
export function columnsOf(header: readonly string[]): (CsvColumn | undefined)[] {
  const keys = header.map(key);
  return keys.map((k) => {
    // Google's numbered pairs: "Phone 2 - Value" is read with "Phone 2 - Type" (or "- Label").
    const numbered = /^phone(\d+)value$/.exec(k);
    if (numbered) {
      const at = keys.findIndex((other) => other === `phone${numbered[1]}type` || other === `phone${numbered[1]}label`);
      return { field: 'phones', mobile: false, preferred: false, kindAt: at < 0 ? undefined : at };
    }
    return ALIASES[k];
  });
}

/** Whether a header names at least a phone column (the one field every contact needs). */
export const hasPhoneColumn = (header: readonly string[]): boolean => columnsOf(header).some((column) => column?.field === 'phones');

/** A cell as the import reads it: the export's guard undone first, then the spaces around the value. */
const cellAt = (cells: readonly string[], at: number): string => unguardCell(cells[at] ?? '').trim();

/** The fields of one row, its cells read by the header's columns. */
export function fieldsOfRow(columns: readonly (CsvColumn | undefined)[], cells: readonly string[]): ImportFields {
  let name: string | undefined;
  let given = '';
  let family = '';
  let username: string | undefined;
  let avatarUrl: string | undefined;
  let id: string | undefined;
  const phones: PhoneField[] = [];
  columns.forEach((column, i) => {
    const cell = cellAt(cells, i);
    if (cell === '' || column === undefined) return;
    if (column.field === 'phones') {
      // "* Mobile": Google stars the number the contact prefers.
      const kind = column.kindAt === undefined ? undefined : cellAt(cells, column.kindAt);
      phones.push(
        kind === undefined ? { value: cell, mobile: column.mobile, preferred: column.preferred } : { value: cell, mobile: MOBILE_KINDS.has(key(kind)), preferred: kind.startsWith('*') },
      );
    } else if (column.field === 'name') name ??= cell;
    else if (column.field === 'given') given = cell;
    else if (column.field === 'family') family = cell;
    else if (column.field === 'username') username ??= cell;
    else if (column.field === 'avatarUrl') avatarUrl ??= cell;
    else id ??= cell;
  });
  const fromParts = `${given} ${family}`.trim();
  return { name: name ?? (fromParts === '' ? undefined : fromParts), username, phones, avatarUrl, ...(id !== undefined && { id }) };
}
