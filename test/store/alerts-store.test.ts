// Alerts in the history file, on real SQLite files in temp directories, and two processes at once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { barStart } from '../../src/market/bars.js';
import { AlertWatch, alertsOf, FIRINGS_KEPT } from '../../src/store/alerts-store.js';
import { type HistoryStore, openHistoryStore } from '../../src/store/history-store.js';
import { ROOT } from '../helpers/child.js';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const A = 'http://a.example';
let dir: string;
let path: string;
let store: HistoryStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tickbook-alerts-'));
  path = join(dir, 'history.db');
  store = openHistoryStore(path);
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const reading = (price: number, now = 1_000) => ({ price, pollsWithout: 0, now });

describe('alerts in the history file', () => {
  it('are added, listed per server, paused and removed', () => {
    const alerts = alertsOf(store);
    const a = alerts.add(A, 'AAPL', { kind: 'above', price: 200 }, { price: 190, at: 5, oneShot: false });
    const b = alerts.add(A, 'MSFT', { kind: 'move', percent: 3, direction: 'either', from: 'set' }, { price: 400, at: 6, oneShot: true });
    alerts.add('http://b.example', 'AAPL', { kind: 'below', price: 1 }, { price: 2, at: 7, oneShot: false });
    expect(alerts.list(A).map((x) => [x.id, x.symbol, x.armed, x.oneShot, x.setPrice])).toEqual([
      [a.id, 'AAPL', true, false, 190],
      [b.id, 'MSFT', true, true, 400],
    ]);
    expect(alerts.pause(A, a.id, true)).toBe(true);
    expect(alerts.list(A)[0]!.paused).toBe(true);
    expect(alerts.remove(A, b.id)).toBe(true);
    expect(alerts.remove(A, b.id)).toBe(false);
    expect(alerts.list(A).map((x) => x.id)).toEqual([a.id]);
    expect(alerts.list('http://b.example')).toHaveLength(1);
  });

  it('an alert set while its condition holds waits for the next crossing', () => {
    const alerts = alertsOf(store);
    alerts.add(A, 'AAPL', { kind: 'above', price: 200 }, { price: 210, at: 1, oneShot: false });
    expect(alerts.evaluate(A, new Map([['AAPL', reading(211)]]), () => undefined)).toEqual([]);
    expect(alerts.evaluate(A, new Map([['AAPL', reading(190)]]), () => undefined)).toEqual([]);
    expect(alerts.evaluate(A, new Map([['AAPL', reading(201, 2_000)]]), () => undefined).map((f) => f.text)).toEqual(['AAPL at 201.00 crossed above 200.00']);
  });

  it('set while its condition holds, is armed by the first price back across its line, in whichever process reads it', () => {
    alertsOf(store).add(A, 'SHEL.L', { kind: 'below', price: 24.5 }, { price: 24.4, at: 1, oneShot: false });
    const other = openHistoryStore(path);
    try {
      // 24.51 is inside the band (24.56125): it arms an alert set holding all the same.
      expect(alertsOf(other).evaluate(A, new Map([['SHEL.L', reading(24.51)]]), () => undefined)).toEqual([]);
      expect(alertsOf(store).list(A)[0]).toMatchObject({ armed: true });
      expect(alertsOf(store).evaluate(A, new Map([['SHEL.L', reading(24.49, 2_000)]]), () => undefined).map((f) => f.text)).toEqual(['SHEL.L at 24.49 crossed below 24.50']);
      // Fired, it needs the band: 24.51 again does not arm it.
      alertsOf(other).evaluate(A, new Map([['SHEL.L', reading(24.51, 3_000)]]), () => undefined);
      expect(alertsOf(store).list(A)[0]).toMatchObject({ armed: false, band: true });
    } finally {
      other.close();
    }
  });

  it('never gives a number twice; a removed alert\'s firings stay in the log as its own, with its symbol and condition', () => {
    const alerts = alertsOf(store);
    const toyota = alerts.add(A, '7203.T', { kind: 'above', price: 2800 }, { price: 2790, at: 1, oneShot: false });
    const aapl = alerts.add(A, 'AAPL', { kind: 'below', price: 150 }, { price: 190, at: 1, oneShot: false });
    alerts.evaluate(A, new Map([['7203.T', reading(2801, 2_000)]]), () => undefined);
    expect(alerts.remove(A, aapl.id)).toBe(true);
    expect(alerts.remove(A, toyota.id)).toBe(true);
    const msft = alerts.add(A, 'MSFT', { kind: 'above', price: 999 }, { price: 400, at: 3, oneShot: false });
    expect(msft.id).toBe(3);
    expect(alerts.firings(A)).toEqual([
      { alert: toyota.id, symbol: '7203.T', condition: { kind: 'above', price: 2800 }, removed: true, at: 2_000, price: 2801, text: '7203.T at 2801.00 crossed above 2800.00' },
    ]);
    // Emptied and started again: still above every number used.
    expect(alerts.remove(A, msft.id)).toBe(true);
    expect(alerts.add(A, 'MSFT', { kind: 'above', price: 999 }, { price: 400, at: 4, oneShot: false }).id).toBe(4);
  });

  it('keeps a firing\'s condition when its alert is edited since', () => {
    const alerts = alertsOf(store);
    const a = alerts.add(A, 'AAPL', { kind: 'above', price: 200 }, { price: 190, at: 1, oneShot: false });
    alerts.evaluate(A, new Map([['AAPL', reading(201, 2_000)]]), () => undefined);
    expect(alerts.replace(A, a.id, { kind: 'below', price: 150 }, { price: 201, at: 3_000, oneShot: false })).toMatchObject({ id: a.id, armed: true, held: false });
    expect(alerts.firings(A).map((f) => [f.alert, f.symbol, f.condition, f.removed])).toEqual([[a.id, 'AAPL', { kind: 'above', price: 200 }, false]]);
  });

  it('a move from the open or a close set while it holds, as recorded in this file, waits for the next crossing the watch sees', () => {
    const alerts = alertsOf(store);
    // A fixed day: yesterday's close 200, today's open 100; the alerts set at 106 (+6% from the open).
    const day = barStart('day', Date.UTC(2026, 10, 20, 12));
    const hour = 3_600_000;
    const record = (symbol: string, price: number, at: number) => store.record(A, [{ symbol, price, volume: 1 }], at);
    record('AAPL', 200, day - 2 * hour);
    record('AAPL', 100, day + 9 * hour);
    record('AAPL', 106, day + 10 * hour);
    const set = { price: 106, at: day + 10 * hour, oneShot: false };
    const fromOpen = alerts.add(A, 'AAPL', { kind: 'move', percent: 5, direction: 'up', from: 'open' }, set);
    const fromClose = alerts.add(A, 'AAPL', { kind: 'move', percent: 5, direction: 'down', from: 'close' }, set);
    const fromSet = alerts.add(A, 'AAPL', { kind: 'move', percent: 50, direction: 'down', from: 'set' }, set);
    const notToday = alerts.add(A, 'MSFT', { kind: 'move', percent: 5, direction: 'up', from: 'open' }, { ...set, price: 400 });
    expect([fromOpen, fromClose, fromSet, notToday].map((a) => [a.armed, a.band, a.held])).toEqual([
      [false, false, true],
      [false, false, true],
      [true, true, false],
      // Nothing of MSFT recorded today: it cannot be told, and it waits all the same.
      [false, false, undefined],
    ]);
    // The watch's polls, each recorded before it is stepped as alerts watch and the dashboard do.
    const watch = new AlertWatch(alerts, store, A);
    let t = day + 10 * hour;
    const poll = (prices: Record<string, number>) => {
      t += 5_000;
      store.record(A, Object.entries(prices).map(([symbol, price]) => ({ symbol, price, volume: 1 })), t);
      return watch.polled(Object.keys(prices), new Map(Object.entries(prices)), t).map((f) => `#${f.alert} ${f.text}`);
    };
    // The first poll: the moves held when set still hold; nothing fires. MSFT's first price is its open.
    expect(poll({ AAPL: 106.5, MSFT: 400 })).toEqual([]);
    expect(alerts.list(A).map((a) => a.armed)).toEqual([false, false, true, true]);
    // Back under +5% from the open arms the first; the next rise through it fires it.
    expect(poll({ AAPL: 104.9, MSFT: 410 })).toEqual([]);
    expect(poll({ AAPL: 105.5, MSFT: 420 })).toEqual([`#${fromOpen.id} AAPL at 105.50 moved +5.50% from the day's open`, `#${notToday.id} MSFT at 420.00 moved +5.00% from the day's open`]);
    // Up to within 5% of yesterday's close arms the second; the next fall through fires it.
    expect(poll({ AAPL: 191 })).toEqual([]);
    expect(poll({ AAPL: 189 })).toEqual([`#${fromClose.id} AAPL at 189.00 moved -5.50% from the last close`]);
  });

  it('gives no number twice across two connections (a dashboard open while the shell adds and removes)', () => {
    const dashboard = alertsOf(store);
    const shell = openHistoryStore(path);
    try {
      dashboard.add(A, 'AAPL', { kind: 'above', price: 200 }, { price: 190, at: 1, oneShot: false });
      const two = alertsOf(shell).add(A, 'MSFT', { kind: 'above', price: 999 }, { price: 400, at: 2, oneShot: false });
      expect(dashboard.list(A).map((a) => a.id)).toEqual([1, 2]);
      expect(alertsOf(shell).remove(A, two.id)).toBe(true);
      const three = dashboard.add(A, 'NVDA', { kind: 'below', price: 1 }, { price: 100, at: 3, oneShot: false });
      expect(three.id).toBe(3);
      expect(alertsOf(shell).add(A, 'TSLA', { kind: 'below', price: 1 }, { price: 100, at: 4, oneShot: false }).id).toBe(4);
      // The dashboard's "delete 2" (its list drawn before the shell removed it) deletes nothing else.
      expect(dashboard.remove(A, two.id)).toBe(false);
      expect(dashboard.list(A).map((a) => [a.id, a.symbol])).toEqual([[1, 'AAPL'], [3, 'NVDA'], [4, 'TSLA']]);
    } finally {
      shell.close();
    }
  });

  it('fires once per crossing, records it, and keeps the last firings only', () => {
    const alerts = alertsOf(store);
    const a = alerts.add(A, 'AAPL', { kind: 'above', price: 100 }, { price: 90, at: 1, oneShot: false });
    let fired = 0;
    for (let i = 0; i < FIRINGS_KEPT + 20; i++) {
      fired += alerts.evaluate(A, new Map([['AAPL', reading(101, 10 * i)]]), () => undefined).length;
      alerts.evaluate(A, new Map([['AAPL', reading(90, 10 * i + 5)]]), () => undefined);
    }
    expect(fired).toBe(FIRINGS_KEPT + 20);
    const kept = alerts.firings(A);
    expect(kept).toHaveLength(FIRINGS_KEPT);
    expect(kept[0]).toMatchObject({ alert: a.id, symbol: 'AAPL', price: 101, at: 10 * (FIRINGS_KEPT + 19) });
  });

  it('a move from the price when set measures from it; a one-shot alert is done after firing', () => {
    const alerts = alertsOf(store);
    const a = alerts.add(A, 'X', { kind: 'move', percent: 10, direction: 'up', from: 'set' }, { price: 50, at: 1, oneShot: true });
    const reference = (alert: { setPrice: number | undefined }) => alert.setPrice;
    expect(alerts.evaluate(A, new Map([['X', reading(54)]]), reference)).toEqual([]);
    expect(alerts.evaluate(A, new Map([['X', reading(55)]]), reference).map((f) => f.text)).toEqual(['X at 55.00 moved +10.00% from the price when set']);
    expect(alerts.list(A).find((x) => x.id === a.id)!.done).toBe(true);
    expect(alerts.evaluate(A, new Map([['X', reading(40)]]), reference)).toEqual([]);
    expect(alerts.evaluate(A, new Map([['X', reading(60)]]), reference)).toEqual([]);
  });

  it('three processes stepping the same alerts on the same prices, in step, announce each crossing once', async () => {
    const alerts = alertsOf(store);
    alerts.add(A, 'AAPL', { kind: 'above', price: 100 }, { price: 90, at: 1, oneShot: false });
    alerts.add(A, 'AAPL', { kind: 'below', price: 80 }, { price: 90, at: 1, oneShot: false });
    const children = [0, 1, 2].map(() => {
      const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test/helpers/alerts-child.ts'), path, A, 'AAPL'], { stdio: ['pipe', 'pipe', 'inherit'] });
      const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
      return { child, next: async () => (await lines.next()).value as string };
    });
    for (const c of children) expect(await c.next()).toBe('ready');
    const said: string[] = [];
    // Three crossings above 100 and two below 80, each price seen by all three at once.
    for (const price of ['90', '101', '90', '102', '79', '90', '103', '78']) {
      for (const c of children) c.child.stdin!.write(`${price}\n`);
      for (const c of children) {
        for (let line = await c.next(); !line.startsWith('fired '); line = await c.next()) said.push(line);
      }
    }
    for (const c of children) c.child.stdin!.end();
    await Promise.all(children.map((c) => new Promise((resolve) => c.child.on('close', resolve))));
    expect(said.filter((line) => line.includes('crossed above'))).toHaveLength(3);
    expect(said.filter((line) => line.includes('crossed below'))).toHaveLength(2);
    expect(alerts.firings(A)).toHaveLength(5);
  }, 30_000);
});
