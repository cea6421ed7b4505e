// A sparkline of the prices tickbook has seen, scaled to their own range.
import { UNICODE } from '../style/glyphs.js';

/** `bars`: the levels drawn, lowest first (the glyph set's). */
export function sparkline(values: readonly number[], width: number, bars: readonly string[] = UNICODE.bars): string {
  if (width <= 0) return '';
  const recent = values.slice(-width);
  if (recent.length === 0) return ''.padEnd(width);
  const low = Math.min(...recent);
  const high = Math.max(...recent);
  const span = high - low;
  const line = recent
    .map((v) => (span === 0 ? bars[Math.floor((bars.length - 1) / 2)] : bars[Math.min(bars.length - 1, Math.floor(((v - low) / span) * bars.length))]))
    .join('');
  return line.padStart(width);
}
