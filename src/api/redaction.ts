// Whether text a server sent holds one of the credentials of the request, in any form a server
// is likely to echo it in. Such text is withheld whole rather than edited: a marker put in place
// of an encoded copy would still leave the rest of an encoding to decode, and a short secret
// ("abc") cut out of a sentence would leave it mangled and the secret guessable from the gaps.

/** What is shown instead of a server's message that held a credential. */
export const WITHHELD_MESSAGE = "the server's message was withheld: it contained a credential";

/**
 * A base64 run shorter than this matches too much ordinary text to mean anything: one
 * character of base64 carries 6 bits.
 */
const MIN_BASE64_CORE = 6;

export class Redactor {
  /** Every form of every secret, lower-cased: servers change case (hex, headers, shouting). */
  readonly #variants: readonly string[];

  constructor(secrets: readonly string[]) {
    const variants = new Set<string>();
    for (const secret of secrets) {
      if (secret === '') continue;
      for (const variant of variantsOf(secret)) if (variant !== '') variants.add(variant.toLowerCase());
    }
    this.#variants = [...variants];
  }

  /** Whether `text` holds a credential, in any form, whole or as a quote cut short with "…". */
  holdsSecret(text: string): boolean {
    if (this.#variants.length === 0) return false;
    const lower = text.toLowerCase();
    if (this.#variants.some((variant) => lower.includes(variant))) return true;
    // Messages quote server values cut to a few characters ("\"tok-Sup3rSecr…"): the start of a
    // secret is as much a leak as the whole of it.
    for (const [, quoted = ''] of lower.matchAll(/"([^"]{4,})…/g)) {
      if (this.#variants.some((variant) => variant.startsWith(quoted))) return true;
    }
    return false;
  }

  /** `text`, or `instead` when it holds a credential. */
  screen(text: string, instead: string): string {
    return this.holdsSecret(text) ? instead : text;
  }
}

/** The forms of `secret` a server might send back. */
export function variantsOf(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const variants = [
    secret,
    encodeURIComponent(secret),
    encodeURI(secret),
    new URLSearchParams({ s: secret }).toString().slice(2),
    JSON.stringify(secret).slice(1, -1),
    bytes.toString('hex'),
  ];
  // Whole encodings of the forms an Authorization header takes, padded and not.
  for (const form of [secret, `Bearer ${secret}`, `:${secret}`, `${secret}:`]) {
    const base64 = Buffer.from(form, 'utf8').toString('base64');
    variants.push(base64, base64.replace(/=+$/, ''), toBase64Url(base64));
  }
  // The secret inside a longer encoded text ("user:secret", a JSON blob) is encoded differently
  // for each of its three possible byte offsets; the characters that depend on its own bytes
  // alone are the same whatever surrounds it.
  for (let offset = 0; offset < 3; offset++) {
    const core = base64Core(bytes, offset);
    if (core.length >= MIN_BASE64_CORE) variants.push(core, toBase64Url(core));
  }
  return variants;
}

/** The base64 characters of `bytes` placed `offset` bytes into a text, unaffected by its neighbours. */
function base64Core(bytes: Buffer, offset: number): string {
  const padded = Buffer.concat([Buffer.alloc(offset), bytes]);
  const whole = Math.floor(padded.length / 3) * 4;
  // 1 leading byte shares the 2nd character with the secret, 2 share the 3rd.
  const skip = [0, 2, 3][offset]!;
  return padded.toString('base64').slice(skip, whole);
}

function toBase64Url(base64: string): string {
  return base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
