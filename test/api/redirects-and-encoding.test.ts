// Answers that were called by the wrong name: a redirect is named with where it points (cleaned,
// never followed), and a compressed body, though not asked for, is unpacked within the same
// size limit as any other. Real servers on loopback.
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClientOptions, TickbookClient } from '../../src/api/client.js';
import type { RequestLogEntry } from '../../src/api/transport.js';
import { apiError, closeAllServers, contactJson, httpServer, sleep, trackedClient, within } from '../helpers/servers.js';

afterEach(closeAllServers);

function makeClient(url: string, options: Partial<ClientOptions> = {}): { client: TickbookClient; log: RequestLogEntry[] } {
  const log: RequestLogEntry[] = [];
  const client = trackedClient(url, {
    token: 'tok-Redirect-4711',
    apiKey: 'key-Redirect-0815',
    timeouts: { connectMs: 1000, headersMs: 2000, bodyMs: 2000 },
    retry: { retries: 2, baseDelayMs: 10, maxDelayMs: 20, budgetMs: 2000 },
    onRequest: (entry) => log.push(entry),
    ...options,
  });
  return { client, log };
}

describe('redirects', () => {
  it('a 301 names its Location, without user info, query or fragment, and is not followed', async () => {
    const server = await httpServer((_req, res) => {
      res.writeHead(301, { location: 'https://alice:pa55word@api.example/v1/contacts?session=abc123#top' });
      res.end('Moved');
    });
    const { client } = makeClient(server.url);
    const error = await apiError(client.listContacts(), 'protocol');
    expect(error.message).toBe(
      'the server answered HTTP 301: moved to https://api.example/v1/contacts (tickbook does not follow redirects: use that as the base URL if you trust it)',
    );
    expect(error.describe()).not.toMatch(/alice|pa55word|abc123/);
    expect(error.status).toBe(301);
    await sleep(50);
    expect(server.requests).toHaveLength(1);
  });

  it('a relative Location is shown against the server it came from', async () => {
    const server = await httpServer((_req, res) => {
      res.writeHead(308, { location: '/api/v2/contacts' });
      res.end();
    });
    const { client } = makeClient(server.url);
    const error = await apiError(client.listContacts(), 'protocol');
    expect(error.message).toContain(`moved to ${server.url}/api/v2/contacts`);
  });

  it('a 302 without a Location says it is a redirect', async () => {
    const server = await httpServer((_req, res) => {
      res.writeHead(302);
      res.end();
    });
    const { client } = makeClient(server.url);
    const error = await apiError(client.listSymbols(), 'protocol');
    expect(error.message).toBe('the server answered HTTP 302, a redirect, which tickbook does not follow');
  });
});

describe('compressed answers', () => {
  const body = JSON.stringify(contactJson({ display_name: 'Ada Lovelace' }));
  const encodings: Array<[string, string, (data: Buffer) => Buffer]> = [
    ['gzip', 'gzip', gzipSync],
    ['x-gzip', 'gzip', gzipSync],
    ['deflate', 'zlib-wrapped, as HTTP says', deflateSync],
    ['deflate', 'raw, as some servers send it', deflateRawSync],
    ['br', 'brotli', brotliCompressSync],
  ];

  function send(res: ServerResponse, encoding: string, data: Buffer): void {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding, 'content-length': data.length });
    res.end(data);
  }

  for (const [encoding, how, pack] of encodings) {
    it(`${encoding} (${how}): unpacked and read, though identity was asked for`, async () => {
      const server = await httpServer((_req, res) => send(res, encoding, pack(Buffer.from(body))));
      const { client } = makeClient(server.url);
      const contact = await within(client.getContact('ct_abc'));
      expect(contact.displayName).toBe('Ada Lovelace');
      expect(server.requests[0]!.headers['accept-encoding']).toBe('identity');
    });
  }

  it('a gzip bomb (20 MiB of spaces in 20 KB) is refused at 8 MiB unpacked', async () => {
    const bomb = gzipSync(Buffer.alloc(20 * 1024 * 1024, ' '));
    expect(bomb.length).toBeLessThan(100_000);
    const server = await httpServer((_req, res) => send(res, 'gzip', bomb));
    const { client } = makeClient(server.url);
    const error = await apiError(client.getContact('ct_abc'), 'protocol');
    expect(error.message).toBe(`${new URL(server.url).host} sent an answer larger than 8 MiB once unpacked`);
  });

  it('an answer of 9 MiB as it is (no encoding) is refused at 8 MiB, and nothing else goes wrong', async () => {
    const server = await httpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(Buffer.alloc(9 * 1024 * 1024, ' '));
    });
    const { client } = makeClient(server.url);
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      const error = await apiError(client.getContact('ct_abc'), 'protocol');
      expect(error.message).toBe(`${new URL(server.url).host} sent an answer larger than 8 MiB`);
      // The body destroyed at the limit reports it, after the call has failed.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });

  it('an encoding tickbook cannot read is named', async () => {
    const server = await httpServer((_req, res) => send(res, 'zstd', Buffer.from('(not really zstd)')));
    const { client } = makeClient(server.url);
    const error = await apiError(client.getContact('ct_abc'), 'protocol');
    expect(error.message).toContain('encoded as "zstd", which tickbook cannot read');
  });

  it('a gzip body that is not gzip is a protocol error, not a crash', async () => {
    const server = await httpServer((_req, res) => send(res, 'gzip', Buffer.from(body)));
    const { client } = makeClient(server.url);
    const error = await apiError(client.getContact('ct_abc'), 'protocol');
    expect(error.message).toContain('sent a gzip answer that cannot be unpacked');
  });
});
