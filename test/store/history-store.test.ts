// The price history on real SQLite files in temp directories.
import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { barStart, DAY_MS, MINUTE_MS } from '../../src/market/bars.js';
import { fixedText } from '../../src/market/money.js';
import { alertsOf } from '../../src/store/alerts-store.js';
import { RETENTION_MS } from '../../src/store/history-ageing.js';
import { HistoryOpenError } from '../../src/store/history-failure.js';
import { movedAway, openHistoryStore, replaceDamaged, type HistoryStore } from '../../src/store/history-store.js';
import { readHistory } from '../../src/store/history-use.js';
import { holdingsOf } from '../../src/store/holdings-store.js';
import { ROOT, runChild } from '../helpers/child.js';
import { expectedBars } from '../helpers/bars.js';
import { damagePage } from '../helpers/damage.js';

const T0 = Date.UTC(2026, 10, 26, 14, 0, 0);
const A = 'http://a.example/v1';
const B = 'sandbox:/home/u/.local/share/tickbook/sandbox.db';

let dir: string;
let path: string;
const open: HistoryStore[] = [];
const openStore = (options?: Parameters<typeof openHistoryStore>[1]) => {
  const store = openHistoryStore(path, options);
  open.push(store);
  return store;
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tickbook-history-'));
  path = join(dir, 'data', 'history.db');
});
afterEach(() => {
  for (const store of open.splice(0)) store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A deterministic walk: a tick a second from `start`, the day's volume growing. */
function walk(count: number, start = T0, seed = 1) {
  let price = 100;
  let x = seed;
  return Array.from({ length: count }, (_, i) => {
    x = (x * 48271) % 2147483647;
    price = Math.max(1, Math.round((price + ((x % 200) - 100) / 100) * 100) / 100);
    return { t: start + i * 1000, price, volume: 1000 + i * 7 };
  });
}

describe('the history store', () => {
  it('records ticks and keeps minute and day bars that say what the ticks say', () => {
    const store = openStore();
    const ticks = walk(600);
    for (const tick of ticks) store.record(A, [{ symbol: 'AAPL', price: tick.price, volume: tick.volume }], tick.t);
    expect(store.ticks(A, 'AAPL', T0, T0 + 600_000)).toEqual(ticks);
    expect(store.bars(A, 'AAPL', 'minute', T0, T0 + 600_000)).toEqual(expectedBars('minute', ticks));
    expect(store.bars(A, 'AAPL', 'day', T0, T0 + 600_000)).toEqual(expectedBars('day', ticks));
    expect(store.earliest(A, 'AAPL')).toBe(T0);
  });

  it('makes one minute bar of the ticks in a minute: first, highest, lowest, last, and the volume traded since the reading before', () => {
    const store = openStore();
    const ticks = [
      { t: T0 - 5000, price: 10, volume: 90 },
      { t: T0, price: 10, volume: 100 },
      { t: T0 + 10_000, price: 12, volume: 150 },
      { t: T0 + 20_000, price: 9, volume: 160 },
      { t: T0 + 59_999, price: 11, volume: 200 },
      { t: T0 + 60_000, price: 11.5, volume: 230 },
    ];
    for (const tick of ticks) store.record(A, [{ symbol: 'AAPL', price: tick.price, volume: tick.volume }], tick.t);
    expect(store.bars(A, 'AAPL', 'minute', T0, T0 + 60_000)).toEqual([
      { t: T0, open: 10, high: 12, low: 9, close: 11, volume: 110, firstT: T0, lastT: T0 + 59_999 },
      { t: T0 + 60_000, open: 11.5, high: 11.5, low: 11.5, close: 11.5, volume: 30, firstT: T0 + 60_000, lastT: T0 + 60_000 },
    ]);
  });

  it('creates its file private, its directory too, and versions its schema', () => {
    openStore().record(A, [{ symbol: 'AAPL', price: 1, volume: 1 }], T0);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'data')).mode & 0o777).toBe(0o700);
    const db = new Database(path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(7);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('keeps two servers apart, even for the same symbol at the same time', () => {
    const store = openStore();
    store.record(A, [{ symbol: 'AAPL', price: 10, volume: 5 }], T0);
    store.record(B, [{ symbol: 'AAPL', price: 99, volume: 7 }], T0);
    expect(store.ticks(A, 'AAPL', 0, T0 * 2)).toEqual([{ t: T0, price: 10, volume: 5 }]);
    expect(store.ticks(B, 'AAPL', 0, T0 * 2)).toEqual([{ t: T0, price: 99, volume: 7 }]);
    expect(store.ticks('http://c.example', 'AAPL', 0, T0 * 2)).toEqual([]);
  });

  it('records a poll whole: a quote that cannot be stored leaves none of that poll behind', () => {
    const store = openStore();
    store.record(A, [{ symbol: 'AAPL', price: 10, volume: 5 }], T0);
    expect(() =>
      store.record(A, [{ symbol: 'MSFT', price: 20, volume: 5 }, { symbol: 'IBM', price: null as unknown as number, volume: 5 }], T0 + 1000),
    ).toThrow();
    expect(store.ticks(A, 'MSFT', 0, T0 * 2)).toEqual([]);
    expect(store.bars(A, 'MSFT', 'minute', 0, T0 * 2)).toEqual([]);
    // The series the rolled-back poll made is gone with it: the next symbols get series of their
    // own, never one shared under an id it handed out.
    store.record(A, [{ symbol: 'NVDA', price: 30, volume: 5 }], T0 + 2000);
    store.record(A, [{ symbol: 'MSFT', price: 21, volume: 6 }], T0 + 3000);
    expect(store.ticks(A, 'NVDA', 0, T0 * 2)).toEqual([{ t: T0 + 2000, price: 30, volume: 5 }]);
    expect(store.ticks(A, 'MSFT', 0, T0 * 2)).toEqual([{ t: T0 + 3000, price: 21, volume: 6 }]);
  });

  it('keeps its bars true when two connections take turns, and forgets what a rolled-back poll wrote', () => {
    // Each connection writes a symbol's bars from what it wrote last while no other has written:
    // a turn by the other must be read, and a poll rolled back must leave nothing behind.
    const a = openStore();
    const b = openStore();
    const ticks = walk(240);
    ticks.forEach((tick, i) => (i % 3 === 1 ? b : a).record(A, [{ symbol: 'AAPL', price: tick.price, volume: tick.volume }], tick.t));
    expect(a.bars(A, 'AAPL', 'minute', T0, T0 + 240_000)).toEqual(expectedBars('minute', ticks));
    expect(b.bars(A, 'AAPL', 'day', T0, T0 + 240_000)).toEqual(expectedBars('day', ticks));

    const at = T0 + 240_000;
    expect(() => a.record(A, [{ symbol: 'AAPL', price: 99_999, volume: 1 }, { symbol: 'IBM', price: null as unknown as number, volume: 5 }], at)).toThrow();
    a.record(A, [{ symbol: 'AAPL', price: 100, volume: ticks.at(-1)!.volume + 10 }], at + 1000);
    const all = [...ticks, { t: at + 1000, price: 100, volume: ticks.at(-1)!.volume + 10 }];
    expect(a.bars(A, 'AAPL', 'day', T0, at + 1000)).toEqual(expectedBars('day', all));
    expect(Math.max(...a.bars(A, 'AAPL', 'minute', T0, at + 1000).map((bar) => bar.high))).toBeLessThan(99_999);
  });

  it('keeps its bars true when the clock steps back: the open is the earliest price, the close the latest', () => {
    const store = openStore();
    store.record(A, [{ symbol: 'X', price: 10, volume: 100 }], T0 + 30_000);
    store.record(A, [{ symbol: 'X', price: 12, volume: 110 }], T0 + 40_000);
    // The clock is set back 25 s: the next prices are stamped before the last.
    store.record(A, [{ symbol: 'X', price: 9, volume: 120 }], T0 + 15_000);
    store.record(A, [{ symbol: 'X', price: 11, volume: 130 }], T0 + 16_000);
    const ticks = store.ticks(A, 'X', 0, T0 * 2);
    expect(ticks.map((t) => t.t)).toEqual([T0 + 15_000, T0 + 16_000, T0 + 30_000, T0 + 40_000]);
    expect(store.bars(A, 'X', 'minute', T0, T0)).toEqual([
      // Only the volume between readings in order counts: 100 -> 110; those stamped earlier add nothing.
      { t: T0, open: 9, high: 12, low: 9, close: 12, volume: 10, firstT: T0 + 15_000, lastT: T0 + 40_000 },
    ]);
  });

  it('counts an instant recorded twice once', () => {
    const store = openStore();
    store.record(A, [{ symbol: 'AAPL', price: 10, volume: 5 }], T0);
    store.record(A, [{ symbol: 'AAPL', price: 10, volume: 9 }], T0 + 1000);
    store.record(A, [{ symbol: 'AAPL', price: 10, volume: 9 }], T0 + 1000);
    expect(store.bars(A, 'AAPL', 'minute', T0, T0)[0]!.volume).toBe(4);
  });

  it('compacts at the boundaries: ticks for a day, minute bars for 30 days, day bars for two years', () => {
    const store = openStore();
    const record = (t: number, price: number) => store.record(A, [{ symbol: 'X', price, volume: 0 }], t);
    const now = T0 + 800 * DAY_MS;
    const times = [
      now - RETENTION_MS.day - DAY_MS, // its day bar is older than two years
      now - RETENTION_MS.minute - 2 * DAY_MS, // a day bar only
      now - RETENTION_MS.ticks - 5 * MINUTE_MS, // a minute bar, no tick
      now - RETENTION_MS.ticks, // exactly a day old: kept
      now - 1000,
    ];
    times.forEach((t, i) => record(t, i + 1));
    let steps = 0;
    while (store.compactStep(now)) steps++;
    expect(steps).toBeGreaterThan(0);
    expect(store.ticks(A, 'X', 0, now).map((t) => t.t)).toEqual(times.slice(3));
    expect(store.bars(A, 'X', 'minute', 0, now).map((b) => b.lastT)).toEqual(times.slice(2));
    expect(store.bars(A, 'X', 'day', 0, now).map((b) => b.close)).toEqual(
      expectedBars('day', times.slice(1).map((t, i) => ({ t, price: i + 2, volume: 0 }))).map((b) => b.close),
    );
    // Nothing is left to do, and doing it again changes nothing.
    expect(store.compactStep(now)).toBe(false);
  });

  it('compacts a backlog a slice at a time', () => {
    const store = openStore();
    const ticks = walk(3 * 3600, T0);
    const insert = (): void => {
      for (const tick of ticks) store.record(A, [{ symbol: 'X', price: tick.price, volume: tick.volume }], tick.t);
    };
    insert();
    const now = T0 + 3 * 3600_000 + RETENTION_MS.ticks + 1;
    let steps = 0;
    while (store.compactStep(now)) steps++;
    expect(steps).toBeGreaterThanOrEqual(3);
    expect(store.ticks(A, 'X', 0, now)).toEqual([]);
    expect(store.bars(A, 'X', 'minute', 0, now)).toHaveLength(180);
  });

  it('gives chart points from the prices there are: ticks up to three hours of them, minute buckets to a month, day bars beyond', () => {
    const store = openStore();
    const ticks = walk(5 * 3600, T0);
    for (const tick of ticks) store.record(A, [{ symbol: 'X', price: tick.price, volume: tick.volume }], tick.t);
    const now = T0 + 5 * 3600_000;
    const last = ticks.at(-1)!;
    expect(store.points(A, 'X', now - 3600_000, now, 4000, now)).toHaveLength(3600);
    // Asked for fewer points, the ticks come in buckets of 18 s, each its last price.
    const hour = store.points(A, 'X', now - 3600_000, now, 200, now);
    expect(hour).toHaveLength(200);
    expect(hour.at(-1)).toEqual({ t: last.t, price: last.price });
    // A day's span two hours after recording began is still ticks: what there is spans two hours.
    const early = T0 + 2 * 3600_000 - 1;
    expect(store.points(A, 'X', early - DAY_MS, early, 8000, early)).toHaveLength(7200);
    // Five hours are 3-minute buckets (about 100 over the prices there are), each its last close.
    const buckets = store.points(A, 'X', now - DAY_MS, now, 100, now);
    expect(buckets).toHaveLength(100);
    expect(buckets.at(-1)).toEqual({ t: last.t, price: last.price });
    const minuteBars = store.bars(A, 'X', 'minute', T0, now);
    expect(buckets[0]).toEqual({ t: minuteBars[2]!.lastT, price: minuteBars[2]!.close });
    const days = store.points(A, 'X', now - 365 * DAY_MS, now, 100, now);
    expect(days.at(-1)).toEqual({ t: last.t, price: last.price });
  });

  it('moves a damaged file aside, says so, and starts anew', () => {
    const store = openStore();
    store.record(A, [{ symbol: 'X', price: 1, volume: 1 }], T0);
    store.close();
    open.length = 0;
    writeFileSync(path, Buffer.alloc(8192, 0x5a));
    rmSync(`${path}-wal`, { force: true });
    rmSync(`${path}-shm`, { force: true });
    const warnings: string[] = [];
    const again = openStore({ onWarning: (w) => warnings.push(w), now: () => T0 });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/was damaged: moved aside to .*history\.db\.damaged-\d{8}T\d{6}-\d+; recording starts anew/);
    again.record(A, [{ symbol: 'X', price: 2, volume: 1 }], T0);
    expect(again.ticks(A, 'X', 0, T0)).toEqual([{ t: T0, price: 2, volume: 1 }]);
    const aside = readdirSync(join(dir, 'data')).find((name) => name.includes('.damaged-'))!;
    expect(readFileSync(join(dir, 'data', aside))).toEqual(Buffer.alloc(8192, 0x5a));
  });

  describe('a page found damaged after the file opened (replaceDamaged)', () => {
    /** A file with two alerts (one fired), a lot and prices, closed; then `name`'s page damaged. */
    function damagedHistory(name: string): void {
      const store = openHistoryStore(path);
      const alerts = alertsOf(store);
      alerts.add(A, 'AAPL', { kind: 'above', price: 200 }, { price: 190, at: T0, oneShot: false });
      alerts.add(A, 'MSFT', { kind: 'below', price: 10 }, { price: 400, at: T0, oneShot: true });
      alerts.evaluate(A, new Map([['AAPL', { price: 201, pollsWithout: 0, now: T0 + 1000 }]]), () => undefined);
      // Lot 2 of three: the numbers 1 and 3 were given and are not to be given again.
      const holdings = holdingsOf(store);
      for (const quantity of [9_000_000n, 10_000_000n, 11_000_000n]) holdings.add(A, 'AAPL', { quantity, cost: 150_000_000n, bought: '2026-01-02' }, T0);
      holdings.remove(A, 'AAPL', 1);
      holdings.remove(A, 'AAPL', 3);
      store.record(A, [{ symbol: 'AAPL', price: 201, volume: 5 }], T0 + 1000);
      store.close();
      damagePage(path, name);
    }
    const asideFiles = () => readdirSync(join(dir, 'data')).filter((name) => name.includes('.damaged-'));
    /** The error `read` meets: the damage, found by the first statement that reads its page. */
    const damageMet = (read: () => unknown): unknown => {
      try {
        read();
      } catch (error) {
        return error;
      }
      throw new Error('no damage found');
    };

    it('moves it aside, starts anew with the alerts, their log and the lots it still lets be read, and says so naming both files', () => {
      damagedHistory('sqlite_autoindex_sources_1');
      const before = openStore();
      // The header is whole: the damage shows at the first statement that reads the page.
      const found = damageMet(() => alertsOf(before).list(A));
      expect((found as { code?: string }).code).toMatch(/^SQLITE_CORRUPT/);
      const warnings: string[] = [];
      const after = replaceDamaged(before, found, { onWarning: (w) => warnings.push(w), now: () => T0 });
      open.push(after);
      const aside = asideFiles().filter((name) => !/-(wal|shm)$/.test(name));
      expect(aside).toHaveLength(1);
      expect(warnings).toEqual([`the price history ${path} was damaged: moved aside to ${join(dir, 'data', aside[0]!)}; recording starts anew, with its 2 alerts and 1 lot`]);
      expect(alertsOf(after).list(A).map(({ id, symbol, armed, done, oneShot }) => ({ id, symbol, armed, done, oneShot }))).toEqual([
        { id: 1, symbol: 'AAPL', armed: false, done: false, oneShot: false },
        { id: 2, symbol: 'MSFT', armed: true, done: false, oneShot: true },
      ]);
      expect(alertsOf(after).firings(A).map((f) => [f.alert, f.price])).toEqual([[1, 201]]);
      expect(holdingsOf(after).list(A)).toEqual([{ symbol: 'AAPL', number: 2, quantity: 10_000_000n, cost: 150_000_000n, bought: '2026-01-02' }]);
      expect(holdingsOf(after).add(A, 'AAPL', { quantity: 1n, cost: 1n, bought: undefined }, T0).number).toBe(4);
      // The prices are not the user's own: they start anew.
      expect(after.ticks(A, 'AAPL', 0, T0 * 2)).toEqual([]);
      after.record(A, [{ symbol: 'AAPL', price: 202, volume: 6 }], T0 + 2000);
      expect(after.ticks(A, 'AAPL', 0, T0 * 2)).toHaveLength(1);
    });

    it('a version 5 file found damaged as it is upgraded keeps its lots, numbered as they were listed', () => {
      // Made by tickbook before lots had numbers (see test/fixtures/history/README.md).
      mkdirSync(join(dir, 'data'), { recursive: true });
      copyFileSync(fileURLToPath(new URL('../fixtures/history/holdings-v5.db', import.meta.url)), path);
      damagePage(path, 'lots_by_symbol');
      const warnings: string[] = [];
      const after = openHistoryStore(path, { onWarning: (w) => warnings.push(w) });
      open.push(after);
      expect(warnings).toEqual([expect.stringMatching(/was damaged: moved aside to .*; recording starts anew, with its 6 lots$/)]);
      const key = after.db.prepare('SELECT key FROM sources').pluck().get() as string;
      const holdings = holdingsOf(after);
      expect(holdings.list(key).map((l) => `${l.symbol} ${l.number} ${fixedText(l.quantity)}`)).toEqual(['AAPL 1 10', 'AAPL 2 0.5', 'AAPL 3 40', 'MSFT 1 2', 'MSFT 2 1', 'VOD.L 1 1000']);
      expect(holdings.add(key, 'AAPL', { quantity: 1n, cost: 1n, bought: undefined }, T0).number).toBe(4);
    });

    it('says what could not be read, which stays in the file moved aside', () => {
      damagedHistory('lots');
      const before = openStore();
      const found = damageMet(() => holdingsOf(before).list(A));
      const warnings: string[] = [];
      const after = replaceDamaged(before, found, { onWarning: (w) => warnings.push(w) });
      open.push(after);
      expect(warnings[0]).toMatch(/; recording starts anew, with its 2 alerts; its lots, if any, could not be read \(they stay in the file moved aside\)$/);
      expect(alertsOf(after).list(A)).toHaveLength(2);
      expect(holdingsOf(after).list(A)).toEqual([]);
    });

    it('copies what it keeps whether or not anyone is told', () => {
      damagedHistory('sqlite_autoindex_sources_1');
      const before = openStore();
      const after = replaceDamaged(before, damageMet(() => alertsOf(before).list(A)));
      open.push(after);
      expect(alertsOf(after).list(A)).toHaveLength(2);
      expect(holdingsOf(after).list(A)).toHaveLength(1);
    });

    it('found by two connections at once, is moved aside once: the second opens the first\'s new file', () => {
      damagedHistory('sqlite_autoindex_sources_1');
      const first = openStore();
      const second = openStore();
      const errors = [first, second].map((store) => damageMet(() => alertsOf(store).list(A)));
      const warnings: string[] = [];
      const one = replaceDamaged(first, errors[0], { onWarning: (w) => warnings.push(w) });
      open.push(one);
      alertsOf(one).add(A, 'NVDA', { kind: 'above', price: 1 }, { price: 0.5, at: T0, oneShot: false });
      const two = replaceDamaged(second, errors[1], { onWarning: (w) => warnings.push(w) });
      open.push(two);
      expect(warnings).toHaveLength(1);
      expect(asideFiles().filter((name) => !/-(wal|shm)$/.test(name))).toHaveLength(1);
      expect(alertsOf(two).list(A).map((a) => a.symbol)).toEqual(['AAPL', 'MSFT', 'NVDA']);
    });
  });

  describe('only the file found damaged is moved aside', () => {
    const asideFiles = () => readdirSync(join(dir, 'data')).filter((name) => name.includes('.damaged-') && !/-(wal|shm)$/.test(name));
    /** What another process that found the damage first does: moves the file aside, and starts a new one with an alert. */
    const anotherProcessReplacesIt = () => {
      renameSync(path, `${path}.damaged-20261126T140000-1`);
      for (const suffix of ['-wal', '-shm']) if (existsSync(path + suffix)) renameSync(path + suffix, `${path}.damaged-20261126T140000-1${suffix}`);
      const fresh = openHistoryStore(path);
      alertsOf(fresh).add(A, 'NVDA', { kind: 'above', price: 1 }, { price: 0.5, at: T0, oneShot: false });
      fresh.close();
      return statSync(path).ino;
    };

    it('by history\'s reading, when another process moved it aside and started a new one meanwhile: the new one is left where it is', () => {
      const store = openHistoryStore(path);
      store.record(A, [{ symbol: 'AAPL', price: 1, volume: 1 }], T0);
      store.close();
      damagePage(path, 'ticks');
      const warnings: string[] = [];
      let fresh: number | undefined;
      const read = readHistory(
        path,
        (reader) => {
          // Between this process opening the damaged file and meeting its damage.
          fresh = anotherProcessReplacesIt();
          return reader.ticks(A, 'AAPL', 0, T0);
        },
        { onWarning: (w) => warnings.push(w) },
      );
      expect(read).toBeUndefined();
      expect(warnings).toEqual([]);
      expect(asideFiles()).toEqual(['history.db.damaged-20261126T140000-1']);
      expect(statSync(path).ino).toBe(fresh);
      const now = openStore();
      expect(alertsOf(now).list(A).map((a) => a.symbol)).toEqual(['NVDA']);
    });

    it('on opening, when another process moved it aside and started a new one meanwhile: the new one is opened as it is', () => {
      mkdirSync(join(dir, 'data'));
      writeFileSync(path, Buffer.alloc(8192, 0x5a));
      const warnings: string[] = [];
      let fresh: number | undefined;
      // The moment the damaged file is to be moved: the other process got there first.
      const store = openStore({ onWarning: (w) => warnings.push(w), now: () => ((fresh ??= anotherProcessReplacesIt()), T0) });
      expect(warnings).toEqual([]);
      expect(asideFiles()).toEqual(['history.db.damaged-20261126T140000-1']);
      expect(readFileSync(join(dir, 'data', asideFiles()[0]!))).toEqual(Buffer.alloc(8192, 0x5a));
      expect(statSync(path).ino).toBe(fresh);
      expect(alertsOf(store).list(A).map((a) => a.symbol)).toEqual(['NVDA']);
    });

    it('movedAway tells a store whose file another process moved aside, or that was removed', () => {
      const store = openStore();
      expect(movedAway(store)).toBe(false);
      renameSync(path, `${path}.elsewhere`);
      expect(movedAway(store)).toBe(true);
      renameSync(`${path}.elsewhere`, path);
      expect(movedAway(store)).toBe(false);
      rmSync(path);
      expect(movedAway(store)).toBe(true);
    });
  });

  it('migrates a version 1 file, keeping what it recorded, and records on', () => {
    // Version 1 as it was first released (its series without last_t), with a price in it.
    mkdirSync(join(dir, 'data'));
    const old = new Database(path);
    old.exec(`CREATE TABLE sources (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE);
      CREATE TABLE series (id INTEGER PRIMARY KEY, source INTEGER NOT NULL REFERENCES sources(id), symbol TEXT NOT NULL, last_volume INTEGER, UNIQUE (source, symbol));
      CREATE TABLE ticks (series INTEGER NOT NULL, t INTEGER NOT NULL, price REAL NOT NULL, volume INTEGER NOT NULL, PRIMARY KEY (series, t)) WITHOUT ROWID;
      CREATE TABLE minute_bars (series INTEGER NOT NULL, t INTEGER NOT NULL, open REAL NOT NULL, high REAL NOT NULL, low REAL NOT NULL, close REAL NOT NULL, volume INTEGER NOT NULL, first_t INTEGER NOT NULL, last_t INTEGER NOT NULL, PRIMARY KEY (series, t)) WITHOUT ROWID;
      CREATE TABLE day_bars (series INTEGER NOT NULL, t INTEGER NOT NULL, open REAL NOT NULL, high REAL NOT NULL, low REAL NOT NULL, close REAL NOT NULL, volume INTEGER NOT NULL, first_t INTEGER NOT NULL, last_t INTEGER NOT NULL, PRIMARY KEY (series, t)) WITHOUT ROWID;
      INSERT INTO sources (id, key) VALUES (1, '${A}');
      INSERT INTO series (id, source, symbol, last_volume) VALUES (1, 1, 'X', 100);
      INSERT INTO ticks VALUES (1, ${T0}, 10, 100);
      INSERT INTO minute_bars VALUES (1, ${T0}, 10, 10, 10, 10, 0, ${T0}, ${T0});
      INSERT INTO day_bars VALUES (1, ${barStart('day', T0)}, 10, 10, 10, 10, 0, ${T0}, ${T0});
      PRAGMA user_version = 1;`);
    old.close();
    const store = openStore();
    expect(store.ticks(A, 'X', 0, T0 * 2)).toEqual([{ t: T0, price: 10, volume: 100 }]);
    // No time for the reading before: nothing is known to have been traded since it.
    store.record(A, [{ symbol: 'X', price: 11, volume: 150 }], T0 + 1000);
    store.record(A, [{ symbol: 'X', price: 12, volume: 170 }], T0 + 2000);
    expect(store.bars(A, 'X', 'minute', T0, T0)).toEqual([{ t: T0, open: 10, high: 12, low: 10, close: 12, volume: 20, firstT: T0, lastT: T0 + 2000 }]);
    const db = new Database(path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(7);
    db.close();
  });

  it('leaves a newer release\'s file alone and says why it cannot record', () => {
    openStore().close();
    open.length = 0;
    const db = new Database(path);
    db.pragma('user_version = 8');
    db.close();
    const before = readFileSync(path);
    expect(() => openHistoryStore(path)).toThrow(HistoryOpenError);
    expect(() => openHistoryStore(path)).toThrow(/schema version 8 is newer than this tickbook understands \(7\)/);
    expect(readFileSync(path)).toEqual(before);
  });

  it('names a path it cannot use, without looping or throwing anything else', () => {
    writeFileSync(join(dir, 'file'), '');
    expect(() => openHistoryStore(join(dir, 'file', 'history.db'))).toThrow(HistoryOpenError);
    expect(() => openHistoryStore(join(dir, 'file', 'history.db'))).toThrow(/is not a directory/);
    expect(() => openHistoryStore(dir)).toThrow(/it is a directory/);
    expect(existsSync(join(dir, 'file', 'history.db'))).toBe(false);
  });

  it('is shared safely by two processes recording at once', async () => {
    openStore().close();
    open.length = 0;
    const child = (symbol: string) =>
      runChild(process.execPath, ['--import', 'tsx', join(ROOT, 'test/helpers/record-history-child.ts'), path, A, symbol, '300', String(T0)], {
        timeoutMs: 30_000,
      });
    const runs = await Promise.all([child('AAPL'), child('MSFT'), child('AAPL')]);
    for (const run of runs) expect(run.stderr).toBe('');
    const store = openStore();
    // The two AAPL writers recorded the same instants: each counted once.
    expect(store.ticks(A, 'AAPL', 0, T0 * 2)).toHaveLength(300);
    expect(store.ticks(A, 'MSFT', 0, T0 * 2)).toHaveLength(300);
    expect(store.bars(A, 'AAPL', 'minute', 0, T0 * 2)).toEqual(expectedBars('minute', store.ticks(A, 'AAPL', 0, T0 * 2)));
  });
});

describe("a server's id", () => {
  it('is the same each time it is asked, and kept once read (not read from the file again)', () => {
    const store = openStore();
    const id = store.sourceId(A, true)!;
    expect(store.sourceId(A, false)).toBe(id);
    // Kept: the row renamed underneath (no code does this) is not read again.
    store.db.prepare('UPDATE sources SET key = ? WHERE id = ?').run('elsewhere', id);
    expect(store.sourceId(A, false)).toBe(id);
  });

  it('made in a transaction that rolls back is not kept', () => {
    const store = openStore();
    expect(() =>
      store.db.transaction(() => {
        store.sourceId(B, true);
        expect(store.sourceId(B, false)).toBeDefined();
        throw new Error('rolled back');
      })(),
    ).toThrow('rolled back');
    expect(store.sourceId(B, false)).toBeUndefined();
    const id = store.sourceId(B, true)!;
    expect(store.db.prepare('SELECT key FROM sources WHERE id = ?').get(id)).toEqual({ key: B });
  });
});
