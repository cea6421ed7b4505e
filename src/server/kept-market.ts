// The market a sandbox database keeps (its seed and epoch), so that every process serving the
// same database prices alike: read at open, written by the first open that asks for one, and a
// request for another refused unless it resets the market.
import type Database from 'better-sqlite3';
import type { MarketSettings } from './market.js';
import { MarketMismatchError } from './store-errors.js';

export interface KeptMarket extends MarketSettings {
  /** Whether this open wrote it (a database without one, or a reset) or found it. */
  origin: 'new' | 'reset' | 'kept';
}

export interface MarketRequest {
  /** A seed the caller insists on: a database keeping another is refused unless `reset`. */
  seed?: number | undefined;
  /** Likewise the epoch. */
  epochMs?: number | undefined;
  /** Replace the kept market, with `seed` and `epochMs` where given. */
  reset?: boolean | undefined;
  /** The seed and epoch for what the caller left out, when this open writes the market. */
  fresh: () => MarketSettings;
}

/**
 * The market `request` asks for, against the one kept: the kept one, or one written now (none kept,
 * or a reset); another seed or epoch than the kept one's is a MarketMismatchError.
 */
export function settleMarket(db: Database.Database, path: string, request: MarketRequest | undefined): KeptMarket | undefined {
  const stored = db.prepare('SELECT seed, epoch_ms AS epochMs FROM market WHERE id = 1').get() as
    | MarketSettings
    | undefined;
  if (!request) return stored && { ...stored, origin: 'kept' };
  if (stored && !request.reset) {
    const differs =
      (request.seed !== undefined && request.seed !== stored.seed) ||
      (request.epochMs !== undefined && request.epochMs !== stored.epochMs);
    if (differs) throw new MarketMismatchError(path, stored, { seed: request.seed, epochMs: request.epochMs });
    return { ...stored, origin: 'kept' };
  }
  const fresh = request.fresh();
  const market = { seed: request.seed ?? fresh.seed, epochMs: request.epochMs ?? fresh.epochMs };
  db.prepare(
    `INSERT INTO market (id, seed, epoch_ms) VALUES (1, ?, ?)
     ON CONFLICT (id) DO UPDATE SET seed = excluded.seed, epoch_ms = excluded.epoch_ms`,
  ).run(market.seed, market.epochMs);
  return { ...market, origin: stored ? 'reset' : 'new' };
}
