// The ways opening the sandbox's database fails that callers tell apart, in a module of their
// own: `serve` names them without loading SQLite's addon.
import type { MarketSettings } from './market.js';

/** The caller asked for a market other than the one the database keeps. */
export class MarketMismatchError extends Error {
  override readonly name = 'MarketMismatchError';
  constructor(
    readonly path: string,
    readonly stored: MarketSettings,
    readonly asked: { seed?: number | undefined; epochMs?: number | undefined },
  ) {
    const what =
      asked.seed !== undefined && asked.seed !== stored.seed
        ? `seed ${stored.seed}, not ${asked.seed}`
        : `epoch ${stored.epochMs}, not ${String(asked.epochMs)}`;
    super(`the database ${path} keeps a market with ${what}: leave it out to use that market, or reset the market`);
  }
}

/** The database cannot be opened or created; `reason` says why in plain words. */
export class DatabaseOpenError extends Error {
  override readonly name = 'DatabaseOpenError';
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`cannot open the database ${path}: ${reason}`);
  }
}
