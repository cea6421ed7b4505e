// What the sandbox serves with, made once its port is taken: the SQLite store (better-sqlite3),
// the market and the request handler. A module of its own so that what only listens
// (sandbox.ts) loads none of it: the dashboard draws its first frame before this is loaded.
import { randomInt } from 'node:crypto';
import { dirname } from 'node:path';
import { dataDir, dataDirOrigin } from '../config/paths.js';
import { type App, createApp } from './app.js';
import { loadCatalogue } from './catalogue.js';
import { type ContactsStore, openContactsStore } from './contacts-store.js';
import type { KeptMarket } from './kept-market.js';
import { type Credentials, Gatekeeper, ownerFor } from './credentials.js';
import { demoContacts } from './demo-data.js';
import { MarketSimulator } from './market.js';
import { RateLimiter } from './rate-limit.js';
import { requestDeadlines } from './request-deadlines.js';
import type { SandboxOptions } from './sandbox.js';

export interface SandboxParts {
  app: App;
  store: ContactsStore;
  market: KeptMarket;
}

/** Opens (or makes) the database and builds the handler; throws, leaving nothing open, when it cannot. */
export function makeSandboxParts(options: SandboxOptions, credentials: Credentials, dbPath: string, now: () => number): SandboxParts {
  const store = openContactsStore(dbPath, {
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
        owner: ownerFor(credentials, credentials.tokens[0]!),
        contacts: demoContacts(market!.seed, now(), options.demoContacts),
      }),
    }),
  });
  // Read once here, never per request: asked for above, so the store always has one.
  const market = store.market!;
  try {
    const catalogue = loadCatalogue();
    const simulator = new MarketSimulator({ catalogue, seed: market.seed, now, epochMs: market.epochMs });
    const app = createApp({
      store,
      market: simulator,
      catalogue,
      gatekeeper: new Gatekeeper(credentials),
      rateLimiter: options.rateLimit ? new RateLimiter(options.rateLimit, now) : undefined,
      log: options.log,
      deadlines: requestDeadlines(options),
    });
    return { app, store, market };
  } catch (error) {
    store.close();
    throw error;
  }
}
