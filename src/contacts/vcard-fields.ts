// What tickbook takes from a card's properties: a name (FN, else N in the order the name is
// written), a nickname, every TEL with whether it is a mobile and which the card prefers (in
// each of the forms phones and address books mark them), a photo that is a link, and the UID.
import type { PhoneField } from './import-candidate.js';
import { type CardValues, nonEmpty, type Property } from './vcard-values.js';
import type { PropertyHead } from './vcard-lines.js';

/** What tickbook takes from a card. */
export interface CardFields {
  /** FN, or N's given, additional and family names when there is no FN. */
  name: string | undefined;
  nickname: string | undefined;
  /** Every TEL, in order, as written (a tel: URI's number alone), with what its TYPE and PREF say. */
  phones: PhoneField[];
  photo: string | undefined;
  uid: string | undefined;
}

/** TYPE's values and 2.1's bare parameters, upper case (a quoted list, 4.0's TYPE="voice,cell", split too). */
function typesOf(head: PropertyHead): string[] {
  const types: string[] = [];
  for (const param of head.params) {
    if (param.name !== 'TYPE' && param.name !== '') continue;
    // A loop, not push(...list): a card may give a TYPE of 300,000 values, too many arguments for a call.
    for (const value of param.values) for (const type of value.toUpperCase().split(',')) types.push(type);
  }
  return types;
}

const MOBILE_TYPES = new Set(['CELL', 'MOBILE', 'IPHONE']);
/** Apple's label for a number of a group (`item1.X-ABLabel:_$!<Mobile>!$_`) that names a mobile. */
const MOBILE_LABEL = /^(?:_\$!<)?(?:mobile|cell|iphone)(?: phone)?(?:>!\$_)?$/i;

/** How strongly a TEL is preferred: 4.0's PREF=1 most, 2.1's and 3.0's PREF (in `types`) as 1; none undefined. */
function preferenceOf(head: PropertyHead, types: readonly string[]): number | undefined {
  const pref = head.params.find((param) => param.name === 'PREF');
  if (pref) return Number.parseInt(pref.values[0] ?? '', 10) || 1;
  return types.includes('PREF') ? 1 : undefined;
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** The name N gives: given, additional and family names (N:Brown alone is a family name), or family first for a name in Chinese, Japanese or Korean, as those are written. */
function nameOfN(n: Property | undefined, values: CardValues): string | undefined {
  if (!n) return undefined;
  const [family, given, additional] = values.components(n, true).map((list) => nonEmpty(list.map((item) => item.trim()).filter((item) => item !== '').join(' ')));
  const order = CJK.test(`${family ?? ''}${given ?? ''}`) ? [family, given, additional] : [given, additional, family];
  return nonEmpty(order.filter((part) => part !== undefined).join(' '));
}

/**
 * A TEL's number as written: a tel: URI's without its parameters (`;phone-context=`, `;isub=`),
 * but for `;ext=`, kept so that a number with an extension is refused as one is in any other
 * form (`x12`), not taken silently for the switchboard's number.
 */
function telNumber(value: string): string {
  const [number = '', ...params] = value.replace(/^tel:/i, '').split(';');
  const extension = params.find((param) => /^\s*ext=/i.test(param));
  return (extension === undefined ? number : `${number};${extension.trim()}`).trim();
}

/** The fields of a card, from its properties in order. */
export function fieldsOf(properties: readonly Property[], values: CardValues): CardFields {
  const first = (name: string) => properties.find((property) => property.head.name === name);
  const labels = new Map<string, string>();
  for (const property of properties) {
    if (property.head.name === 'X-ABLABEL' && property.head.group !== undefined) labels.set(property.head.group.toLowerCase(), values.whole(property) ?? '');
  }
  const tels = properties
    .filter((property) => property.head.name === 'TEL')
    .map((property) => {
      const written = values.whole(property);
      const value = written === undefined ? undefined : telNumber(written);
      const label = property.head.group === undefined ? undefined : labels.get(property.head.group.toLowerCase());
      const types = typesOf(property.head);
      const mobile = types.some((type) => MOBILE_TYPES.has(type)) || (label !== undefined && MOBILE_LABEL.test(label));
      return { value, mobile, preference: preferenceOf(property.head, types) };
    })
    .filter((tel): tel is typeof tel & { value: string } => tel.value !== undefined && tel.value !== '');
  // The one the card prefers: the lowest PREF of its numbers. A loop, not Math.min(...list): a
  // card under the size limit may hold 145,000 TELs, too many arguments for a call.
  let best = Number.POSITIVE_INFINITY;
  for (const tel of tels) if (tel.preference !== undefined && tel.preference < best) best = tel.preference;
  const photo = properties
    .filter((property) => property.head.name === 'PHOTO' && property.head.encoding === undefined)
    .map((property) => values.whole(property))
    // As written, and only when it is a link: an embedded image is no avatar URL.
    .find((value) => value !== undefined && /^https?:\/\//i.test(value));
  const nickname = first('NICKNAME');
  return {
    name: values.whole(first('FN')) ?? nameOfN(first('N'), values),
    nickname: nickname && nonEmpty(values.components(nickname, false)[0]![0]),
    phones: tels.map((tel) => ({ value: tel.value, ...(tel.mobile && { mobile: true }), ...(tel.preference === best && { preferred: true }) })),
    photo,
    uid: values.whole(first('UID')),
  };
}
