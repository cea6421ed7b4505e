// What a terminal sends, cut into key sequences and each put in the one form Ink names safely.
// Ink's keypress parser crashes on sequences it half-knows (a modifier on a key it has no name
// for: Ctrl-F1, `CSI 1;5G`, even `CSI 31m` typed back at it), so nothing reaches Ink unchecked:
// every sequence is either a key of this table, rewritten in the form Ink knows, or dropped.
// The grammar is ECMA-48's (CSI, SS3, the string controls OSC/DCS/SOS/PM/APC), plus the kitty
// keyboard protocol's `CSI … u` and xterm's modifyOtherKeys `CSI 27;m;c ~`.

const ESC = '\u001b';
/** Delete (forward), in the one form Ink tells apart from Backspace: Ctrl-D. */
const FORWARD_DELETE = '\u0004';
/** A sequence longer than this without its end is noise, not a key still arriving. */
const MAX_SEQUENCE = 64;
/** A string control (OSC, DCS, …) longer than this without its terminator is dropped. */
const MAX_STRING = 4096;

export interface SplitInput {
  /** Complete pieces: one key sequence each, or a run of text. */
  pieces: string[];
  /** The start of a sequence cut off by the end of the read; the rest may be in the next read. */
  rest: string;
}

const isParameter = (code: number): boolean => code >= 0x30 && code <= 0x3f;
const isIntermediate = (code: number): boolean => code >= 0x20 && code <= 0x2f;
const isFinal = (code: number): boolean => code >= 0x40 && code <= 0x7e;
const isControl = (code: number): boolean => code < 0x20 || code === 0x7f;

/** Where the CSI that starts at `from` (after `ESC [`) ends: index after its final byte, 'open' or 'bad'. */
function csiEnd(text: string, from: number): number | 'open' | 'bad' {
  let at = from;
  // Linux console function keys: `ESC [ [ A`.
  if (text[at] === '[') at++;
  for (; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (isParameter(code) || isIntermediate(code)) continue;
    return isFinal(code) ? at + 1 : 'bad';
  }
  return 'open';
}

/** Where a string control starting at `from` ends (after BEL or ESC \), or 'open'. */
function stringEnd(text: string, from: number): number | 'open' {
  for (let at = from; at < text.length; at++) {
    if (text[at] === '\u0007') return at + 1;
    if (text[at] === ESC) {
      if (at + 1 >= text.length) return 'open';
      if (text[at + 1] === '\\') return at + 2;
    }
  }
  return 'open';
}

/**
 * Cuts decoded input into pieces: escape sequences and control characters on their own, the text
 * between them whole (a paste stays one piece). A sequence the read cut off is returned as `rest`.
 */
export function splitInput(text: string): SplitInput {
  const pieces: string[] = [];
  let at = 0;
  let textStart = 0;
  const flushText = (end: number) => {
    if (end > textStart) pieces.push(text.slice(textStart, end));
  };
  while (at < text.length) {
    const code = text.charCodeAt(at);
    if (!isControl(code)) {
      at++;
      continue;
    }
    flushText(at);
    if (code !== 0x1b) {
      pieces.push(text[at]!);
      textStart = ++at;
      continue;
    }
    const end = sequenceEnd(text, at);
    if (end === 'open') {
      // A lone Esc at the end of a read is the Esc key; anything longer waits for its end.
      if (at === text.length - 1) {
        pieces.push(ESC);
        at = textStart = text.length;
        break;
      }
      const rest = text.slice(at);
      // A start that never ends is noise: drop it rather than hold keys behind it forever.
      return { pieces, rest: rest.length > MAX_STRING ? '' : rest };
    }
    pieces.push(text.slice(at, end));
    at = textStart = end;
  }
  flushText(at);
  return { pieces, rest: '' };
}

/** Where the escape sequence starting at `start` ends, or 'open' when the text stops inside it. */
function sequenceEnd(text: string, start: number): number | 'open' {
  let at = start + 1;
  // ESC ESC [ … : Alt with a sequence (some terminals).
  if (text[at] === ESC && (text[at + 1] === '[' || text[at + 1] === 'O')) at++;
  if (at >= text.length) return 'open';
  const kind = text[at]!;
  if (kind === '[') {
    const end = csiEnd(text, at + 1);
    if (end === 'open') return text.length - start > MAX_SEQUENCE ? text.length : 'open';
    // Not a sequence after all (a control character inside): ESC [ alone, the rest is read again.
    return end === 'bad' ? at + 1 : end;
  }
  if (kind === 'O') {
    // SS3, possibly with a modifier digit (`ESC O 5 P`).
    let end = at + 1;
    while (end < text.length && /[0-9;]/.test(text[end]!)) end++;
    if (end >= text.length) return 'open';
    return end + 1;
  }
  if (kind === ']' || kind === 'P' || kind === 'X' || kind === '^' || kind === '_') {
    return stringEnd(text, at + 1);
  }
  // Alt with one character (a whole one: a surrogate pair stays together).
  const point = text.codePointAt(at)!;
  return at + (point > 0xffff ? 2 : 1);
}

/** Modifier bits as xterm numbers them (the parameter is 1 + bits). */
const SHIFT = 1;
const ALT = 2;
const CTRL = 4;

/** Keys Ink names, by the final byte of `CSI 1;m X` / `SS3 X`. */
const LETTER_KEYS: Record<string, string> = { A: 'A', B: 'B', C: 'C', D: 'D', H: 'H', F: 'F' };
/** Keys Ink names, by the number of `CSI n ~`; rxvt's 7 and 8 are Home and End. */
const TILDE_KEYS: Record<number, number> = { 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 1, 8: 4 };
/** The keypad in application mode (SS3), as the characters it types. */
const KEYPAD: Record<string, string> = {
  M: '\r', j: '*', k: '+', l: ',', m: '-', n: '.', o: '/', X: '=',
  p: '0', q: '1', r: '2', s: '3', t: '4', u: '5', v: '6', w: '7', x: '8', y: '9',
};
/** Kitty's codes for keys with no character, that a person would expect to work. */
const KITTY_FUNCTIONAL: Record<number, string> = {
  57399: '0', 57400: '1', 57401: '2', 57402: '3', 57403: '4', 57404: '5', 57405: '6', 57406: '7', 57407: '8', 57408: '9',
  57409: '.', 57410: '/', 57411: '*', 57412: '-', 57413: '+', 57414: '\r', 57415: '=',
  57417: `${ESC}[D`, 57418: `${ESC}[C`, 57419: `${ESC}[A`, 57420: `${ESC}[B`,
  57421: `${ESC}[5~`, 57422: `${ESC}[6~`, 57423: `${ESC}[H`, 57424: `${ESC}[F`, 57426: FORWARD_DELETE,
};

/** A navigation key with its Shift/Alt/Ctrl modifiers, in the xterm form Ink parses. */
function navigation(base: { letter: string } | { tilde: number }, bits: number): string {
  const mods = bits & (SHIFT | ALT | CTRL);
  if ('letter' in base) return mods ? `${ESC}[1;${mods + 1}${base.letter}` : `${ESC}[${base.letter}`;
  return mods ? `${ESC}[${base.tilde};${mods + 1}~` : `${ESC}[${base.tilde}~`;
}

/** The modifier bits of a `1 + bits` parameter ("5", or kitty's "5:1" with an event type). */
function modifierBits(param: string | undefined): { bits: number; release: boolean } {
  const [mods, event] = (param ?? '').split(':');
  const value = Number(mods || '1');
  return { bits: Number.isInteger(value) && value >= 1 ? value - 1 : 0, release: event === '3' };
}

/** Modifiers that make a chord the desktop's (Super, Hyper, Meta), never the dashboard's. */
const FOREIGN = ~(SHIFT | ALT | CTRL | 64 | 128);

/**
 * A key given as a Unicode code point with modifiers (kitty `CSI u`, modifyOtherKeys); `shifted`
 * is the code point with Shift applied, where the terminal says it.
 */
function codepointKey(point: number, bits: number, text: string | undefined, shifted?: number): string | undefined {
  if (bits & FOREIGN) return undefined;
  if (KITTY_FUNCTIONAL[point] !== undefined) return bits & (CTRL | ALT) ? undefined : KITTY_FUNCTIONAL[point];
  if (point === 27) return bits & ALT ? ALT_ESC_KEY : ESC_KEY;
  if (point === 13) return bits & ALT ? `${ESC}\r` : '\r';
  if (point === 9) return bits & SHIFT ? `${ESC}[Z` : '\t';
  if (point === 127 || point === 8) return bits & ALT ? `${ESC}\u007f` : '\u007f';
  // Controls, surrogates and the private use area (kitty's other functional keys: media,
  // modifiers alone, F13 and up) are no keys here.
  if (!isCharacter(point)) return undefined;
  const char = String.fromCodePoint(point);
  if (bits & CTRL) {
    // Ctrl with a letter is its control character; other Ctrl chords have no key here.
    const lower = char.toLowerCase();
    return !(bits & ALT) && lower >= 'a' && lower <= 'z' ? String.fromCharCode(lower.charCodeAt(0) - 96) : undefined;
  }
  const typed =
    text ?? (bits & SHIFT ? (shifted !== undefined && isCharacter(shifted) ? String.fromCodePoint(shifted) : char.toUpperCase()) : char);
  if (bits & ALT) return /^[a-zA-Z0-9]$/.test(typed) ? `${ESC}${typed}` : undefined;
  return typed;
}

const isCharacter = (point: number): boolean =>
  Number.isInteger(point) && point >= 32 && point <= 0x10ffff && point !== 0x7f &&
  !(point >= 0x80 && point <= 0x9f) && !(point >= 0xd800 && point <= 0xdfff) && !(point >= 0xe000 && point <= 0xf8ff);

/** Characters that are never typed: C1 controls. */
const C1 = /[\u0080-\u009f]/g;

/**
 * Esc and Alt-Esc as Ink is given them: in the kitty keyboard protocol's form, which Ink 8 takes at
 * once. A lone ESC (or two) Ink holds for 20 ms in case more of a sequence follows, though the
 * pieces it is given here are whole keys already: every Esc would wait that long, after the wait
 * splitInput has already made for a sequence cut between reads.
 */
const ESC_KEY = `${ESC}[27u`;
const ALT_ESC_KEY = `${ESC}[27;3u`;

/**
 * The form of one piece (from splitInput) that Ink is given: text as it is (C1 controls
 * removed), a key in the form Ink knows it by, or undefined for what no key here is.
 */
export function canonicalKey(piece: string): string | undefined {
  if (piece === '') return undefined;
  if (piece[0] !== ESC) {
    if (piece.length === 1 && isControl(piece.charCodeAt(0))) {
      // NUL (Ctrl-Space) and Ctrl-\ ] ^ _ are no keys of ours; the rest are Ctrl letters,
      // Tab, Enter, Backspace.
      const code = piece.charCodeAt(0);
      return code === 0 || (code >= 0x1c && code <= 0x1f) ? undefined : piece;
    }
    const text = piece.replace(C1, '');
    return text === '' ? undefined : text;
  }
  if (piece === ESC) return ESC_KEY;
  let body = piece.slice(1);
  let alt = false;
  if (body[0] === ESC && body.length > 1) {
    alt = true;
    body = body.slice(1);
  }
  if (body[0] === '[') return csiKey(body.slice(1), alt);
  if (body[0] === 'O' && body.length >= 2) return ss3Key(body.slice(1), alt);
  if (alt) return undefined;
  if (body === ESC) return ALT_ESC_KEY;
  // Alt with one character: Ink knows letters, digits, Enter, Backspace and Space.
  if (/^[a-zA-Z0-9\r\u007f\b ]$/.test(body)) return piece;
  return undefined;
}

function ss3Key(body: string, alt: boolean): string | undefined {
  const final = body.at(-1)!;
  const { bits } = modifierBits(body.slice(0, -1) || undefined);
  const extra = alt ? ALT : 0;
  if (LETTER_KEYS[final]) return navigation({ letter: final }, bits | extra);
  if (KEYPAD[final] !== undefined && bits === 0 && !alt) return KEYPAD[final];
  return undefined;
}

function csiKey(body: string, alt: boolean): string | undefined {
  // Private markers (`CSI ?`, `CSI <`, `CSI >`, `CSI =`): reports and mouse, never keys.
  if (/^[<=>?]/.test(body) || body.startsWith('[')) return undefined;
  const final = body.at(-1);
  if (final === undefined) return undefined;
  const params = body.slice(0, -1);
  if (!/^[0-9;:]*$/.test(params)) return undefined;
  const fields = params === '' ? [] : params.split(';');
  const first = fields[0]?.split(':')[0] ?? '';
  const number = first === '' ? 1 : Number(first);
  const { bits, release } = modifierBits(fields[1]);
  if (release) return undefined;
  const extra = alt ? ALT : 0;

  if (final === 'u') {
    // kitty: CSI code[:shifted[:base]] ; mods[:event] ; text u
    const [, shifted] = (fields[0] ?? '').split(':');
    const text = fields[2]
      ?.split(':')
      .map(Number)
      .filter(isCharacter)
      .map((point) => String.fromCodePoint(point))
      .join('');
    return codepointKey(number, bits | extra, text || undefined, shifted ? Number(shifted) : undefined);
  }
  if (final === '~') {
    // modifyOtherKeys: CSI 27 ; mods ; code ~
    if (number === 27 && fields.length >= 3) return codepointKey(Number(fields[2]), bits | extra, undefined);
    const tilde = TILDE_KEYS[number];
    if (tilde === undefined || fields.length > 2) return undefined;
    // Ink names Backspace (DEL) and Delete alike; Delete goes as Ctrl-D, readline's forward delete.
    if (tilde === 3 && (bits | extra) === 0) return FORWARD_DELETE;
    return navigation({ tilde }, bits | extra);
  }
  if (final === 'Z' && fields.length <= 2) return `${ESC}[Z`;
  if (LETTER_KEYS[final] && (first === '' || number === 1) && fields.length <= 2) return navigation({ letter: final }, bits | extra);
  return undefined;
}
