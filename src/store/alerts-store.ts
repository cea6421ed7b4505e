// Alerts as the history file keeps them: each with its condition and its state (armed, paused,
// snoozed, done), and the last 100 firings. Deciding whether an alert fires reads and writes its
// state in one transaction under the write lock, so that two processes watching one file (two
// watchers, or a watcher and a dashboard) never fire the same crossing twice.
import { type AlertCondition, type AlertState, describeFiring, initialState, type Reading, step } from '../market/alerts.js';
import { formatPrice } from '../text/numbers.js';
import { barStart, DAY_MS } from '../market/bars.js';
import type { HistoryStore } from './history-store.js';

export interface StoredAlert extends AlertState {
  id: number;
  symbol: string;
  condition: AlertCondition;
  /** The price when it was set (the reference of a move "from set"). */
  setPrice: number | undefined;
  setAt: number;
}

export interface Firing {
  alert: number;
  symbol: string;
  at: number;
  price: number | undefined;
  text: string;
}

/** How many firings are kept. */
export const FIRINGS_KEPT = 100;

interface AlertRow {
  id: number;
  symbol: string;
  condition: string;
  set_price: number | null;
  set_at: number;
  one_shot: number;
  paused: number;
  snoozed_until: number | null;
  armed: number;
  done: number;
}

const fromRow = (row: AlertRow): StoredAlert => ({
  id: row.id,
  symbol: row.symbol,
  condition: JSON.parse(row.condition) as AlertCondition,
  setPrice: row.set_price ?? undefined,
  setAt: row.set_at,
  oneShot: row.one_shot === 1,
  paused: row.paused === 1,
  snoozedUntil: row.snoozed_until ?? undefined,
  armed: row.armed === 1,
  done: row.done === 1,
});

export interface AlertsStore {
  add(source: string, symbol: string, condition: AlertCondition, options: { price: number | undefined; at: number; oneShot: boolean }): StoredAlert;
  list(source: string): StoredAlert[];
  remove(source: string, id: number): boolean;
  /** Sets an alert paused or not; false when there is no such alert. */
  pause(source: string, id: number, paused: boolean): boolean;
  /**
   * Steps every alert of `symbol` on this reading, each in its own transaction, and returns those
   * that fired (recorded before this returns). `reference(alert)` gives a move alert's reference.
   */
  evaluate(source: string, symbol: string, reading: Omit<Reading, 'reference'>, reference: (alert: StoredAlert) => number | undefined): Firing[];
  firings(source: string, limit?: number): Firing[];
}

/** The reference a move alert measures from, as recorded: the day's first price, the last close, or the price set. */
export function referenceOf(history: HistoryStore, source: string, alert: StoredAlert, now: number): number | undefined {
  if (alert.condition.kind !== 'move') return undefined;
  if (alert.condition.from === 'set') return alert.setPrice;
  const today = barStart('day', now);
  if (alert.condition.from === 'open') return history.bars(source, alert.symbol, 'day', today, now)[0]?.open;
  return history.bars(source, alert.symbol, 'day', today - 10 * DAY_MS, today - 1).at(-1)?.close;
}

/**
 * What each poll says to the alerts of the symbols it asked for: a price, or none (a symbol left
 * out, a poll that failed), counted in polls for the stale alerts. Returns what fired.
 */
export class AlertWatch {
  readonly #without = new Map<string, number>();
  constructor(
    readonly alerts: AlertsStore,
    readonly history: HistoryStore,
    readonly source: string,
  ) {}

  /** The symbols of the alerts that can fire (neither paused nor done), to be asked for. */
  symbols(): string[] {
    return [...new Set(this.alerts.list(this.source).filter((a) => !a.paused && !a.done).map((a) => a.symbol))];
  }

  /** A poll's answer: `asked` its symbols, `prices` what came. */
  polled(asked: readonly string[], prices: ReadonlyMap<string, number>, now: number): Firing[] {
    const watched = new Set(this.symbols());
    return asked.filter((s) => watched.has(s)).flatMap((symbol) => this.#step(symbol, prices.get(symbol), now));
  }

  /** A poll that failed: no price for any symbol watched. */
  failed(now: number): Firing[] {
    return this.symbols().flatMap((symbol) => this.#step(symbol, undefined, now));
  }

  #step(symbol: string, price: number | undefined, now: number): Firing[] {
    const pollsWithout = price === undefined ? (this.#without.get(symbol) ?? 0) + 1 : 0;
    this.#without.set(symbol, pollsWithout);
    return this.alerts.evaluate(this.source, symbol, { price, pollsWithout, now }, (alert) => referenceOf(this.history, this.source, alert, now));
  }
}

export function alertsOf(store: HistoryStore): AlertsStore {
  const { db } = store;
  const columns = 'id, symbol, condition, set_price, set_at, one_shot, paused, snoozed_until, armed, done';
  const insert = db.prepare<[number, string, string, number | null, number, number, number], AlertRow>(
    `INSERT INTO alerts (source, symbol, condition, set_price, set_at, one_shot, armed) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING ${columns}`,
  );
  const all = db.prepare<[number], AlertRow>(`SELECT ${columns} FROM alerts WHERE source = ? ORDER BY id`);
  const ofSymbol = db.prepare<[number, string], AlertRow>(`SELECT ${columns} FROM alerts WHERE source = ? AND symbol = ? ORDER BY id`);
  const one = db.prepare<[number, number], AlertRow>(`SELECT ${columns} FROM alerts WHERE source = ? AND id = ?`);
  const remove = db.prepare<[number, number]>('DELETE FROM alerts WHERE source = ? AND id = ?');
  const setPaused = db.prepare<[number, number, number]>('UPDATE alerts SET paused = ? WHERE source = ? AND id = ?');
  const saveState = db.prepare<[number, number | null, number, number]>('UPDATE alerts SET armed = ?, snoozed_until = ?, done = ? WHERE id = ?');
  const addFiring = db.prepare<[number, number, number | null, string]>('INSERT INTO alert_firings (alert, at, price, text) VALUES (?, ?, ?, ?)');
  const trimFirings = db.prepare<[number]>('DELETE FROM alert_firings WHERE id <= (SELECT max(id) FROM alert_firings) - ?');
  const recent = db.prepare<[number, number], Firing & { symbol: string }>(
    `SELECT f.alert, a.symbol, f.at, f.price, f.text FROM alert_firings f JOIN alerts a ON a.id = f.alert
     WHERE a.source = ? ORDER BY f.id DESC LIMIT ?`,
  );

  /** One alert stepped under the write lock: its state as stored now, not as this process last saw it. */
  const stepOne = db.transaction((source: number, id: number, reading: Reading): Firing | undefined => {
    const row = one.get(source, id);
    if (!row) return undefined;
    const alert = fromRow(row);
    const { state, fired } = step(alert.condition, alert, reading);
    if (state !== alert) saveState.run(state.armed ? 1 : 0, state.snoozedUntil ?? null, state.done ? 1 : 0, id);
    if (!fired) return undefined;
    const text = describeFiring(alert.symbol, alert.condition, reading, formatPrice);
    addFiring.run(id, reading.now, reading.price ?? null, text);
    trimFirings.run(FIRINGS_KEPT);
    return { alert: id, symbol: alert.symbol, at: reading.now, price: reading.price, text };
  });

  return {
    add(source, symbol, condition, { price, at, oneShot }) {
      const sourceId = store.sourceId(source, true)!;
      const reading = { price, pollsWithout: 0, reference: condition.kind === 'move' && condition.from === 'set' ? price : undefined, now: at };
      const state = initialState(condition, reading, oneShot);
      return fromRow(insert.get(sourceId, symbol, JSON.stringify(condition), price ?? null, at, oneShot ? 1 : 0, state.armed ? 1 : 0)!);
    },
    list(source) {
      const sourceId = store.sourceId(source, false);
      return sourceId === undefined ? [] : all.all(sourceId).map(fromRow);
    },
    remove(source, id) {
      const sourceId = store.sourceId(source, false);
      return sourceId !== undefined && remove.run(sourceId, id).changes > 0;
    },
    pause(source, id, paused) {
      const sourceId = store.sourceId(source, false);
      return sourceId !== undefined && setPaused.run(paused ? 1 : 0, sourceId, id).changes > 0;
    },
    evaluate(source, symbol, reading, reference) {
      const sourceId = store.sourceId(source, false);
      if (sourceId === undefined) return [];
      const fired: Firing[] = [];
      for (const row of ofSymbol.all(sourceId, symbol)) {
        const alert = fromRow(row);
        if (alert.paused || alert.done) continue;
        const firing = stepOne.immediate(sourceId, alert.id, { ...reading, reference: reference(alert) });
        if (firing) fired.push(firing);
      }
      return fired;
    },
    firings(source, limit = FIRINGS_KEPT) {
      const sourceId = store.sourceId(source, false);
      return sourceId === undefined ? [] : recent.all(sourceId, limit);
    },
  };
}
