// Small real servers on loopback for the API client's tests, the canned answers they send, and
// the client-side helpers that go with them. Every server and client made here is tracked: call
// closeAllServers() in afterEach.
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server as HttpServer, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import { expect } from 'vitest';
import { TickbookClient, type ClientOptions } from '../../src/api/client.js';
import { ApiError, type ApiErrorKind } from '../../src/api/errors.js';

// ---------------------------------------------------------------------------------------------
// Servers

/** One request as a test server saw it. */
export interface Seen {
  method: string;
  /** Path without the query. */
  path: string;
  /** Path and query as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /**
   * When the request's connection closed before an answer was sent; undefined otherwise.
   * Tracked by httpServer only (rawServer leaves it undefined).
   */
  abortedAt: number | undefined;
  /** Whether an answer was sent in full. Tracked by httpServer only (rawServer leaves it false). */
  answered: boolean;
}

export interface TestServer {
  url: string;
  requests: Seen[];
  /** TCP connections accepted. */
  connections: number;
  /** Requests seen with this method and path. */
  count(method: string, path: string): number;
  close(): Promise<void>;
}

/** What a request gets; `n` counts earlier requests with this method and path. */
export type Handler = (req: Seen, res: ServerResponse, n: number) => void;

const servers: TestServer[] = [];
const clients: TickbookClient[] = [];

/** Closes every server made here (dropping any held connection), then every client made by trackedClient. */
export async function closeAllServers(): Promise<void> {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await Promise.all(clients.splice(0).map((c) => c.close()));
}

function counter(requests: Seen[]) {
  return (method: string, path: string) => requests.filter((r) => r.method === method && r.path === path).length;
}

/**
 * A node:http server on 127.0.0.1, port 0; each request's body is read before `handler` runs.
 * Each request also records whether it was answered, and when its connection closed before that
 * (the client gave up on it).
 */
export async function httpServer(handler: Handler): Promise<TestServer> {
  const requests: Seen[] = [];
  const count = counter(requests);
  const state = { connections: 0 };
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    const url = req.url ?? '/';
    const seen: Seen = {
      method: req.method ?? '',
      path: url.split('?')[0]!,
      url,
      headers: req.headers,
      body: '',
      abortedAt: undefined,
      answered: false,
    };
    res.on('finish', () => {
      seen.answered = true;
    });
    res.on('close', () => {
      if (!seen.answered) seen.abortedAt = Date.now();
    });
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.body = Buffer.concat(chunks).toString('utf8');
      const n = count(seen.method, seen.path);
      requests.push(seen);
      handler(seen, res, n);
    });
  });
  server.on('connection', () => state.connections++);
  return listen(server, requests, count, state, () => server.closeAllConnections());
}

/** Starts `server` on a free loopback port and tracks it for closeAllServers(). */
async function listen(
  server: HttpServer | NetServer,
  requests: Seen[],
  count: TestServer['count'],
  state: { connections: number },
  dropConnections: () => void,
): Promise<TestServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const test: TestServer = {
    url: `http://127.0.0.1:${port}`,
    requests,
    get connections() {
      return state.connections;
    },
    count,
    close: () =>
      new Promise<void>((resolve) => {
        dropConnections();
        server.close(() => resolve());
      }),
  };
  servers.push(test);
  return test;
}

/** A node:net server that parses request heads itself and lets `handler` write raw bytes. */
export async function rawServer(handler: (socket: Socket, req: Seen, n: number) => void): Promise<TestServer> {
  const requests: Seen[] = [];
  const count = counter(requests);
  const state = { connections: 0 };
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const lines = buffer.subarray(0, end).toString('latin1').split('\r\n');
        const [method = '', url = '/'] = lines[0]!.split(' ');
        const headers: IncomingHttpHeaders = {};
        for (const line of lines.slice(1)) {
          const colon = line.indexOf(':');
          headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
        }
        const length = Number(headers['content-length'] ?? 0);
        if (buffer.length < end + 4 + length) return;
        const body = buffer.subarray(end + 4, end + 4 + length).toString('utf8');
        buffer = buffer.subarray(end + 4 + length);
        const seen: Seen = { method, path: url.split('?')[0]!, url, headers, body, abortedAt: undefined, answered: false };
        const n = count(seen.method, seen.path);
        requests.push(seen);
        handler(socket, seen, n);
      }
    });
  });
  return listen(server, requests, count, state, () => {
    for (const socket of sockets) socket.destroy();
  });
}

// ---------------------------------------------------------------------------------------------
// Answers

/** A JSON answer; nothing is written when the client already closed the connection. */
export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** The HTML error page a proxy in front of the API would send. */
export function html(res: ServerResponse, status: number): void {
  const text = `<html>\n<head><title>${status} Bad Gateway</title></head>\n<body><center><h1>${status}</h1></center><hr><center>nginx</center></body>\n</html>\n`;
  res.writeHead(status, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export function contactJson(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'ct_abc',
    username: 'ada',
    phone_number: '+15550001111',
    avatar_url: null,
    display_name: null,
    conversation_id: 'cv_abc',
    last_active_at: null,
    created_at: 1_700_000_000,
    ...over,
  };
}

export function errorJson(code: string, message: string): Record<string, unknown> {
  return { status: 'error', code, message, request_id: '11111111-2222-4333-8444-555555555555', request_time: '2026-11-21T23:59:01.123Z' };
}

/** A pricing answer quoting every symbol asked for (in the request `body`) except those in `unknown`. */
export function pricingJson(body: string, unknown: readonly string[] = []): Record<string, unknown> {
  const symbols = (JSON.parse(body) as { symbols: string[] }).symbols;
  return {
    status: 'success',
    request_id: '11111111-2222-4333-8444-555555555555',
    request_time: '2026-11-21T23:59:01.123Z',
    stock_symbols: symbols,
    stock_data: symbols.filter((s) => !unknown.includes(s)).map((symbol, i) => ({ symbol, price: 10 + i, volume: 1000 + i })),
  };
}

// ---------------------------------------------------------------------------------------------
// Client

/** A client with both APIs at `url`, closed by closeAllServers(). */
export function trackedClient(url: string, options: Partial<ClientOptions> = {}): TickbookClient {
  const client = new TickbookClient({ contactsUrl: url, marketDataUrl: url, ...options });
  clients.push(client);
  return client;
}

/** Settles within `ms` or fails the test: nothing may hang. */
export async function within<T>(promise: Promise<T>, ms = 5000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the call did not settle within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** The ApiError a call rejects with (within a deadline); fails when it resolves, hangs or throws another thing. */
export async function apiError(promise: Promise<unknown>, kind: ApiErrorKind, ms = 5000): Promise<ApiError> {
  let caught: unknown;
  try {
    const value = await within(promise, ms);
    throw new Error(`expected an ApiError of kind ${kind}, the call resolved with ${JSON.stringify(value)?.slice(0, 300)}`);
  } catch (error) {
    caught = error;
  }
  if (!(caught instanceof ApiError)) throw caught;
  expect(caught.kind, caught.message).toBe(kind);
  return caught;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
