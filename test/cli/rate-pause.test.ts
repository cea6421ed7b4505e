// The pause every create of an import honours after a 429, and the one waiting rule it shares
// with the dashboard (retry.ts), on a clock of the test's: a sleep moves it on.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { MAX_RETRY_AFTER_MS, parseRetryAfter } from '../../src/api/transport.js';
import { type PauseClock, RatePause } from '../../src/cli/rate-pause.js';
import { retryDelayMs } from '../../src/api/retry.js';

/** A clock whose sleeps pass at once, moving it on. */
function testClock(start = 1_000_000): PauseClock & { t: number } {
  const clock = {
    t: start,
    now: () => clock.t,
    sleep: async (ms: number, signal: AbortSignal | undefined) => {
      signal?.throwIfAborted();
      clock.t += ms;
    },
  };
  return clock;
}

const tooMany = (retryAfterMs?: number, retryAfterAskedMs?: number) =>
  new ApiError({
    kind: 'rate_limited',
    status: 429,
    message: 'too many requests',
    ...(retryAfterMs !== undefined && { retryAfterMs }),
    ...(retryAfterAskedMs !== undefined && { retryAfterAskedMs }),
  });

describe('retryDelayMs: the one waiting rule', () => {
  it("takes a Retry-After at its word the first time; when that was not enough, no less than the doubling; without one, doubling from 2 s up to the most", () => {
    expect([0, 1, 2, 3].map((attempt) => retryDelayMs(tooMany(1000), attempt, 60_000))).toEqual([1000, 2000, 4000, 8000]);
    // A long wait asked for is kept however often it is asked.
    expect([0, 1, 2].map((attempt) => retryDelayMs(tooMany(30_000), attempt, 60_000))).toEqual([30_000, 30_000, 30_000]);
    expect([0, 1, 5, 10].map((attempt) => retryDelayMs(tooMany(), attempt, 60_000))).toEqual([2000, 4000, 60_000, 60_000]);
    expect(retryDelayMs(new ApiError({ kind: 'network', message: 'refused' }), 0, 60_000)).toBe(2000);
  });
});

describe('RatePause', () => {
  it('the first 429 of the creates under way holds them all for the Retry-After; the others, sent before it, only wait for it', async () => {
    const clock = testClock();
    const pause = new RatePause(clock);
    const rounds = await Promise.all([pause.ready(), pause.ready(), pause.ready(), pause.ready()]);
    expect(rounds).toEqual([0, 0, 0, 0]);
    expect(pause.asked(tooMany(1000), 0)).toEqual({ waitMs: 1000, fresh: true });
    clock.t += 300;
    // The three sent with it: the same pause, 700 ms of it left; said once.
    for (let i = 0; i < 3; i++) expect(pause.asked(tooMany(1000), 0)).toEqual({ waitMs: 700, fresh: false });
    expect(pause.until).toBe(1_001_000);
    // Every create, these four and any new one, goes again when it is over, in the next round.
    expect(await Promise.all([pause.ready(), pause.ready()])).toEqual([1, 1]);
    expect(clock.t).toBe(1_001_000);
  });

  it('refused again after waiting as asked: longer each time (1 s, 2 s, 4 s); a create answered makes the next pause the server\'s word again', async () => {
    const clock = testClock(0);
    const pause = new RatePause(clock);
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      const round = await pause.ready();
      const slow = pause.asked(tooMany(1000), round);
      waits.push('waitMs' in slow ? slow.waitMs : -1);
    }
    expect(waits).toEqual([1000, 2000, 4000]);
    await pause.ready();
    expect(clock.t).toBe(7000);
    pause.answered();
    expect(pause.asked(tooMany(1000), await pause.ready())).toEqual({ waitMs: 1000, fresh: true });
  });

  it('a 429 without Retry-After waits 2 s, then 4 s, … at most a minute', async () => {
    const pause = new RatePause(testClock(0));
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      const slow = pause.asked(tooMany(), await pause.ready());
      waits.push('waitMs' in slow ? slow.waitMs : -1);
    }
    expect(waits).toEqual([2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000, 60_000]);
  });

  it('a Retry-After given as an HTTP date waits until then; more than 5 minutes asked is not waited for: the caller stops, told how long', async () => {
    const clock = testClock(Date.parse('2026-11-20T10:00:00Z'));
    const pause = new RatePause(clock);
    const date = parseRetryAfter('Fri, 20 Nov 2026 10:00:03 GMT', clock.now());
    expect(pause.asked(tooMany(date), await pause.ready())).toEqual({ waitMs: 3000, fresh: true });
    expect(await pause.ready()).toBe(1);
    expect(clock.t).toBe(Date.parse('2026-11-20T10:00:03Z'));
    expect(pause.asked(tooMany(MAX_RETRY_AFTER_MS, 3_600_000), 1)).toEqual({ tooLongMs: 3_600_000 });
    // Nothing held for it: the stop is the caller's.
    expect(pause.until).toBe(clock.t);
  });

  it('a wait is cut off by its signal (an import interrupted): ready rejects', async () => {
    const clock = testClock(0);
    const pause = new RatePause(clock);
    pause.asked(tooMany(5000), 0);
    const stop = new AbortController();
    stop.abort(new Error('interrupted'));
    await expect(pause.ready(stop.signal)).rejects.toThrow('interrupted');
    expect(clock.t).toBe(0);
  });
});
