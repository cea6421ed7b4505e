// Colours in one place. Where the terminal has none (NO_COLOR, FORCE_COLOR=0, a VT100) there are
// none, and every change stays readable by its arrow or sign alone; the Linux console gets the
// eight colours it has, never the bright ones.
import { createContext, useContext } from 'react';

export type ColorSetting = 'auto' | 'none' | '16' | '256';
export const COLOR_SETTINGS: readonly ColorSetting[] = ['auto', 'none', '16', '256'];

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

const FULL: Theme = { ...SIXTEEN, muted: 'gray', border: 'gray' };

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

export function themeFor(env: Env = process.env, configured: ColorSetting = 'auto'): Theme {
  const colors = colorsFor(env, configured);
  return colors === 'none' ? NONE : colors === '16' ? SIXTEEN : FULL;
}

export const ThemeContext = createContext<Theme>(themeFor({}));

export const useTheme = (): Theme => useContext(ThemeContext);
