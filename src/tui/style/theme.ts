// Colours in one place, in themes for a dark and a light background (and mono). Where the
// terminal has none (NO_COLOR, FORCE_COLOR=0, a VT100) there are none, and every change stays
// readable by its arrow or sign alone; the Linux console gets the eight colours it has, never the
// bright ones.
import chalk, { type ForegroundColorName } from 'chalk';
import { createContext, useContext } from 'react';
import { COLOR_VALUES, THEME_VALUES } from '../../config/display-settings.js';

export type ColorSetting = (typeof COLOR_VALUES)[number];
export const COLOR_SETTINGS: readonly ColorSetting[] = COLOR_VALUES;

export interface Theme {
  color: boolean;
  accent: string | undefined;
  muted: string | undefined;
  up: string | undefined;
  down: string | undefined;
  error: string | undefined;
  warning: string | undefined;
  border: string | undefined;
  focusBorder: string | undefined;
}

type Env = Readonly<Record<string, string | undefined>>;

const NONE: Theme = {
  color: false,
  accent: undefined,
  muted: undefined,
  up: undefined,
  down: undefined,
  error: undefined,
  warning: undefined,
  border: undefined,
  focusBorder: undefined,
};

// The eight ANSI colours (30–37) alone: gray is bright black, which the Linux console lacks.
const SIXTEEN: Theme = {
  color: true,
  accent: 'cyan',
  muted: undefined,
  up: 'green',
  down: 'red',
  error: 'red',
  warning: 'yellow',
  border: undefined,
  focusBorder: 'cyan',
};

// The same on a light background: yellow and cyan are unreadable on white, blue and magenta are not.
const SIXTEEN_LIGHT: Theme = { ...SIXTEEN, accent: 'blue', warning: 'magenta', focusBorder: 'blue' };

// The bright colours as well: grey. The dark theme everywhere but the Linux console, and the light
// one where the terminal does not say it has 256 colours.
const NAMED = { dark: { ...SIXTEEN, muted: 'gray', border: 'gray' }, light: { ...SIXTEEN_LIGHT, muted: 'gray', border: 'gray' } } as const;

/**
 * On a light background, with 256 colours and more, exact colours, each text colour at a contrast
 * of 4.5 or more against white (WCAG AA; tested). The dark theme keeps the terminal's own named
 * colours, which its user chose for their background: exact ones would be its choice overridden,
 * and each coloured run's code twice the bytes (bench:tui: 2.5x the changed cells' bytes a tick
 * against 2.7-2.8x with exact colours).
 */
const LIGHT: Theme = {
  color: true,
  accent: '#005f87',
  muted: '#5f5f5f',
  up: '#005f00',
  down: '#af0000',
  error: '#af0000',
  warning: '#875f00',
  border: '#8a8a8a',
  focusBorder: '#005f87',
};

/** The dashboard's themes: chosen from the terminal's background (auto), or named. */
export type ThemeSetting = (typeof THEME_VALUES)[number];
export const THEME_SETTINGS: readonly ThemeSetting[] = THEME_VALUES;

export function isThemeSetting(value: unknown): value is ThemeSetting {
  return typeof value === 'string' && (THEME_SETTINGS as readonly string[]).includes(value);
}

export { LIGHT };

export function isColorSetting(value: unknown): value is ColorSetting {
  return typeof value === 'string' && (COLOR_SETTINGS as readonly string[]).includes(value);
}

/** Terminals without colour (the VTs), and the Linux console, which has eight. */
const MONOCHROME_TERMINALS = /^(?:vt\d+|dumb)(?:-|$)/;
const EIGHT_COLOUR_TERMINALS = /^(?:linux|cons\d+|ansi)(?:-|$)/;

/** How many colours: TICKBOOK_COLORS, else the config's "colors", else what the environment says. */
export function colorsFor(env: Env, configured: ColorSetting = 'auto'): Exclude<ColorSetting, 'auto'> {
  const setting = isColorSetting(env.TICKBOOK_COLORS) ? env.TICKBOOK_COLORS : configured;
  if (setting !== 'auto') return setting;
  // https://no-color.org: any non-empty value turns colour off; FORCE_COLOR=0 says the same.
  if (env.NO_COLOR || env.FORCE_COLOR === '0' || env.FORCE_COLOR === 'false') return 'none';
  const term = env.TERM ?? '';
  if (MONOCHROME_TERMINALS.test(term)) return 'none';
  if (EIGHT_COLOUR_TERMINALS.test(term)) return '16';
  return '256';
}

/**
 * The colours to draw with: none where the terminal has none or NO_COLOR says so (whatever the
 * theme), the eight basic ones on a 16-colour terminal, else the theme's own. `theme` is resolved
 * already: `auto` became dark or light from the terminal's answer (background.ts).
 */
export function themeFor(env: Env = process.env, configured: ColorSetting = 'auto', theme: Exclude<ThemeSetting, 'auto'> = 'dark'): Theme {
  const colors = colorsFor(env, configured);
  if (colors === 'none' || theme === 'mono') return NONE;
  if (colors === '16') return theme === 'light' ? SIXTEEN_LIGHT : SIXTEEN;
  return theme === 'light' && advertises256(env) ? LIGHT : NAMED[theme];
}

/**
 * Whether the terminal says it has 256 colours or more, as Ink's colour library (supports-color)
 * reads it: where it does not, that library turns an exact colour into the nearest of the 16,
 * and the light theme's greens and greys become black.
 */
const advertises256 = (env: Env): boolean => /-256(colou?r)?$/i.test(env.TERM ?? '') || /^(truecolor|24bit)$/i.test(env.COLORTERM ?? '');

export const ThemeContext = createContext<Theme>(themeFor({}));

export const useTheme = (): Theme => useContext(ThemeContext);

/** The colour of a change: the theme's up for a rise, down for a fall, none for no change (or none known). */
export const changeColor = (theme: Theme, change: number | bigint | undefined): string | undefined =>
  change === undefined ? undefined : change > 0 ? theme.up : change < 0 ? theme.down : undefined;

/**
 * `text` in `color` as Ink's `<Text color>` writes it (chalk, the same copy Ink draws with, and
 * Ink's colour forms: named, #hex, ansi256(n), rgb(r,g,b)), for colours written into a line's
 * text instead of a nested Text: each nested Text is several more nodes for React and Ink to go
 * through, on every row of every tick.
 */
export function painted(text: string, color: string | undefined): string {
  return color ? chalkColor(color)(text) : text;
}

const ANSI256 = /^ansi256\(\s?(\d+)\s?\)$/;
const RGB = /^rgb\(\s?(\d+),\s?(\d+),\s?(\d+)\s?\)$/;
const plain = (text: string): string => text;

function chalkColor(color: string): (text: string) => string {
  if (color in chalk) return chalk[color as ForegroundColorName];
  if (color.startsWith('#')) return chalk.hex(color);
  const ansi = ANSI256.exec(color);
  if (ansi) return chalk.ansi256(Number(ansi[1]));
  const rgb = RGB.exec(color);
  if (rgb) return chalk.rgb(Number(rgb[1]), Number(rgb[2]), Number(rgb[3]));
  return plain;
}
