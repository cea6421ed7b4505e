// The recorder (the dashboard's, quote --watch's and alerts watch's use of the history) on real
// SQLite files in temp directories: a file found damaged by any statement, long after it opened.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { alertsOf } from '../../src/store/alerts-store.js';
import { openHistoryStore } from '../../src/store/history-store.js';
import { holdingsOf } from '../../src/store/holdings-store.js';
import { PriceRecorder } from '../../src/store/price-recorder.js';
import { damagePage } from '../helpers/damage.js';

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
