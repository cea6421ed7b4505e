// The recorder (the dashboard's, quote --watch's and alerts watch's use of the history) on real
// SQLite files in temp directories: a file found damaged by any statement, long after it opened;
// a file another connection holds locked (a real second SQLite connection, BEGIN EXCLUSIVE), at
// the start and later; a file on a full disk (a real small tmpfs).
import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { alertsOf } from '../../src/store/alerts-store.js';
import { openHistoryStore, replaceDamaged } from '../../src/store/history-store.js';
import { holdingsOf } from '../../src/store/holdings-store.js';
import { PriceRecorder } from '../../src/store/price-recorder.js';
import { damagePage } from '../helpers/damage.js';
import { NO_SMALL_DISK, smallDisk, type SmallDisk } from '../helpers/tmpfs.js';

const SOURCE = 'http://a.example/v1';
const T0 = Date.UTC(2026, 10, 26, 14, 0, 0);

let dir: string;
let path: string;
let recorder: PriceRecorder | undefined;
const warnings: string[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tickbook-recorder-'));
  path = join(dir, 'history.db');
  warnings.length = 0;
});
afterEach(() => {
  recorder?.close();
  recorder = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** A history with an alert on AAPL above 200, a lot of AAPL and a price, closed; then `name`'s page damaged. */
function damagedHistory(name: string): void {
  const store = openHistoryStore(path);
  alertsOf(store).add(SOURCE, 'AAPL', { kind: 'above', price: 200 }, { price: 190, at: T0, oneShot: false });
  holdingsOf(store).add(SOURCE, 'AAPL', { quantity: 10_000_000n, cost: 150_000_000n, bought: undefined }, T0);
  store.record(SOURCE, [{ symbol: 'AAPL', price: 190, volume: 1 }], T0);
  store.close();
  damagePage(path, name);
}

async function openRecorder(): Promise<PriceRecorder> {
  recorder = new PriceRecorder({ source: SOURCE, path, onWarning: (w) => warnings.push(w), now: () => T0 + 60_000 });
  await recorder.open();
  return recorder;
}

const asideFiles = () => readdirSync(dir).filter((name) => /\.damaged-[0-9T]+-\d+$/.test(name));

describe('a history found damaged while recording', () => {
  it('by a poll: moved aside with a warning naming both files, the poll recorded in a new one, and the alerts kept fire', async () => {
    damagedHistory('sqlite_autoindex_series_1');
    const history = await openRecorder();
    // Opening reads no page of the index: nothing is known yet.
    expect(warnings).toEqual([]);
    expect(history.recording).toBe(true);
    history.record([{ symbol: 'AAPL', price: 195, volume: 2 }], T0 + 1000);
    expect(asideFiles()).toHaveLength(1);
    expect(warnings).toEqual([`the price history ${path} was damaged: moved aside to ${join(dir, asideFiles()[0]!)}; recording starts anew, with its 1 alert and 1 lot`]);
    expect(history.recording).toBe(true);
    expect(history.points('AAPL', T0, T0 + 2000, 100)).toEqual([{ t: T0 + 1000, price: 195 }]);
    // The alert kept, armed as it was: a crossing fires it.
    expect(history.alertSymbols()).toEqual(['AAPL']);
    expect(history.alertsOnPoll(['AAPL'], [{ symbol: 'AAPL', price: 201, volume: 3 }], T0 + 2000).map((f) => f.text)).toEqual(['AAPL at 201.00 crossed above 200.00']);
    expect(history.books()!.holdings.list(SOURCE)).toHaveLength(1);
    expect(warnings).toHaveLength(1);
  });

  it('by the books the dashboard reads (the lots\' index): moved aside, and the call answered from the new file', async () => {
    damagedHistory('lots_by_symbol');
    const history = await openRecorder();
    // Recording and the alerts never read the lots' index.
    history.record([{ symbol: 'AAPL', price: 195, volume: 2 }], T0 + 1000);
    expect(history.alertsOnPoll(['AAPL'], [{ symbol: 'AAPL', price: 196, volume: 2 }], T0 + 2000)).toEqual([]);
    expect(warnings).toEqual([]);
    const books = history.books()!;
    expect(books.holdings.list(SOURCE).map((lot) => [lot.symbol, lot.quantity])).toEqual([['AAPL', 10_000_000n]]);
    expect(warnings).toEqual([expect.stringMatching(/was damaged: moved aside to .*; recording starts anew, with its 1 alert and 1 lot$/)]);
    // The books handed out before go on working, on the new file.
    const added = books.alerts.add(SOURCE, 'MSFT', { kind: 'below', price: 1 }, { price: 2, at: T0, oneShot: false });
    expect(history.books()!.alerts.list(SOURCE).map((a) => a.id)).toEqual([1, added.id]);
    expect(history.alertLevels('MSFT')).toEqual([1]);
  });
});

describe('a history another process moves aside while recording', () => {
  it('is noticed at the next checkpoint: the recorder opens the file there now, and records and fires into it, saying so once', async () => {
    damagedHistory('lots_by_symbol');
    recorder = new PriceRecorder({ source: SOURCE, path, onWarning: (w) => warnings.push(w), now: () => T0 + 60_000, checkpointEveryMs: 5 });
    const history = recorder;
    await history.open();
    history.record([{ symbol: 'AAPL', price: 195, volume: 2 }], T0 + 1000);
    // Another process (its own connection) meets the damage the recorder never reads, and moves the file aside.
    const other = openHistoryStore(path);
    let found: unknown;
    try {
      holdingsOf(other).list(SOURCE);
    } catch (error) {
      found = error;
    }
    expect((found as { code?: string }).code).toMatch(/^SQLITE_CORRUPT/);
    const replaced = replaceDamaged(other, found);
    const fresh = statSync(path).ino;
    replaced.close();
    expect(asideFiles()).toHaveLength(1);
    // Until the checkpoint, the recorder's writes go to the file it has open (moved aside).
    for (let i = 0; i < 1000 && warnings.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 1));
    expect(warnings).toEqual([`the price history ${path} was moved aside or removed by another process: recording goes on in the file there now`]);
    expect(history.recording).toBe(true);
    history.record([{ symbol: 'AAPL', price: 196, volume: 3 }], T0 + 2000);
    expect(history.alertsOnPoll(['AAPL'], [{ symbol: 'AAPL', price: 201, volume: 4 }], T0 + 3000).map((f) => f.text)).toEqual(['AAPL at 201.00 crossed above 200.00']);
    expect(statSync(path).ino).toBe(fresh);
    const now = openHistoryStore(path);
    try {
      expect(now.ticks(SOURCE, 'AAPL', T0, T0 + 5000).map((t) => t.price)).toEqual([196]);
      expect(alertsOf(now).firings(SOURCE).map((f) => f.price)).toEqual([201]);
      expect(holdingsOf(now).list(SOURCE)).toHaveLength(1);
    } finally {
      now.close();
    }
    expect(asideFiles()).toHaveLength(1);
    expect(warnings).toHaveLength(1);
  });
});

describe('a history another process holds, or on a full disk', () => {
  const troubles: (string | undefined)[] = [];
  let holder: Database.Database | undefined;
  let disk: SmallDisk | undefined;
  beforeEach(() => {
    troubles.length = 0;
  });
  afterEach(() => {
    holder?.close();
    holder = undefined;
    recorder?.close();
    recorder = undefined;
    disk?.unmount();
    disk = undefined;
  });

  /** A history with an alert on AAPL above 200, armed (the price 190 when set). */
  function historyWithAlert(): void {
    const store = openHistoryStore(path);
    alertsOf(store).add(SOURCE, 'AAPL', { kind: 'above', price: 200 }, { price: 190, at: T0, oneShot: false });
    store.close();
  }
  /** A recorder that tries a held file again every 10 ms and waits 20 ms for a lock. */
  function heldRecorder(at = path): PriceRecorder {
    recorder = new PriceRecorder({
      source: SOURCE,
      path: at,
      onWarning: (w) => warnings.push(w),
      onTrouble: (t) => troubles.push(t),
      retryEveryMs: 10,
      lockWaitMs: 20,
      now: () => T0 + 60_000,
    });
    return recorder;
  }
  /** Resolves when the recorder says its trouble is over. */
  const troubleOver = () =>
    new Promise<void>((resolve) => {
      const check = () => (troubles.at(-1) === undefined && troubles.length > 0 ? resolve() : setImmediate(check));
      check();
    });
  const poll = (price: number, i: number) => {
    const at = T0 + i * 1000;
    recorder!.record([{ symbol: 'AAPL', price, volume: i }], at);
    return recorder!.alertsOnPoll(['AAPL'], [{ symbol: 'AAPL', price, volume: i }], at).map((f) => f.text);
  };
  const busy = `price history busy: another process holds ${'PATH'}; recording and alerts wait for it`;

  it('locked whole at the start: said for as long as it lasts, the opening tried again, and once it is free the polls kept are recorded and the alerts fire', async () => {
    historyWithAlert();
    holder = new Database(path);
    holder.pragma('locking_mode = EXCLUSIVE');
    holder.exec('BEGIN EXCLUSIVE');
    const history = heldRecorder();
    await history.open();
    expect(history.recording).toBe(false);
    expect(troubles).toEqual([busy.replace('PATH', path)]);
    expect(warnings).toEqual([]);
    // Polls while it is held: nothing fires (nothing can be decided), nothing is lost.
    expect(poll(195, 1)).toEqual([]);
    expect(poll(196, 2)).toEqual([]);
    holder.exec('ROLLBACK');
    holder.close();
    holder = undefined;
    await troubleOver();
    expect(history.recording).toBe(true);
    expect(troubles.filter((t) => t !== undefined).every((t) => t === busy.replace('PATH', path))).toBe(true);
    expect(history.points('AAPL', T0, T0 + 10_000, 100).map((p) => p.price)).toEqual([195, 196]);
    // The crossing after it is free fires, once.
    expect(poll(201, 3)).toEqual(['AAPL at 201.00 crossed above 200.00']);
    expect(poll(202, 4)).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('held by another writer after it opened: each write that found it held is made with the next that can be, and the alerts go on', async () => {
    historyWithAlert();
    const history = heldRecorder();
    await history.open();
    expect(history.recording).toBe(true);
    // Another process writing (WAL: reading goes on beside it).
    holder = new Database(path);
    holder.exec('BEGIN EXCLUSIVE');
    expect(poll(195, 1)).toEqual([]);
    expect(troubles).toEqual([busy.replace('PATH', path)]);
    expect(poll(201, 2)).toEqual([]);
    expect(history.alertSymbols()).toEqual(['AAPL']);
    expect(history.books()!.alerts.list(SOURCE)).toHaveLength(1);
    expect(() => history.books()!.alerts.add(SOURCE, 'MSFT', { kind: 'below', price: 1 }, { price: 2, at: T0, oneShot: false })).toThrow(
      `cannot use ${path}: another process holds it locked`,
    );
    holder.exec('ROLLBACK');
    // The next poll writes the two kept before it, and the crossing (still above) fires.
    expect(poll(203, 3)).toEqual(['AAPL at 203.00 crossed above 200.00']);
    expect(troubles).toEqual([busy.replace('PATH', path), undefined]);
    expect(history.points('AAPL', T0, T0 + 10_000, 100).map((p) => p.price)).toEqual([195, 201, 203]);
    expect(warnings).toEqual([]);
  });

  it.skipIf(NO_SMALL_DISK !== undefined)('on a full disk: said naming the file until there is room, the polls kept meanwhile recorded then', async () => {
    disk = smallDisk(2048);
    const onDisk = join(disk.dir, 'history.db');
    const history = heldRecorder(onDisk);
    await history.open();
    poll(190, 0);
    disk.fill();
    for (let i = 1; i <= 3 && troubles.length === 0; i++) poll(190 + i, i);
    expect(troubles).toEqual([`price history not recorded in ${onDisk}: the disk is full; recording and alerts wait for room`]);
    poll(199, 9);
    disk.free();
    poll(200, 10);
    expect(troubles.at(-1)).toBeUndefined();
    expect(history.points('AAPL', T0, T0 + 20_000, 100).map((p) => p.price)).toEqual(expect.arrayContaining([190, 199, 200]));
    expect(warnings).toEqual([]);
  });
});
