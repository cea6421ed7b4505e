// The contract's field rules, each failure a message that names the field in plain words.
import { CONTROL_CHARACTERS } from '../api/rules.js';
import { DISPLAY_NAME_MAX, parsePhoneNumber, USERNAME_MAX } from '../api/rules.js';
import { HttpError, invalid, missing } from './errors.js';

export { DISPLAY_NAME_MAX, USERNAME_MAX };
export const AVATAR_URL_MAX = 2048;
export const SYMBOLS_MAX = 100;
export const SYMBOL_MAX = 15;
export const LIMIT_MAX = 100;
export const LIMIT_DEFAULT = 10;

const USERNAME = /^[A-Za-z0-9._-]+$/;
const SYMBOL = /^[A-Z0-9.-]+$/;

export interface NewContactFields {
  username: string;
  phoneNumber: string;
  avatarUrl: string | null;
  displayName: string | null;
}

export type Fields = Record<string, unknown>;

const codePoints = (text: string): number => [...text].length;

/** A string field, or undefined when absent; any other type is named as wrong. */
function optionalString(fields: Fields, name: string): string | undefined {
  const value = fields[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalid(`${name} must be a string`);
  return value;
}

function requiredString(fields: Fields, name: string): string {
  const value = optionalString(fields, name);
  if (value === undefined || value.trim() === '') throw missing(name);
  return value;
}

export function validateUsername(value: string): string {
  if (codePoints(value) > USERNAME_MAX) {
    throw invalid(`username must be at most ${USERNAME_MAX} characters`);
  }
  if (!USERNAME.test(value)) {
    throw invalid('username may contain only letters A–Z, digits, ".", "_" and "-"');
  }
  return value;
}

/** The one rule the client, the CLI and the dashboard's form apply too (see parsePhoneNumber). */
export function normalisePhoneNumber(value: string): string {
  const phone = parsePhoneNumber(value, 'phone_number');
  if (typeof phone !== 'string') throw invalid(phone.problem);
  return phone;
}

export function validateAvatarUrl(value: string): string {
  if (value.length > AVATAR_URL_MAX) {
    throw invalid(`avatar_url must be at most ${AVATAR_URL_MAX} characters`);
  }
  // new URL() would quietly drop or encode these; stored as given, they would reach terminals.
  if (CONTROL_CHARACTERS.test(value) || /\s/.test(value)) {
    throw invalid('avatar_url must not contain spaces or control characters');
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid('avatar_url must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalid('avatar_url must be an absolute http or https URL');
  }
  return value;
}

/** A display name as stored: trimmed, or null when empty (clients then show the username). */
export function validateDisplayName(value: string): string | null {
  const trimmed = value.trim();
  if (trimmed === '') return null;
  if (codePoints(trimmed) > DISPLAY_NAME_MAX) {
    throw invalid(`display_name must be at most ${DISPLAY_NAME_MAX} characters`);
  }
  if (CONTROL_CHARACTERS.test(trimmed)) throw invalid('display_name must not contain control characters');
  return trimmed;
}

const CREATE_FIELDS = new Set(['username', 'phone_number', 'avatar_url', 'display_name']);

export function validateNewContact(fields: Fields): NewContactFields {
  for (const name of Object.keys(fields)) {
    if (!CREATE_FIELDS.has(name)) throw invalid(`${name} is not a contact field`);
  }
  const username = validateUsername(requiredString(fields, 'username').trim());
  const phoneNumber = normalisePhoneNumber(requiredString(fields, 'phone_number'));
  const avatar = optionalString(fields, 'avatar_url');
  const display = optionalString(fields, 'display_name');
  return {
    username,
    phoneNumber,
    avatarUrl: avatar === undefined || avatar.trim() === '' ? null : validateAvatarUrl(avatar.trim()),
    displayName: display === undefined ? null : validateDisplayName(display),
  };
}

/** An update may carry display_name only; an empty string resets it. */
export function validateContactUpdate(fields: Fields): { displayName: string | null } {
  for (const name of Object.keys(fields)) {
    if (name !== 'display_name') throw invalid(`${name} cannot be updated; only display_name can`);
  }
  if (!('display_name' in fields)) throw missing('display_name');
  const display = optionalString(fields, 'display_name');
  return { displayName: display === undefined ? null : validateDisplayName(display) };
}

export function parseLimit(raw: string | null): number {
  if (raw === null) return LIMIT_DEFAULT;
  if (!/^[0-9]+$/.test(raw)) throw invalid(`limit must be an integer from 1 to ${LIMIT_MAX}`);
  const limit = Number(raw);
  if (limit < 1 || limit > LIMIT_MAX) throw invalid(`limit must be an integer from 1 to ${LIMIT_MAX}`);
  return limit;
}

export function parseActive(raw: string | null): boolean | undefined {
  if (raw === null) return undefined;
  switch (raw.toLowerCase()) {
    case 'true':
    case '1':
      return true;
    case 'false':
    case '0':
      return false;
    default:
      throw invalid('active must be true, false, 1 or 0');
  }
}

/** Symbols trimmed, upper-cased and de-duplicated in order. */
export function validateSymbols(fields: Fields): string[] {
  const raw = fields.symbols;
  if (!Array.isArray(raw) || raw.length === 0) {
    throw new HttpError('missing_parameters', 'symbols is required: a non-empty array of stock symbols');
  }
  const symbols: string[] = [];
  const seen = new Set<string>();
  for (const [index, item] of raw.entries()) {
    if (typeof item !== 'string') throw invalid(`symbols[${index}] must be a string`);
    // Most symbols arrive already in canonical form; only the others pay for trim and upper-case.
    const symbol = SYMBOL.test(item) ? item : item.trim().toUpperCase();
    if (symbol.length === 0 || symbol.length > SYMBOL_MAX || !SYMBOL.test(symbol)) {
      throw invalid(
        `symbols[${index}] ${JSON.stringify(item.slice(0, 40))} is not a stock symbol: ` +
          `1 to ${SYMBOL_MAX} characters of A–Z, 0–9, "." and "-"`,
      );
    }
    if (!seen.has(symbol)) {
      seen.add(symbol);
      symbols.push(symbol);
    }
  }
  if (symbols.length > SYMBOLS_MAX) {
    throw invalid(`symbols must hold at most ${SYMBOLS_MAX} symbols per request, not ${symbols.length}`);
  }
  return symbols;
}
