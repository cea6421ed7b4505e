// The terminal's background colour, asked for as xterm answers it (OSC 11: "\e]11;?\a" answered
// with "\e]11;rgb:RRRR/GGGG/BBBB" and BEL or ST), for `--theme auto`, and the contrast
// arithmetic the themes are checked with. The dashboard asks as it starts and draws in the dark
// theme meanwhile; the answer, read among the keys (keys/terminal-reader.ts), switches to the light one on
// a light background. A terminal that does not answer keeps the dark theme: nothing waits.
export const BACKGROUND_QUERY = '\u001b]11;?\u0007';

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

/** The colour in an OSC 11 answer (1 to 4 hex digits a channel), or undefined when there is none. */
export function parseBackground(answer: string): Rgb | undefined {
  const match = /\u001b\]11;rgba?:([0-9a-f]{1,4})\/([0-9a-f]{1,4})\/([0-9a-f]{1,4})/i.exec(answer);
  if (!match) return undefined;
  const channel = (hex: string) => parseInt(hex, 16) / (16 ** hex.length - 1);
  return { r: channel(match[1]!), g: channel(match[2]!), b: channel(match[3]!) };
}

/** WCAG's relative luminance of a colour whose channels are 0 to 1. */
export function luminance({ r, g, b }: Rgb): number {
  const linear = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** WCAG's contrast ratio of two colours, 1 to 21. */
export function contrast(a: Rgb, b: Rgb): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** The start of a terminal's answer, to tell it from keys. */
export const BACKGROUND_ANSWER = '\u001b]11;';

/** Light or dark by which of black and white text would stand out more on it. */
export const backgroundIsLight = (rgb: Rgb): boolean => contrast(rgb, { r: 0, g: 0, b: 0 }) > contrast(rgb, { r: 1, g: 1, b: 1 });
