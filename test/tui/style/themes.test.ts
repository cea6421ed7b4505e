// The themes as plain values: the light theme's every text colour readable on white, the
// terminal's background answer read, and what wins over a theme (NO_COLOR, a terminal's colours).
import { describe, expect, it } from 'vitest';
import { backgroundIsLight, contrast, parseBackground, type Rgb } from '../../../src/tui/terminal/background.js';
import { TerminalReader } from '../../../src/tui/keys/terminal-reader.js';
import { changeColor, LIGHT, themeFor, type Theme } from '../../../src/tui/style/theme.js';
import { FakeStdin, reader } from '../../helpers/fake-stdin.js';

const TEXT_COLOURS: (keyof Theme)[] = ['accent', 'muted', 'up', 'down', 'error', 'warning', 'focusBorder'];
/** The background the light theme's exact colours are made for. */
const LIGHT_BACKGROUND = '#ffffff';

/** `#rrggbb` as channels 0 to 1. */
function hexColour(hex: string): Rgb {
  const value = parseInt(hex.slice(1), 16);
  return { r: ((value >> 16) & 255) / 255, g: ((value >> 8) & 255) / 255, b: (value & 255) / 255 };
}

describe('the themes', () => {
  it("a change's colour: up for a rise, down for a fall, none for none, numbers and exact amounts alike", () => {
    for (const theme of [LIGHT, themeFor({ TERM: 'xterm-256color' })]) {
      expect([0.01, 5n].map((rise) => changeColor(theme, rise))).toEqual([theme.up, theme.up]);
      expect([-0.01, -5n].map((fall) => changeColor(theme, fall))).toEqual([theme.down, theme.down]);
      expect([0, 0n, undefined].map((none) => changeColor(theme, none))).toEqual([undefined, undefined, undefined]);
    }
    expect(changeColor(themeFor({ NO_COLOR: '1' }), 3)).toBeUndefined();
  });

  it('light: every text colour at a contrast of 4.5 or more on white (WCAG AA), the border at 3 or more', () => {
    const background = hexColour(LIGHT_BACKGROUND);
    for (const key of TEXT_COLOURS) {
      const ratio = contrast(hexColour(LIGHT[key] as string), background);
      expect(ratio, `light.${key} ${LIGHT[key]}: ${ratio.toFixed(2)}`).toBeGreaterThanOrEqual(4.5);
    }
    // A line, not text: WCAG asks 3 of what is not text.
    expect(contrast(hexColour(LIGHT.border as string), background)).toBeGreaterThanOrEqual(3);
  });

  it('the contrast arithmetic is WCAG\'s: black on white 21, a colour on itself 1', () => {
    expect(contrast(hexColour('#000000'), hexColour('#ffffff'))).toBeCloseTo(21, 5);
    expect(contrast(hexColour('#777777'), hexColour('#777777'))).toBe(1);
    expect(contrast(hexColour('#767676'), hexColour('#ffffff'))).toBeCloseTo(4.54, 2);
  });

  it('NO_COLOR and a terminal without colour win over any theme; mono has none; 16 colours keep to the basic ones', () => {
    for (const theme of ['dark', 'light', 'mono'] as const) {
      expect(themeFor({ NO_COLOR: '1', TERM: 'xterm-256color' }, 'auto', theme).color).toBe(false);
      expect(themeFor({ TERM: 'vt100' }, 'auto', theme).color).toBe(false);
    }
    expect(themeFor({ TERM: 'xterm-256color' }, 'auto', 'mono').color).toBe(false);
    expect(themeFor({ TERM: 'xterm-256color' }, 'auto', 'light').accent).toBe('#005f87');
    const linuxLight = themeFor({ TERM: 'linux' }, 'auto', 'light');
    expect([linuxLight.accent, linuxLight.warning]).toEqual(['blue', 'magenta']);
    expect(themeFor({ TERM: 'linux' }, 'auto', 'dark').warning).toBe('yellow');
    // Exact colours only where the terminal says it has 256 or more (else they become the
    // nearest of 16, the greys black): named ones with grey otherwise.
    expect(themeFor({ TERM: 'xterm' }, 'auto', 'dark')).toMatchObject({ border: 'gray', accent: 'cyan' });
    expect(themeFor({ TERM: 'screen' }, 'auto', 'light')).toMatchObject({ border: 'gray', accent: 'blue' });
    expect(themeFor({ TERM: 'xterm', COLORTERM: 'truecolor' }, 'auto', 'light').accent).toBe('#005f87');
    // Dark keeps the terminal's own colours, which its user chose for their background.
    expect(themeFor({ TERM: 'xterm-256color' }, 'auto', 'dark')).toMatchObject({ accent: 'cyan', border: 'gray' });
    expect(themeFor({ TERM: 'tmux-256color' }, 'auto', 'light').accent).toBe('#005f87');
  });
});

describe('the terminal\'s background', () => {
  it('reads xterm\'s answer with 1 to 4 hex digits a channel, BEL or ST, and tells light from dark', () => {
    expect(parseBackground('\u001b]11;rgb:ffff/ffff/ffff\u0007')).toEqual({ r: 1, g: 1, b: 1 });
    expect(parseBackground('\u001b]11;rgb:00/2b/36\u001b\\')).toEqual({ r: 0, g: 0x2b / 255, b: 0x36 / 255 });
    expect(parseBackground('\u001b]11;rgba:fdf6/e3e3/fdf6/ffff\u0007')).toBeDefined();
    expect(parseBackground('\u001b]11;?\u0007')).toBeUndefined();
    expect(parseBackground('garbage')).toBeUndefined();
    expect(backgroundIsLight(parseBackground('\u001b]11;rgb:fdfd/f6f6/e3e3\u0007')!)).toBe(true); // Solarized light
    expect(backgroundIsLight(parseBackground('\u001b]11;rgb:0000/2b2b/3636\u0007')!)).toBe(false); // Solarized dark
    expect(backgroundIsLight(parseBackground('\u001b]11;rgb:1e1e/1e1e/1e1e\u0007')!)).toBe(false);
  });

  it('arriving among keys, the answer is told apart: said once as the background, never typed', () => {
    const source = new FakeStdin();
    const input = new TerminalReader(source);
    const answers: string[] = [];
    input.on('background', (answer: string) => answers.push(answer));
    const typed = reader(input);
    source.send('j\u001b]11;rgb:ffff/ffff/ffff\u001b\\k');
    expect(answers).toEqual(['\u001b]11;rgb:ffff/ffff/ffff\u001b\\']);
    expect(typed).toEqual(['j', 'k']);
    expect(backgroundIsLight(parseBackground(answers[0]!)!)).toBe(true);
    input.detach();
  });
});
