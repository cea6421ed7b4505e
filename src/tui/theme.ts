// Colours in one place; with NO_COLOR set there are none, and every change stays readable by
// its arrow or sign alone.
import { createContext, useContext } from 'react';

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

export function themeFor(env: Readonly<Record<string, string | undefined>> = process.env): Theme {
  // https://no-color.org: any non-empty value turns colour off.
  if (env.NO_COLOR) {
    return {
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
  }
  return {
    color: true,
    accent: 'cyan',
    muted: 'gray',
    up: 'green',
    down: 'red',
    error: 'red',
    warning: 'yellow',
    border: 'gray',
    focusBorder: 'cyan',
  };
}

export const ThemeContext = createContext<Theme>(themeFor({}));

export const useTheme = (): Theme => useContext(ThemeContext);
