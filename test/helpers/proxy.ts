// A real HTTP proxy in front of a real server (the sandbox), that a test can make misbehave on
// purpose for some requests: answer for the server, hold a request back, or change an answer.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

export interface ProxiedRequest {
  method: string;
  url: string;
  body: Buffer;
}

export interface ProxyAnswer {
  status: number;
  headers?: Record<string, string>;
  body: string;
}

export interface ProxyRules {
  /** Answers instead of the server (or undefined to pass the request on). */
  answer?: (req: ProxiedRequest) => ProxyAnswer | undefined;
  /** Milliseconds to hold the request before passing it on. */
  delayMs?: (req: ProxiedRequest) => number;
  /** What to wait for before passing the request on (undefined: nothing): held until the test says. */
  hold?: (req: ProxiedRequest) => Promise<void> | undefined;
  /** Changes the server's answer body. */
  rewrite?: (req: ProxiedRequest, body: Buffer) => Buffer;
}

export interface Proxy {
  url: string;
  /** The rules in force; change them at any time. */
  rules: ProxyRules;
  /** Requests seen, by "METHOD path" (query left out). */
  count(method: string, pathPart: string): number;
  close(): Promise<void>;
}

export async function startProxy(target: string, rules: ProxyRules = {}): Promise<Proxy> {
  const seen: ProxiedRequest[] = [];
  const proxy: Proxy = {
    url: '',
    rules,
    count: (method, pathPart) => seen.filter((r) => r.method === method && r.url.split('?')[0]!.includes(pathPart)).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const incoming: ProxiedRequest = { method: req.method ?? 'GET', url: req.url ?? '/', body: Buffer.concat(chunks) };
    seen.push(incoming);
    const answer = proxy.rules.answer?.(incoming);
    if (answer) {
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body);
      return;
    }
    const delay = proxy.rules.delayMs?.(incoming) ?? 0;
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    await proxy.rules.hold?.(incoming);
    try {
      const upstream = await request(`${target}${incoming.url}`, {
        method: incoming.method as 'GET',
        headers: req.headers as Record<string, string>,
        body: incoming.body.length ? incoming.body : undefined,
      });
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(upstream.headers)) if (typeof v === 'string' && k !== 'transfer-encoding') headers[k] = v;
      let body: Buffer = Buffer.from(await upstream.body.arrayBuffer());
      if (proxy.rules.rewrite) {
        body = proxy.rules.rewrite(incoming, body);
        headers['content-length'] = String(body.length);
      }
      res.writeHead(upstream.statusCode, headers);
      res.end(body);
    } catch {
      res.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
