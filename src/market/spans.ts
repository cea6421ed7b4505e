// The spans a chart shows, and how far apart two recorded prices may be before the line between
// them would claim prices nobody recorded.
import { DAY_MS, HOUR_MS, MINUTE_MS } from './bars.js';

export type SpanName = '1h' | '1d' | '5d' | '1m' | 'all';

export const SPANS: readonly { name: SpanName; ms: number | undefined }[] = [
  { name: '1h', ms: HOUR_MS },
  { name: '1d', ms: DAY_MS },
  { name: '5d', ms: 5 * DAY_MS },
  { name: '1m', ms: 30 * DAY_MS },
  // From the first price recorded.
  { name: 'all', ms: undefined },
];

/** The span `by` steps from `name`, stopping at either end. */
export function stepSpan(name: SpanName, by: number): SpanName {
  const at = SPANS.findIndex((s) => s.name === name);
  return SPANS[Math.max(0, Math.min(SPANS.length - 1, at + by))]!.name;
}

/**
 * The widest gap a chart joins. Ticks come every poll, so a few missed polls are still one line;
 * minute buckets a few buckets apart; day bars a long weekend apart.
 */
export function joinableGapMs(spanMs: number, pollMs: number, maxPoints: number): number {
  if (spanMs <= 3 * HOUR_MS) return Math.max(10_000, 5 * pollMs);
  if (spanMs <= 30 * DAY_MS) return Math.max(5 * MINUTE_MS, 3 * Math.ceil(spanMs / maxPoints));
  return 4 * DAY_MS;
}
