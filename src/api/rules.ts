// Rules the client shares with the command line and the config: what a symbol and a base URL are.

/** A stock symbol as the contract allows it: 1–15 of A–Z 0–9 . - (after upper-casing). */
export const SYMBOL_PATTERN = /^[A-Z0-9.-]{1,15}$/;

/** Trims, upper-cases and de-duplicates a watchlist, keeping its order. */
export function normaliseSymbols(symbols: readonly string[]): string[] {
  return [...new Set(symbols.map((s) => s.trim().toUpperCase()).filter((s) => s !== ''))];
}

/** A base URL, or why it is not one: it must be absolute http:// or https://. */
export function parseBaseUrl(raw: string, name: string): URL | { problem: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { problem: `${name} ${JSON.stringify(raw)} is not a URL` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { problem: `${name} must be an http:// or https:// URL, not ${JSON.stringify(raw)}` };
  }
  return url;
}
