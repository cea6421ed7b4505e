// startSandbox(): the whole sandbox on one port, for `tickbook serve`, the dashboard's embedded
// default, and the tests. In-process it writes nothing to the terminal: logs go to the caller's sink.
import { createServer } from 'node:http';
import { randomInt } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { isLoopbackHost } from '../api/rules.js';
import { dirname } from 'node:path';
import { dataDir, dataDirOrigin, defaultDatabasePath } from '../config/paths.js';
import { type App, type ClientError, createApp } from './app.js';
import { loadCatalogue } from './catalogue.js';
import { type ContactsStore, type KeptMarket, openContactsStore } from './contacts-store.js';
import {
  type Credentials,
  DEMO_API_KEY,
  DEMO_RESTRICTED_API_KEY,
  DEMO_TOKEN,
  Gatekeeper,
  ownerOf,
} from './credentials.js';
import { demoContacts } from './demo-data.js';
import { MarketSimulator } from './market.js';
import { RateLimiter } from './rate-limit.js';

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
  /** Receives one line per request. */
  log?: (line: string) => void;
  /**
   * The clock, and the market's epoch, for tests that replay the market. The epoch is kept in
   * the database like the seed (the clock's time when absent), and refused likewise if it differs.
   */
  now?: () => number;
  marketEpochMs?: number;
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
  close(): Promise<void>;
}

const CLOSE_GRACE_MS = 5000;

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? '127.0.0.1';
  const explicitTokens = (options.tokens?.length ?? 0) > 0;
  const explicitKeys = (options.apiKeys?.length ?? 0) > 0;
  if (!isLoopbackHost(host) && !(explicitTokens && explicitKeys)) {
    throw new Error(
      `refusing to serve on ${host} with the public demo credentials: give --token and --api-key, or bind to 127.0.0.1`,
    );
  }
  const credentials: Credentials = {
    tokens: explicitTokens ? [...options.tokens!] : [DEMO_TOKEN],
    apiKeys: explicitKeys ? [...options.apiKeys!] : [DEMO_API_KEY],
    restrictedApiKeys: options.restrictedApiKeys?.length ? [...options.restrictedApiKeys] : [DEMO_RESTRICTED_API_KEY],
  };
  const dbPath = options.dbPath ?? defaultDatabasePath();
  const now = options.now ?? Date.now;

  // Listen first: a port that is taken, or an address that is not this machine's, must leave
  // nothing behind, not a new database filled with demo contacts. No request reaches `app!`
  // before it is set: everything from the listen's callback to there runs without yielding.
  let app: App | undefined;
  const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => app!(req, res));
  server.on('clientError', (error: ClientError, socket: Duplex) => app!.clientError(error, socket));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  let store: ContactsStore;
  try {
    store = openContactsStore(dbPath, {
      // tickbook makes its own data directory, and no other: a --db in a missing directory is a typo.
      createDirectory: dirname(dbPath) === dataDir(),
      directoryOrigin: options.dbPath === undefined ? dataDirOrigin() : 'option --db',
      market: {
        seed: options.seed,
        epochMs: options.marketEpochMs,
        reset: options.resetMarket,
        fresh: () => ({ seed: randomInt(1, 2 ** 31 - 1), epochMs: now() }),
      },
      ...(options.demoData !== false && {
        initialContacts: (market) => ({
          owner: ownerOf(credentials.tokens[0]!),
          contacts: demoContacts(market!.seed, now(), options.demoContacts),
        }),
      }),
    });
  } catch (error) {
    server.close();
    throw error;
  }
  // Read once here, never per request: asked for above, so the store always has one.
  const { seed, epochMs: marketEpochMs, origin: marketOrigin } = store.market!;
  const seededDemoData = store.created && options.demoData !== false;
  try {
    const catalogue = loadCatalogue();
    const market = new MarketSimulator({ catalogue, seed, now, epochMs: marketEpochMs });
    app = createApp({
      store,
      market,
      catalogue,
      gatekeeper: new Gatekeeper(credentials),
      rateLimiter: options.rateLimit ? new RateLimiter(options.rateLimit, now) : undefined,
      log: options.log,
    });
  } catch (error) {
    server.close();
    store.close();
    throw error;
  }

  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${urlHost}:${address.port}`;
  let closing: Promise<void> | undefined;

  return {
    url,
    contactsUrl: url,
    marketDataUrl: url,
    token: credentials.tokens[0]!,
    apiKey: credentials.apiKeys[0]!,
    credentials,
    demoCredentials: { tokens: !explicitTokens, apiKeys: !explicitKeys },
    dbPath,
    seed,
    marketEpochMs,
    marketOrigin,
    seededDemoData,
    readOnly: store.readOnly,
    close() {
      // Stop accepting, let in-flight requests finish (cut off after a grace period), then close
      // the database so the WAL is checkpointed.
      closing ??= new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
        server.close(() => {
          clearTimeout(force);
          store.close();
          resolve();
        });
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}
