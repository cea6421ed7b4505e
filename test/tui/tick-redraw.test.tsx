// A poll's prices draw the ticker pane and the status line's latency, not the dashboard: the
// dashboard selects from the ticker's store only what it shows itself. Its renders are counted
// by the one call it makes in each (computeLayout), passed through to the real one.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mountPacedDashboard } from '../helpers/paced-terminal.js';
import { useSandbox } from '../helpers/sandbox.js';
import { TickbookClient } from '../../src/api/client.js';
import { StatusStore } from '../../src/tui/state/status.js';

const layoutCalls = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/tui/layout.js', async (original) => {
  const real = await original<typeof import('../../src/tui/layout.js')>();
  return {
    ...real,
    computeLayout: (...args: Parameters<typeof real.computeLayout>) => {
      layoutCalls.count++;
      return real.computeLayout(...args);
    },
  };
});

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

const LATENCY = /test · (\d+) ms/;

describe('a poll', () => {
  const ctx = useSandbox();

  it('draws the prices and the latency without drawing the dashboard again', async () => {
    // Each request's latency is told as its own figure (1000 ms, 1001 ms, …): a line not drawn
    // again after a poll would show an older one.
    const status = new StatusStore();
    let requests = 0;
    const client = new TickbookClient({
      contactsUrl: ctx.sb.contactsUrl,
      marketDataUrl: ctx.sb.marketDataUrl,
      token: ctx.sb.token,
      apiKey: ctx.sb.apiKey,
      onRequest: (entry) => status.request({ ...entry, ms: 1000 + requests++ }),
    });
    const mounted = await mountPacedDashboard(client, { intervalS: 1, watchlist: ['AAPL'], status });
    cleanup = () => {
      mounted.unmount();
      void client.close();
    };
    await mounted.until((f) => /AAPL\s+[\d.]+/.test(f) && LATENCY.test(f), 'the first prices');
    // Whatever the start still had to draw (the symbols' names, the first poll) settles first.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const before = layoutCalls.count;
    const shown = [LATENCY.exec(mounted.frame())![1]];
    const start = Date.now();
    while (Date.now() - start < 2300) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const latency = LATENCY.exec(mounted.frame())?.[1];
      if (latency !== undefined && latency !== shown.at(-1)) shown.push(latency);
    }
    expect(shown.length, `latencies shown: ${shown.join(', ')}`).toBeGreaterThanOrEqual(3);
    expect(Number(shown.at(-1))).toBe(1000 + requests - 1);
    expect(layoutCalls.count - before, 'dashboard renders during two polls').toBe(0);

    // The count does see the dashboard drawn: Tab moves the focus, which the dashboard holds.
    await mounted.keyboard.type('\t');
    await mounted.until((f) => /▸ Ticker/.test(f), 'the ticker focused');
    expect(layoutCalls.count - before).toBeGreaterThan(0);
  });
});
