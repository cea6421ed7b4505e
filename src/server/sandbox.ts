// startSandbox(): the whole sandbox on one port, for `tickbook serve`, the dashboard's embedded
// default, and the tests. In-process it writes nothing to the terminal: logs go to the caller's sink.
// listenSandbox() takes the port alone and opens the database when asked (open()): the dashboard
// draws its first frame first, and requests that arrive before then wait for it.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { isLoopbackHost } from '../api/rules.js';
import { defaultDatabasePath } from '../config/paths.js';
import type { ClientError } from './app.js';
import type { KeptMarket } from './kept-market.js';
import { type Credentials, DEMO_API_KEY, DEMO_RESTRICTED_API_KEY, DEMO_TOKEN, freshCredential } from './credentials.js';
import { HttpError } from './errors.js';
import { deadlineServerOptions, type RequestDeadlines, requestDeadlines } from './request-deadlines.js';
import { sendError } from './respond.js';
import type { SandboxParts } from './sandbox-parts.js';

export interface SandboxOptions {
  /** Loopback unless told otherwise; another address needs explicit tokens and API keys. */
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /**
   * The SQLite file, or ':memory:'; defaults to the user's data directory, the only directory
   * created when missing. Failing to open it throws a DatabaseOpenError.
   */
  dbPath?: string;
  /**
   * The market's seed. The database keeps its market (seed and epoch), so that every process on
   * it prices alike: this seed is written to a database that has no market yet (random when
   * absent, reported back as `seed`); a database keeping another seed is refused with a
   * MarketMismatchError unless `resetMarket`.
   */
  seed?: number;
  /** Write a new market to the database (with `seed` and `marketEpochMs` where given). */
  resetMarket?: boolean;
  /** Seed the demo contacts into a new database (default true). */
  demoData?: boolean;
  /** How many demo contacts a new database gets (default: the demo people, about 60 of them). */
  demoContacts?: number;
  /** Requests per second per credential; off when absent or 0. */
  rateLimit?: number;
  tokens?: readonly string[];
  apiKeys?: readonly string[];
  restrictedApiKeys?: readonly string[];
  /**
   * The sandbox a command starts for itself (the dashboard's, `quote --watch`'s): it accepts only
   * a token and an API key made for this process (freshCredential), which no other process or
   * account knows, never the public demo ones; the token opens the demo user's contacts, as
   * `serve` on the same database shows them. Not with `tokens` or `apiKeys`.
   */
  inProcess?: boolean;
  /** Receives one line per request. */
  log?: (line: string) => void;
  /**
   * The clock, and the market's epoch, for tests that replay the market. The epoch is kept in
   * the database like the seed (the clock's time when absent), and refused likewise if it differs.
   */
  now?: () => number;
  marketEpochMs?: number;
  /**
   * How long a request's line and headers, and the whole request, may take to arrive (10 s and
   * 30 s; see request-deadlines.ts); shorter in tests, so that a slow client is cut off at once.
   */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
}

export interface Sandbox {
  /** The one origin both URL groups are served from. */
  url: string;
  contactsUrl: string;
  marketDataUrl: string;
  /** The first accepted bearer token and API key: the ones a caller in-process should use. */
  token: string;
  apiKey: string;
  credentials: Credentials;
  /** Whether each credential list is the built-in demo one. */
  demoCredentials: { tokens: boolean; apiKeys: boolean };
  dbPath: string;
  /** The market the database keeps, which this sandbox prices from. */
  seed: number;
  marketEpochMs: number;
  /** Whether this start wrote that market (a new database, or a reset) or found it there. */
  marketOrigin: KeptMarket['origin'];
  /** True when this start created the database and filled it with demo contacts. */
  seededDemoData: boolean;
  /** Why the database may only be read, when it may not be written: reads are served, writes refused. */
  readOnly: string | undefined;
  /** How long a request may take to arrive, as the server was set (RequestDeadlines). */
  deadlines: RequestDeadlines;
  close(): Promise<void>;
}

/** The sandbox with its port taken, its database not opened yet. */
export interface ListeningSandbox extends Pick<Sandbox, 'url' | 'contactsUrl' | 'marketDataUrl' | 'token' | 'apiKey' | 'credentials' | 'demoCredentials' | 'dbPath' | 'deadlines'> {
  /**
   * Opens the database and starts answering (once, however often asked). When it fails, the
   * requests waiting and any after are answered 500 with why; the port stays taken until close().
   */
  open(): Promise<Sandbox>;
  close(): Promise<void>;
}

const CLOSE_GRACE_MS = 5000;

/** Listens, then opens the database: the sandbox ready to answer, or an error with nothing left behind. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return openOrClose(await listenSandbox(options));
}

/** Opens a listening sandbox; when it cannot, closes it (freeing the port) and throws why. */
export async function openOrClose(listening: ListeningSandbox): Promise<Sandbox> {
  try {
    return await listening.open();
  } catch (error) {
    await listening.close();
    throw error;
  }
}

/** Takes the port (failing there leaves nothing behind, not a new database); open() does the rest. */
export async function listenSandbox(options: SandboxOptions = {}): Promise<ListeningSandbox> {
  const host = options.host ?? '127.0.0.1';
  const explicitTokens = (options.tokens?.length ?? 0) > 0;
  const explicitKeys = (options.apiKeys?.length ?? 0) > 0;
  if (!isLoopbackHost(host) && !(explicitTokens && explicitKeys)) {
    throw new Error(
      `refusing to serve on ${host} with the public demo credentials: give --token and --api-key, or bind to 127.0.0.1`,
    );
  }
  if (options.inProcess && (explicitTokens || explicitKeys || (options.restrictedApiKeys?.length ?? 0) > 0)) {
    throw new Error('an in-process sandbox makes its own credentials: give it none');
  }
  const credentials: Credentials = options.inProcess
    ? { tokens: [freshCredential('token')], apiKeys: [freshCredential('key')], restrictedApiKeys: [], actsAs: DEMO_TOKEN }
    : {
        tokens: explicitTokens ? [...options.tokens!] : [DEMO_TOKEN],
        apiKeys: explicitKeys ? [...options.apiKeys!] : [DEMO_API_KEY],
        restrictedApiKeys: options.restrictedApiKeys?.length ? [...options.restrictedApiKeys] : [DEMO_RESTRICTED_API_KEY],
      };
  const dbPath = options.dbPath ?? defaultDatabasePath();
  const now = options.now ?? Date.now;
  const asked = requestDeadlines(options);

  let parts: SandboxParts | undefined;
  let opening: Promise<Sandbox> | undefined;
  /** Settles when open() does: what a request that came first waits for. */
  let opened!: { resolve: () => void; reject: (error: unknown) => void };
  const ready = new Promise<void>((resolve, reject) => (opened = { resolve, reject }));
  // A request before open() is not refused: it waits, unread, for the handler.
  ready.catch(() => undefined);
  const whenReady = (then: () => void, otherwise: (error: unknown) => void) => void ready.then(then, otherwise);
  const server = createServer({ keepAliveTimeout: 65_000, ...deadlineServerOptions(asked) }, (req: IncomingMessage, res: ServerResponse) => {
    if (parts) parts.app(req, res);
    else whenReady(() => parts!.app(req, res), (error) => unopened(res, error));
  });
  server.on('clientError', (error: ClientError, socket: Duplex) => {
    if (parts) parts.app.clientError(error, socket);
    else whenReady(() => parts!.app.clientError(error, socket), () => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${urlHost}:${address.port}`;
  let closing: Promise<void> | undefined;
  const demoCredentials = { tokens: !explicitTokens && !options.inProcess, apiKeys: !explicitKeys && !options.inProcess };
  const token = credentials.tokens[0]!;
  const apiKey = credentials.apiKeys[0]!;

  const close = (): Promise<void> => {
    // Stop accepting, let in-flight requests finish (cut off after a grace period), then close
    // the database so the WAL is checkpointed; a database still opening is closed once open.
    // Requests waiting for a database that will now never open are answered at once.
    if (!opening) opened.reject(new Error('it was closed before its database was opened'));
    closing ??= new Promise<void>((resolve) => {
      const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
      server.close(() => {
        clearTimeout(force);
        void (opening ?? Promise.resolve())
          .catch(() => undefined)
          .then(() => {
            parts?.store.close();
            resolve();
          });
      });
      server.closeIdleConnections();
    });
    return closing;
  };

  const open = async (): Promise<Sandbox> => {
    try {
      // The store and the handler: SQLite's addon and the market, loaded only now.
      const { makeSandboxParts } = await import('./sandbox-parts.js');
      if (closing) throw new Error('the sandbox was closed before its database was opened');
      parts = makeSandboxParts(options, credentials, dbPath, now);
    } catch (error) {
      opened.reject(error);
      throw error;
    }
    opened.resolve();
    const { seed, epochMs: marketEpochMs, origin: marketOrigin }: KeptMarket = parts.market;
    return {
      ...listening,
      seed,
      marketEpochMs,
      marketOrigin,
      seededDemoData: parts.store.created && options.demoData !== false,
      readOnly: parts.store.readOnly,
    };
  };

  /** What the sandbox is before and after it opens: where, as whom, and how to close it. */
  // Read back from the server: what it enforces, not what was asked.
  const deadlines: RequestDeadlines = { headersMs: server.headersTimeout, requestMs: server.requestTimeout };
  const listening = { url, contactsUrl: url, marketDataUrl: url, token, apiKey, credentials, demoCredentials, dbPath, deadlines, close };
  return { ...listening, open: () => (opening ??= open()) };
}

/** A request the sandbox cannot serve, its database not open (it failed to, or the sandbox closed first): why, as a 500. */
function unopened(res: ServerResponse, error: unknown): void {
  const reason = error instanceof Error ? error.message : String(error);
  // Not kept alive: nothing more will be served on it, and a close waits for open connections.
  sendError(res, randomUUID(), new HttpError('server_error', `the sandbox is not serving: ${reason}`, { connection: 'close' }));
}
