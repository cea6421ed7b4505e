// A history file made by the tickbook before alert numbers were kept (schema version 5, made by
// its own commands: test/fixtures/history/README.md), opened by this one: a copy of it each time.
import Database from 'better-sqlite3';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { alertsOf } from '../../src/store/alerts-store.js';
import { type HistoryStore, openHistoryStore } from '../../src/store/history-store.js';
import { ROOT } from '../helpers/child.js';
import { damagePage } from '../helpers/damage.js';

const FIXTURE = join(ROOT, 'test/fixtures/history/v5-alerts.db');
/** The server it was made against: its only one. */
const SERVER = 'http://127.0.0.1:41697';

let dir: string;
let path: string;
const open: HistoryStore[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tickbook-alerts-v5-'));
  path = join(dir, 'history.db');
  copyFileSync(FIXTURE, path);
});
afterEach(() => {
  for (const store of open.splice(0)) store.close();
  rmSync(dir, { recursive: true, force: true });
});

const versionOf = (file: string): number => {
  const db = new Database(file, { readonly: true });
  try {
    return db.pragma('user_version', { simple: true }) as number;
  } finally {
    db.close();
  }
};

const MOVE = { kind: 'move', percent: 0.0001, direction: 'either', from: 'set' };
const TEXT = {
  aapl: 'AAPL at 217.61 moved +0.00% from the price when set',
  toyota: '7203.T at 2800.61 moved +0.03% from the price when set',
  ibm: 'IBM at 279.82 moved -0.04% from the price when set',
};

/** What the copy must hold once opened: every number and alert as it was, each firing its own. */
function expectKept(store: HistoryStore): void {
  const alerts = alertsOf(store);
  expect(alerts.list(SERVER).map(({ id, symbol, condition, armed, band, setPrice }) => ({ id, symbol, condition, armed, band, setPrice }))).toEqual([
    // Fired since it was set: the band arms it, as before.
    { id: 1, symbol: 'AAPL', condition: MOVE, armed: false, band: true, setPrice: 217.6 },
    // Set while its condition held, never fired since: armed by the first price above its line.
    { id: 2, symbol: 'NVDA', condition: { kind: 'below', price: 100000 }, armed: false, band: false, setPrice: 160.19 },
    { id: 3, symbol: 'TSLA', condition: { kind: 'above', price: 100000 }, armed: true, band: true, setPrice: 302.77 },
  ]);
  expect(alerts.firings(SERVER).map(({ alert, symbol, condition, removed, price, text }) => ({ alert, symbol, condition, removed, price, text }))).toEqual([
    // Alert 4 was removed: its firing was in no log; now it is, as a removed alert's.
    { alert: 4, symbol: 'IBM', condition: undefined, removed: true, price: 279.82, text: TEXT.ibm },
    // Alert 3 is TSLA now (the number given again before): its firing is the removed 7203.T alert's.
    { alert: 3, symbol: '7203.T', condition: undefined, removed: true, price: 2800.61, text: TEXT.toyota },
    { alert: 1, symbol: 'AAPL', condition: MOVE, removed: false, price: 217.61, text: TEXT.aapl },
  ]);
  // The highest number the file knows is 4 (the removed IBM alert's, from its log): the next is 5.
  expect(alerts.add(SERVER, 'MSFT', { kind: 'above', price: 999 }, { price: 400, at: Date.now(), oneShot: false }).id).toBe(5);
  alerts.remove(SERVER, 5);
  expect(alerts.add(SERVER, 'MSFT', { kind: 'above', price: 999 }, { price: 400, at: Date.now(), oneShot: false }).id).toBe(6);
}

describe('a version 5 history file, as the tickbook before left it', () => {
  it('is upgraded keeping every alert and number; its log keeps each firing\'s symbol, and numbers go on above all it used', () => {
    expect(versionOf(path)).toBe(5);
    const store = openHistoryStore(path);
    open.push(store);
    expect(versionOf(path)).toBe(7);
    expectKept(store);
  });

  it('upgraded, an alert set while its condition held fires at the next crossing', () => {
    const store = openHistoryStore(path);
    open.push(store);
    const alerts = alertsOf(store);
    const at = Date.now();
    // NVDA below 100,000: 100,001 is above its line (inside the band's 100,250) and arms it.
    expect(alerts.evaluate(SERVER, new Map([['NVDA', { price: 100_001, pollsWithout: 0, now: at }]]), () => undefined)).toEqual([]);
    const fired = alerts.evaluate(SERVER, new Map([['NVDA', { price: 99_999, pollsWithout: 0, now: at + 1 }]]), () => undefined);
    expect(fired.map((f) => [f.alert, f.text])).toEqual([[2, 'NVDA at 99999.00 crossed below 100000.00']]);
  });

  it('found damaged as it is upgraded, is moved aside and its alerts, log and numbers kept in the new file as the upgrade keeps them', () => {
    // The upgrade reads the recorded symbols through this index (a firing's server): it meets the damage.
    damagePage(path, 'sqlite_autoindex_series_1');
    const warnings: string[] = [];
    const store = openHistoryStore(path, { onWarning: (w) => warnings.push(w) });
    open.push(store);
    const aside = readdirSync(dir).filter((name) => name.includes('.damaged-') && !/-(wal|shm)$/.test(name));
    expect(aside).toHaveLength(1);
    expect(versionOf(join(dir, aside[0]!))).toBe(5);
    expect(warnings).toEqual([expect.stringMatching(/; recording starts anew, with its 3 alerts$/)]);
    expectKept(store);
  });
});
