// Holdings as the history file keeps them: lots per symbol, keyed by the market-data server like
// the prices and alerts, with quantities and costs as exact decimal text. A lot saved is on disk
// when the call returns (synchronous = FULL for the write, unlike a poll's prices).
import type { CheckedLot, Lot } from '../market/holdings.js';
import { fixedText, parseFixed } from '../market/money.js';
import type { HistoryStore } from './history-store.js';

interface LotRow {
  id: number;
  symbol: string;
  quantity: string;
  cost: string;
  bought: string | null;
}

/** A stored decimal back as a Fixed; text a hand edit broke reads as 0 (and shows as such). */
const fixedFrom = (text: string): bigint => {
  const value = parseFixed(text);
  return typeof value === 'string' ? 0n : value;
};

const fromRow = (row: LotRow): Lot => ({ id: row.id, symbol: row.symbol, quantity: fixedFrom(row.quantity), cost: fixedFrom(row.cost), bought: row.bought ?? undefined });

export interface HoldingsStore {
  /** Every lot, by symbol then in the order added. */
  list(source: string): Lot[];
  add(source: string, symbol: string, lot: CheckedLot, at: number): Lot;
  /** Replaces a lot's figures; false when there is no such lot. */
  update(source: string, id: number, lot: CheckedLot): boolean;
  remove(source: string, id: number): boolean;
  /** Removes every lot of `symbol`; how many there were. */
  removeSymbol(source: string, symbol: string): number;
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
  const all = db.prepare<[number], LotRow>('SELECT id, symbol, quantity, cost, bought FROM lots WHERE source = ? ORDER BY symbol, id');
  const insert = db.prepare<[number, string, string, string, string | null, number], LotRow>(
    'INSERT INTO lots (source, symbol, quantity, cost, bought, added_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id, symbol, quantity, cost, bought',
  );
  const change = db.prepare<[string, string, string | null, number, number]>('UPDATE lots SET quantity = ?, cost = ?, bought = ? WHERE id = ? AND source = ?');
  const remove = db.prepare<[number, number]>('DELETE FROM lots WHERE id = ? AND source = ?');
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
      return durably(() => {
        const sourceId = store.sourceId(source, true)!;
        return fromRow(insert.get(sourceId, symbol, fixedText(lot.quantity), fixedText(lot.cost), lot.bought ?? null, at)!);
      });
    },
    update(source, id, lot) {
      const sourceId = store.sourceId(source, false);
      return sourceId !== undefined && durably(() => change.run(fixedText(lot.quantity), fixedText(lot.cost), lot.bought ?? null, id, sourceId).changes > 0);
    },
    remove(source, id) {
      const sourceId = store.sourceId(source, false);
      return sourceId !== undefined && durably(() => remove.run(id, sourceId).changes > 0);
    },
    removeSymbol(source, symbol) {
      const sourceId = store.sourceId(source, false);
      return sourceId === undefined ? 0 : durably(() => removeSymbol.run(sourceId, symbol).changes);
    },
  };
}
