// The ticker when prices fail: the last good prices stay, the status line says why with a retry
// countdown, a 429 is waited out as asked, and everything clears once the server recovers; and
// nothing polls while the dashboard is suspended.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

// Dimming is only in the frame when Ink's colouring is on (stdout here is not a terminal).
const savedForceColor = vi.hoisted(() => {
  const saved = process.env.FORCE_COLOR;
  process.env.FORCE_COLOR = '1';
  return saved;
});

import { act } from 'react';
import { TickbookClient } from '../../../src/api/client.js';
import { Dashboard } from '../../../src/tui/Dashboard.js';
import { Lifecycle, LifecycleContext } from '../../../src/tui/lifecycle.js';
import { StatusBoard } from '../../../src/tui/state/status.js';
import { renderDashboard, unmountAll } from '../../helpers/dashboard.js';
import { plain, waitFor, waitForFrame } from '../../helpers/ink.js';
import { type ProxiedRequest, startProxy } from '../../helpers/proxy.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';

type Mode = 'pass' | 'fail' | 'rate-limit' | 'rate-limit-forever' | 'bad-record';

const isPricing = (req: ProxiedRequest) => req.url.includes('realtime-pricing');
const errorBody = (code: string, message: string) => JSON.stringify({ status: 'error', code, message });

/** The sandbox behind a proxy whose pricing fails in the way `state.mode` says. */
async function flakyProxy(target: string) {
  const state = { mode: 'pass' as Mode, pricing: 0 };
  const proxy = await startProxy(target, {
    answer: (req) => {
      if (!isPricing(req)) return undefined;
      state.pricing++;
      if (state.mode === 'fail') return { status: 500, body: errorBody('server_error', 'market feed is down') };
      if (state.mode === 'rate-limit' || state.mode === 'rate-limit-forever') {
        const retryAfter = state.mode === 'rate-limit' ? '3' : '999999';
        return { status: 429, headers: { 'retry-after': retryAfter }, body: errorBody('rate_limited', 'slow down') };
      }
      return undefined;
    },
    rewrite: (req, body) => {
      if (state.mode !== 'bad-record' || !isPricing(req)) return body;
      // One record of the answer is not a price.
      const json = JSON.parse(body.toString()) as { stock_data: { symbol: string; price: number }[] };
      for (const record of json.stock_data) if (record.symbol === 'AAPL') record.price = -5;
      return Buffer.from(JSON.stringify(json));
    },
  });
  return { url: proxy.url, state, close: proxy.close };
}

describe('the ticker through failures', () => {
  let sandbox: TestSandbox;
  let proxy: Awaited<ReturnType<typeof flakyProxy>>;
  let client: TickbookClient;

  beforeAll(async () => {
    sandbox = await startTestSandbox({ demoData: true });
    proxy = await flakyProxy(sandbox.url);
  });
  afterEach(async () => {
    await unmountAll();
    await client?.close();
    proxy.state.mode = 'pass';
  });
  afterAll(async () => {
    await proxy.close();
    await sandbox.close();
    if (savedForceColor === undefined) delete process.env.FORCE_COLOR;
    else process.env.FORCE_COLOR = savedForceColor;
  });

  async function mount(lifecycle = new Lifecycle(), intervalS = 1) {
    // Retries inside the client would hide the failures from the ticker: one attempt per poll.
    client = new TickbookClient({
      contactsUrl: proxy.url,
      marketDataUrl: proxy.url,
      token: sandbox.token,
      apiKey: sandbox.apiKey,
      retry: { retries: 0 },
    });
    const instance = await renderDashboard(
      <LifecycleContext.Provider value={lifecycle}>
        <Dashboard client={client} status={new StatusBoard()} target="proxy" watchlist={['AAPL', 'MSFT']} intervalS={intervalS} size={{ columns: 120, rows: 30 }} />
      </LifecycleContext.Provider>,
      120,
    );
    const frame = () => plain(instance.lastFrame());
    await waitForFrame(frame, (f) => /AAPL\s+\d+\.\d\d/.test(f) && /MSFT\s+\d+\.\d\d/.test(f), 8000, 'the first prices');
    return { instance, frame };
  }

  const price = (frame: string, symbol: string) => new RegExp(`${symbol}\\s+(\\d+\\.\\d\\d)`).exec(frame)?.[1];

  it('keeps the last prices, says why with a retry countdown, dims stale rows, and clears on recovery', async () => {
    const { instance, frame } = await mount();
    const before = price(frame(), 'AAPL');
    proxy.state.mode = 'fail';
    let shown = await waitForFrame(frame, (f) => /✗ prices: market feed is down/.test(f), 6000, 'the error in the status line');
    expect(shown).toMatch(/retry in \d+s/);
    expect(price(shown, 'AAPL')).toBeDefined();
    // Backing off: after several failures the rows are older than three intervals, dimmed.
    await waitForFrame(frame, (f) => /AAPL\s+\d+\.\d\d.*\s([4-9]|\d\d)s\s/.test(f), 9000, 'a stale AAPL row');
    expect(instance.lastFrame()).toMatch(/\u001b\[2m[^\n]*AAPL/);
    expect(before).toBeDefined();

    proxy.state.mode = 'pass';
    shown = await waitForFrame(frame, (f) => !/✗/.test(f) && /AAPL\s+\d+\.\d\d.*\s[01]s\s/.test(f), 20_000, 'recovery');
    expect(shown).not.toMatch(/retry in/);
  }, 45_000);

  it('waits out a 429 as long as Retry-After asks', async () => {
    const { frame } = await mount();
    proxy.state.mode = 'rate-limit';
    const at = proxy.state.pricing;
    await waitForFrame(frame, (f) => /✗ prices: slow down · retry in [23]s/.test(f), 6000, 'the 429 in the status line');
    const afterFirst = proxy.state.pricing;
    expect(afterFirst).toBeGreaterThan(at);
    // Polling every second, but the server asked for 3: no new attempt for at least 2 seconds.
    await act(async () => {
      await new Promise((r) => setTimeout(r, 2000));
    });
    expect(proxy.state.pricing).toBe(afterFirst);
    proxy.state.mode = 'pass';
    await waitForFrame(frame, (f) => !/✗/.test(f), 6000, 'recovery after the wait');
  }, 30_000);

  it('a Retry-After of 999999 s is waited out for 5 minutes at most, shown as minutes and seconds', async () => {
    const { frame } = await mount();
    proxy.state.mode = 'rate-limit-forever';
    let shown = await waitForFrame(frame, (f) => /✗ prices: slow down · retry in/.test(f), 6000, 'the 429 in the status line');
    expect(shown).toMatch(/retry in [45]m \d\ds/);
    expect(shown).not.toMatch(/999/);
    // The ticker's own line says the same wait.
    shown = await waitForFrame(frame, (f) => /retry in [45]m \d\ds\s+│/.test(f), 3000, "the wait on the ticker's line");
    expect(shown).not.toMatch(/999/);
  }, 20_000);

  it('one bad price record is left out and named; the other symbols keep updating', async () => {
    const { frame } = await mount();
    const aapl = price(frame(), 'AAPL');
    proxy.state.mode = 'bad-record';
    let shown = await waitForFrame(frame, (f) => /✗ prices: left out AAPL: price is negative \(-5\)/.test(f), 6000, 'the bad record named');
    const msft = new Set([price(shown, 'MSFT')]);
    // MSFT goes on ticking (the sandbox's prices move between polls a second apart).
    shown = await waitForFrame(frame, (f) => {
      msft.add(price(f, 'MSFT'));
      return msft.size >= 2;
    }, 8000, 'MSFT still updating');
    // AAPL keeps its last good price, ageing.
    expect(price(shown, 'AAPL')).toBe(aapl);
    expect(shown).not.toMatch(/-5\.00/);
    proxy.state.mode = 'pass';
    await waitForFrame(frame, (f) => !/✗/.test(f), 6000, 'the status line clear once the records are good');
  }, 30_000);

  it('the age counts every second, also between slow polls', async () => {
    const { frame } = await mount(new Lifecycle(), 20);
    // The next poll is 20 s away: the age still moves.
    await waitForFrame(frame, (f) => /AAPL\s+\d+\.\d\d.*\s[2-9]s\s/.test(f), 6000, 'AAPL aged 2 s or more');
  }, 15_000);

  it('does not poll while suspended, and polls again at once on resume', async () => {
    const lifecycle = new Lifecycle();
    await mount(lifecycle);
    await act(async () => {
      lifecycle.emit('suspend');
    });
    const frozen = proxy.state.pricing;
    await act(async () => {
      await new Promise((r) => setTimeout(r, 2500));
    });
    expect(proxy.state.pricing).toBe(frozen);
    await act(async () => {
      lifecycle.emit('resume');
    });
    await waitFor(() => proxy.state.pricing > frozen, 3000, 'a poll after resuming');
  }, 20_000);
});
