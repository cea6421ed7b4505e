// Ink's text measuring and wrapping, with caches that stay bounded. Ink 6 keeps every text it
// ever laid out in two module caches that are never emptied (ink#986): a ticker draws new prices,
// ages and times every second, so the dashboard grew by about 27 MB an hour, forever. Ink 8 bounds
// them with quick-lru but needs Node 22; the bundle (scripts/bundle.mjs) puts these two in place
// of Ink's ./measure-text.js and ./wrap-text.js (their default exports). Same results as Ink's,
// from the same libraries.
import cliTruncate from 'cli-truncate';
import QuickLRU from 'quick-lru';
import widestLine from 'widest-line';
import wrapAnsi from 'wrap-ansi';
import { remembered } from '../text/remembered.js';

/**
 * Texts kept per cache generation (quick-lru holds up to twice this): several full screens of
 * distinct texts, so what stays on screen (names, headers, borders) is measured once and only
 * what changes is measured again.
 */
export const TEXT_CACHE_SIZE = 2000;

export interface Dimensions {
  width: number;
  height: number;
}

const measured = new QuickLRU<string, Dimensions>({ maxSize: TEXT_CACHE_SIZE });
const wrapped = new QuickLRU<string, string>({ maxSize: TEXT_CACHE_SIZE });

export function measureText(text: string): Dimensions {
  if (text.length === 0) return { width: 0, height: 0 };
  return remembered(measured, text, () => ({ width: widestLine(text), height: text.split('\n').length }));
}

export type WrapType = 'wrap' | 'end' | 'middle' | 'truncate-end' | 'truncate' | 'truncate-middle' | 'truncate-start';

export function wrapText(text: string, maxWidth: number, wrapType: WrapType): string {
  // A separator no text holds: Ink's own key ran text and width together ("a1" + "1" = "a11").
  return remembered(wrapped, `${wrapType}\u0000${maxWidth}\u0000${text}`, () => {
    if (wrapType === 'wrap') return wrapAnsi(text, maxWidth, { trim: false, hard: true });
    if (!wrapType.startsWith('truncate')) return text;
    const position = wrapType === 'truncate-middle' ? 'middle' : wrapType === 'truncate-start' ? 'start' : 'end';
    return cliTruncate(text, maxWidth, { position });
  });
}

/** How many texts the caches hold now, for tests and the soak benchmark's reasoning. */
export const textCacheSizes = (): { measured: number; wrapped: number } => ({ measured: measured.size, wrapped: wrapped.size });

/** Texts whose sanitising is kept: more than a screen's styled texts. */
const SANITIZED_KEPT = 500;
const sanitized = new QuickLRU<string, string>({ maxSize: SANITIZED_KEPT });

/** What Ink's sanitising looks for (hasAnsiControlCharacters): ESC and the C1 controls. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u001b\u0080-\u009f]/;

/**
 * Ink's sanitizeAnsi, remembering its answers: Ink runs it over every text node on every frame,
 * and a text holding an SGR sequence (a selected row, a bold price) is taken apart token by token
 * each time, the same answer as the frame before. A text with none is its own answer, found
 * without Ink's walk over its characters and without taking a place in the cache (a tick's new
 * prices would push out the styled texts). The bundle puts this in place of its export.
 */
export const rememberSanitized =
  (sanitize: (text: string) => string) =>
  (text: string): string =>
    CONTROL.test(text) ? remembered(sanitized, text, () => sanitize(text)) : text;
