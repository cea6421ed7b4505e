// Trying again by itself: which failures may pass on their own, and how long to wait before the
// next try (doubling from 2 s, never sooner than a 429's Retry-After asks).
import { ApiError } from '../../api/errors.js';

const TRANSIENT = new Set(['network', 'timeout', 'server', 'rate_limited']);
const FIRST_MS = 2_000;

/** A failure that may pass by itself: the server not up yet, a timeout, a 5xx, a 429. */
export const isTransient = (error: unknown): boolean => error instanceof ApiError && TRANSIENT.has(error.kind);

/** The wait before try number `attempt` + 1 (from 0), at most `maxMs` unless the server asks for more. */
export function retryDelayMs(error: unknown, attempt: number, maxMs: number): number {
  const backoff = Math.min(maxMs, FIRST_MS * 2 ** attempt);
  return Math.max(backoff, error instanceof ApiError ? (error.retryAfterMs ?? 0) : 0);
}
