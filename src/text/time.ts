// Times as people read them in a list: "just now", "5 min ago", "3 d ago".

const UNITS: [limitSeconds: number, unitSeconds: number, label: string][] = [
  [60, 1, 's'],
  [3600, 60, 'min'],
  [86_400, 3600, 'h'],
  [86_400 * 30, 86_400, 'd'],
  [86_400 * 365, 86_400 * 30, 'mo'],
  [Number.POSITIVE_INFINITY, 86_400 * 365, 'y'],
];

export function relativeTime(date: Date, now: Date = new Date()): string {
  if (Number.isNaN(date.getTime())) return 'unknown';
  const seconds = Math.round((now.getTime() - date.getTime()) / 1000);
  const future = seconds < 0;
  const magnitude = Math.abs(seconds);
  if (magnitude < 10) return 'just now';
  for (const [limit, unit, label] of UNITS) {
    if (magnitude < limit) {
      const count = Math.floor(magnitude / unit);
      return future ? `in ${count} ${label}` : `${count} ${label} ago`;
    }
  }
  return date.toISOString();
}

/** A time (a Date, or ms since the epoch) in the user's zone, to the second, without the zone: 2026-11-21 23:59:01. */
export function localDateTime(time: Date | number): string {
  const date = typeof time === 'number' ? new Date(time) : time;
  if (Number.isNaN(date.getTime())) return 'unknown';
  const shifted = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  // At the very end of the Date range the shift itself can fall outside it.
  if (Number.isNaN(shifted.getTime())) return date.toISOString();
  return shifted.toISOString().slice(0, 19).replace('T', ' ');
}

/** The time of day in the user's zone: 14:05, or with `seconds` 14:05:01. */
export const clockTime = (time: Date | number, seconds = false): string => localDateTime(time).slice(11, seconds ? 19 : 16);

/** An absolute time in the user's zone, to the second: 2026-11-21 23:59:01 +00:00. */
export function absoluteTime(date: Date): string {
  if (Number.isNaN(date.getTime())) return 'unknown';
  const offset = -date.getTimezoneOffset();
  const local = localDateTime(date);
  if (local.includes('T')) return local;
  const sign = offset >= 0 ? '+' : '-';
  const hh = String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0');
  const mm = String(Math.abs(offset) % 60).padStart(2, '0');
  return `${local} ${sign}${hh}:${mm}`;
}

/** A wait as people read a countdown: "45s", "4m 05s", "1h 02m". */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** Today on this machine's calendar, YYYY-MM-DD. */
export const localToday = (now: number = Date.now()): string => localDateTime(now).slice(0, 10);
