// The phone number rule of tickbook's own commands (`contacts create`, the dashboard's create form,
// `contacts import`): the contract's E.164 form (parsePhoneNumber), and then a number that can be
// one, a length its country code's numbers have (libphonenumber's metadata), so that a digit too
// few or too many, or an address in the phone field, is refused where it is typed or read, not
// stored to dial nowhere. Possible, not valid: a range not given out to anyone is taken, as the
// fictional numbers of examples and tests are (NANP 555-01xx, Ofcom's drama numbers +44 20 7946
// 0xxx and +44 7700 900xxx). A module of its own: the metadata is loaded by what checks a number,
// not by the dashboard's start.
import { Metadata, parsePhoneNumberFromString, validatePhoneNumberLength, type CountryCode } from 'libphonenumber-js';
import { parsePhoneNumber } from './rules.js';

/**
 * An extension at the end of a number, however it is written: `x12`, `ext. 12`, `extension 12`,
 * or a tel: URI's `;ext=12` (RFC 3966).
 */
const EXTENSION = /(?:;\s*ext=|(?:^|[^\p{L}])(?:ext(?:ension)?\.?|x)\s*)(\d+)\s*$/iu;

/**
 * Why `raw` is no phone number whatever its digits, or undefined: an `@` (a pager's mail address),
 * an extension (the contract's E.164 has none: the number without it calls a switchboard, not
 * the person, so it is not taken for theirs), other letters.
 */
export function notAPhoneNumber(raw: string): string | undefined {
  if (raw.includes('@')) return 'it holds an "@" (an address, not a number)';
  const extension = EXTENSION.exec(raw);
  if (extension) {
    return /\d/.test(raw.slice(0, extension.index))
      ? `it ends in an extension (${extension[1]}), which a contact's number cannot have (E.164 has none)`
      : `it is an extension (${extension[1]}) with no number`;
  }
  if (/\p{L}/u.test(raw)) return 'it holds letters';
  return undefined;
}

/** "10", "9 or 10", "7, 9 or 10", "4 to 15": the digits numbers after `callingCode` can have. */
function possibleLengths(callingCode: string): string {
  const metadata = new Metadata();
  // A calling code selects its numbering plan too (the types say a country only).
  metadata.selectNumberingPlan(callingCode as CountryCode);
  const lengths = metadata.numberingPlan?.possibleLengths() ?? [];
  const first = lengths[0];
  const last = lengths.at(-1);
  if (first === undefined || last === undefined) return 'another length';
  if (lengths.length > 2 && last - first === lengths.length - 1) return `${first} to ${last}`;
  return lengths.length === 1 ? `${first}` : `${lengths.slice(0, -1).join(', ')} or ${last}`;
}

/** Why an E.164 number (as parsePhoneNumber gives it) cannot be one, worded after its subject, or undefined. */
function impossibility(e164: string): string | undefined {
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed) return `does not start with a country code in use (${e164})`;
  const code = parsed.countryCallingCode;
  // A 0 (or 1, 8…) dialled only inside the country, written after the country code:
  // `+44 020 7946 0958` is dialled +442079460958, and stored as written it would dial nowhere.
  if (parsed.number !== e164) return `holds a prefix dialled only inside the country: after +${code} the number is ${parsed.number}`;
  if (parsed.isPossible()) return undefined;
  const digits = `${parsed.nationalNumber.length} digits after it, where numbers there have ${possibleLengths(code)}`;
  switch (validatePhoneNumberLength(e164)) {
    case 'TOO_SHORT':
      return `is too short for +${code}: ${digits}`;
    case 'TOO_LONG':
      return `is too long for +${code}: ${digits}`;
    default:
      return `is not a possible length for +${code}: ${digits}`;
  }
}

/**
 * A phone number in the contract's E.164 form that can be one, or why not, the problem worded
 * after `name` ("option --phone", "phone_number", `phone "…"`): `+1-555-0123` is too short,
 * `+1 (212) 204-34456` too long, `6101231234@pagersample.com` no number at all.
 */
export function parsePossiblePhoneNumber(raw: string, name: string): string | { problem: string } {
  const odd = notAPhoneNumber(raw);
  if (odd !== undefined) return { problem: `${name} is not a phone number: ${odd}` };
  const e164 = parsePhoneNumber(raw, name);
  if (typeof e164 !== 'string') return e164;
  const problem = impossibility(e164);
  return problem === undefined ? e164 : { problem: `${name} ${problem}` };
}
