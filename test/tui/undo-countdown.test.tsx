// The undo offer counts down on its own beat: a second offer made half-way through the first's
// second changes its figure a whole second after it was made, not on the first offer's beat. The
// contacts pane is not drawn by the price ticks (React.memo), so nothing else draws it in time.
import { afterEach, describe, expect, it } from 'vitest';
import { mountInkDashboard } from '../helpers/ink-terminal.js';
import { setUpSandbox } from '../helpers/sandbox.js';

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

const OFFER = /deleted (.+?) · u: undo \((\d+)s\)/;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the undo countdown', () => {
  const ctx = setUpSandbox();

  it("changes its seconds a whole second apart from when the offer was made, a second offer's too", async () => {
    const mounted = await mountInkDashboard(ctx.client, { undoWindowMs: 4000 });
    cleanup = mounted.unmount;
    await mounted.keyboard.type('d');
    await mounted.until((f) => /y: delete/.test(f), 'the first delete prompt');
    await mounted.keyboard.type('y');
    await mounted.until((f) => OFFER.test(f), 'the first offer');
    const first = OFFER.exec(mounted.frame())![1];
    // Off the first offer's beat.
    await sleep(450);
    await mounted.keyboard.type('d');
    await mounted.until((f) => /y: delete/.test(f), 'the second delete prompt');
    await mounted.keyboard.type('y');
    await mounted.until((f) => OFFER.exec(f)?.[1] !== undefined && OFFER.exec(f)![1] !== first, 'the second offer');
    const start = Date.now();
    const changes: { at: number; seconds: number }[] = [];
    let seconds = Number(OFFER.exec(mounted.frame())![2]);
    expect(seconds).toBe(4);
    while (Date.now() - start < 3300) {
      await sleep(10);
      const now = Number(OFFER.exec(mounted.frame())?.[2]);
      if (now !== seconds) {
        changes.push({ at: Date.now() - start, seconds: now });
        seconds = now;
      }
    }
    expect(changes.map((c) => c.seconds)).toEqual([3, 2, 1]);
    for (const [i, change] of changes.entries()) {
      expect(change.at, `"${change.seconds}s" drawn ${change.at} ms after the offer`).toBeGreaterThan((i + 1) * 1000 - 150);
      expect(change.at, `"${change.seconds}s" drawn ${change.at} ms after the offer`).toBeLessThan((i + 1) * 1000 + 200);
    }
    await mounted.keyboard.type('u');
  });
});
