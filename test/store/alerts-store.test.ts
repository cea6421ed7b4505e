// Alerts in the history file, on real SQLite files in temp directories, and two processes at once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { alertsOf, FIRINGS_KEPT } from '../../src/store/alerts-store.js';
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
