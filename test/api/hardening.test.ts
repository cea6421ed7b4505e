// Regression tests for the client's review fixes, each against a small real server on loopback:
// timestamps past the Date range are protocol errors (and the time texts never throw), a failed
// pricing batch cancels the others, an aborted pricing call sends nothing, and paging a server
// that ignores the cursor stops with a protocol error instead of looping.
import { afterEach, describe, expect, it } from 'vitest';
import type { ClientOptions, TickbookClient } from '../../src/api/client.js';
import { contactFields } from '../../src/text/contact-fields.js';
import { absoluteTime, relativeTime } from '../../src/text/time.js';
import {
  apiError,
  closeAllServers,
  contactJson,
  errorJson,
  httpServer,
  json,
  pricingJson,
  sleep,
  trackedClient,
  within,
  type TestServer,
} from '../helpers/servers.js';

const TOKEN = 'tok-Hardening-4711';
const KEY = 'key-Hardening-0815';

afterEach(closeAllServers);

function makeClient(url: string, options: Partial<ClientOptions> = {}): TickbookClient {
  return trackedClient(url, {
    token: TOKEN,
    apiKey: KEY,
    timeouts: { connectMs: 1000, headersMs: 5000, bodyMs: 5000 },
    retry: { retries: 0 },
    ...options,
  });
}

// ---------------------------------------------------------------------------------------------

describe('timestamps past the Date range', () => {
  const cases: [string, Record<string, unknown>][] = [
    ['last_active_at 1e16 (ms past the range)', { last_active_at: 1e16 }],
    ['created_at 9e15 (ms past the range)', { created_at: 9e15 }],
    ['created_at 8.64e15 + 1 (one ms past the range)', { created_at: 8.64e15 + 1 }],
  ];

  for (const [what, over] of cases) {
    it(`${what}: getContact and listContacts reject with kind protocol`, async () => {
      const server = await httpServer((req, res) => {
        if (req.path === '/v1/contacts') json(res, 200, { has_more: false, data: [contactJson(over)] });
        else json(res, 200, contactJson(over));
      });
      const client = makeClient(server.url);
      const single = await apiError(client.getContact('ct_abc'), 'protocol');
      expect(single.message).toMatch(/last_active_at|created_at/);
      expect(single.status).toBe(200);
      await apiError(client.listContacts(), 'protocol');
      const all = (async () => {
        for await (const contact of client.allContacts()) void contact;
      })();
      await apiError(all, 'protocol');
    });
  }

  it('the largest valid timestamps still parse, and every field of such a contact can be shown', async () => {
    const server = await httpServer((_req, res) =>
      json(res, 200, contactJson({ last_active_at: 8.64e15, created_at: 1e11 - 1 })),
    );
    const client = makeClient(server.url);
    const contact = await within(client.getContact('ct_abc'), 5000);
    expect(contact.lastActiveAt?.getTime()).toBe(8.64e15);
    expect(contact.createdAt.getTime()).toBe((1e11 - 1) * 1000);
    // Shown as every screen shows it: none of this may throw.
    expect(() => contactFields(contact, new Date(1_800_000_000_000))).not.toThrow();
  });

  it('relativeTime and absoluteTime of an invalid Date say unknown instead of throwing', () => {
    const invalid = new Date(Number.NaN);
    expect(relativeTime(invalid)).toBe('unknown');
    expect(relativeTime(invalid, new Date(1_700_000_000_000))).toBe('unknown');
    expect(absoluteTime(invalid)).toBe('unknown');
    expect(absoluteTime(new Date(9e15))).toBe('unknown');
    expect(relativeTime(new Date(1e16))).toBe('unknown');
    // A valid "now" that is invalid is not our case, but a valid date still reads normally.
    expect(relativeTime(new Date(1_700_000_000_000 - 5 * 60_000), new Date(1_700_000_000_000))).toBe('5 min ago');
    expect(absoluteTime(new Date(1_700_000_000_000))).toMatch(/^2023-11-1[45] \d\d:\d\d:\d\d [+-]\d\d:\d\d$/);
  });

  it('absoluteTime at the very end of the Date range does not throw in a zone east of UTC', () => {
    const saved = process.env.TZ;
    process.env.TZ = 'Asia/Tokyo';
    try {
      // Sanity: the zone change took effect in this process.
      expect(new Date(0).getTimezoneOffset()).toBe(-540);
      const last = new Date(8.64e15);
      expect(() => absoluteTime(last)).not.toThrow();
      expect(() => relativeTime(last, new Date(1_700_000_000_000))).not.toThrow();
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });
});

// ---------------------------------------------------------------------------------------------

describe('realtimePricing over many batches', () => {
  /** Five batches of 100: more than any concurrency tried here can have in flight at once. */
  const SYMBOLS = Array.from({ length: 500 }, (_, i) => `S${String(i).padStart(3, '0')}`);
  const SLOW_MS = 1500;

  /** Batch 0 (S000…S099) fails at once with 500; every other batch answers after SLOW_MS. */
  async function failingFirstBatch(): Promise<TestServer> {
    return httpServer((req, res) => {
      const symbols = (JSON.parse(req.body) as { symbols: string[] }).symbols;
      if (symbols.includes('S000')) json(res, 500, errorJson('server_error', 'batch one broke'));
      else setTimeout(() => json(res, 200, pricingJson(req.body)), SLOW_MS);
    });
  }

  for (const concurrency of [2, 3]) {
    it(`concurrency ${concurrency}: a 500 on the first batch rejects with kind server and leaves no batch open`, async () => {
      const server = await failingFirstBatch();
      const client = makeClient(server.url, { pricingConcurrency: concurrency, pricingBatchSize: 100 });
      const started = Date.now();
      const error = await apiError(client.realtimePricing(SYMBOLS), 'server', 5000);
      const rejectedAt = Date.now();
      expect(error.status).toBe(500);
      // The failure is reported at once, not after the slow batches answered.
      expect(rejectedAt - started, 'rejected before the slow batches could answer').toBeLessThan(SLOW_MS - 300);

      // Give any batch that was (wrongly) started after the failure a chance to show up.
      await sleep(300);
      const batches = server.requests.map((r) => (JSON.parse(r.body) as { symbols: string[] }).symbols[0]);
      expect(batches).toContain('S000');
      // Only the batches in flight with the first one were ever sent; none started after it failed
      // (five batches, so a wrongly started later one would show here).
      expect(server.requests.length).toBeLessThanOrEqual(concurrency);
      const failed = server.requests.find((r) => r.body.includes('"S000"'))!;
      for (const request of server.requests) {
        if (request === failed) continue;
        // The slow batch's connection was closed by the client, soon after the failure.
        expect(request.answered, `batch ${request.body.slice(0, 30)} was left running`).toBe(false);
        expect(request.abortedAt, `batch ${request.body.slice(0, 30)} still open`).toBeDefined();
        expect(request.abortedAt! - rejectedAt).toBeLessThan(500);
      }
    });
  }

  it('with concurrency 1, nothing after the failed first batch is sent', async () => {
    const server = await failingFirstBatch();
    const client = makeClient(server.url, { pricingConcurrency: 1, pricingBatchSize: 100 });
    await apiError(client.realtimePricing(SYMBOLS), 'server', 5000);
    await sleep(200);
    expect(server.requests).toHaveLength(1);
  });

  it('an already-aborted signal sends no request at all (not even a connection)', async () => {
    const server = await httpServer((req, res) => json(res, 200, pricingJson(req.body)));
    const client = makeClient(server.url, { pricingConcurrency: 3, pricingBatchSize: 100 });
    const abort = new AbortController();
    abort.abort();
    await expect(within(client.realtimePricing(SYMBOLS, { signal: abort.signal }), 3000)).rejects.toThrow();
    await expect(within(client.realtimePricing(['AAPL'], { signal: abort.signal }), 3000)).rejects.toThrow();
    // Even a watchlist that has no sendable symbol at all fails as aborted instead of resolving.
    await expect(within(client.realtimePricing(['not a symbol!'], { signal: abort.signal }), 3000)).rejects.toThrow();
    await sleep(100);
    expect(server.requests).toHaveLength(0);
    expect(server.connections).toBe(0);
  });

  it('aborting mid-call rejects at once and closes every batch in flight', async () => {
    const server = await httpServer((req, res) => {
      setTimeout(() => json(res, 200, pricingJson(req.body)), SLOW_MS);
    });
    const client = makeClient(server.url, { pricingConcurrency: 2, pricingBatchSize: 100 });
    const abort = new AbortController();
    const call = client.realtimePricing(SYMBOLS, { signal: abort.signal });
    call.catch(() => undefined);
    await sleep(200);
    expect(server.requests).toHaveLength(2);
    const abortedAt = Date.now();
    abort.abort();
    await expect(within(call, 1000)).rejects.toThrow();
    expect(Date.now() - abortedAt).toBeLessThan(500);
    await sleep(300);
    // The third batch never went out, and the two in flight were cut off, not left to answer.
    expect(server.requests).toHaveLength(2);
    for (const request of server.requests) {
      expect(request.answered).toBe(false);
      expect(request.abortedAt).toBeDefined();
    }
  });
});

// ---------------------------------------------------------------------------------------------

describe('paging a server that ignores the cursor', () => {
  it('allContacts throws kind protocol instead of looping when every page is the same', async () => {
    const page = { has_more: true, data: [contactJson({ id: 'ct_1' }), contactJson({ id: 'ct_2' })] };
    const server = await httpServer((_req, res) => json(res, 200, page));
    const client = makeClient(server.url);
    const seen: string[] = [];
    const iterate = (async () => {
      for await (const contact of client.allContacts({ limit: 2 })) {
        seen.push(contact.id);
        if (seen.length > 50) throw new Error('allContacts kept yielding the same page');
      }
    })();
    const error = await apiError(iterate, 'protocol', 5000);
    expect(error.message).toContain('ct_1');
    // The first page is yielded once; the repeat is noticed on the second request.
    expect(seen).toEqual(['ct_1', 'ct_2']);
    expect(server.requests).toHaveLength(2);
    expect(new URL(server.requests[1]!.url, 'http://x').searchParams.get('starting_after')).toBe('ct_2');
  });

  it('a server that repeats only the last contact of the previous page is caught too', async () => {
    const server = await httpServer((req, res) => {
      const after = new URL(req.url, 'http://x').searchParams.get('starting_after');
      // Page 1: ct_1, ct_2; after ct_2: ct_2 again (an off-by-one cursor), ct_3; and so on.
      if (after === null) json(res, 200, { has_more: true, data: [contactJson({ id: 'ct_1' }), contactJson({ id: 'ct_2' })] });
      else json(res, 200, { has_more: true, data: [contactJson({ id: after }), contactJson({ id: `${after}x` })] });
    });
    const client = makeClient(server.url);
    const iterate = (async () => {
      let count = 0;
      for await (const contact of client.allContacts({ limit: 2 })) {
        void contact;
        if (++count > 50) throw new Error('allContacts kept going');
      }
    })();
    await apiError(iterate, 'protocol', 5000);
    expect(server.requests).toHaveLength(2);
  });
});
