// A poll's prices draw the ticker pane and the status line's latency, not the dashboard: the
// dashboard selects from the ticker's live state only what it shows itself. Its renders are counted
// by the one call it makes in each (computeLayout), passed through to the real one.
// A symbol whose record is not a price and one the server does not know are in the list: the
// status line's message and the unknown symbols are the same at each poll.
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { mountInkDashboard } from '../../helpers/ink-terminal.js';
import { setUpSandbox } from '../../helpers/sandbox.js';
import { type Proxy, startProxy } from '../../helpers/proxy.js';
import { TickbookClient } from '../../../src/api/client.js';
import { StatusBoard } from '../../../src/tui/state/status.js';

const layoutCalls = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../../src/tui/layout.js', async (original) => {
  const real = await original<typeof import('../../../src/tui/layout.js')>();
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
  const ctx = setUpSandbox();
  let proxy: Proxy | undefined;
  afterAll(async () => {
    await proxy?.close();
  });

  it('draws the prices and the latency without drawing the dashboard again, a symbol left out and one unknown included', async () => {
    // AAPL's record is not a price in every answer (left out and named on the status line each
    // poll), NOPE is not a symbol the server knows: polls that say the same again draw nothing
    // but the ticker.
    proxy = await startProxy(ctx.sb.url, {
      rewrite: (req, body) => {
        if (!req.url.includes('realtime-pricing')) return body;
        const json = JSON.parse(body.toString()) as { stock_data: { symbol: string; price: number }[] };
        for (const record of json.stock_data) if (record.symbol === 'AAPL') record.price = -5;
        return Buffer.from(JSON.stringify(json));
      },
    });
    // Each request's latency is told as its own figure (1000 ms, 1001 ms, …): a line not drawn
    // again after a poll would show an older one.
    const status = new StatusBoard();
    let requests = 0;
    const client = new TickbookClient({
      contactsUrl: ctx.sb.contactsUrl,
      marketDataUrl: proxy.url,
      token: ctx.sb.token,
      apiKey: ctx.sb.apiKey,
      onRequest: (entry) => status.request({ ...entry, ms: 1000 + requests++ }),
    });
    const mounted = await mountInkDashboard(client, { intervalS: 1, watchlist: ['MSFT', 'AAPL', 'NOPE'], status });
    cleanup = () => {
      mounted.unmount();
      void client.close();
    };
    await mounted.until((f) => /MSFT\s+[\d.]+/.test(f) && /left out AAPL/.test(f) && /unknown symbol/.test(f) && LATENCY.test(f), 'the first prices');
    // Whatever the start still had to draw (the symbols' names, the first poll's messages)
    // settles over one more poll.
    const first = LATENCY.exec(mounted.frame())![1];
    await mounted.until((f) => LATENCY.exec(f)?.[1] !== first, 'a second poll');
    await new Promise((resolve) => setTimeout(resolve, 100));
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
    expect(mounted.frame()).toMatch(/left out AAPL: price is negative/);
    expect(layoutCalls.count - before, 'dashboard renders during two polls').toBe(0);

    // The count does see the dashboard drawn: Tab moves the focus, which the dashboard holds.
    await mounted.keyboard.type('\t');
    await mounted.until((f) => /▸ Ticker/.test(f), 'the ticker focused');
    expect(layoutCalls.count - before).toBeGreaterThan(0);
  });
});
