// The ticker's controller without React, against the real sandbox behind a proxy that can hold or
// answer a poll: the polls scheduled on the injected clock, a 429 waited out, commands in a row
// acting on what the one before left (no render between them), a poll asked while one is under way
// asked once it ends with the symbols as they are then, a batch of changes saved once, and the undo
// window on its own clock.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TickbookClient } from '../../../src/api/client.js';
import { newList, type Watchlists } from '../../../src/market/watchlists.js';
import { StatusBoard } from '../../../src/tui/state/status.js';
import { TickerController, type TickerOptions } from '../../../src/tui/ticker/ticker-controller.js';
import type { TickerState } from '../../../src/tui/ticker/ticker-state.js';
import { waitFor } from '../../helpers/ink.js';
import { type Proxy, type ProxiedRequest, startProxy } from '../../helpers/proxy.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';

const T = 1_000_000;
const isPricing = (req: ProxiedRequest) => req.url.includes('realtime-pricing');
const askedIn = (req: ProxiedRequest): string[] => (JSON.parse(req.body.toString()) as { symbols: string[] }).symbols;

/** Resolves once the controller's state holds `holds`, checked at each change: a state that lasts no time is seen too. */
function until(controller: TickerController, holds: (s: TickerState) => boolean, what: string): Promise<TickerState> {
  return new Promise((resolve, reject) => {
    const timeout = setTimeout(() => {
      stop();
      reject(new Error(`timed out waiting for ${what}`));
    }, 5000);
    const check = () => {
      if (!holds(controller.getState())) return;
      clearTimeout(timeout);
      stop();
      resolve(controller.getState());
    };
    const stop = controller.subscribe(check);
    check();
  });
}

/** A gate the proxy holds pricing requests at while it is shut. */
function gate() {
  let open: () => void = () => undefined;
  let shut: Promise<void> | undefined;
  return {
    shut: () => (shut = new Promise((resolve) => (open = resolve))),
    open: () => {
      shut = undefined;
      open();
    },
    hold: (req: ProxiedRequest) => (isPricing(req) ? shut : undefined),
  };
}

describe('TickerController', () => {
  let sandbox: TestSandbox;
  let proxy: Proxy;
  let client: TickbookClient;
  let controller: TickerController | undefined;
  const pricing: string[][] = [];

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    proxy = await startProxy(sandbox.url);
    // Retries inside the client would hide a 429 from the ticker: one attempt per poll.
    client = new TickbookClient({ contactsUrl: proxy.url, marketDataUrl: proxy.url, token: sandbox.token, apiKey: sandbox.apiKey, retry: { retries: 0 } });
  });
  afterEach(() => {
    controller?.dispose();
    controller = undefined;
    proxy.rules = {};
    pricing.length = 0;
  });
  afterAll(async () => {
    await client.close();
    await proxy.close();
    await sandbox.close();
  });

  function started(options: Partial<TickerOptions> = {}, status = new StatusBoard()) {
    const answer = proxy.rules.answer;
    proxy.rules.answer = (req) => {
      if (isPricing(req)) pricing.push(askedIn(req));
      return answer?.(req);
    };
    controller = new TickerController(client, status, { watchlist: ['AAPL', 'MSFT'], intervalS: 60, now: () => T, ...options });
    controller.start();
    return { ticker: controller, status, notices: () => status.getSnapshot().history.map((m) => m.text) };
  }

  it('polls at start and schedules the next poll an interval later on its clock', async () => {
    const { ticker } = started();
    const s = await until(ticker, (s) => s.nextPollAt !== undefined, 'the first prices');
    expect(Object.keys(s.rows).sort()).toEqual(['AAPL', 'MSFT']);
    expect(s.lastSuccessAt).toBe(T);
    expect(s.nextPollAt).toBe(T + 60_000);
    expect(pricing).toEqual([['AAPL', 'MSFT']]);
  });

  it('waits out a 429 as long as Retry-After asks, also for a list switched to meanwhile', async () => {
    proxy.rules.answer = (req) =>
      isPricing(req) ? { status: 429, headers: { 'retry-after': '7' }, body: JSON.stringify({ status: 'error', code: 'rate_limited', message: 'slow down' }) } : undefined;
    const lists: Watchlists = { lists: [newList('A', ['AAPL']), newList('B', ['IBM'])], active: 0 };
    const { ticker, status } = started({ watchlist: lists, intervalS: 1 });
    const s = await until(ticker, (s) => s.failures === 1 && s.nextPollAt !== undefined, 'the failed poll');
    expect(s.nextPollAt).toBe(T + 7000);
    expect(status.getSnapshot().error).toMatchObject({ source: 'ticker', message: 'prices: slow down', retryAt: T + 7000 });
    ticker.changeLists({ ...ticker.lists(), active: 1 });
    expect(ticker.getState().watchlist).toEqual(['IBM']);
    expect(ticker.getState().nextPollAt).toBe(T + 7000);
    expect(pricing).toEqual([['AAPL']]);
  });

  it('commands in a row act on what the one before left', async () => {
    const { ticker, notices } = started({ intervalS: 5 });
    await until(ticker, (s) => s.lastSuccessAt !== undefined, 'the first prices');
    ticker.changeInterval(1);
    ticker.changeInterval(1);
    expect(ticker.getState().intervalS).toBe(7);
    expect(ticker.getState().nextPollAt).toBe(T + 7000);
    ticker.moveSymbol(1);
    ticker.moveSymbol(-1);
    ticker.moveSymbol(1);
    expect(ticker.getState().watchlist).toEqual(['MSFT', 'AAPL']);
    ticker.remove();
    ticker.undo();
    expect(ticker.getState().watchlist).toEqual(['MSFT', 'AAPL']);
    expect(ticker.add('IBM')).toBe(true);
    expect(ticker.add('IBM')).toBe(false);
    ticker.select('IBM');
    ticker.remove();
    expect(ticker.getState().watchlist).toEqual(['MSFT', 'AAPL']);
    expect(notices()).toEqual(['prices every 6s', 'prices every 7s', 'removed AAPL: u puts it back', 'AAPL is back', 'added IBM to Watchlist', 'removed IBM: u puts it back']);
  });

  it('a poll asked while one is under way is sent once it ends, for the symbols as they are then', async () => {
    const held = gate();
    held.shut();
    proxy.rules.hold = held.hold;
    const { ticker } = started();
    await waitFor(() => pricing.length === 1, 5000, 'the first poll sent');
    expect(ticker.add('IBM')).toBe(true);
    expect(ticker.add('ORCL')).toBe(true);
    held.open();
    // The first answer schedules the next poll at once, not an interval later.
    await until(ticker, (s) => s.lastSuccessAt !== undefined && s.nextPollAt === T, 'the first prices, the next poll due at once');
    await until(ticker, (s) => s.rows.ORCL !== undefined && s.nextPollAt === T + 60_000, 'the added symbols priced, the next poll an interval later');
    expect(pricing).toEqual([
      ['AAPL', 'MSFT'],
      ['AAPL', 'MSFT', 'IBM', 'ORCL'],
    ]);
  });

  it('saves a batch of changes to the lists and interval once, as they are after the last; nothing once disposed', async () => {
    const saved: [Watchlists, number][] = [];
    const { ticker } = started({ persist: (lists, intervalS) => void saved.push([lists, intervalS]) });
    await until(ticker, (s) => s.lastSuccessAt !== undefined, 'the first prices');
    expect(saved).toEqual([]);
    ticker.add('IBM');
    ticker.changeInterval(-1);
    ticker.cycleSort();
    expect(saved).toEqual([]);
    await Promise.resolve();
    expect(saved).toHaveLength(1);
    const [lists, intervalS] = saved[0]!;
    expect(lists.lists[0]).toMatchObject({ symbols: ['AAPL', 'MSFT', 'IBM'], sort: 'symbol' });
    expect(intervalS).toBe(59);
    // A poll that changes nothing of the lists saves nothing.
    ticker.refresh();
    await until(ticker, (s) => s.rows.IBM !== undefined, 'IBM priced');
    expect(saved).toHaveLength(1);
    ticker.dispose();
    ticker.add('ORCL');
    await Promise.resolve();
    expect(saved).toHaveLength(1);
  });

  it('a save that fails is said in its own words, once for the same failure', async () => {
    const { ticker, status } = started({
      persist: () => {
        throw new Error('the disk is full');
      },
    });
    await until(ticker, (s) => s.lastSuccessAt !== undefined, 'the first prices');
    ticker.add('IBM');
    await Promise.resolve();
    ticker.add('ORCL');
    await Promise.resolve();
    const failures = status.getSnapshot().history.filter((m) => m.text.startsWith('watchlist not saved'));
    expect(failures.map((m) => m.text)).toEqual(['watchlist not saved: the disk is full; kept for this session']);
    expect(ticker.getState().watchlist).toEqual(['AAPL', 'MSFT', 'IBM', 'ORCL']);
  });

  it('u puts a removed symbol back only while its window lasts on the undo clock', async () => {
    let clock = 0;
    const { ticker } = started({ undoClock: () => clock, undoWindowMs: 5000 });
    await until(ticker, (s) => s.lastSuccessAt !== undefined, 'the first prices');
    ticker.remove();
    clock = 4999;
    ticker.undo();
    expect(ticker.getState().watchlist).toEqual(['AAPL', 'MSFT']);
    ticker.remove();
    clock += 5000;
    ticker.undo();
    expect(ticker.getState().watchlist).toEqual(['MSFT']);
    expect(ticker.getState().removed).toBeUndefined();
  });
});
