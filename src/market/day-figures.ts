// What the detail view says of a symbol's day: change since the tick before and since the day's
// open, and the day's open, high, low and volume, from what was recorded (and since when, when
// recording began after the day did).
import type { Bar } from './bars.js';

export interface DayFigures {
  price: number;
  /** Since the tick before; undefined with only one price seen. */
  tickChange: number | undefined;
  tickPercent: number | undefined;
  /** Since the day's first recorded price; undefined with nothing recorded today. */
  dayChange: number | undefined;
  dayPercent: number | undefined;
  open: number | undefined;
  high: number | undefined;
  low: number | undefined;
  /** Traded today, as the recorded readings of the cumulative volume say. */
  volume: number | undefined;
  /** When today's record begins, if later than the day's start (a poll's time of slack allowed). */
  recordedSince: number | undefined;
}

const percent = (change: number, from: number): number | undefined => (from === 0 ? undefined : (change / from) * 100);

/**
 * `day`: today's bar as recorded; `dayStart`: its local midnight; `slackMs`: how late the first
 * price may come after midnight and still count as the day's open (about a poll).
 */
export function dayFigures(price: number, previous: number | undefined, day: Bar | undefined, dayStart: number, slackMs: number): DayFigures {
  const tickChange = previous === undefined ? undefined : price - previous;
  const dayChange = day === undefined ? undefined : price - day.open;
  return {
    price,
    tickChange,
    tickPercent: tickChange === undefined ? undefined : percent(tickChange, previous!),
    dayChange,
    dayPercent: dayChange === undefined ? undefined : percent(dayChange, day!.open),
    open: day?.open,
    // The price on screen may be newer than the last one recorded.
    high: day === undefined ? undefined : Math.max(day.high, price),
    low: day === undefined ? undefined : Math.min(day.low, price),
    volume: day?.volume,
    recordedSince: day !== undefined && day.firstT > dayStart + slackMs ? day.firstT : undefined,
  };
}
