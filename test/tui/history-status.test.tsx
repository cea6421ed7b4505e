// The status line while the price history cannot be used: through the real Dashboard, a real
// sandbox, and a real PriceRecorder wired to the status line as the dashboard wires it
// (historyReports), on a history file another SQLite connection holds locked whole. The trouble
// is an error that stays for as long as the lock does (not a notice that fades after 5 s), and
// goes once the recorder opens the file.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openHistoryStore } from '../../src/store/history-store.js';
import { PriceRecorder } from '../../src/store/price-recorder.js';
import { Dashboard } from '../../src/tui/Dashboard.js';
import { dashboardRecording, historyReports } from '../../src/tui/state/history-reports.js';
import { StatusBoard } from '../../src/tui/state/status.js';
import { drive, renderDashboard, unmountAll } from '../helpers/dashboard.js';
import { inAct } from '../helpers/ink.js';
import { setUpSandbox } from '../helpers/sandbox.js';

const TARGET = 'sandbox (history status test)';
// Wide enough for the whole message and its countdown (narrower, it is cut at the end; m shows it whole).
const SIZE = { columns: 220, rows: 30 };

let dir: string;
let path: string;
let holder: Database.Database | undefined;
let recorder: PriceRecorder | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tickbook-history-status-'));
  path = join(dir, 'history.db');
  openHistoryStore(path).close();
});
afterEach(async () => {
  await unmountAll();
  recorder?.close();
  holder?.close();
  holder = recorder = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** The status line: the row that names the target. */
const statusLine = (frame: string): string => frame.split('\n').find((line) => line.includes(TARGET)) ?? '';

describe('the status line while the price history is held by another process', () => {
  const ctx = setUpSandbox();

  it('says so for as long as it lasts, as an error with the next try, and clears once the history opens', async () => {
    holder = new Database(path);
    holder.pragma('locking_mode = EXCLUSIVE');
    holder.exec('BEGIN EXCLUSIVE');
    const status = new StatusBoard();
    const history = new PriceRecorder({ source: 'history-status-test', path, ...historyReports(status), retryEveryMs: 50, lockWaitMs: 20 });
    recorder = history;
    const h = drive(
      await renderDashboard(<Dashboard client={ctx.client} status={status} target={TARGET} size={SIZE} watchlist={['AAPL']} intervalS={60} history={history} />, SIZE.columns),
    );
    await h.until((f) => /AAPL\b.* \d+\.\d\d /.test(f), 'the first prices');
    await inAct(() => history.open());
    const frame = await h.until((f) => /price history busy: another process holds /.test(statusLine(f)), 'the trouble in the status line');
    expect(statusLine(frame)).toMatch(/retry in \d+s/);
    // An error of its own, which no notice replaces and no timer fades.
    expect(status.getSnapshot().error).toMatchObject({ source: 'history', message: `price history busy: another process holds ${path}; recording and alerts wait for it` });
    expect(status.getSnapshot().notice).toBeUndefined();
    await inAct(() => status.notice('something else'));
    expect(status.getSnapshot().error?.source).toBe('history');
    // Still there after another try, and one entry in the message log, not one a try.
    const logged = status.getSnapshot().history.length;
    const firstTry = status.getSnapshot().error!.retryAt!;
    await h.until(() => (status.getSnapshot().error?.retryAt ?? 0) > firstTry, 'another try');
    expect(status.getSnapshot().error?.source).toBe('history');
    expect(status.getSnapshot().history.length).toBe(logged);

    await inAct(() => {
      holder!.exec('ROLLBACK');
      holder!.close();
      holder = undefined;
    });
    await h.until((f) => !/price history busy/.test(statusLine(f)), 'the trouble gone');
    expect(status.getSnapshot().error).toBeUndefined();
    expect(history.recording).toBe(true);
  });
});

describe("the dashboard's wait for another process's lock", () => {
  it('is a moment, not the 2 s the commands wait: the poll that meets a lock taken after the file opened says so in the status line at once', async () => {
    const status = new StatusBoard();
    // As the dashboard makes its recorder (dashboard.ts).
    const history = new PriceRecorder({ source: 'history-status-test', path, ...dashboardRecording(status) });
    recorder = history;
    await history.open();
    expect(history.recording).toBe(true);
    // Another process writing (WAL: its write lock is what a poll's write waits for).
    holder = new Database(path);
    holder.exec('BEGIN EXCLUSIVE');
    const started = performance.now();
    history.record([{ symbol: 'AAPL', price: 1, volume: 1 }], Date.now());
    // The poll ran on the thread that draws and reads keys. Under what any 2 s wait takes, however
    // fast the machine: the bound the old wait could not meet.
    expect(performance.now() - started).toBeLessThan(2000);
    expect(status.getSnapshot().error).toMatchObject({ source: 'history', message: `price history busy: another process holds ${path}; recording and alerts wait for it` });
    holder.exec('ROLLBACK');
    history.record([{ symbol: 'AAPL', price: 2, volume: 2 }], Date.now() + 1000);
    expect(status.getSnapshot().error).toBeUndefined();
  });
});
