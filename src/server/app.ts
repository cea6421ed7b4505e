// The sandbox's request handler: routing, authentication, rate limiting and the seven operations.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Listing } from './catalogue.js';
import type { ContactsStore } from './contacts-store.js';
import { type Gatekeeper, ownerOf } from './credentials.js';
import { HttpError } from './errors.js';
import { readFields } from './body.js';
import type { MarketSimulator } from './market.js';
import { pricingBody } from './pricing-body.js';
import type { RateLimiter } from './rate-limit.js';
import { sendError, sendJson } from './respond.js';
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
  methods: Readonly<Record<string, Handler>>;
}

const CONTACT_ID = /^\/v1\/contacts\/([^/]+)$/;
const SECRET_QUERY = /token|key|secret|pass|auth/i;

export function createApp(parts: AppParts): (req: IncomingMessage, res: ServerResponse) => void {
  const { store, market, gatekeeper } = parts;
  const symbolsBody = JSON.stringify({
    status: 'success',
    stock_symbols: parts.catalogue.map(({ symbol, name }) => ({ symbol, name })),
  });

  const routes: readonly Route[] = [
    {
      pattern: /^\/v1\/contacts$/,
      methods: {
        GET: ({ req, res, url, requestId }) => {
          const owner = gatekeeper.contactsOwner(req);
          const query = url.searchParams;
          for (const name of query.keys()) {
            if (!['limit', 'active', 'starting_after', 'ending_before'].includes(name)) {
              throw new HttpError('invalid_parameters', `${name} is not a parameter of the contact list`);
            }
          }
          const page = store.page(owner, {
            limit: parseLimit(query.get('limit')),
            active: parseActive(query.get('active')),
            startingAfter: query.get('starting_after') ?? undefined,
            endingBefore: query.get('ending_before') ?? undefined,
          });
          sendJson(res, 200, requestId, { has_more: page.has_more, data: page.data });
        },
        POST: async ({ req, res, requestId }) => {
          const owner = gatekeeper.contactsOwner(req);
          const fields = validateNewContact(await readFields(req, ['json', 'form']));
          sendJson(res, 201, requestId, store.create(owner, fields));
        },
      },
    },
    {
      pattern: CONTACT_ID,
      methods: {
        GET: ({ req, res, requestId }, id) => {
          const contact = store.get(gatekeeper.contactsOwner(req), id);
          if (!contact) throw noContact(id);
          sendJson(res, 200, requestId, contact);
        },
        PUT: async ({ req, res, requestId }, id) => {
          const owner = gatekeeper.contactsOwner(req);
          const { displayName } = validateContactUpdate(await readFields(req, ['json', 'form']));
          const contact = store.rename(owner, id, displayName);
          if (!contact) throw noContact(id);
          sendJson(res, 200, requestId, contact);
        },
        DELETE: ({ req, res, requestId }, id) => {
          if (!store.delete(gatekeeper.contactsOwner(req), id)) throw noContact(id);
          sendJson(res, 200, requestId, { id, deleted: true });
        },
      },
    },
    {
      pattern: /^\/v1\/utilities\/stock\/realtime-pricing$/,
      methods: {
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
      },
    },
    {
      pattern: /^\/v1\/utilities\/stock\/symbols$/,
      methods: {
        GET: ({ req, res, requestId }) => {
          gatekeeper.marketKey(req);
          sendJson(res, 200, requestId, symbolsBody);
        },
      },
    },
  ];

  async function dispatch(ctx: Context): Promise<void> {
    const path = ctx.url.pathname;
    for (const route of routes) {
      const match = route.pattern.exec(path);
      if (!match) continue;
      const method = ctx.req.method ?? 'GET';
      const handler = route.methods[method];
      if (!handler) {
        const allow = Object.keys(route.methods).join(', ');
        throw new HttpError('method_not_allowed', `${method} is not allowed on ${path}; use ${allow}`, { allow });
      }
      let param = '';
      if (match[1] !== undefined) {
        try {
          param = decodeURIComponent(match[1]);
        } catch {
          throw noContact(match[1]);
        }
      }
      await handler(ctx, param);
      return;
    }
    throw new HttpError('not_found', `no such path: ${path}`);
  }

  return (req, res) => {
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
    const run = async (): Promise<void> => {
      parts.rateLimiter?.take(callerOf(req));
      await dispatch(ctx);
    };
    run().catch((error: unknown) => {
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
    });
  };
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
  if (url.search === '') return url.pathname;
  const query = new URLSearchParams(url.search);
  for (const name of [...query.keys()]) {
    if (SECRET_QUERY.test(name)) query.set(name, '[redacted]');
  }
  return `${url.pathname}?${query.toString()}`;
}
