// What an imported card or row becomes: a contact the contract accepts, or the field that is wrong
// and why. A missing username is derived from the name (or else the phone number) the same way
// every time, so that importing a file again finds the contacts the first import made.
import { parsePhoneNumberFromString, type CountryCode, isSupportedCountry } from 'libphonenumber-js';
import { notAPhoneNumber, parsePossiblePhoneNumber } from '../api/possible-phone.js';
import { CONTROL_CHARACTERS, DISPLAY_NAME_MAX, USERNAME_MAX } from '../api/rules.js';
import type { NewContact } from '../api/types.js';

/**
 * One phone number of a card or row, as written, with what the file says of it: a mobile (vCard's
 * TYPE=CELL, a CSV column named Mobile), and the one it prefers (vCard's PREF).
 */
export interface PhoneField {
  value: string;
  mobile?: boolean | undefined;
  preferred?: boolean | undefined;
}

/** The fields a card or row gives, as written. */
export interface ImportFields {
  name: string | undefined;
  username: string | undefined;
  /** Every phone number given, in the file's order; which is taken is phoneOrder's choice. */
  phones: readonly PhoneField[];
  avatarUrl: string | undefined;
  /**
   * The contact's id where the file is tickbook's own export (the vCard's UID, the CSV's id
   * column): the import takes a contact the list holds by that id as already there.
   */
  id?: string | undefined;
}

/**
 * The order the numbers are tried in: a messaging contact list wants the mobile, so mobiles
 * first (of two, the one the file prefers: an old work mobile beside the one in use), then the
 * one the file prefers, then the rest as written (a stable sort keeps the file's order within each).
 */
const rankOf = (phone: PhoneField): number => (phone.mobile ? (phone.preferred ? 0 : 1) : phone.preferred ? 2 : 3);

export const phoneOrder = (phones: readonly PhoneField[]): PhoneField[] =>
  phones
    .map((phone, index) => ({ phone, index, rank: rankOf(phone) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map(({ phone }) => phone);

export type ImportField = 'name' | 'username' | 'phone' | 'avatar';

/**
 * Which of a card's or row's several numbers was taken, when it is not the one the file gives
 * first (Outlook's WORK before CELL): the mobile, the one the file prefers, or the first that reads
 * as a phone number (those before it do not); and how many numbers there were (the same number
 * written twice, as Outlook's Primary Phone often is the mobile again, is one).
 */
export interface TakenPhone {
  phone: string;
  why: 'mobile' | 'preferred' | 'first';
  of: number;
}

export type Candidate =
  | { contact: NewContact & { username: string; phoneNumber: string }; taken?: TakenPhone | undefined }
  | { field: ImportField; problem: string };

const USERNAME = /^[A-Za-z0-9._-]{1,32}$/;

/** A country for numbers written without one (`--default-country GB`), or why it is not one. */
export function defaultCountry(raw: string): CountryCode | string {
  const code = raw.trim().toUpperCase();
  return isSupportedCountry(code) ? code : `${JSON.stringify(raw)} is not a country code tickbook knows (two letters, e.g. GB, US, DE)`;
}

/**
 * A phone number in the contract's E.164 form, possible for its country code (the rule `create`
 * and the dashboard's form apply: parsePossiblePhoneNumber): as written when it has its country
 * code, or read in `country` when given (020 7946 0958 in GB is +442079460958, 0044… too).
 */
export function phoneOf(raw: string, country: CountryCode | undefined): string | { problem: string } {
  const name = `phone ${JSON.stringify(raw)}`;
  const digits = raw.replace(/[^0-9+]/g, '');
  if (digits === '' || digits.startsWith('+') || notAPhoneNumber(raw) !== undefined) return parsePossiblePhoneNumber(raw, name);
  if (!country) return { problem: `${name} has no country code: give --default-country (e.g. GB, US) to say how to read it` };
  const parsed = parsePhoneNumberFromString(raw, country);
  if (!parsed?.isPossible()) return { problem: `${name} is not a phone number in ${country}` };
  return parsePossiblePhoneNumber(parsed.number, name);
}

/** Letters of their own, not a letter and an accent, as the Latin letters they are written with. */
const OWN_LETTERS: Readonly<Record<string, string>> = { ł: 'l', ø: 'o', đ: 'd', ð: 'd', ħ: 'h', ı: 'i', ŧ: 't', æ: 'ae', œ: 'oe', þ: 'th', ß: 'ss' };

/** Letters without their accents, in lower case: "José Núñez" → "jose nunez", "Łukasz Bjørn" → "lukasz bjorn". */
const folded = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[łøđðħıŧæœþß]/g, (c) => OWN_LETTERS[c]!)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '');

/**
 * A username from a name: accents dropped, lower case, every run of other characters one dot,
 * cut to 32: "José Álvarez-Núñez" → "jose.alvarez-nunez". Empty when the name has none of
 * A–Z a–z 0–9 (李伟): the phone number's digits stand in then.
 */
export function usernameFrom(name: string | undefined, phone: string): string {
  const base = folded(name ?? '')
    .replace(/[^a-z0-9._-]+/g, '.')
    .replace(/\.{2,}/g, '.')
    .replace(/^[._-]+|[._-]+$/g, '');
  const cut = base.slice(0, USERNAME_MAX).replace(/[._-]+$/, '');
  return cut !== '' ? cut : `tel.${phone.replace(/\D/g, '')}`.slice(0, USERNAME_MAX);
}

/**
 * Another username for a second person the first rule gives the same one (two John Smiths): the
 * name's, then a dot and the phone number's last four digits, within 32 characters; for the
 * `n`th after the first two, those and `-n` (a third of one family on one line).
 */
export function usernameWithPhone(username: string, phone: string, n = 1): string {
  const tail = `.${phone.slice(-4)}${n > 1 ? `-${n}` : ''}`;
  return `${username.slice(0, USERNAME_MAX - tail.length).replace(/[._-]+$/, '')}${tail}`;
}

/** The contact a card or row makes, or the first field that is wrong. */
export function candidateOf(fields: ImportFields, country: CountryCode | undefined): Candidate {
  // Trimmed as the server trims it; a line break inside (a CSV cell, a folded card) becomes a
  // space, while other spacing is the person's (two spaces stay two).
  const name = fields.name?.replace(/\s*[\r\n\t\v\f]\s*/g, ' ').trim() || undefined;
  if (name !== undefined && CONTROL_CHARACTERS.test(name)) return { field: 'name', problem: 'name holds control characters' };
  if (name !== undefined && [...name].length > DISPLAY_NAME_MAX) return { field: 'name', problem: `name is longer than ${DISPLAY_NAME_MAX} characters` };
  // Google's CSV puts several numbers in one cell, " ::: " between them.
  const numbers = (list: readonly PhoneField[]) =>
    list.flatMap((field) => field.value.split(':::').map((raw) => ({ raw: raw.trim(), field }))).filter((number) => number.raw !== '');
  const phones = numbers(phoneOrder(fields.phones));
  if (phones.length === 0) {
    return name === undefined ? { field: 'phone', problem: 'neither a name nor a phone number' } : { field: 'phone', problem: 'no phone number' };
  }
  let phone: string | undefined;
  let taken: (typeof phones)[number] | undefined;
  let firstProblem: string | undefined;
  for (const number of phones) {
    const read = phoneOf(number.raw, country);
    if (typeof read === 'string') {
      phone = read;
      taken = number;
      break;
    }
    firstProblem ??= read.problem;
  }
  if (phone === undefined || taken === undefined) return { field: 'phone', problem: firstProblem! };
  // Said in the report when it is not the number the file gives first.
  const digits = (raw: string) => raw.replace(/[^0-9+]/g, '');
  const written = numbers(fields.phones);
  const notFirst = digits(taken.raw) !== digits(written[0]!.raw);
  const of = new Set(written.map(({ raw }) => digits(raw))).size;
  const why = taken.field.mobile ? 'mobile' : taken.field.preferred ? 'preferred' : 'first';
  // A nickname ("Big Al") is often not a username the contract allows: one is made from it then,
  // the same way as from a name.
  const given = fields.username?.trim() || undefined;
  const username = given === undefined ? usernameFrom(name, phone) : USERNAME.test(given) ? given : usernameFrom(given, phone);
  // A photo that is not a link (a data: URI, an embedded image) is no avatar URL: left out, the
  // contact kept.
  const link = fields.avatarUrl?.trim();
  const avatar = link !== undefined && /^https?:\/\/\S+$/i.test(link) && link.length <= 2048 ? link : undefined;
  return {
    contact: {
      username,
      phoneNumber: phone,
      ...(name !== undefined && { displayName: name }),
      ...(avatar !== undefined && { avatarUrl: avatar }),
    },
    ...(notFirst && { taken: { phone, why, of } }),
  };
}
