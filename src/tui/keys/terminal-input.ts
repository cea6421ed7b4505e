// What a terminal sends, cut into key sequences, and each sequence named: the one parser every
// key passes. A sequence is a key of these tables, by the name the keymap binds ("j", "up",
// "ctrl-w", "shift-tab"), or nothing: a modifier on a key with no binding (Ctrl-F1, `CSI 1;5G`),
// a report, or `CSI 31m` typed back at us is dropped, never typed.
// The grammar is ECMA-48's (CSI, SS3, the string controls OSC/DCS/SOS/PM/APC), plus the kitty
// keyboard protocol's `CSI … u` and xterm's modifyOtherKeys `CSI 27;m;c ~`.

const ESC = '\u001b';
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

/** One key press: the name its binding is found by, and the text it types into a field, if any. */
export interface KeyPress {
  name: string;
  /** The characters a field is given ("a", "A", "é", " "); none for keys that type nothing. */
  text?: string;
}

const named = (name: string): KeyPress => ({ name });
/** A character typed: named by itself, but Space, which has a name a binding can spell. */
const typed = (char: string): KeyPress => ({ name: char === ' ' ? 'space' : char, text: char });

/**
 * Navigation keys by the final byte of `CSI 1;m X` / `SS3 X`. Modifiers on them are not told
 * apart: Ctrl-Right moves as Right does, as readline's fields let it.
 */
const LETTER_KEYS: Record<string, string> = { A: 'up', B: 'down', C: 'right', D: 'left', H: 'home', F: 'end' };
/** Keys by the number of `CSI n ~`; rxvt's 7 and 8 are Home and End. Insert (2) is no key here. */
const TILDE_KEYS: Record<number, string> = { 1: 'home', 3: 'delete', 4: 'end', 5: 'pageup', 6: 'pagedown', 7: 'home', 8: 'end' };
/** The keypad in application mode (SS3), as the characters it types. */
const KEYPAD: Record<string, string> = {
  j: '*', k: '+', l: ',', m: '-', n: '.', o: '/', X: '=',
  p: '0', q: '1', r: '2', s: '3', t: '4', u: '5', v: '6', w: '7', x: '8', y: '9',
};
/** Kitty's codes for keys with no character, that a person would expect to work. */
const KITTY_FUNCTIONAL: Record<number, KeyPress> = {
  ...Object.fromEntries([...'0123456789./*-+'].map((char, i) => [[57399, 57400, 57401, 57402, 57403, 57404, 57405, 57406, 57407, 57408, 57409, 57410, 57411, 57412, 57413][i], typed(char)])),
  57414: named('enter'), 57415: typed('='),
  57417: named('left'), 57418: named('right'), 57419: named('up'), 57420: named('down'),
  57421: named('pageup'), 57422: named('pagedown'), 57423: named('home'), 57424: named('end'), 57426: named('delete'),
};

/** The modifier bits of a `1 + bits` parameter ("5", or kitty's "5:1" with an event type). */
function modifierBits(param: string | undefined): { bits: number; release: boolean } {
  const [mods, event] = (param ?? '').split(':');
  const value = Number(mods || '1');
  return { bits: Number.isInteger(value) && value >= 1 ? value - 1 : 0, release: event === '3' };
}

/** Modifiers that make a chord the desktop's (Super, Hyper, Meta), never the dashboard's. */
const FOREIGN = ~(SHIFT | ALT | CTRL | 64 | 128);

/** Ctrl with a letter, by its control character. */
const ctrlLetter = (code: number): KeyPress => named(`ctrl-${String.fromCharCode(code + 96)}`);

/** A letter with Alt: readline's Alt-B and Alt-F; Alt with anything else is no key here. */
const altKey = (char: string): KeyPress | undefined => (/^[a-z]$/i.test(char) ? named(`alt-${char.toLowerCase()}`) : undefined);

/**
 * A key given as a Unicode code point with modifiers (kitty `CSI u`, modifyOtherKeys); `shifted`
 * is the code point with Shift applied, where the terminal says it.
 */
function codepointKey(point: number, bits: number, text: string | undefined, shifted?: number): KeyPress | undefined {
  if (bits & FOREIGN) return undefined;
  if (KITTY_FUNCTIONAL[point] !== undefined) return bits & (CTRL | ALT) ? undefined : KITTY_FUNCTIONAL[point];
  if (point === 27) return named('esc');
  if (point === 13) return named('enter');
  if (point === 9) return named(bits & SHIFT ? 'shift-tab' : 'tab');
  if (point === 127 || point === 8) return named('backspace');
  // Controls, surrogates and the private use area (kitty's other functional keys: media,
  // modifiers alone, F13 and up) are no keys here.
  if (!isCharacter(point)) return undefined;
  const char = String.fromCodePoint(point);
  if (bits & CTRL) {
    // Ctrl with a letter; other Ctrl chords have no key here.
    const lower = char.toLowerCase();
    return !(bits & ALT) && lower >= 'a' && lower <= 'z' ? ctrlLetter(lower.charCodeAt(0) - 96) : undefined;
  }
  const shown =
    text ?? (bits & SHIFT ? (shifted !== undefined && isCharacter(shifted) ? String.fromCodePoint(shifted) : char.toUpperCase()) : char);
  if (bits & ALT) return altKey(shown);
  return typed(shown);
}

const isCharacter = (point: number): boolean =>
  Number.isInteger(point) && point >= 32 && point <= 0x10ffff && point !== 0x7f &&
  !(point >= 0x80 && point <= 0x9f) && !(point >= 0xd800 && point <= 0xdfff) && !(point >= 0xe000 && point <= 0xf8ff);

/** Characters that are never typed: C1 controls. */
const C1 = /[\u0080-\u009f]/g;

/** A control character as a key: Enter, Tab, Backspace, Ctrl with a letter; NUL and Ctrl-\ ] ^ _ are none. */
function controlKey(code: number): KeyPress | undefined {
  if (code === 0x0d || code === 0x0a) return named('enter');
  if (code === 0x09) return named('tab');
  if (code === 0x7f || code === 0x08) return named('backspace');
  if (code >= 0x01 && code <= 0x1a) return ctrlLetter(code);
  return undefined;
}

/**
 * The key presses one piece (from splitInput) stands for: a run of text is a press a character
 * (each typing itself), a sequence is one key or none.
 */
export function keyPresses(piece: string): KeyPress[] {
  if (piece === '') return [];
  if (piece[0] !== ESC) {
    if (piece.length === 1 && isControl(piece.charCodeAt(0))) {
      const key = controlKey(piece.charCodeAt(0));
      return key ? [key] : [];
    }
    return [...piece.replace(C1, '')].map(typed);
  }
  const key = sequenceKey(piece);
  return key ? [key] : [];
}

function sequenceKey(piece: string): KeyPress | undefined {
  if (piece === ESC) return named('esc');
  let body = piece.slice(1);
  let alt = false;
  if (body[0] === ESC && body.length > 1) {
    alt = true;
    body = body.slice(1);
  }
  if (body[0] === '[') return csiKey(body.slice(1), alt);
  if (body[0] === 'O' && body.length >= 2) return ss3Key(body.slice(1));
  if (alt) return undefined;
  if (body === ESC) return named('esc');
  // Alt with Enter or Backspace is the key itself; with a letter, readline's Alt-B and Alt-F.
  if (body === '\r') return named('enter');
  if (body === '\u007f' || body === '\b') return named('backspace');
  return altKey(body);
}

function ss3Key(body: string): KeyPress | undefined {
  const final = body.at(-1)!;
  const { bits } = modifierBits(body.slice(0, -1) || undefined);
  if (LETTER_KEYS[final]) return named(LETTER_KEYS[final]);
  if (final === 'M' && bits === 0) return named('enter');
  if (KEYPAD[final] !== undefined && bits === 0) return typed(KEYPAD[final]);
  return undefined;
}

function csiKey(body: string, alt: boolean): KeyPress | undefined {
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
    const name = TILDE_KEYS[number];
    return name === undefined || fields.length > 2 ? undefined : named(name);
  }
  if (final === 'Z' && fields.length <= 2) return named('shift-tab');
  if (LETTER_KEYS[final] && (first === '' || number === 1) && fields.length <= 2) return named(LETTER_KEYS[final]);
  return undefined;
}
