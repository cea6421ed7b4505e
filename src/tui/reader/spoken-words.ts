// Values as a screen reader should say them: a price as an amount of money in its currency's
// words ("206 dollars 74"), a change as up or down with its unit, a sparkline as a word (rising,
// falling), a key by its name. A reader speaks "$206.74 ▲0.12 +0.06%" as "dollar two hundred six
// point seven four black up-pointing triangle…"; these are what a person would say instead.
import type { Contact } from '../../api/types.js';
import { contactName } from '../../api/types.js';
import { currencyOf } from '../../market/listing.js';
import { formatChange, formatPrice } from '../../text/numbers.js';
import { sanitize } from '../../text/sanitize.js';
import { sessionChange, type SymbolRow } from '../ticker/ticker-state.js';

interface CurrencyWords {
  /** The major unit, singular and plural; undefined where prices are quoted in the minor unit only. */
  major: readonly [string, string];
  minor: readonly [string, string];
}

/** Units by ISO code; a code not here is said as its letters after the number ("12.50 CHF"). */
const CURRENCY_WORDS: Readonly<Record<string, CurrencyWords>> = {
  USD: { major: ['dollar', 'dollars'], minor: ['cent', 'cents'] },
  CAD: { major: ['Canadian dollar', 'Canadian dollars'], minor: ['cent', 'cents'] },
  AUD: { major: ['Australian dollar', 'Australian dollars'], minor: ['cent', 'cents'] },
  HKD: { major: ['Hong Kong dollar', 'Hong Kong dollars'], minor: ['cent', 'cents'] },
  EUR: { major: ['euro', 'euros'], minor: ['cent', 'cents'] },
  GBP: { major: ['pound', 'pounds'], minor: ['penny', 'pence'] },
  JPY: { major: ['yen', 'yen'], minor: ['sen', 'sen'] },
};

const unit = (count: string, [one, many]: readonly [string, string]): string => `${count} ${Number(count) === 1 ? one : many}`;

/**
 * An amount as written for `symbol`'s prices (`text`, from formatPrice or formatChange), in words:
 * "206 dollars 74", "12 cents", "1 dollar", "250 pence" (London quotes in pence), "0.1234 dollars"
 * (more decimals than the minor unit has are read as a number), "12.50 .XX" for an exchange with no
 * words here.
 */
export function amountWords(text: string, symbol: string): string {
  const currency = currencyOf(symbol);
  const words = CURRENCY_WORDS[currency.code];
  if (!words) return `${text} ${currency.code.replace(/^\./, '')}`;
  if (currency.pricedInMinor) return unit(text, words.minor);
  const [whole = '0', fraction = ''] = text.split('.');
  if (fraction.length > currency.minorDigits || /e/i.test(text)) return `${text} ${words.major[1]}`;
  const cents = fraction === '' ? 0 : Number(fraction);
  if (Number(whole) === 0 && fraction !== '') return unit(String(cents), words.minor);
  const major = unit(String(Number(whole)), words.major);
  // "206 dollars 05", not "206 dollars 5": the cents keep their two digits, as on a price tag.
  return cents === 0 ? major : `${major} ${fraction}`;
}

/** "up 12 cents", "down 1 dollar 05", "unchanged". */
export function changeWords(change: number, price: number, symbol: string): string {
  const text = formatChange(Math.abs(change), price);
  if (Number(text) === 0) return 'unchanged';
  return `${change > 0 ? 'up' : 'down'} ${amountWords(text, symbol)}`;
}

/** "up 0.12 percent", "down 3 percent", "unchanged": two decimals, trailing zeros dropped. */
export function percentWords(percent: number): string {
  const text = String(Number(Math.abs(percent).toFixed(2)));
  if (Number(text) === 0) return 'unchanged';
  return `${percent > 0 ? 'up' : 'down'} ${text} percent`;
}

/** What a sparkline shows, as a word: the recent prices' last against their first. */
export function trendWord(history: readonly number[]): string | undefined {
  if (history.length < 2) return undefined;
  const first = history[0]!;
  const last = history.at(-1)!;
  if (first === 0) return undefined;
  const moved = ((last - first) / first) * 100;
  // Below a hundredth of a percent over the window, it is noise to a listener.
  if (Math.abs(moved) < 0.01) return 'steady';
  return moved > 0 ? 'rising' : 'falling';
}

/**
 * A symbol's price in words: "AAPL, Apple Inc., 206 dollars 74, up 12 cents, session up 0.1
 * percent, rising". The change is since the tick before (the table's arrow), the session's since the
 * first price this run saw.
 */
export function priceWords(symbol: string, row: SymbolRow | undefined, why?: string, company?: string): string {
  const name = company ? `${sanitize(symbol)}, ${sanitize(company)}` : sanitize(symbol);
  if (!row) return `${name}, ${why ?? 'no price yet'}`;
  const parts = [name, amountWords(formatPrice(row.price), symbol)];
  if (row.previous !== undefined) parts.push(changeWords(row.price - row.previous, row.price, symbol));
  parts.push(`session ${percentWords(sessionChange(row))}`);
  const trend = trendWord(row.history);
  if (trend) parts.push(trend);
  return parts.join(', ');
}

/** "Ada Lovelace, username ada": the name and the username, as moving through contacts says them. */
export function contactWords(contact: Pick<Contact, 'displayName' | 'username'>): string {
  const name = sanitize(contactName(contact));
  return contact.displayName === null ? `${name}, no display name` : `${name}, username ${sanitize(contact.username)}`;
}

/** Key names as the keymap has them, said as a person would: "shift tab", "control c", "capital G". */
const KEY_NAMES: Readonly<Record<string, string>> = {
  esc: 'escape',
  enter: 'enter',
  tab: 'tab',
  space: 'space',
  backspace: 'backspace',
  delete: 'delete',
  up: 'up arrow',
  down: 'down arrow',
  left: 'left arrow',
  right: 'right arrow',
  home: 'home',
  end: 'end',
  pageup: 'page up',
  pagedown: 'page down',
  '?': 'question mark',
  '/': 'slash',
  '*': 'star',
  $: 'dollar sign',
  '+': 'plus',
  '=': 'equals',
  '-': 'minus',
  _: 'underscore',
  '[': 'left bracket',
  ']': 'right bracket',
  '.': 'period',
  ',': 'comma',
};

export function keyWords(name: string): string {
  const chord = /^(ctrl|alt|shift)-(.+)$/.exec(name);
  if (chord) return `${{ ctrl: 'control', alt: 'alt', shift: 'shift' }[chord[1] as 'ctrl' | 'alt' | 'shift']} ${keyWords(chord[2]!)}`;
  if (KEY_NAMES[name]) return KEY_NAMES[name];
  if (/^[A-Z]$/.test(name)) return `capital ${name}`;
  return name;
}

/** A key as the help labels it ("Ctrl-C", "S-Tab", "↓", "PgDn"), said. */
function labelKey(key: string): string {
  const named: Readonly<Record<string, string>> = { '↓': 'down arrow', '↑': 'up arrow', '←': 'left arrow', '→': 'right arrow', Del: 'delete', Esc: 'escape', PgDn: 'page down', PgUp: 'page up' };
  if (named[key]) return named[key];
  const chord = /^(Ctrl|Alt|S)-(.+)$/.exec(key);
  if (chord) return `${{ Ctrl: 'control', Alt: 'alt', S: 'shift' }[chord[1] as 'Ctrl' | 'Alt' | 'S']} ${labelKey(chord[2]!).replace(/^capital /, '')}`;
  const range = /^(\d)-(\d)$/.exec(key);
  if (range) return `${range[1]} to ${range[2]}`;
  return keyWords(key.length > 1 ? key.toLowerCase() : key);
}

/**
 * The help's label of a binding, said: "j/k ↓/↑" is "j or k, down arrow or up arrow", "Alt-B/F"
 * is "alt b or f"; "/ or i" is "slash or i".
 */
export function labelWords(label: string): string {
  if (label === '/ or i') return 'slash or i';
  return label
    .split(' ')
    .map((token) => (token === '/' ? keyWords('/') : token.replace(/^Alt-(\w)\/(\w)$/, 'Alt-$1/Alt-$2').split('/').map(labelKey).join(' or ')))
    .join(', ');
}

/** "3 of 10", the place of a selection among its siblings. */
export const placeWords = (index: number, count: number): string => `${index + 1} of ${count}`;

/** "1 contact", "3 contacts". */
export const countWords = (count: number, noun: string, plural = `${noun}s`): string => `${count} ${count === 1 ? noun : plural}`;
