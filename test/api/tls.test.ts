// A certificate that does not verify is said in words, with the way to trust a private CA
// (NODE_EXTRA_CA_CERTS), and is not tried again: the next try meets the same certificate. Real
// https servers on loopback with certificates made here by openssl (skipped without it).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createSecureServer } from 'node:http2';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ClientOptions } from '../../src/api/client.js';
import type { RequestLogEntry } from '../../src/api/transport.js';
import { ROOT, runChild } from '../helpers/child.js';
import { startForwardProxy } from '../helpers/forward-proxy.js';
import { apiError, closeAllServers, sleep, trackedClient } from '../helpers/servers.js';

const hasOpenssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const RETRIES = 2;
let dir = '';
let expiredMadeAt = 0;
const pem = (name: string) => readFileSync(join(dir, name), 'utf8');

function openssl(...args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
}

/** A P-256 key and a certificate for it, signed by `ca` (or by itself), with these extensions. */
function certificate(name: string, subject: string, extensions: string, ca?: string, days = '1'): void {
  writeFileSync(join(dir, `${name}.ext`), `${extensions}\n`);
  openssl('req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject);
  const signer = ca ? ['-CA', `${ca}.crt`, '-CAkey', `${ca}.key`, '-CAcreateserial'] : ['-signkey', `${name}.key`];
  openssl('x509', '-req', '-in', `${name}.csr`, ...signer, '-out', `${name}.crt`, '-days', days, '-extfile', `${name}.ext`);
}

beforeAll(() => {
  if (!hasOpenssl) return;
  dir = mkdtempSync(join(tmpdir(), 'tickbook-tls-'));
  const leaf = 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE';
  const authority = 'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign';
  certificate('self', '/CN=localhost', leaf);
  certificate('root', '/CN=Tickbook Test Root', authority);
  certificate('leaf', '/CN=localhost', leaf, 'root');
  certificate('inter', '/CN=Tickbook Test Intermediate', authority, 'root');
  certificate('leaf2', '/CN=localhost', leaf, 'inter');
  certificate('other', '/CN=other.example', 'subjectAltName=DNS:other.example\nbasicConstraints=CA:FALSE', 'root');
  certificate('api', '/CN=api.tickbook.test', 'subjectAltName=IP:127.0.0.1,DNS:api.tickbook.test\nbasicConstraints=CA:FALSE', 'root');
  // Valid for 0 days: expired a second later.
  certificate('expired', '/CN=localhost', leaf, 'root', '0');
  expiredMadeAt = Date.now();
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const tlsServers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    tlsServers.splice(0).map((server) => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    })),
  );
  await closeAllServers();
});

/** An https server on loopback that answers 200 {} and counts the TCP connections it accepts. */
async function httpsServer(key: string, cert: string): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  const server = createHttpsServer({ key: pem(key), cert }, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"status":"success","stock_symbols":[]}');
  });
  server.on('connection', (socket: Socket) => {
    connections++;
    socket.on('error', () => {});
  });
  server.on('tlsClientError', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  tlsServers.push(server);
  return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => connections };
}

function makeClient(url: string, options: Partial<ClientOptions> = {}) {
  const log: RequestLogEntry[] = [];
  const client = trackedClient(url, {
    token: 'tok-Tls-4711',
    apiKey: 'key-Tls-0815',
    timeouts: { connectMs: 2000, headersMs: 2000, bodyMs: 2000 },
    retry: { retries: RETRIES, baseDelayMs: 10, maxDelayMs: 20, budgetMs: 3000 },
    onRequest: (entry) => log.push(entry),
    ...options,
  });
  return { client, log };
}

const TRUST_HINT = 'NODE_EXTRA_CA_CERTS=/path/to/ca.pem';

describe.skipIf(!hasOpenssl)('certificates that do not verify: said in words, tried once', () => {
  const cases: Array<[string, () => [string, string], RegExp]> = [
    ['DEPTH_ZERO_SELF_SIGNED_CERT', () => ['self.key', pem('self.crt')], /is self-signed/],
    // A leaf signed by a CA the client does not know, sent alone.
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', () => ['leaf.key', pem('leaf.crt')], /signed by an authority this machine does not know/],
    // The chain sent up to its root, which is not trusted.
    ['SELF_SIGNED_CERT_IN_CHAIN', () => ['leaf.key', pem('leaf.crt') + pem('root.crt')], /signed by an authority this machine does not trust/],
    // An intermediate sent, its issuer nowhere.
    ['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', () => ['leaf2.key', pem('leaf2.crt') + pem('inter.crt')], /signed by an authority this machine does not know/],
  ];

  for (const [code, serve, says] of cases) {
    it(code, async () => {
      const [key, cert] = serve();
      const server = await httpsServer(key, cert);
      const { client, log } = makeClient(server.url);
      const error = await apiError(client.listSymbols(), 'protocol');
      expect((error.cause as { code?: string }).code).toBe(code);
      expect(error.message).toMatch(says);
      expect(error.message).toContain(TRUST_HINT);
      expect(error.message).toContain(`${new URL(server.url).host}'s TLS certificate`);
      expect(error.retries).toBe(0);
      expect(log).toHaveLength(1);
      await sleep(50);
      expect(server.connections()).toBe(1);
    });
  }

  // With the test's root trusted (a dispatcher of its own), the checks after the chain's.
  it('a certificate for another name (ERR_TLS_CERT_ALTNAME_INVALID)', async () => {
    const server = await httpsServer('other.key', pem('other.crt'));
    const dispatcher = new Agent({ connect: { ca: pem('root.crt') } });
    const { client } = makeClient(server.url, { dispatcher });
    const error = await apiError(client.listSymbols(), 'protocol');
    await dispatcher.close();
    expect((error.cause as { code?: string }).code).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
    expect(error.message).toContain('TLS certificate is for another host name');
    expect(error.retries).toBe(0);
    expect(server.connections()).toBe(1);
  });

  it('an expired certificate (CERT_HAS_EXPIRED)', async () => {
    await sleep(Math.max(0, expiredMadeAt + 1100 - Date.now()));
    const server = await httpsServer('expired.key', pem('expired.crt'));
    const dispatcher = new Agent({ connect: { ca: pem('root.crt') } });
    const { client } = makeClient(server.url, { dispatcher });
    const error = await apiError(client.listSymbols(), 'protocol');
    await dispatcher.close();
    expect((error.cause as { code?: string }).code).toBe('CERT_HAS_EXPIRED');
    expect(error.message).toContain("TLS certificate has expired (or this machine's clock is wrong)");
    expect(error.retries).toBe(0);
    expect(server.connections()).toBe(1);
  });

  it('NODE_EXTRA_CA_CERTS, as the hint says, makes Node trust the certificate', async () => {
    const server = await httpsServer('self.key', pem('self.crt'));
    const script = `const { request } = await import('undici'); const r = await request(${JSON.stringify(server.url)}); console.log(r.statusCode);`;
    const run = await runChild(process.execPath, ['--input-type=module', '-e', script], {
      cwd: ROOT,
      env: { ...process.env, NODE_EXTRA_CA_CERTS: join(dir, 'self.crt') },
    });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('200');
  });
});

// undici 8 speaks HTTP/2 to any TLS server that offers it (7 never offered it); the client keeps to
// HTTP/1.1, which its pool, timeouts and failure words are made for. The test's root is trusted
// as a system one would be (the client takes no CA of its own), for this test only.
describe.skipIf(!hasOpenssl)('a server that offers HTTP/2 (ALPN)', () => {
  it('is spoken to in HTTP/1.1: direct, through a tunnel, and to an https:// proxy that offers HTTP/2 too', async () => {
    const versions: string[] = [];
    const sockets = new Set<Socket>();
    const api = createSecureServer({ key: pem('api.key'), cert: pem('api.crt'), allowHTTP1: true }, (req, res) => {
      versions.push(req.httpVersion);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"status":"success","stock_symbols":[]}');
    });
    api.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    const port = (api.address() as AddressInfo).port;
    const trusted = getCACertificates('default');
    setDefaultCACertificates([...trusted, pem('root.crt')]);
    const tunnel = await startForwardProxy();
    const secureProxy = await startForwardProxy(undefined, { key: pem('leaf.key'), cert: pem('leaf.crt') });
    try {
      await makeClient(`https://127.0.0.1:${port}`).client.listSymbols();
      expect(versions).toEqual(['1.1']);
      await makeClient(`https://api.tickbook.test:${port}`, { proxyEnv: { HTTPS_PROXY: tunnel.url } }).client.listSymbols();
      expect(tunnel.seen).toEqual([`CONNECT api.tickbook.test:${port}`]);
      expect(versions).toEqual(['1.1', '1.1']);
      // By name: undici sends an address as the proxy's TLS server name, which Node warns of.
      const proxyByName = secureProxy.url.replace('127.0.0.1', 'localhost');
      await makeClient(`https://api.tickbook.test:${port}`, { proxyEnv: { HTTPS_PROXY: proxyByName } }).client.listSymbols();
      expect(secureProxy.negotiated).toEqual(['http/1.1']);
      expect(secureProxy.seen).toEqual([`CONNECT api.tickbook.test:${port}`]);
      expect(versions).toEqual(['1.1', '1.1', '1.1']);
    } finally {
      setDefaultCACertificates(trusted);
      await Promise.all([tunnel.close(), secureProxy.close()]);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => api.close(() => resolve()));
    }
  });
});

describe('https:// to a server that does not speak TLS', () => {
  it('says so, suggests http://, and is tried once', async () => {
    let connections = 0;
    const plain = createHttpServer((_req, res) => res.end('{}'));
    plain.on('connection', () => connections++);
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    try {
      const url = `https://127.0.0.1:${(plain.address() as AddressInfo).port}`;
      const { client } = makeClient(url);
      const error = await apiError(client.listContacts(), 'protocol');
      expect(error.message).toBe(`${new URL(url).host} does not speak TLS on this port: is the URL http:// rather than https://?`);
      expect(error.retries).toBe(0);
      await sleep(50);
      expect(connections).toBe(1);
    } finally {
      plain.closeAllConnections();
      await new Promise<void>((resolve) => plain.close(() => resolve()));
    }
  });
});
