// The current time, refreshed every `intervalMs` while `active`: for relative times and countdowns.
import { useEffect, useState } from 'react';

export function useNow(intervalMs: number, active = true): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return undefined;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs, active]);
  return now;
}

/**
 * Draws again at `at` (ms since the epoch), unless something else draws first: a render moves the
 * timer to the `at` it computes; undefined, never. For clocks that only need a frame when nothing
 * else gives one.
 */
export function useRenderAt(at: number | undefined): void {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (at === undefined) return undefined;
    const timer = setTimeout(() => setTick((tick) => tick + 1), Math.max(0, at - Date.now()));
    return () => clearTimeout(timer);
  }, [at]);
}
