// Every attempt has a deadline for the whole answer: a server that drips its body a byte at a
// time, never silent for long, is cut off, retried by the usual rules and reported as a timeout.
// And a call the caller cancels is logged as cancelled, not as a failure.
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClientOptions, TickbookClient } from '../../src/api/client.js';
import { DEFAULT_TIMEOUTS, type RequestLogEntry } from '../../src/api/transport.js';
import { debugLogLine } from '../../src/cli/debug-log.js';
import { apiError, closeAllServers, httpServer, sleep, trackedClient, within } from '../helpers/servers.js';

afterEach(closeAllServers);

function makeClient(url: string, options: Partial<ClientOptions> = {}): { client: TickbookClient; log: RequestLogEntry[] } {
  const log: RequestLogEntry[] = [];
  const client = trackedClient(url, {
    token: 'tok-Deadline-4711',
    apiKey: 'key-Deadline-0815',
    // Silence limits far above the drip's pace: only the deadline can end these calls.
    timeouts: { connectMs: 1000, headersMs: 5000, bodyMs: 5000, totalMs: 400 },
    retry: { retries: 1, baseDelayMs: 10, maxDelayMs: 20, budgetMs: 5000 },
    onRequest: (entry) => log.push(entry),
    ...options,
  });
  return { client, log };
}

/** Headers at once, then one byte of the body every 40 ms, for ever (until the client hangs up). */
function drip(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
  res.write('{');
  const timer = setInterval(() => res.write(' '), 40);
  res.on('close', () => clearInterval(timer));
}

describe('the deadline for a whole answer', () => {
  it('is 30 s unless told otherwise', () => {
    expect(DEFAULT_TIMEOUTS.totalMs).toBe(30_000);
  });

  it('a body that drips: a timeout after each attempt\'s deadline, retried once, in the log', async () => {
    const server = await httpServer((_req, res) => drip(res));
    const { client, log } = makeClient(server.url);
    const started = performance.now();
    const error = await apiError(client.listContacts(), 'timeout', 3000);
    expect(performance.now() - started).toBeGreaterThanOrEqual(2 * 400 - 50);
    expect(error.message).toBe(`${new URL(server.url).host} did not finish its answer within 0.4 s`);
    expect(error.retries).toBe(1);
    expect(server.count('GET', '/v1/contacts')).toBe(2);
    expect(log.map((e) => [e.retry, e.status, e.error])).toEqual([
      [0, 200, error.message],
      [1, 200, error.message],
    ]);
  });

  it('a create against a dripping server is cut off once and not sent again', async () => {
    const server = await httpServer((_req, res) => drip(res));
    const { client } = makeClient(server.url);
    const error = await apiError(client.createContact({ username: 'ada', phoneNumber: '+15550001111' }), 'timeout', 3000);
    expect(error.retries).toBe(0);
    await sleep(100);
    expect(server.count('POST', '/v1/contacts')).toBe(1);
  });

  it('the retry budget still bounds the whole call', async () => {
    const server = await httpServer((_req, res) => drip(res));
    const { client } = makeClient(server.url, {
      timeouts: { connectMs: 1000, headersMs: 5000, bodyMs: 5000, totalMs: 300 },
      retry: { retries: 10, baseDelayMs: 10, maxDelayMs: 20, budgetMs: 500 },
    });
    const started = performance.now();
    const error = await apiError(client.listSymbols(), 'timeout', 5000);
    // No retry starts after 500 ms, and each attempt ends by 300 ms: about 800 ms in all, far
    // from the 10 retries allowed (a busy machine only makes it fewer).
    expect(performance.now() - started).toBeLessThan(4000);
    expect(error.retries).toBeLessThanOrEqual(2);
  });
});

describe('a call the caller cancels', () => {
  it('is logged as cancelled, with the status that arrived, not as a failure', async () => {
    const server = await httpServer((_req, res) => drip(res));
    const { client, log } = makeClient(server.url, { timeouts: { connectMs: 1000, headersMs: 5000, bodyMs: 5000, totalMs: 5000 } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    const caught = await within(client.listContacts({}, { signal: controller.signal }).then(() => undefined, (error: unknown) => error), 3000);
    expect((caught as Error).name).toBe('AbortError');
    expect(log).toHaveLength(1);
    expect(log[0]!.error).toBe('cancelled');
    expect(log[0]!.status).toBe(200);
    const line = debugLogLine(log[0]!);
    expect(line).toContain(' 200 ');
    expect(line).toContain('"cancelled"');
    expect(line).not.toContain('unknown error');
  });

  it('before any answer: logged as cancelled with no status', async () => {
    const server = await httpServer(() => {
      /* never answers */
    });
    const { client, log } = makeClient(server.url, { timeouts: { connectMs: 1000, headersMs: 5000, bodyMs: 5000, totalMs: 5000 } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await within(client.realtimePricing(['AAPL'], { signal: controller.signal }).catch(() => undefined), 3000);
    expect(log.map((e) => [e.status, e.error])).toEqual([[0, 'cancelled']]);
    expect(debugLogLine(log[0]!)).toMatch(/ - [\d.]+ms - retry=0 "cancelled"\n$/);
  });
});
