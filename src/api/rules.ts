// Rules the client shares with the command line, the config, the dashboard's forms and the sandbox:
// what a symbol, a base URL and a phone number are.

// C0, DEL and C1 controls, the line and paragraph separators some terminals honour, and the
// bidi overrides and isolates that can make a name read as something else.
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** The contract's longest username and display name, in characters (code points). */
export const USERNAME_MAX = 32;
export const DISPLAY_NAME_MAX = 64;

/** A stock symbol as the contract allows it: 1–15 of A–Z 0–9 . - (after upper-casing). */
export const SYMBOL_PATTERN = /^[A-Z0-9.-]{1,15}$/;

/** Trims, upper-cases and de-duplicates a watchlist, keeping its order. */
export function normaliseSymbols(symbols: readonly string[]): string[] {
  const kept = new Set<string>();
  for (const raw of symbols) {
    // Nearly every symbol is already a symbol: only the others pay for trim and upper-case
    // (60 µs a 500-symbol watchlist otherwise, each poll; bench:client).
    const symbol = SYMBOL_PATTERN.test(raw) ? raw : raw.trim().toUpperCase();
    if (symbol !== '') kept.add(symbol);
  }
  return [...kept];
}

/** A base URL, or why it is not one: it must be absolute http:// or https://. */
export function parseBaseUrl(raw: string, name: string): URL | { problem: string } {
  // Shown without a user name and password, whatever else is wrong with it.
  const shown = JSON.stringify(withoutUserinfo(raw));
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { problem: `${name} ${shown} is not a URL` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { problem: `${name} must be an http:// or https:// URL, not ${shown}` };
  }
  if (url.username !== '' || url.password !== '') {
    return { problem: `${name} ${shown} must not hold a user name or password: give the token with --token or TICKBOOK_TOKEN` };
  }
  // Paths are joined onto it: a query or a fragment would be dropped without a word.
  if (url.search !== '' || url.hash !== '' || /[?#]/.test(raw)) {
    return { problem: `${name} ${shown} must not have a query (?…) or a fragment (#…): give the base URL alone` };
  }
  return url;
}

/**
 * A URL as written, less any `user:password@`. Parsed where it parses: the URL parser finds a
 * login in more spellings than `scheme://` (`https:/a:b@h`, `https:\\a:b@h`, a leading space).
 */
export function withoutUserinfo(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.username === '' && url.password === '') return raw;
    url.username = '';
    url.password = '';
    return url.href;
  } catch {
    return raw.replace(/^(\s*[a-z][a-z0-9+.-]*:[\\/]*)[^/?#\\]*@/i, '$1');
  }
}

/** Whether a host name or address stays on this machine: `localhost` (and names under it), 127/8, ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * Why a credential cannot be an HTTP header value, worded after "the token has …", or undefined
 * when it can: a pasted line break would otherwise fail as a network error, or split the header.
 * A tab is allowed by HTTP but never part of a token: it is refused with the other controls.
 */
export function credentialProblem(value: string): string | undefined {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    const at = `at character ${i + 1}`;
    if (code === 0x0a || code === 0x0d) return `a line break ${at}`;
    if (code < 0x20 || code === 0x7f) return `a control character ${at}`;
    if (code > 0xff) return `a character HTTP cannot carry ${at} (outside Latin-1)`;
  }
  return undefined;
}

const PHONE_SEPARATORS = /[\s\-.()]/g;
const E164 = /^\+[1-9][0-9]{6,14}$/;
/**
 * A national trunk prefix written "(0)" straight after "+" and the country code, as the contract
 * says: the country code is the first run of digits, 1 to 3 of them; spaces, dashes or dots may
 * stand around the "(0)". Anywhere else "(0)" is only parentheses round a digit that is dialled
 * ("+44 20 (0)7946" keeps its 0), and so is "(00)" or "(06)" (an Italian area code keeps its 0).
 */
const TRUNK_PREFIX = /^(\s*\+[\s.-]*[0-9]{1,3})[\s.-]*\(0\)/;

/**
 * A phone number in the contract's E.164 form (`+442079460958`), or why it is not one, the
 * problem worded after `name` ("phone_number", "option --phone"). Spaces, dashes, dots and
 * parentheses are dropped, and a trunk prefix "(0)" right after the country code with them:
 * `+44 (0) 20 7946 0958` is `+442079460958`. Nothing else is guessed at: other parentheses, paired
 * or not, are dropped like spaces, as the contract says, so the sandbox and every client agree.
 */
export function parsePhoneNumber(raw: string, name: string): string | { problem: string } {
  const phone = raw.replace(TRUNK_PREFIX, '$1').replace(PHONE_SEPARATORS, '');
  if (!E164.test(phone)) {
    return { problem: `${name} must be in E.164 form: "+" then 7 to 15 digits, the first not 0` };
  }
  return phone;
}
