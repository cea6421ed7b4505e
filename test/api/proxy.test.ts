// HTTPS_PROXY, HTTP_PROXY, ALL_PROXY and NO_PROXY, read as curl, npm and gh read them, through a
// real tiny proxy on loopback (test/helpers/forward-proxy.ts: absolute-URI requests and CONNECT)
// that records what passes. The targets have names under .test, which no resolver knows: a request
// that arrives went through the proxy (which sends every name to 127.0.0.1), one that went direct
// cannot.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ClientOptions, TickbookClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { bypasses, proxyFor } from '../../src/api/proxy.js';
import type { RequestLogEntry } from '../../src/api/transport.js';
import { openClient } from '../../src/cli/open-client.js';
import { startForwardProxy, type ForwardProxy } from '../helpers/forward-proxy.js';
import { apiError, closeAllServers, contactJson, httpServer, json, sleep, trackedClient, within, type TestServer } from '../helpers/servers.js';

const TOKEN = 'tok-Proxy-4711';

const proxies: ForwardProxy[] = [];

afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
  await closeAllServers();
  vi.unstubAllEnvs();
});

async function tinyProxy(refuse?: number | 'drop'): Promise<ForwardProxy> {
  const proxy = await startForwardProxy(refuse);
  proxies.push(proxy);
  return proxy;
}

async function contactsServer(): Promise<TestServer> {
  return httpServer((req, res) => {
    if (req.path === '/v1/contacts') json(res, 200, { has_more: false, data: [contactJson()] });
    else json(res, 200, { status: 'success', stock_symbols: [] });
  });
}

/** A loopback port with nothing listening. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const portOf = (url: string) => new URL(url).port;

function makeClient(url: string, proxyEnv: Record<string, string>, options: Partial<ClientOptions> = {}): { client: TickbookClient; log: RequestLogEntry[] } {
  const log: RequestLogEntry[] = [];
  const client = trackedClient(url, {
    token: TOKEN,
    apiKey: 'key-Proxy-0815',
    timeouts: { connectMs: 1000, headersMs: 2000, bodyMs: 2000 },
    retry: { retries: 0 },
    proxyEnv,
    onRequest: (entry) => log.push(entry),
    ...options,
  });
  return { client, log };
}

/**
 * Fails as a request sent straight to a .test name does: not found (or, with no resolver at all,
 * not looked up in time), and nothing said of a proxy.
 */
async function wentDirect(call: Promise<unknown>, what = ''): Promise<void> {
  const error = await within(call.then(() => undefined, (caught: unknown) => caught));
  expect(error, what).toBeInstanceOf(ApiError);
  const { kind, message } = error as ApiError;
  expect(['network', 'timeout'], what).toContain(kind);
  expect(message, what).toMatch(/api\.tickbook\.test/);
  expect(message, what).not.toMatch(/proxy/);
}

describe('through the proxy', () => {
  it('HTTP_PROXY carries http:// requests as absolute-URI requests; the proxy login goes to the proxy only', async () => {
    const api = await contactsServer();
    const proxy = await tinyProxy();
    const target = `http://api.tickbook.test:${portOf(api.url)}`;
    const login = `http://alice:pr%40xy@${new URL(proxy.url).host}`;
    const { client } = makeClient(target, { HTTP_PROXY: login });
    const page = await within(client.listContacts());
    expect(page.contacts).toHaveLength(1);
    expect(proxy.seen).toEqual([`GET ${target}/v1/contacts`]);
    expect(proxy.logins).toEqual([`Basic ${Buffer.from('alice:pr@xy').toString('base64')}`]);
    expect(api.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(api.requests[0]!.headers['proxy-authorization']).toBeUndefined();
  });

  it('lower case first: http_proxy over HTTP_PROXY; ALL_PROXY when neither is set', async () => {
    const api = await contactsServer();
    const proxy = await tinyProxy();
    const dead = `http://127.0.0.1:${await closedPort()}`;
    const target = `http://api.tickbook.test:${portOf(api.url)}`;
    await within(makeClient(target, { http_proxy: proxy.url, HTTP_PROXY: dead }).client.listContacts());
    await within(makeClient(target, { ALL_PROXY: proxy.url }).client.listContacts());
    await within(makeClient(target, { all_proxy: proxy.url, ALL_PROXY: dead }).client.listContacts());
    expect(proxy.seen).toHaveLength(3);
  });

  it('HTTPS_PROXY carries https:// requests through a CONNECT tunnel (and HTTP_PROXY does not)', async () => {
    // A plain HTTP server behind the tunnel: the TLS handshake fails, after the tunnel was made.
    const api = await contactsServer();
    const proxy = await tinyProxy();
    const target = `https://api.tickbook.test:${portOf(api.url)}`;
    const error = await apiError(makeClient(target, { HTTPS_PROXY: proxy.url }).client.listContacts(), 'protocol');
    expect(error.message).toContain('does not speak TLS');
    expect(proxy.seen).toEqual([`CONNECT api.tickbook.test:${portOf(api.url)}`]);

    await wentDirect(makeClient(target, { HTTP_PROXY: proxy.url }).client.listContacts());
    expect(proxy.seen).toHaveLength(1);
  });
});

describe('around the proxy', () => {
  it('NO_PROXY: a matching entry goes direct (and fails to resolve here), another goes through', async () => {
    const api = await contactsServer();
    const proxy = await tinyProxy();
    const port = portOf(api.url);
    const target = `http://api.tickbook.test:${port}`;
    for (const noProxy of ['.tickbook.test', 'tickbook.test', '*.tickbook.test', 'x.example, api.tickbook.test', `api.tickbook.test:${port}`, '*']) {
      await wentDirect(makeClient(target, { HTTP_PROXY: proxy.url, NO_PROXY: noProxy }).client.listContacts(), noProxy);
    }
    expect(proxy.seen).toEqual([]);
    for (const noProxy of ['api.tickbook.test:1', 'ickbook.test', 'other.test']) {
      await within(makeClient(target, { HTTP_PROXY: proxy.url, no_proxy: noProxy }).client.listContacts());
    }
    expect(proxy.seen).toHaveLength(3);
  });

  it('loopback never goes through a proxy, whatever NO_PROXY says', async () => {
    const api = await contactsServer();
    const proxy = await tinyProxy();
    const { client } = makeClient(api.url, { HTTP_PROXY: proxy.url, ALL_PROXY: proxy.url });
    await within(client.listContacts());
    await within(makeClient(`http://localhost:${portOf(api.url)}`, { HTTP_PROXY: proxy.url }).client.listContacts());
    expect(proxy.seen).toEqual([]);
    expect(api.requests).toHaveLength(2);
  });
});

describe('a proxy that fails', () => {
  it('refusing the connection: named with its host and variable, never its login', async () => {
    const port = await closedPort();
    const { client, log } = makeClient('http://api.tickbook.test:9', { http_proxy: `http://alice:s3cretPr0xy@127.0.0.1:${port}` });
    const error = await apiError(client.listContacts(), 'network');
    expect(error.message).toBe(`the proxy 127.0.0.1:${port} (http_proxy) refused the connection`);
    for (const text of [error.message, error.describe(), JSON.stringify(log)]) expect(text).not.toMatch(/alice|s3cretPr0xy/);
  });

  it('refusing a tunnel (HTTP 403): named, and not tried again', async () => {
    const proxy = await tinyProxy(403);
    const { client } = makeClient('https://api.tickbook.test:8443', { HTTPS_PROXY: proxy.url }, { retry: { retries: 2, baseDelayMs: 10, maxDelayMs: 20, budgetMs: 2000 } });
    const error = await apiError(client.listSymbols(), 'network');
    expect(error.message).toBe(`the proxy ${new URL(proxy.url).host} (HTTPS_PROXY) would not connect to api.tickbook.test:8443 (HTTP 403)`);
    await sleep(50);
    expect(proxy.seen).toHaveLength(1);
  });

  // undici 7 tried such a tunnel again and again, unseen, until the call's deadline (issue
  // nodejs/undici#3897); 8 fails it at once (UND_ERR_PRX_CONN).
  it('closing the connection instead of opening a tunnel: named, and tried again, a create too (nothing reached the server)', async () => {
    const proxy = await tinyProxy('drop');
    const retry = { retries: 2, baseDelayMs: 10, maxDelayMs: 20, budgetMs: 2000 };
    const { client } = makeClient('https://api.tickbook.test:8443', { HTTPS_PROXY: proxy.url }, { retry });
    const error = await apiError(client.listSymbols(), 'network');
    expect(error.message).toBe(`the proxy ${new URL(proxy.url).host} (HTTPS_PROXY) closed the connection before the tunnel to api.tickbook.test:8443 was open`);
    expect(error.retries).toBe(2);
    const created = await apiError(client.createContact({ username: 'ada', phoneNumber: '+15550100200' }), 'network');
    expect(created.retries).toBe(2);
    expect(proxy.seen).toHaveLength(6);
  });

  it('asking for a login (HTTP 407): says where to put it', async () => {
    const proxy = await tinyProxy(407);
    const { client } = makeClient('http://api.tickbook.test:8080', { HTTP_PROXY: proxy.url }, { retry: { retries: 2, baseDelayMs: 10, maxDelayMs: 20, budgetMs: 2000 } });
    const error = await apiError(client.listContacts(), 'network');
    expect(error.message).toContain('asks for a user name and password (HTTP 407): give them in HTTP_PROXY as http://user:password@host:port');
    expect(proxy.seen).toHaveLength(1);
  });

  it('a variable that is not a proxy URL: a usage-like error naming it, without its password, and nothing sent', async () => {
    const { client, log } = makeClient('https://api.tickbook.test', { HTTPS_PROXY: 'http://bob:hunter2@[not-a-host' });
    const error = await apiError(client.listContacts(), 'invalid');
    expect(error.message).toBe('HTTPS_PROXY "http://[not-a-host" is not a proxy URL');
    expect(JSON.stringify(log)).not.toContain('hunter2');
    const socks = await apiError(makeClient('https://api.tickbook.test', { ALL_PROXY: 'ftp://proxy.example:21' }).client.listContacts(), 'invalid');
    expect(socks.message).toContain('only http:// and https:// proxies are supported');
  });
});

describe('open-client', () => {
  it('a remote base URL goes through the proxy the environment names; the sandbox never does', async () => {
    const home = mkdtempSync(join(tmpdir(), 'tickbook-proxy-'));
    try {
      vi.stubEnv('XDG_DATA_HOME', join(home, 'data'));
      const api = await contactsServer();
      const proxy = await tinyProxy();
      const env = { XDG_CONFIG_HOME: join(home, 'config'), HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, ALL_PROXY: proxy.url };

      // Plain http to a name that is not loopback: the credentials go only with the opt-in.
      const remote = await openClient({
        flags: { baseUrl: `http://api.tickbook.test:${portOf(api.url)}`, token: TOKEN, apiKey: 'k', insecureHttp: true },
        env,
      });
      try {
        await within(remote.client.listContacts());
      } finally {
        await remote.close();
      }
      expect(proxy.seen).toHaveLength(1);

      const sandbox = await openClient({ flags: {}, env });
      try {
        expect(sandbox.target).toBe('sandbox (in-process)');
        await within(sandbox.client.listContacts({ limit: 1 }));
        await within(sandbox.client.listSymbols());
      } finally {
        await sandbox.close();
      }
      expect(proxy.seen).toHaveLength(1);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('the rules, without a network', () => {
  const env = { https_proxy: 'http://p.example:3128', HTTP_PROXY: 'p.example:8080' };
  it('which variable applies to which target', () => {
    expect(proxyFor(new URL('https://api.example/'), env)?.url.href).toBe('http://p.example:3128/');
    expect(proxyFor(new URL('http://api.example/'), env)?.url.href).toBe('http://p.example:8080/');
    expect(proxyFor(new URL('http://api.example/'), env)?.shown).toBe('p.example:8080 (HTTP_PROXY)');
    // An https:// target does not fall back to HTTP_PROXY.
    expect(proxyFor(new URL('https://api.example/'), { HTTP_PROXY: 'http://p.example' })).toBeUndefined();
    expect(proxyFor(new URL('https://api.example/'), { HTTPS_PROXY: '' })).toBeUndefined();
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', 'a.localhost', '[::1]']) {
      expect(proxyFor(new URL(`https://${host}/`), env), host).toBeUndefined();
    }
  });

  it('NO_PROXY entries', () => {
    const at = (url: string, list: string) => bypasses(new URL(url), list);
    expect(at('https://API.Example.com/', 'example.com')).toBe(true);
    expect(at('https://api.example.com/', '.example.com')).toBe(true);
    expect(at('https://example.com/', '.example.com')).toBe(true);
    expect(at('https://api.example.com/', '*.EXAMPLE.com')).toBe(true);
    expect(at('https://notexample.com/', 'example.com')).toBe(false);
    expect(at('https://api.example.com/', 'example.com:443')).toBe(true);
    expect(at('https://api.example.com/', 'example.com:8443')).toBe(false);
    expect(at('https://api.example.com:8443/', 'example.com:8443')).toBe(true);
    expect(at('https://10.1.2.3/', '10.0.0.0/8')).toBe(true);
    expect(at('https://11.1.2.3/', '10.0.0.0/8')).toBe(false);
    expect(at('https://[fd00::1]/', 'fd00::/8')).toBe(true);
    expect(at('https://[fd00::1]:8443/', '[fd00::1]:8443')).toBe(true);
    expect(at('https://[fd00::1]/', 'fd00::1')).toBe(true);
    expect(at('https://anything.example/', ' * ')).toBe(true);
    expect(at('https://api.example.com/', 'a.example, b.example api.example.com')).toBe(true);
    expect(at('https://api.example.com/', '')).toBe(false);
    // An address is itself or in a range, never a name's suffix.
    expect(at('https://10.0.0.1/', '0.0.1')).toBe(false);
    expect(at('https://10.0.0.1/', '10.0.0.1')).toBe(true);
  });
});
