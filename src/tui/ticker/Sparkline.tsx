// A sparkline of the prices tickbook has seen, scaled to their own range.
const BARS = '▁▂▃▄▅▆▇█';

export function sparkline(values: readonly number[], width: number): string {
  if (width <= 0) return '';
  const recent = values.slice(-width);
  if (recent.length === 0) return ''.padEnd(width);
  const low = Math.min(...recent);
  const high = Math.max(...recent);
  const span = high - low;
  const line = recent
    .map((v) => (span === 0 ? BARS[3] : BARS[Math.min(BARS.length - 1, Math.floor(((v - low) / span) * BARS.length))]))
    .join('');
  return line.padStart(width);
}
