// Holdings as the history file keeps them: lots per symbol, keyed by the market-data server like
// the prices and alerts, with quantities and costs as exact decimal text. A lot is known by its
// symbol and its number, given when it is added and never given again for that symbol (not after
// it is removed, nor after every lot of the symbol is): a number names one lot or none, whatever
// another process removed meanwhile. A lot saved is on disk when the call returns (synchronous =
// FULL for the write, unlike a poll's prices).
import type { CheckedLot, Lot } from '../market/holdings.js';
import { fixedText, parseFixed } from '../market/money.js';
import type { HistoryStore } from './history-store.js';

interface LotRow {
  symbol: string;
  number: number;
  quantity: string;
  cost: string;
  bought: string | null;
}

/** A stored decimal back as a Fixed; text a hand edit broke reads as 0 (and shows as such). */
const fixedFrom = (text: string): bigint => {
  const value = parseFixed(text);
  return typeof value === 'string' ? 0n : value;
};

const fromRow = (row: LotRow): Lot => ({ symbol: row.symbol, number: row.number, quantity: fixedFrom(row.quantity), cost: fixedFrom(row.cost), bought: row.bought ?? undefined });

export interface HoldingsStore {
  /** Every lot, by symbol then by number (the order added). */
  list(source: string): Lot[];
  /** A new lot of `symbol`, numbered one past the last number the symbol was ever given. */
  add(source: string, symbol: string, lot: CheckedLot, at: number): Lot;
  /** Replaces a lot's figures; false when there is no such lot. */
  update(source: string, symbol: string, number: number, lot: CheckedLot): boolean;
  /** False when there is no such lot (removed, or never added). */
  remove(source: string, symbol: string, number: number): boolean;
  /** Removes every lot of `symbol`; how many there were. Their numbers are not given again. */
  removeSymbol(source: string, symbol: string): number;
  /** The last number a lot of `symbol` was given (0: none ever was): a number up to it that is not listed was removed. */
  lastNumber(source: string, symbol: string): number;
}

/**
 * One per connection: each caches what it read under the file's data_version, which another
 * connection's writes change but this one's own do not; two on one connection would each miss
 * the other's writes.
 */
const madeHoldingsStore = new WeakMap<HistoryStore, HoldingsStore>();

export function holdingsOf(store: HistoryStore): HoldingsStore {
  let made = madeHoldingsStore.get(store);
  if (!made) madeHoldingsStore.set(store, (made = buildHoldingsStore(store)));
  return made;
}

function buildHoldingsStore(store: HistoryStore): HoldingsStore {
  const { db } = store;
  const all = db.prepare<[number], LotRow>('SELECT symbol, number, quantity, cost, bought FROM lots WHERE source = ? ORDER BY symbol, number');
  const nextNumber = db
    .prepare<[number, string], number>('INSERT INTO lot_numbers (source, symbol, last) VALUES (?, ?, 1) ON CONFLICT (source, symbol) DO UPDATE SET last = last + 1 RETURNING last')
    .pluck();
  const lastNumber = db.prepare<[number, string], number>('SELECT last FROM lot_numbers WHERE source = ? AND symbol = ?').pluck();
  const insert = db.prepare<[number, string, number, string, string, string | null, number], LotRow>(
    'INSERT INTO lots (source, symbol, number, quantity, cost, bought, added_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING symbol, number, quantity, cost, bought',
  );
  const change = db.prepare<[string, string, string | null, number, string, number]>(
    'UPDATE lots SET quantity = ?, cost = ?, bought = ? WHERE source = ? AND symbol = ? AND number = ?',
  );
  const remove = db.prepare<[number, string, number]>('DELETE FROM lots WHERE source = ? AND symbol = ? AND number = ?');
  const removeSymbol = db.prepare<[number, string]>('DELETE FROM lots WHERE source = ? AND symbol = ?');
  const versionNow = db.prepare<[], number>('PRAGMA data_version').pluck();
  // Read afresh only when the file changed (the ticker values holdings on every poll).
  let cache: { source: number; version: number; lots: Lot[] } | undefined;

  /**
   * A write that is on disk when it returns, whatever the connection's usual synchronous; inside a
   * transaction (a command's change, see withHistoryFile) it is on disk when that commits, as the
   * transaction's owner sets it (SQLite changes synchronous only between transactions).
   */
  const durably = <T>(write: () => T): T => {
    cache = undefined;
    if (db.inTransaction) return write();
    const usual = db.pragma('synchronous', { simple: true }) as number;
    db.pragma('synchronous = FULL');
    try {
      return write();
    } finally {
      db.pragma(`synchronous = ${usual}`);
    }
  };

  return {
    list(source) {
      const sourceId = store.sourceId(source, false);
      if (sourceId === undefined) return [];
      const version = versionNow.get()!;
      if (cache?.source !== sourceId || cache.version !== version) cache = { source: sourceId, version, lots: all.all(sourceId).map(fromRow) };
      return [...cache.lots];
    },
    add(source, symbol, lot, at) {
      // The number and the lot in one transaction: two processes adding at once get two numbers.
      return durably(
        db.transaction(() => {
          const sourceId = store.sourceId(source, true)!;
          const number = nextNumber.get(sourceId, symbol)!;
          return fromRow(insert.get(sourceId, symbol, number, fixedText(lot.quantity), fixedText(lot.cost), lot.bought ?? null, at)!);
        }),
      );
    },
    update(source, symbol, number, lot) {
      const sourceId = store.sourceId(source, false);
      return sourceId !== undefined && durably(() => change.run(fixedText(lot.quantity), fixedText(lot.cost), lot.bought ?? null, sourceId, symbol, number).changes > 0);
    },
    remove(source, symbol, number) {
      const sourceId = store.sourceId(source, false);
      return sourceId !== undefined && durably(() => remove.run(sourceId, symbol, number).changes > 0);
    },
    removeSymbol(source, symbol) {
      const sourceId = store.sourceId(source, false);
      return sourceId === undefined ? 0 : durably(() => removeSymbol.run(sourceId, symbol).changes);
    },
    lastNumber(source, symbol) {
      const sourceId = store.sourceId(source, false);
      return sourceId === undefined ? 0 : (lastNumber.get(sourceId, symbol) ?? 0);
    },
  };
}
