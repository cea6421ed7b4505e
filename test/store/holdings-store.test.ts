// Holdings in the history file (src/store/holdings-store.ts), on real SQLite files in temp
// directories: lots per server, exact decimals on disk, and what a second connection writes.
import Database from 'better-sqlite3';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CheckedLot } from '../../src/market/holdings.js';
import { fixedText, parseFixed } from '../../src/market/money.js';
import { alertsOf } from '../../src/store/alerts-store.js';
import { type HistoryStore, openHistoryStore } from '../../src/store/history-store.js';
import { holdingsOf } from '../../src/store/holdings-store.js';

const A = 'http://a.example';
const B = 'sandbox:/home/u/.local/share/tickbook/sandbox.db';

let dir: string;
let path: string;
const open: HistoryStore[] = [];
const openStore = (): HistoryStore => {
  const store = openHistoryStore(path);
  open.push(store);
  return store;
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tickbook-holdings-'));
  path = join(dir, 'history.db');
});
afterEach(() => {
  for (const store of open.splice(0)) store.close();
  rmSync(dir, { recursive: true, force: true });
});

function fixed(text: string): bigint {
  const value = parseFixed(text);
  if (typeof value === 'string') throw new Error(`${text} ${value}`);
  return value;
}

const lot = (quantity: string, cost: string, bought?: string): CheckedLot => ({ quantity: fixed(quantity), cost: fixed(cost), bought });

/** The lots as plain text, to compare whole lists at a glance. */
const shown = (lots: readonly { symbol: string; quantity: bigint; cost: bigint; bought: string | undefined }[]) =>
  lots.map((l) => `${l.symbol} ${l.quantity} ${l.cost} ${l.bought ?? '-'}`);

describe('holdings in the history file', () => {
  it('adds lots and lists them by symbol, then in the order added', () => {
    const holdings = holdingsOf(openStore());
    const first = holdings.add(A, 'MSFT', lot('1', '400'), 1);
    expect(first).toEqual({ symbol: 'MSFT', number: 1, quantity: 1_000_000n, cost: 400_000_000n, bought: undefined });
    holdings.add(A, 'AAPL', lot('10', '150', '2024-01-05'), 2);
    holdings.add(A, 'MSFT', lot('2', '410'), 3);
    holdings.add(A, 'AAPL', lot('5', '0.1'), 4);
    expect(shown(holdings.list(A))).toEqual([
      'AAPL 10000000 150000000 2024-01-05',
      'AAPL 5000000 100000 -',
      'MSFT 1000000 400000000 -',
      'MSFT 2000000 410000000 -',
    ]);
  });

  it('updates a lot in place, and says when there is no such lot', () => {
    const holdings = holdingsOf(openStore());
    holdings.add(A, 'AAPL', lot('10', '150'), 1);
    holdings.add(A, 'AAPL', lot('1', '1'), 2);
    expect(holdings.update(A, 'AAPL', 1, lot('12', '149.5', '2024-03-01'))).toBe(true);
    expect(holdings.list(A)).toEqual([
      { symbol: 'AAPL', number: 1, quantity: fixed('12'), cost: fixed('149.5'), bought: '2024-03-01' },
      { symbol: 'AAPL', number: 2, quantity: fixed('1'), cost: fixed('1'), bought: undefined },
    ]);
    // A date taken away is gone, not kept from before.
    expect(holdings.update(A, 'AAPL', 1, lot('12', '149.5'))).toBe(true);
    expect(holdings.list(A)[0]!.bought).toBeUndefined();
    expect(holdings.update(A, 'AAPL', 3, lot('1', '1'))).toBe(false);
    expect(holdings.update(A, 'MSFT', 1, lot('1', '1'))).toBe(false);
    expect(holdings.update('http://never.example', 'AAPL', 1, lot('1', '1'))).toBe(false);
  });

  it('removes one lot, or every lot of a symbol, and counts them', () => {
    const holdings = holdingsOf(openStore());
    holdings.add(A, 'AAPL', lot('10', '150'), 1);
    holdings.add(A, 'AAPL', lot('5', '160'), 2);
    holdings.add(A, 'AAPL', lot('1', '170'), 3);
    holdings.add(A, 'MSFT', lot('1', '400'), 4);
    expect(holdings.remove(A, 'AAPL', 1)).toBe(true);
    expect(holdings.remove(A, 'AAPL', 1)).toBe(false);
    expect(shown(holdings.list(A))).toEqual(['AAPL 5000000 160000000 -', 'AAPL 1000000 170000000 -', 'MSFT 1000000 400000000 -']);
    expect(holdings.removeSymbol(A, 'AAPL')).toBe(2);
    expect(holdings.removeSymbol(A, 'AAPL')).toBe(0);
    expect(shown(holdings.list(A))).toEqual(['MSFT 1000000 400000000 -']);
  });

  it('numbers each symbol’s lots from 1 and never gives a number again: not after its lot is removed, nor after every lot of the symbol is', () => {
    const holdings = holdingsOf(openStore());
    const numbers = () => holdings.list(A).map((l) => `${l.symbol} ${l.number}`);
    expect([1, 2, 3].map((at) => holdings.add(A, 'AAPL', lot('1', '1'), at).number)).toEqual([1, 2, 3]);
    expect(holdings.add(A, 'MSFT', lot('1', '1'), 4).number).toBe(1);
    // The middle one and the last one removed: the others keep their numbers, and the next is 4.
    expect(holdings.remove(A, 'AAPL', 2)).toBe(true);
    expect(holdings.remove(A, 'AAPL', 3)).toBe(true);
    expect(numbers()).toEqual(['AAPL 1', 'MSFT 1']);
    expect(holdings.lastNumber(A, 'AAPL')).toBe(3);
    expect(holdings.add(A, 'AAPL', lot('2', '2'), 5).number).toBe(4);
    expect(numbers()).toEqual(['AAPL 1', 'AAPL 4', 'MSFT 1']);
    // A number removed names nothing now: the lot in its place is not taken for it.
    expect(holdings.remove(A, 'AAPL', 2)).toBe(false);
    expect(holdings.update(A, 'AAPL', 3, lot('9', '9'))).toBe(false);
    expect(numbers()).toEqual(['AAPL 1', 'AAPL 4', 'MSFT 1']);
    // Every lot of AAPL removed, then one added: lot 5.
    expect(holdings.removeSymbol(A, 'AAPL')).toBe(2);
    expect(holdings.lastNumber(A, 'AAPL')).toBe(4);
    expect(holdings.add(A, 'AAPL', lot('3', '3'), 6).number).toBe(5);
    expect(holdings.lastNumber(A, 'MSFT')).toBe(1);
    expect(holdings.lastNumber(A, 'IBM')).toBe(0);
  });

  it('two connections adding to one symbol get numbers of their own, in turn', () => {
    const one = holdingsOf(openStore());
    const two = holdingsOf(openStore());
    expect(one.add(A, 'AAPL', lot('1', '1'), 1).number).toBe(1);
    expect(two.add(A, 'AAPL', lot('2', '2'), 2).number).toBe(2);
    expect(one.add(A, 'AAPL', lot('3', '3'), 3).number).toBe(3);
    expect(two.remove(A, 'AAPL', 3)).toBe(true);
    expect(one.add(A, 'AAPL', lot('4', '4'), 4).number).toBe(4);
    expect(two.list(A).map((l) => [l.number, l.quantity])).toEqual([
      [1, fixed('1')],
      [2, fixed('2')],
      [4, fixed('4')],
    ]);
  });

  it('keeps decimals exactly as typed, on disk as text', () => {
    const store = openStore();
    const holdings = holdingsOf(store);
    const tiny = holdings.add(A, 'AAPL', lot('0.000001', '123456789.123456'), 1);
    holdings.add(A, 'BRK', lot('999999999999.999999', '0.1'), 2);
    expect(tiny).toMatchObject({ quantity: 1n, cost: 123_456_789_123_456n });
    expect(holdings.list(A).map((l) => [l.quantity, l.cost])).toEqual([
      [1n, 123_456_789_123_456n],
      [999_999_999_999_999_999n, 100_000n],
    ]);
    const db = new Database(path, { readonly: true });
    expect(db.prepare('SELECT quantity, cost FROM lots ORDER BY id').all()).toEqual([
      { quantity: '0.000001', cost: '123456789.123456' },
      { quantity: '999999999999.999999', cost: '0.1' },
    ]);
    db.close();
  });

  it('a figure a hand edit broke reads as 0, not as an error that hides every other lot', () => {
    const holdings = holdingsOf(openStore());
    holdings.add(A, 'AAPL', lot('10', '150'), 1);
    holdings.add(A, 'MSFT', lot('1', '400'), 2);
    const db = new Database(path);
    db.prepare("UPDATE lots SET quantity = 'ten' WHERE symbol = 'AAPL'").run();
    db.close();
    expect(holdings.list(A).map((l) => [l.symbol, l.quantity])).toEqual([
      ['AAPL', 0n],
      ['MSFT', 1_000_000n],
    ]);
  });

  it('two servers never mix, even for the same symbol', () => {
    const store = openStore();
    const holdings = holdingsOf(store);
    holdings.add(A, 'AAPL', lot('10', '150'), 1);
    holdings.add(A, 'AAPL', lot('11', '150'), 1);
    // Each server numbers its own lots.
    expect(holdings.add(B, 'AAPL', lot('3', '99'), 2).number).toBe(1);
    expect(shown(holdings.list(A))).toEqual(['AAPL 10000000 150000000 -', 'AAPL 11000000 150000000 -']);
    expect(shown(holdings.list(B))).toEqual(['AAPL 3000000 99000000 -']);
    // One server's lot numbers name nothing of the other's.
    expect(holdings.remove(B, 'AAPL', 2)).toBe(false);
    expect(holdings.update(B, 'AAPL', 2, lot('1', '1'))).toBe(false);
    expect(holdings.lastNumber(B, 'AAPL')).toBe(1);
    expect(holdings.removeSymbol(A, 'AAPL')).toBe(2);
    expect(holdings.list(A)).toEqual([]);
    expect(shown(holdings.list(B))).toEqual(['AAPL 3000000 99000000 -']);
  });

  it('listing for a server never seen finds nothing and records nothing', () => {
    const store = openStore();
    const holdings = holdingsOf(store);
    expect(holdings.list('http://never.example')).toEqual([]);
    expect(holdings.removeSymbol('http://never.example', 'AAPL')).toBe(0);
    expect(holdings.remove('http://never.example', 'AAPL', 1)).toBe(false);
    expect(holdings.lastNumber('http://never.example', 'AAPL')).toBe(0);
    expect(store.sourceId('http://never.example', false)).toBeUndefined();
  });

  it('a list handed out is the caller’s: changing it changes nothing kept', () => {
    const holdings = holdingsOf(openStore());
    holdings.add(A, 'AAPL', lot('10', '150'), 1);
    const listed = holdings.list(A);
    listed.pop();
    expect(holdings.list(A)).toHaveLength(1);
  });

  it('sees its own writes at once', () => {
    const holdings = holdingsOf(openStore());
    holdings.add(A, 'AAPL', lot('1', '1'), 1);
    expect(holdings.list(A)).toHaveLength(1);
    const second = holdings.add(A, 'AAPL', lot('2', '2'), 2);
    expect(holdings.list(A)).toHaveLength(2);
    holdings.update(A, 'AAPL', second.number, lot('3', '3'));
    expect(holdings.list(A)[1]!.quantity).toBe(fixed('3'));
    holdings.remove(A, 'AAPL', second.number);
    expect(holdings.list(A)).toHaveLength(1);
  });

  it('a second connection’s writes are seen on the next list, though the first cached its read', () => {
    const one = holdingsOf(openStore());
    const two = holdingsOf(openStore());
    one.add(A, 'AAPL', lot('10', '150'), 1);
    // Read (and cached) before the other connection writes.
    expect(two.list(A)).toHaveLength(1);
    expect(two.list(A)).toHaveLength(1);
    const added = one.add(A, 'MSFT', lot('1', '400'), 2);
    expect(shown(two.list(A))).toEqual(['AAPL 10000000 150000000 -', 'MSFT 1000000 400000000 -']);
    one.update(A, 'MSFT', added.number, lot('2', '401'));
    expect(two.list(A)[1]).toMatchObject({ quantity: fixed('2'), cost: fixed('401') });
    one.removeSymbol(A, 'AAPL');
    expect(shown(two.list(A))).toEqual(['MSFT 2000000 401000000 -']);
    // And the other way round.
    two.remove(A, 'MSFT', added.number);
    expect(one.list(A)).toEqual([]);
  });

  it('writes with synchronous FULL and gives the connection back its usual NORMAL', () => {
    const store = openStore();
    const holdings = holdingsOf(store);
    expect(store.db.pragma('synchronous', { simple: true })).toBe(1);
    const a = holdings.add(A, 'AAPL', lot('1', '1'), 1);
    holdings.update(A, 'AAPL', a.number, lot('2', '2'));
    holdings.remove(A, 'AAPL', a.number);
    expect(store.db.pragma('synchronous', { simple: true })).toBe(1);
  });

  it('the file is schema version 7, with the lots table and the last number given each symbol', () => {
    holdingsOf(openStore()).add(A, 'AAPL', lot('1', '1'), 1);
    const db = new Database(path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(7);
    const columns = (table: string) => (db.pragma(`table_info(${table})`) as { name: string; type: string }[]).map((c) => `${c.name} ${c.type}`);
    expect(columns('lots')).toEqual(['id INTEGER', 'source INTEGER', 'symbol TEXT', 'number INTEGER', 'quantity TEXT', 'cost TEXT', 'bought TEXT', 'added_at INTEGER']);
    expect(columns('lot_numbers')).toEqual(['source INTEGER', 'symbol TEXT', 'last INTEGER']);
    expect(db.prepare('SELECT added_at FROM lots').pluck().get()).toBe(1);
    expect(db.prepare('SELECT symbol, last FROM lot_numbers').all()).toEqual([{ symbol: 'AAPL', last: 1 }]);
    db.close();
  });

  it('a version 3 file gains the lots table and keeps its alerts', () => {
    const first = openStore();
    alertsOf(first).add(A, 'AAPL', { kind: 'above', price: 200 }, { price: 190, at: 5, oneShot: false });
    first.close();
    open.splice(open.indexOf(first), 1);
    // As tickbook left it before holdings: no lots table, version 3.
    const db = new Database(path);
    db.exec('DROP TABLE lots; DROP TABLE lot_numbers; DROP TABLE contact_index; PRAGMA user_version = 3;');
    db.close();
    const store = openStore();
    expect(store.db.pragma('user_version', { simple: true })).toBe(7);
    expect(alertsOf(store).list(A).map((a) => a.symbol)).toEqual(['AAPL']);
    const holdings = holdingsOf(store);
    expect(holdings.add(A, 'AAPL', lot('1', '1'), 1).number).toBe(1);
    expect(holdings.list(A)).toHaveLength(1);
  });
});

describe('a version 5 file, whose lots were numbered by their place', () => {
  // Made by tickbook before lots had numbers (the commit before this test; see the README beside it).
  const FIXTURE = fileURLToPath(new URL('../fixtures/history/holdings-v5.db', import.meta.url));

  it('keeps every lot, numbered as tickbook listed them, and numbers the next after them', () => {
    copyFileSync(FIXTURE, path);
    const store = openStore();
    expect(store.db.pragma('user_version', { simple: true })).toBe(7);
    const key = store.db.prepare('SELECT key FROM sources').pluck().get() as string;
    const holdings = holdingsOf(store);
    const listed = () => holdings.list(key).map((l) => `${l.symbol} lot ${l.number}: ${fixedText(l.quantity)} at ${fixedText(l.cost)}${l.bought ? ` on ${l.bought}` : ''}`);
    // As `tickbook holdings --json` of that version listed them (the fixture's README).
    expect(listed()).toEqual([
      'AAPL lot 1: 10 at 150.25 on 2024-01-05',
      'AAPL lot 2: 0.5 at 0.1',
      'AAPL lot 3: 40 at 400',
      'MSFT lot 1: 2 at 400',
      'MSFT lot 2: 1 at 410.5',
      'VOD.L lot 1: 1000 at 72.5',
    ]);
    expect(['AAPL', 'MSFT', 'VOD.L', '7203.T'].map((symbol) => holdings.lastNumber(key, symbol))).toEqual([3, 2, 1, 0]);
    // From now on a number is the lot's own.
    expect(holdings.remove(key, 'AAPL', 2)).toBe(true);
    expect(holdings.remove(key, 'AAPL', 2)).toBe(false);
    expect(holdings.add(key, 'AAPL', lot('5', '5'), 1).number).toBe(4);
    expect(holdings.add(key, 'MSFT', lot('5', '5'), 1).number).toBe(3);
    expect(listed().filter((line) => line.startsWith('AAPL'))).toEqual(['AAPL lot 1: 10 at 150.25 on 2024-01-05', 'AAPL lot 3: 40 at 400', 'AAPL lot 4: 5 at 5']);
  });
});
