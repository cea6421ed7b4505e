// The characters and colours the dashboard draws with, chosen from the locale, the terminal and
// the settings: plain functions of the environment.
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { readConfigFile } from '../../../src/config/config-file.js';
import { ASCII, asciiLine, glyphsFor, localeIsUtf8, toAscii, UNICODE } from '../../../src/tui/style/glyphs.js';
import { colorsFor, themeFor } from '../../../src/tui/style/theme.js';
import { footerLine } from '../../../src/tui/chrome/Footer.js';
import { sparkline } from '../../../src/tui/ticker/Sparkline.js';
import { fit, truncate } from '../../../src/text/width.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ASCII_ONLY = /^[\u0000-\u007f]*$/;
const UTF8 = { LANG: 'en_US.UTF-8', TERM: 'xterm-256color' };

describe('the locale', () => {
  it('is UTF-8 by the first of LC_ALL, LC_CTYPE and LANG that is set', () => {
    expect(localeIsUtf8({ LANG: 'en_GB.UTF-8' })).toBe(true);
    expect(localeIsUtf8({ LANG: 'de_DE.utf8' })).toBe(true);
    expect(localeIsUtf8({ LC_CTYPE: 'C.UTF-8', LANG: 'C' })).toBe(true);
    expect(localeIsUtf8({ LC_ALL: 'C', LC_CTYPE: 'en_US.UTF-8', LANG: 'en_US.UTF-8' })).toBe(false);
    expect(localeIsUtf8({ LC_CTYPE: 'POSIX', LANG: 'en_US.UTF-8' })).toBe(false);
    expect(localeIsUtf8({ LANG: 'en_US.ISO-8859-1' })).toBe(false);
    // Empty counts as unset, as for C programs.
    expect(localeIsUtf8({ LC_ALL: '', LANG: 'en_US.UTF-8' })).toBe(true);
  });

  it('unset, C or POSIX is not UTF-8', () => {
    expect(localeIsUtf8({})).toBe(false);
    expect(localeIsUtf8({ LANG: 'C' })).toBe(false);
    expect(localeIsUtf8({ LC_ALL: 'POSIX' })).toBe(false);
  });
});

describe('glyphsFor', () => {
  it('draws Unicode on a UTF-8 terminal that can, ASCII elsewhere', () => {
    expect(glyphsFor(UTF8)).toBe(UNICODE);
    expect(glyphsFor({ ...UTF8, LANG: 'C' })).toBe(ASCII);
    expect(glyphsFor({ TERM: 'xterm' })).toBe(ASCII);
    for (const term of ['linux', 'vt100', 'vt220', 'vt102', 'cons25', 'linux-16color']) {
      expect(glyphsFor({ ...UTF8, TERM: term }), term).toBe(ASCII);
    }
    for (const term of ['xterm', 'screen-256color', 'tmux-256color', 'rxvt-unicode', 'alacritty']) {
      expect(glyphsFor({ ...UTF8, TERM: term }), term).toBe(UNICODE);
    }
  });

  it('the setting forces either way; TICKBOOK_GLYPHS over the config; a bad value is auto', () => {
    expect(glyphsFor({ LANG: 'C', TERM: 'linux' }, 'unicode')).toBe(UNICODE);
    expect(glyphsFor(UTF8, 'ascii')).toBe(ASCII);
    expect(glyphsFor({ ...UTF8, TICKBOOK_GLYPHS: 'ascii' }, 'unicode')).toBe(ASCII);
    expect(glyphsFor({ LANG: 'C', TICKBOOK_GLYPHS: 'unicode' }, 'ascii')).toBe(UNICODE);
    expect(glyphsFor({ ...UTF8, TICKBOOK_GLYPHS: 'fancy' })).toBe(UNICODE);
  });

  it('the ASCII set draws only ASCII, borders of + - | and the like', () => {
    const strings: string[] = [];
    const collect = (value: unknown): void => {
      if (typeof value === 'string') strings.push(value);
      else if (Array.isArray(value)) value.forEach(collect);
      else if (value && typeof value === 'object') Object.values(value).forEach(collect);
    };
    collect(ASCII);
    expect(strings.length).toBeGreaterThan(30);
    for (const s of strings) expect(s, s).toMatch(ASCII_ONLY);
    expect(ASCII.border.pane).toMatchObject({ topLeft: '+', top: '-', left: '|' });
    expect(ASCII.ellipsis).toBe('...');
    expect([ASCII.up, ASCII.down]).toEqual(['^', 'v']);
  });

  it('each Unicode glyph has an ASCII one of no more columns where the layout counts them', () => {
    for (const key of ['focusMarker', 'pointer', 'edit', 'check', 'cross', 'dot', 'up', 'down', 'flat', 'bar', 'separator'] as const) {
      expect(stringWidth(ASCII[key]), key).toBe(stringWidth(UNICODE[key]));
    }
    expect(ASCII.bars.length).toBe(UNICODE.bars.length);
  });
});

describe('text in ASCII', () => {
  it('fixed text: arrows, dots, ellipses and dashes as ASCII', () => {
    expect(toAscii('j/↓ down · more → 40×10 1–5 loading…')).toBe('j/v down - more -> 40x10 1-5 loading...');
    expect(toAscii('plain')).toBe('plain');
  });

  it('a drawn line keeps its columns: box drawing as + - |, anything else as ? in each column', () => {
    const line = '╭─ 田中 ─╮┃ José 👍 ▁▅█ ✓ ▸│';
    const out = asciiLine(line);
    expect(out).toMatch(ASCII_ONLY);
    expect(stringWidth(out)).toBe(stringWidth(line));
    expect(out).toBe('+- ???? -+| Jos? ?? ### * >|');
    // Styles stay.
    expect(asciiLine('\u001b[7m▲1\u001b[27m')).toBe('\u001b[7m^1\u001b[27m');
  });

  it('cut text ends in "..." and still fits its columns', () => {
    expect(truncate('hello world', 8, ASCII.ellipsis)).toBe('hello...');
    expect(fit('hello world', 8, 'right', '...')).toBe('hello...');
    expect(truncate('hello', 2, '...')).toBe('h.');
    expect(truncate('hello', 1, '...')).toBe('.');
  });

  it('the footer and the sparkline of the ASCII set are ASCII', () => {
    for (const width of [40, 80, 200]) {
      const line = footerLine(['ticker', 'global'], width, 'u: undo', ASCII);
      expect(line).toMatch(ASCII_ONLY);
      expect(stringWidth(line)).toBe(width);
    }
    expect(footerLine(['ticker', 'global'], 200, undefined, ASCII)).toMatch(/ x remove - .* \| /);
    expect(sparkline([1, 2, 3, 4, 5, 6, 7, 8], 8, ASCII.bars)).toBe('_.,-=+*#');
  });
});

describe('colours', () => {
  it('none without colour: NO_COLOR, FORCE_COLOR=0, a VT100', () => {
    expect(colorsFor({ NO_COLOR: '1', TERM: 'xterm' })).toBe('none');
    expect(colorsFor({ FORCE_COLOR: '0', TERM: 'xterm' })).toBe('none');
    expect(colorsFor({ TERM: 'vt100' })).toBe('none');
    expect(colorsFor({ TERM: 'vt220' })).toBe('none');
    expect(themeFor({ FORCE_COLOR: '0' }).color).toBe(false);
  });

  it('the Linux console gets its eight colours, never a bright one', () => {
    expect(colorsFor({ TERM: 'linux' })).toBe('16');
    const theme = themeFor({ TERM: 'linux' });
    const eight = new Set(['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white', undefined]);
    for (const [key, value] of Object.entries(theme)) if (key !== 'color') expect(eight.has(value as string | undefined), `${key}: ${value}`).toBe(true);
    expect(theme.color).toBe(true);
  });

  it('others get every colour; the setting and TICKBOOK_COLORS force either way', () => {
    expect(colorsFor({ TERM: 'xterm-256color' })).toBe('256');
    expect(colorsFor({ TERM: 'xterm-256color' }, 'none')).toBe('none');
    expect(colorsFor({ NO_COLOR: '1' }, '256')).toBe('256');
    expect(colorsFor({ TERM: 'linux', TICKBOOK_COLORS: 'none' }, '256')).toBe('none');
    expect(colorsFor({ TERM: 'vt100', TICKBOOK_COLORS: '16' })).toBe('16');
    expect(themeFor({ TERM: 'xterm' }, 'none').accent).toBeUndefined();
  });
});

describe('the config keys "glyphs" and "colors"', () => {
  it('are read when valid; a bad value is a warning, as for interval, and left unused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tickbook-glyphs-'));
    try {
      const path = join(dir, 'config.json');
      writeFileSync(path, JSON.stringify({ glyphs: 'ascii', colors: '16' }));
      expect(readConfigFile(path).config).toMatchObject({ glyphs: 'ascii', colors: '16' });
      writeFileSync(path, JSON.stringify({ glyphs: 'ASCII', colors: 256 }));
      const read = readConfigFile(path);
      expect(read.config.glyphs).toBeUndefined();
      expect(read.config.colors).toBeUndefined();
      expect(read.malformed.glyphs).toMatch(/"auto", "unicode" or "ascii"/);
      expect(read.malformed.colors).toMatch(/"auto", "none", "16" or "256"/);
      expect(read.warnings.join('\n')).toMatch(/glyphs must be/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
