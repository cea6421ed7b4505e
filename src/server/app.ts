// The sandbox's request handler: routing, authentication, rate limiting and the seven operations;
// and the answer to a request Node's parser refused before any handler could see it.
import { randomUUID } from 'node:crypto';
import { maxHeaderSize, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Listing } from './catalogue.js';
import { type RequestDeadlines, requestDeadlines, seconds } from './request-deadlines.js';
import type { ContactsStore } from './contacts-store.js';
import { type Gatekeeper, ownerOf } from './credentials.js';
import { HttpError } from './errors.js';
import { readFields } from './body.js';
import type { MarketSimulator } from './market.js';
import { pricingBody } from './pricing-body.js';
import type { RateLimiter } from './rate-limit.js';
import { sendError, sendJson, sendRawError } from './respond.js';
import {
  parseActive,
  parseLimit,
  validateContactUpdate,
  validateNewContact,
  validateSymbols,
} from './validate.js';

export interface AppParts {
  store: ContactsStore;
  market: MarketSimulator;
  catalogue: readonly Listing[];
  gatekeeper: Gatekeeper;
  rateLimiter?: RateLimiter | undefined;
  /** One line per request; never a secret. */
  log?: ((line: string) => void) | undefined;
  /** How long a request may take to arrive, for the words of a 408 (the server enforces them). */
  deadlines?: RequestDeadlines | undefined;
}

interface Context {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  requestId: string;
}

type Handler = (ctx: Context, param: string) => Promise<void> | void;

interface Route {
  pattern: RegExp;
  methods: ReadonlyMap<string, Handler>;
  /** The Allow header: the methods, HEAD wherever GET is, and OPTIONS. */
  allow: string;
}

function route(pattern: RegExp, methods: Record<string, Handler>): Route {
  const names = Object.keys(methods);
  if (methods.GET) names.push('HEAD');
  names.push('OPTIONS');
  return { pattern, methods: new Map(Object.entries(methods)), allow: names.join(', ') };
}

/** What Node hands 'clientError': a parse error carries the bytes it was parsing. */
export type ClientError = Error & { code?: string; rawPacket?: Buffer; bytesParsed?: number };

/** The request handler, and the answer for requests Node's parser refused (its 'clientError'). */
export type App = ((req: IncomingMessage, res: ServerResponse) => void) & {
  clientError(error: ClientError, socket: Duplex): void;
};

const CONTACT_ID = /^\/v1\/contacts\/([^/]+)$/;
const SECRET_QUERY = /token|key|secret|pass|auth/i;
/** A whole request line (RFC 9112): method token, target, version. */
const REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\S+) HTTP\/\d\.\d\r?\n/;
/** The start of one the client has not finished sending: a method token, then maybe part of a target. */
const CUT_REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)(?: \S*)?$/;

export function createApp(parts: AppParts): App {
  const { store, market, gatekeeper } = parts;
  const symbolsBody = JSON.stringify({
    status: 'success',
    stock_symbols: parts.catalogue.map(({ symbol, name }) => ({ symbol, name })),
  });

  const routes: readonly Route[] = [
    route(/^\/v1\/contacts$/, {
      GET: ({ req, res, url, requestId }) => {
        const owner = gatekeeper.contactsOwner(req);
        const query = url.searchParams;
        for (const name of query.keys()) {
          if (!['limit', 'active', 'starting_after', 'ending_before'].includes(name)) {
            throw new HttpError('invalid_parameters', `${name} is not a parameter of the contact list`);
          }
        }
        const body = store.pageBody(owner, {
          limit: parseLimit(query.get('limit')),
          active: parseActive(query.get('active')),
          startingAfter: query.get('starting_after') ?? undefined,
          endingBefore: query.get('ending_before') ?? undefined,
        });
        sendJson(res, 200, requestId, body);
      },
      POST: async ({ req, res, requestId }) => {
        const owner = gatekeeper.contactsOwner(req);
        const fields = validateNewContact(await readFields(req, ['json', 'form']));
        sendJson(res, 201, requestId, await store.grouped(() => store.create(owner, fields)));
      },
    }),
    route(CONTACT_ID, {
      GET: ({ req, res, requestId }, id) => {
        const contact = store.getJson(gatekeeper.contactsOwner(req), id);
        if (!contact) throw noContact(id);
        sendJson(res, 200, requestId, contact);
      },
      PUT: async ({ req, res, requestId }, id) => {
        const owner = gatekeeper.contactsOwner(req);
        const { displayName } = validateContactUpdate(await readFields(req, ['json', 'form']));
        const contact = await store.grouped(() => store.rename(owner, id, displayName));
        if (!contact) throw noContact(id);
        sendJson(res, 200, requestId, contact);
      },
      DELETE: async ({ req, res, requestId }, id) => {
        const owner = gatekeeper.contactsOwner(req);
        if (!(await store.grouped(() => store.delete(owner, id)))) throw noContact(id);
        sendJson(res, 200, requestId, { id, deleted: true });
      },
    }),
    route(/^\/v1\/utilities\/stock\/realtime-pricing$/, {
      POST: async ({ req, res, requestId }) => {
        gatekeeper.marketKey(req);
        const symbols = validateSymbols(await readFields(req, ['json']));
        const quotes = [];
        for (const symbol of symbols) {
          const quote = market.quote(symbol);
          if (quote) quotes.push(quote);
        }
        sendJson(res, 200, requestId, pricingBody(symbols, quotes, requestId, new Date().toISOString()));
      },
    }),
    route(/^\/v1\/utilities\/stock\/symbols$/, {
      GET: ({ req, res, requestId }) => {
        gatekeeper.marketKey(req);
        sendJson(res, 200, requestId, symbolsBody);
      },
    }),
  ];

  function notAllowed(method: string, path: string, allowed: Route): HttpError {
    return new HttpError('method_not_allowed', `${method} is not allowed on ${path}; use ${allowed.allow}`, {
      allow: allowed.allow,
    });
  }

  /** Runs the request's handler: a promise only when the handler is asynchronous (it reads a body). */
  function dispatch(ctx: Context): Promise<void> | void {
    const path = ctx.url.pathname;
    for (const route of routes) {
      const match = route.pattern.exec(path);
      if (!match) continue;
      const method = ctx.req.method ?? 'GET';
      // Node's response drops the body of a HEAD answer and keeps its headers, content-length too.
      const handler = route.methods.get(method) ?? (method === 'HEAD' ? route.methods.get('GET') : undefined);
      if (!handler) {
        if (method === 'OPTIONS') {
          ctx.res.writeHead(204, { allow: route.allow, 'x-request-id': ctx.requestId, 'cache-control': 'no-store' });
          ctx.res.end();
          return;
        }
        throw notAllowed(method, path, route);
      }
      let param = '';
      if (match[1] !== undefined) {
        try {
          param = decodeURIComponent(match[1]);
        } catch {
          throw noContact(match[1]);
        }
      }
      return handler(ctx, param);
    }
    throw new HttpError('not_found', `no such path: ${path}`);
  }

  /**
   * Node's parser refuses a method it does not know (BREW) before any handler runs, but the bytes
   * it was parsing come with the error: when they hold a whole request line, the path answers as
   * it would for any other method (405 with Allow, or 404); when the line was cut short, 400: a
   * 405 must say what is allowed, and without the path nobody knows.
   */
  function unknownMethod(error: ClientError): { method: string; url: URL | undefined; answer: HttpError } | undefined {
    const packet = error.rawPacket;
    if (!packet) return undefined;
    // The packet may hold earlier pipelined requests: the refused one starts on the failing line.
    const text = packet.toString('latin1', 0, Math.min(packet.length, maxHeaderSize));
    const failedAt = Math.min(Math.max(error.bytesParsed ?? 0, 0), text.length);
    const line = text.slice(text.lastIndexOf('\n', failedAt - 1) + 1);
    const whole = REQUEST_LINE.exec(line);
    if (whole) {
      const [, method = '', target = ''] = whole;
      let url: URL;
      try {
        url = new URL(target, 'http://sandbox');
      } catch {
        return undefined;
      }
      const path = url.pathname;
      const known = routes.find((r) => r.pattern.test(path));
      const answer = known ? notAllowed(method, path, known) : new HttpError('not_found', `no such path: ${path}`);
      return { method, url, answer };
    }
    const cut = CUT_REQUEST_LINE.exec(line);
    if (!cut) return undefined;
    const method = cut[1]!;
    const answer = new HttpError('invalid_parameters', `the request line was cut short after ${method}, a method this server does not know`);
    return { method, url: undefined, answer };
  }

  function clientError(error: ClientError, socket: Duplex): void {
    // The parser keeps reading after its first error (an oversized head arrives in many chunks):
    // the connection has had its one answer.
    if (socket.writableEnded) return;
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const requestId = randomUUID();
    let method = '-';
    let url: URL | undefined;
    let answer: HttpError;
    const refused = error.code === 'HPE_INVALID_METHOD' ? unknownMethod(error) : undefined;
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      // A request answered before its body came (and the body still coming): no 408 is written
      // into the answer under way, as Node's own default writes none.
      if ((socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
        socket.destroy();
        return;
      }
      const { headersMs, requestMs } = parts.deadlines ?? requestDeadlines({});
      answer = new HttpError(
        'request_timeout',
        `the request did not arrive in time: this server waits ${seconds(headersMs)} for the request line and headers and ${seconds(requestMs)} for the whole request`,
      );
    } else if (error.code === 'HPE_HEADER_OVERFLOW') {
      answer = new HttpError(
        'headers_too_large',
        `the request line and headers are larger than the ${maxHeaderSize / 1024} KiB this server reads`,
      );
    } else if (refused) {
      ({ method, url, answer } = refused);
    } else {
      answer = new HttpError('invalid_parameters', 'the request is not valid HTTP/1.1');
    }
    // Refused before it could be timed: '-' where the milliseconds go.
    parts.log?.(`${new Date().toISOString()} ${method} ${url ? loggable(url) : '-'} ${answer.status} - ${requestId}`);
    sendRawError(socket, requestId, answer);
  }

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const started = performance.now();
    const requestId = randomUUID();
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://sandbox');
    } catch {
      url = new URL('http://sandbox/');
    }
    const ctx: Context = { req, res, url, requestId };
    res.on('finish', () => {
      parts.log?.(
        `${new Date().toISOString()} ${req.method} ${loggable(url)} ${res.statusCode} ` +
          `${(performance.now() - started).toFixed(1)}ms ${requestId}`,
      );
    });
    const fail = (error: unknown): void => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (error instanceof HttpError) {
        sendError(res, requestId, error);
        return;
      }
      // Unexpected: the caller hears a plain 500; the operator's log gets the message, no stack.
      parts.log?.(`${new Date().toISOString()} error ${requestId}: ${(error as Error)?.message ?? String(error)}`);
      sendError(res, requestId, new HttpError('server_error', 'the server met an unexpected problem'));
    };
    // Most requests are answered synchronously, with no promise made for them (bench:server).
    try {
      parts.rateLimiter?.take(callerOf(req));
      dispatch(ctx)?.catch(fail);
    } catch (error) {
      fail(error);
    }
  };
  return Object.assign(handle, { clientError });
}

function noContact(id: string): HttpError {
  return new HttpError('not_found', `no contact with id ${JSON.stringify(id)}`);
}

/** Rate limits apply per credential (digested, never kept), or per address without one. */
function callerOf(req: IncomingMessage): string {
  const auth = req.headers.authorization;
  return auth ? ownerOf(auth) : `addr:${req.socket.remoteAddress ?? ''}`;
}

/** The path and query for the log, with any secret-looking parameter's value hidden. */
function loggable(url: URL): string {
  // As sent when no name can be a secret's, percent-encoded names (%74oken) included.
  if (!SECRET_QUERY.test(url.search) && !url.search.includes('%')) return url.pathname + url.search;
  const query = new URLSearchParams(url.search);
  for (const name of [...query.keys()]) {
    if (SECRET_QUERY.test(name)) query.set(name, '[redacted]');
  }
  return `${url.pathname}?${query.toString()}`;
}
