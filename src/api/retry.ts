// Trying again by itself: which failures may pass on their own, and how long to wait before the
// next try. The dashboard's loads and the import's creates wait by this one rule.
import { ApiError } from './errors.js';

const TRANSIENT = new Set(['network', 'timeout', 'server', 'rate_limited']);
const FIRST_MS = 2_000;

/** A failure that may pass by itself: the server not up yet, a timeout, a 5xx, a 429. */
export const isTransient = (error: unknown): boolean => error instanceof ApiError && TRANSIENT.has(error.kind);

/** Doubling from 2 s: the wait before try number `attempt` + 1 (from 0), at most `maxMs`. */
const backoffMs = (attempt: number, maxMs: number): number => Math.min(maxMs, FIRST_MS * 2 ** attempt);

/**
 * The wait before try number `attempt` + 1 (from 0). A 429's (or 503's) Retry-After is taken at
 * its word the first time, so that a server's "1 s" costs 1 s; when a wait it asked for was not
 * enough, the wait is no shorter than the doubling it would have been without (a server that
 * keeps asking for 1 s is asked less and less often). Without a Retry-After: doubling from 2 s,
 * at most `maxMs`.
 */
export function retryDelayMs(error: unknown, attempt: number, maxMs: number): number {
  const asked = error instanceof ApiError ? error.retryAfterMs : undefined;
  if (asked === undefined) return backoffMs(attempt, maxMs);
  return attempt === 0 ? asked : Math.max(asked, backoffMs(attempt - 1, maxMs));
}
