// A credential that cannot be an HTTP header value (a line break pasted with it, a character
// outside Latin-1) fails at once, as a credential problem naming which one, never as a network
// failure tried again, and never quoting the value.
import { afterEach, describe, expect, it } from 'vitest';
import type { ClientOptions, TickbookClient } from '../../src/api/client.js';
import type { RequestLogEntry } from '../../src/api/transport.js';
import { apiError, closeAllServers, httpServer, json, sleep, trackedClient, within } from '../helpers/servers.js';

afterEach(closeAllServers);

function makeClient(url: string, options: Partial<ClientOptions>): { client: TickbookClient; log: RequestLogEntry[] } {
  const log: RequestLogEntry[] = [];
  const client = trackedClient(url, {
    timeouts: { connectMs: 1000, headersMs: 2000, bodyMs: 2000 },
    retry: { retries: 3, baseDelayMs: 10, maxDelayMs: 20, budgetMs: 3000 },
    onRequest: (entry) => log.push(entry),
    ...options,
  });
  return { client, log };
}

describe('a credential that cannot be sent in a header', () => {
  const cases: Array<[string, string]> = [
    ['a line break', 'tok-Line\nBreak-4711'],
    ['a carriage return', 'tok-Line\rBreak-4711'],
    ['a NUL', 'tok-Nul\u0000-4711'],
    ['a character outside Latin-1', 'tok-Euro€-4711'],
  ];

  for (const [what, secret] of cases) {
    it(`a token with ${what}: kind auth naming the token, not retried, nothing sent`, async () => {
      const server = await httpServer((_req, res) => json(res, 200, { has_more: false, data: [] }));
      const { client, log } = makeClient(server.url, { token: secret, apiKey: 'key-Fine-0815' });
      const error = await apiError(client.listContacts(), 'auth');
      expect(error.message).toContain('the bearer token for the contacts API');
      expect(error.message).toContain('cannot be sent in an HTTP header');
      expect(error.status).toBe(0);
      expect(error.retries).toBe(0);
      for (const part of secret.split(/[\n\r\u0000€]/)) expect(error.describe()).not.toContain(part);
      expect(log).toHaveLength(1);
      await sleep(50);
      expect(server.requests).toHaveLength(0);
    });
  }

  it('an API key with a character outside Latin-1: named as the API key', async () => {
    const server = await httpServer((_req, res) => json(res, 200, { status: 'success', stock_symbols: [] }));
    const { client, log } = makeClient(server.url, { token: 'tok-Fine-4711', apiKey: 'key-Ω-0815' });
    const error = await apiError(client.listSymbols(), 'auth');
    expect(error.message).toContain('the API key for the market data API');
    expect(error.message).not.toContain('Ω');
    expect(log).toHaveLength(1);
    expect(server.requests).toHaveLength(0);
  });

  it('a Latin-1 character is a valid header value and is sent', async () => {
    const server = await httpServer((_req, res) => json(res, 200, { has_more: false, data: [] }));
    const { client } = makeClient(server.url, { token: 'tok-café-4711', apiKey: 'k' });
    await within(client.listContacts());
    expect(server.requests[0]!.headers.authorization).toBe('Bearer tok-café-4711');
  });
});
