// A real forward proxy on loopback (absolute-URI requests and CONNECT tunnels) that sends every
// host name to 127.0.0.1 and records what passes: a request to a name under .test that arrives went
// through it, since no resolver knows such a name.
import { createServer, request, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';

export interface ForwardProxy {
  url: string;
  /** "GET http://host:port/path" for a forwarded request, "CONNECT host:port" for a tunnel. */
  seen: string[];
  /** The Proxy-Authorization of each request, in order. */
  logins: (string | undefined)[];
  /** An https:// proxy: the protocol (ALPN) each TLS connection to it settled on ("none" when none was offered). */
  negotiated: string[];
  close(): Promise<void>;
}

/** What makes the proxy an https:// one: its key and certificate (PEM). It offers both HTTP/2 and 1.1, but speaks only 1.1. */
export interface ProxyTls {
  key: string;
  cert: string;
}

/**
 * A forward proxy that sends every host name to 127.0.0.1; `refuse` answers every request with that
 * status, or with 'drop' closes the connection without an answer.
 */
export async function startForwardProxy(refuse?: number | 'drop', tls?: ProxyTls): Promise<ForwardProxy> {
  const seen: string[] = [];
  const logins: (string | undefined)[] = [];
  const negotiated: string[] = [];
  const sockets = new Set<Socket>();
  const forward: RequestListener = (req, res) => {
    seen.push(`${req.method} ${req.url}`);
    logins.push(req.headers['proxy-authorization']);
    if (refuse === 'drop') {
      res.destroy();
      return;
    }
    if (refuse) {
      res.writeHead(refuse, { 'content-length': '0' });
      res.end();
      return;
    }
    const target = new URL(req.url ?? '');
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = request(
      { host: '127.0.0.1', port: Number(target.port), method: req.method, path: `${target.pathname}${target.search}`, headers, agent: false },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  };
  const server: Server = tls ? createHttpsServer({ ...tls, ALPNProtocols: ['h2', 'http/1.1'] }, forward) : createServer(forward);
  server.on('secureConnection', (socket: TLSSocket) => negotiated.push(socket.alpnProtocol || 'none'));
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (req, socket: Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    logins.push(req.headers['proxy-authorization']);
    socket.on('error', () => {});
    if (refuse === 'drop') {
      socket.destroy();
      return;
    }
    if (refuse) {
      socket.end(`HTTP/1.1 ${refuse} Refused\r\ncontent-length: 0\r\n\r\n`);
      return;
    }
    const port = Number((req.url ?? '').split(':').at(-1));
    const upstream = connect(port, '127.0.0.1', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => socket.destroy());
    socket.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxy: ForwardProxy = {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    logins,
    negotiated,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return proxy;
}
