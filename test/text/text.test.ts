// Text shown in a terminal: sanitising server text, column widths, truncation and padding, and
// how times read.
import stringWidth from 'string-width';
import { afterEach, describe, expect, it } from 'vitest';
import { drawn as shown, sanitize, typedText } from '../../src/text/sanitize.js';
import { absoluteTime, duration, relativeTime } from '../../src/text/time.js';
import { fit, fitEntries, truncate, truncateKeeping, width } from '../../src/text/width.js';

const ESC = '\u001b';
const BEL = '\u0007';
const ST = `${ESC}\\`;

/** Nothing a terminal could act on: no C0/C1 control, DEL, line separator or bidi control. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

function expectInert(text: string): void {
  expect(UNSAFE.test(text), JSON.stringify(text)).toBe(false);
}

describe('sanitize', () => {
  it('removes CSI colour codes and keeps the text between them', () => {
    const out = sanitize(`${ESC}[31mred${ESC}[0m and ${ESC}[1;38;5;196mbold${ESC}[m`);
    expect(out).toBe('red and bold');
    expectInert(out);
  });

  it('removes cursor movement and screen clearing', () => {
    const out = sanitize(`${ESC}[2J${ESC}[H${ESC}[10;20Hhere${ESC}[3A${ESC}[K${ESC}[?25l${ESC}[?1049h`);
    expect(out).toBe('here');
  });

  it('removes OSC 8 hyperlinks terminated by ST and by BEL, keeping the visible text', () => {
    expect(sanitize(`see ${ESC}]8;;https://evil.example/${ST}click${ESC}]8;;${ST} now`)).toBe('see click now');
    expect(sanitize(`${ESC}]8;;https://evil.example/${BEL}link${ESC}]8;;${BEL}`)).toBe('link');
  });

  it('removes OSC title sequences with BEL and ST terminators, and an unterminated one entirely', () => {
    expect(sanitize(`${ESC}]0;pwned title${BEL}rest`)).toBe('rest');
    expect(sanitize(`${ESC}]2;pwned title${ST}rest`)).toBe('rest');
    const unterminated = sanitize(`name${ESC}]0;swallow the rest`);
    expect(unterminated).toBe('name');
  });

  it('removes 8-bit C1 introducers: CSI \\u009b, OSC \\u009d … ST \\u009c, DCS \\u0090', () => {
    expect(sanitize('x\u009b31my')).toBe('xy');
    expect(sanitize('\u009d0;title\u009cafter')).toBe('after');
    expect(sanitize(`\u0090qdata${ST}after`)).toBe('after');
    expectInert(sanitize('a\u009b2Jb\u0085c'));
  });

  it('removes DCS, APC and PM strings', () => {
    expect(sanitize(`${ESC}Pdevice control${ST}a${ESC}_app${ST}b${ESC}^privacy${ST}c`)).toBe('abc');
  });

  it('removes a bare ESC, whether alone, at the end, or before an ordinary character (ESC c resets a terminal)', () => {
    for (const input of [`a${ESC}`, `${ESC}a`, `a${ESC}cb`, `${ESC}${ESC}[31mz`, `${ESC}[31`]) {
      const out = sanitize(input);
      expect(out.includes(ESC), JSON.stringify(input)).toBe(false);
      expectInert(out);
    }
    expect(sanitize(`abc${ESC}`)).toBe('abc');
  });

  it('turns NUL, BEL, backspace, CR, LF, tab, DEL and C1 controls into spaces: one line of printable text', () => {
    const out = sanitize('n\u0000b\u0007c\u0008d\re\nf\tg\u007fh\u0085i');
    expect(out).toBe('n b c d e f g h i');
    expect(out.split('\n')).toHaveLength(1);
    expectInert(sanitize('line\u2028sep\u2029para'));
  });

  it('removes bidi overrides and isolates, which could reorder what the line shows', () => {
    for (const control of ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069']) {
      const out = sanitize(`invoice${control}fdp.exe`);
      expect(out.includes(control), `U+${control.codePointAt(0)!.toString(16)}`).toBe(false);
      expect(out.replace(' ', '')).toBe('invoicefdp.exe');
    }
  });

  it('leaves ordinary text alone: accents, combining marks, CJK, emoji and flags', () => {
    for (const text of [
      'José Álvarez-Núñez',
      'e\u0301cole',
      '田中健二',
      '김민준',
      'Grandpa Joe 👴',
      '🇯🇵 🇫🇷',
      'Ωμέγα — “quoted” ‘text’ …',
      'plain ASCII with  two spaces',
    ]) {
      expect(sanitize(text)).toBe(text);
    }
  });

  it('keeps the visible text of a hostile mix and leaves nothing actionable', () => {
    const hostile = `${ESC}]0;title${BEL}${ESC}[2J\u202eAlice${ESC}[31m\u009b1m\r\nBob${ESC}]8;;http://x${ST}`;
    const out = sanitize(hostile);
    expectInert(out);
    expect(out).toContain('Alice');
    expect(out).toContain('Bob');
  });
});

describe('width', () => {
  it('counts ASCII as 1, CJK as 2, emoji as 2 and combining marks as 0 columns', () => {
    expect(width('abc')).toBe(3);
    expect(width('田中')).toBe(4);
    expect(width('김민준')).toBe(6);
    expect(width('👍')).toBe(2);
    expect(width('👩‍👩‍👧')).toBe(2);
    expect(width('🇯🇵')).toBe(2);
    expect(width('e\u0301')).toBe(1);
    expect(width('')).toBe(0);
  });
});

describe('truncate', () => {
  it('returns text that fits unchanged, with no ellipsis', () => {
    expect(truncate('hello', 5)).toBe('hello');
    expect(truncate('田中', 4)).toBe('田中');
    expect(truncate('', 3)).toBe('');
  });

  it('cuts to at most the given columns and ends with "…"', () => {
    expect(truncate('hello world', 8)).toBe('hello w…');
    expect(width(truncate('hello world', 8))).toBe(8);
    expect(truncate('hello', 1)).toBe('…');
    expect(truncate('hello', 0)).toBe('');
    expect(truncate('hello', -3)).toBe('');
  });

  it('counts CJK as two columns and never exceeds the budget with a half character', () => {
    expect(truncate('田中健二', 5)).toBe('田中…');
    expect(truncate('田中健二', 4)).toBe('田…');
    for (let columns = 1; columns <= 9; columns++) {
      const cut = truncate('田中健二abc', columns);
      expect(width(cut), `columns ${columns}: ${cut}`).toBeLessThanOrEqual(columns);
    }
  });

  it('never splits a grapheme: ZWJ emoji, flags and combining marks stay whole', () => {
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    const graphemes = (text: string) => [...segmenter.segment(text)].map((s) => s.segment);
    const cases: [string, string[]][] = [
      ['👩‍👩‍👧👩‍👩‍👧👩‍👩‍👧', ['👩‍👩‍👧']],
      ['🇯🇵🇫🇷🇩🇪', ['🇯🇵', '🇫🇷', '🇩🇪']],
      ['e\u0301e\u0301e\u0301e\u0301', ['e\u0301']],
      ['👍🏽👍🏽👍🏽', ['👍🏽']],
    ];
    for (const [text, allowed] of cases) {
      for (let columns = 1; columns < width(text); columns++) {
        const cut = truncate(text, columns);
        expect(cut.endsWith('…'), `${text} at ${columns}`).toBe(true);
        expect(width(cut)).toBeLessThanOrEqual(columns);
        for (const piece of graphemes(cut.slice(0, -1))) expect(allowed, `${text} at ${columns}`).toContain(piece);
      }
    }
    expect(truncate('👩‍👩‍👧👩‍👩‍👧', 3)).toBe('👩‍👩‍👧…');
    expect(truncate('e\u0301e\u0301e\u0301', 2)).toBe('e\u0301…');
  });
});

describe('fit', () => {
  it('pads to exactly the width, left and right aligned', () => {
    expect(fit('ab', 5)).toBe('ab   ');
    expect(fit('ab', 5, 'left')).toBe('ab   ');
    expect(fit('ab', 5, 'right')).toBe('   ab');
    expect(fit('abcde', 5)).toBe('abcde');
  });

  it('cuts with "…" and still lands on exactly the width', () => {
    expect(fit('abcdefgh', 5)).toBe('abcd…');
    expect(fit('abcdefgh', 5, 'right')).toBe('abcd…');
  });

  it('measures CJK and emoji in columns: the result is always exactly the asked width', () => {
    expect(fit('田中', 6)).toBe('田中  ');
    expect(fit('田中', 6, 'right')).toBe('  田中');
    // Four columns before "…" would split 健 in half: it is left out and a space makes up the width.
    expect(fit('田中健二', 6)).toBe('田中… ');
    expect(fit('田中健二', 6, 'right')).toBe(' 田中…');
    for (const text of ['田中健二', 'Grandpa Joe 👴', '👩‍👩‍👧 family', 'José', 'e\u0301e\u0301', '']) {
      for (let columns = 0; columns <= 16; columns++) {
        expect(width(fit(text, columns)), `${text} left ${columns}`).toBe(columns);
        expect(width(fit(text, columns, 'right')), `${text} right ${columns}`).toBe(columns);
      }
    }
  });
});

describe('fitEntries', () => {
  const entries = [
    { text: '3 symbols', rank: 3 },
    { text: 'by session change', rank: 4 },
    { text: 'last prices 2 min ago', rank: 2 },
    { text: 'retry in 4m 59s', rank: 1 },
  ];

  it('joins every entry when they fit', () => {
    expect(fitEntries(entries, 80)).toBe('3 symbols · by session change · last prices 2 min ago · retry in 4m 59s');
  });

  it('drops the least important whole entries first, keeping the order of the rest', () => {
    expect(fitEntries(entries, 60)).toBe('3 symbols · last prices 2 min ago · retry in 4m 59s');
    expect(fitEntries(entries, 45)).toBe('last prices 2 min ago · retry in 4m 59s');
    expect(fitEntries(entries, 20)).toBe('retry in 4m 59s');
  });

  it('cuts only the last entry left, when even it does not fit', () => {
    expect(fitEntries(entries, 10)).toBe('retry in …');
  });

  it('among equal ranks drops the later entry, and skips empty ones', () => {
    expect(fitEntries([{ text: 'a b' }, { text: '' }, { text: 'c d' }, { text: 'e f' }], 9)).toBe('a b · c d');
  });

  it('measures wide text by its columns', () => {
    expect(fitEntries([{ text: '日本語' }, { text: 'x' }], 7)).toBe('日本語');
  });
});

describe('duration', () => {
  it.each([
    [0, '0s'],
    [0.2, '1s'],
    [59, '59s'],
    [60, '1m 00s'],
    [299.5, '5m 00s'],
    [3599, '59m 59s'],
    [3600, '1h 00m'],
    [999_999, '277h 46m'],
  ])('%s s → %s', (seconds, text) => {
    expect(duration(seconds)).toBe(text);
  });
});

describe('relativeTime', () => {
  const now = new Date('2026-11-21T12:00:00.000Z');
  const ago = (seconds: number) => relativeTime(new Date(now.getTime() - seconds * 1000), now);

  it('says "just now" within ten seconds either way', () => {
    expect(ago(0)).toBe('just now');
    expect(ago(9)).toBe('just now');
    expect(ago(-5)).toBe('just now');
  });

  it('names the largest whole unit, rounding down', () => {
    expect(ago(10)).toBe('10 s ago');
    expect(ago(59)).toBe('59 s ago');
    expect(ago(60)).toBe('1 min ago');
    expect(ago(5 * 60 + 59)).toBe('5 min ago');
    expect(ago(3600)).toBe('1 h ago');
    expect(ago(3 * 3600 + 1800)).toBe('3 h ago');
    expect(ago(86_400)).toBe('1 d ago');
    expect(ago(3 * 86_400)).toBe('3 d ago');
    expect(ago(29 * 86_400)).toBe('29 d ago');
    expect(ago(60 * 86_400)).toBe('2 mo ago');
    expect(ago(2 * 365 * 86_400)).toBe('2 y ago');
  });

  it('speaks of the future as "in …"', () => {
    expect(ago(-5 * 60)).toBe('in 5 min');
    expect(ago(-2 * 86_400)).toBe('in 2 d');
  });

  it('uses the current time by default', () => {
    expect(relativeTime(new Date())).toBe('just now');
    expect(relativeTime(new Date(Date.now() - 120_000))).toBe('2 min ago');
  });
});

describe('absoluteTime', () => {
  const savedTz = process.env.TZ;
  afterEach(() => {
    if (savedTz === undefined) delete process.env.TZ;
    else process.env.TZ = savedTz;
  });

  const instant = new Date('2026-11-21T23:59:01.123Z');

  it('prints the time to the second with the zone offset, in UTC', () => {
    process.env.TZ = 'UTC';
    expect(absoluteTime(instant)).toBe('2026-11-21 23:59:01 +00:00');
  });

  it('shifts to the user zone, across midnight, with half-hour offsets of either sign', () => {
    process.env.TZ = 'Asia/Kolkata';
    expect(absoluteTime(instant)).toBe('2026-11-22 05:29:01 +05:30');
    process.env.TZ = 'America/New_York';
    expect(absoluteTime(instant)).toBe('2026-11-21 18:59:01 -05:00');
    process.env.TZ = 'America/St_Johns';
    expect(absoluteTime(instant)).toBe('2026-11-21 20:29:01 -03:30');
  });
});

// What the terminal draws and what Ink and width() count must agree for every character left:
// Ink gives each grapheme at least one column; a terminal draws each code point by itself.
describe('drawn (the dashboard): every character shown takes the columns counted for it', () => {
  const columns = (text: string): number => [...text].reduce((sum, char) => sum + stringWidth(char), 0);
  const graphemes = (text: string): string[] => Array.from(new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text), (s) => s.segment);
  const TRICKY = [
    'a\u200Bb', // zero-width space
    'a\u200Db', // zero-width joiner
    'a\u200Eb\u200Fc', // LRM, RLM
    '\uFEFFBOM', // byte-order mark
    'a\u2060b', // word joiner
    'soft\u00ADhyphen',
    'a\u3164b\u115F', // Hangul fillers
    '\u0600a', // Arabic number sign (a prepended format character)
    '\u2764\uFE0F \u231A\uFE0E', // variation selectors
    '\u{1F44D}\u{1F3FD}', // skin tone
    '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}', // an emoji ZWJ sequence
    '\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}', // tag sequence
    '1\uFE0F\u20E3', // keycap
    '\u0301x', // a mark with nothing to sit on
    '\u0915\u094D\u0937', // a Devanagari conjunct
    'Ideo\u3000space',
  ];

  it('drops format characters, variation selectors, skin tones and other default-ignorables', () => {
    expect(shown('a\u200Bb')).toBe('ab');
    expect(shown('Zed\u200B\u200FYZ')).toBe('ZedYZ');
    expect(shown('\uFEFFBOM')).toBe('BOM');
    expect(shown('soft\u00ADhyphen')).toBe('softhyphen');
    expect(shown('\u2764\uFE0F')).toBe('\u2764');
    expect(shown('\u{1F44D}\u{1F3FD}')).toBe('\u{1F44D}');
    // A ZWJ sequence shows as its emoji side by side, as most terminals draw it.
    expect(shown('\u{1F468}\u200D\u{1F469}\u200D\u{1F467} family')).toBe('\u{1F468}\u{1F469}\u{1F467} family');
    // The ideographic space is a visible, two-column space: kept.
    expect(shown('Ideo\u3000space')).toBe('Ideo\u3000space');
  });

  it('leaves no grapheme that a terminal draws wider or narrower than it is counted, nor one of no width', () => {
    for (const text of TRICKY) {
      const clean = shown(text);
      for (const grapheme of graphemes(clean)) {
        expect(stringWidth(grapheme), `${JSON.stringify(text)}: ${JSON.stringify(grapheme)}`).toBeGreaterThan(0);
        expect(columns(grapheme), `${JSON.stringify(text)}: ${JSON.stringify(grapheme)}`).toBe(stringWidth(grapheme));
      }
      expect(width(clean)).toBe(columns(clean));
    }
  });

  it('a row of such names fits its columns exactly, as the terminal draws it', () => {
    for (const text of TRICKY) {
      for (const room of [3, 6, 12]) {
        const cell = fit(shown(`${text} ${text}`), room);
        expect(columns(cell), `${JSON.stringify(text)} in ${room}`).toBe(room);
      }
    }
  });
});

// A value that is saved keeps what it holds: drawing drops a ZWJ, a skin tone, a virama; typing
// and pasting must not.
describe('sanitize and typedText keep what a name needs', () => {
  const NAMES = [
    '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466} family',
    '\u{1F44D}\u{1F3FD}',
    '\u0645\u062D\u0645\u062F\u200C\u0631\u0636\u0627', // Persian with a ZWNJ
    '\u0928\u092E\u0938\u094D\u0924\u0947', // नमस्ते
    '\u0915\u094D\u0937\u0924\u094D\u0930\u093F\u092F', // क्षत्रिय
    '1\uFE0F\u20E3',
    'Jos\u0065\u0301',
  ];
  it.each(NAMES)('%s is kept whole by sanitize and typedText', (name) => {
    expect(sanitize(name)).toBe(name);
    expect(typedText(name)).toBe(name);
  });

  it('typedText drops controls, escapes, a U+FFFD and what draws as nothing on its own', () => {
    expect(typedText('a\u001b[31mb\u0007c')).toBe('abc');
    expect(typedText('Jos\uFFFD')).toBe('Jos');
    expect(typedText('\u200BZed\u200F\uFEFF')).toBe('Zed');
  });
});


describe('truncateKeeping', () => {
  it('cuts the head, never the tail, to the columns given', () => {
    expect(truncateKeeping('Delete Ada Lovelace', '?', 12)).toBe('Delete Ada…?');
    expect(truncateKeeping('deleted 王小明王小明', ' · u: undo (5s)', 26)).toBe('deleted 王… · u: undo (5s)');
    expect(width(truncateKeeping('deleted 王小明王小明', ' · u: undo (5s)', 25))).toBeLessThanOrEqual(25);
  });

  it('whole when it fits; cut as one text when not even the tail and an ellipsis fit', () => {
    expect(truncateKeeping('Delete Ada', '?', 40)).toBe('Delete Ada?');
    expect(truncateKeeping('deleted Ada', ' · u: undo (5s)', 10)).toBe('deleted A…');
  });
});
