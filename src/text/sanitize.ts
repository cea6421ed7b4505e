// Text from a server is shown, never obeyed: escape sequences and control characters are
// removed before anything reaches a terminal (sanitize). In the dashboard it is also shown as
// drawn (drawn): every character left takes the columns width() counts for it, in the terminal
// and in Ink's layout alike. Only ever for drawing: a value that is saved keeps what it holds.
import stringWidth from 'string-width';
import { ClearingMap, remembered } from './remembered.js';

// CSI and OSC/DCS/APC/PM/SOS sequences (7-bit and their 8-bit C1 introducers), then any other
// ESC-prefixed pair.
const ESCAPES = /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|(?:\u001b[\]PX^_]|[\u0090\u009d\u009e\u009f\u0098])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[^[\]PX^_]?/g;
// C0 and C1 controls and DEL; line/paragraph separators; bidi overrides and isolates, which can
// reorder what the rest of the line shows.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
// Invisible characters: format characters (ZWSP, ZWJ, RLM, BOM, tags, …), variation selectors
// and the rest of Unicode's default-ignorables (soft hyphen, Hangul fillers), and emoji skin-tone
// modifiers. Terminals and Ink disagree on their width (Ink gives any character at least one
// column, a terminal none, or two for a VS16 or a modifier), so each one shifted the rest of
// its line: they are dropped. An emoji ZWJ sequence shows as its emoji side by side.
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}\p{Emoji_Modifier}]/gu;
const MARK = /\p{M}/u;

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * A grapheme as the terminal draws it: a terminal gives each character its own width (marks
 * none) and Ink gives the cluster one, at least 1. Where they differ (a Devanagari conjunct, a
 * mark with nothing to sit on) the marks go, and what is left is drawn alike by both.
 */
function drawable(grapheme: string): string {
  const clusterWidth = stringWidth(grapheme);
  let sum = 0;
  for (const char of grapheme) sum += stringWidth(char);
  if (clusterWidth === sum && clusterWidth > 0) return grapheme;
  return [...grapheme].filter((char) => !MARK.test(char) && stringWidth(char) > 0).join('');
}

/** One line of plain, printable text: escapes dropped, controls (and newlines) as spaces. */
export const sanitize = (text: string): string => text.replace(ESCAPES, '').replace(CONTROLS, ' ');

/**
 * Text as the dashboard draws it: sanitized, invisible characters left out, and each grapheme
 * in a form Ink and the terminal give the same width. For drawing only, never for saving: it
 * drops characters a name needs (a ZWJ, a skin tone, a Devanagari virama).
 */
export function drawn(text: string): string {
  // Every frame draws the same names again (a tick redraws the page): worked out once each.
  return remembered(drawnCache, text, () => drawnNow(text));
}

// Bounded: a week of names must not grow it.
const drawnCache = new ClearingMap<string, string>(4096);

function drawnNow(text: string): string {
  const plain = sanitize(text).replace(INVISIBLE, '');
  // Plain ASCII (most text) cannot hold a grapheme drawn differently.
  if (/^[\u0000-\u007f]*$/.test(plain)) return plain;
  let out = '';
  for (const { segment } of segmenter.segment(plain)) out += drawable(segment);
  return out;
}

/**
 * Text typed or pasted into a field: escapes and controls dropped, a U+FFFD (what a byte that was
 * not UTF-8 decodes to) too, and characters that draw as nothing on their own (a ZWSP, a BOM, an
 * RLM). What a visible character carries (the ZWJ of an emoji sequence, marks) stays: it is saved.
 */
export function typedText(text: string): string {
  return withoutInvisible(text.replace(ESCAPES, '').replace(CONTROLS, '').replace(/\uFFFD/g, ''));
}

/**
 * A server's text as the dashboard shows it, to be copied: sanitized (one line, escapes out,
 * controls as spaces), and characters that draw as nothing on their own (a ZWSP, an RLM, a BOM, a
 * tag) left out; what a visible character carries (an emoji's ZWJ, a ZWNJ, marks) stays, so
 * what is pasted is the name.
 */
export const shownText = (text: string): string => withoutInvisible(sanitize(text));

/** Graphemes that draw as nothing on their own left out; every other one kept whole. */
function withoutInvisible(text: string): string {
  let out = '';
  for (const { segment } of segmenter.segment(text)) if (drawn(segment) !== '') out += segment;
  return out;
}
