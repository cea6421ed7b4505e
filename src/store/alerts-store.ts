// Alerts as the history file keeps them: each with its condition and its state (armed, paused,
// snoozed, done), and the last 100 firings. Deciding whether an alert fires reads and writes its
// state in one transaction under the write lock, so that two processes watching one file (two
// watchers, or a watcher and a dashboard) never fire the same crossing twice. An alert's number
// is never given again once used (AUTOINCREMENT), and a firing keeps the symbol and condition it
// fired for on its own row: a removed alert's firings stay in the log as a removed alert's, and
// never read as another's.
import { type AlertCondition, type AlertState, describeFiring, holds, initialState, type Reading, step } from '../market/alerts.js';
import { formatPrice } from '../text/numbers.js';
import { barStart } from '../market/bars.js';
import type { HistoryStore } from './history-store.js';

export interface StoredAlert extends AlertState {
  id: number;
  symbol: string;
  condition: AlertCondition;
  /** The price when it was set (the reference of a move "from set"). */
  setPrice: number | undefined;
  setAt: number;
}

/** An alert as just set (added, or edited afresh). */
export interface SetAlert extends StoredAlert {
  /**
   * Whether its condition held when it was set (then it waits, unarmed, for a reading where it
   * does not); undefined when that could not be told: no price, or for a move from the open or a
   * close nothing recorded to measure from (it waits alike).
   */
  held: boolean | undefined;
}

export interface Firing {
  alert: number;
  symbol: string;
  /** What the alert watched for. */
  condition: AlertCondition;
  at: number;
  price: number | undefined;
  text: string;
}

/** A firing as the log keeps it. */
export interface LoggedFiring extends Omit<Firing, 'condition'> {
  /**
   * What the alert watched for when it fired; undefined for a firing recorded before tickbook
   * kept it (schema version 5), whose alert was removed or changed since.
   */
  condition: AlertCondition | undefined;
  /** Its alert has been removed since (its number is never given to another). */
  removed: boolean;
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
  band: number;
  done: number;
}

/** Conditions as parsed, by their text: a tick steps every alert, and parsing each costs. */
const parsed = new Map<string, AlertCondition>();
function conditionOf(text: string): AlertCondition {
  let condition = parsed.get(text);
  if (condition === undefined) {
    if (parsed.size > 10_000) parsed.clear();
    condition = JSON.parse(text) as AlertCondition;
    parsed.set(text, condition);
  }
  return condition;
}

const fromRow = (row: AlertRow): StoredAlert => ({
  id: row.id,
  symbol: row.symbol,
  condition: conditionOf(row.condition),
  setPrice: row.set_price ?? undefined,
  setAt: row.set_at,
  oneShot: row.one_shot === 1,
  paused: row.paused === 1,
  snoozedUntil: row.snoozed_until ?? undefined,
  armed: row.armed === 1,
  band: row.band === 1,
  done: row.done === 1,
});

export interface AlertsStore {
  /**
   * Sets a new alert at `price` (its condition checked against it and, for a move, the reference
   * the watch would measure from at `at`, as recorded in this file).
   */
  add(source: string, symbol: string, condition: AlertCondition, options: { price: number | undefined; at: number; oneShot: boolean }): SetAlert;
  list(source: string): StoredAlert[];
  /** The symbols of the alerts that can fire (neither paused nor done). */
  symbols(source: string): string[];
  /** Removes an alert; its firings stay in the log, marked removed. False when there is no such alert. */
  remove(source: string, id: number): boolean;
  /** Sets an alert paused or not; false when there is no such alert. */
  pause(source: string, id: number, paused: boolean): boolean;
  /** Lets crossings pass until `until` (undefined: snoozed no more); false when there is no such alert. */
  snooze(source: string, id: number, until: number | undefined): boolean;
  /**
   * Gives an alert a new condition, set afresh as if added now at `price` (armed unless it holds
   * already or that cannot be told, not done); its id and its firings stay. Undefined when there
   * is no such alert.
   */
  replace(source: string, id: number, condition: AlertCondition, options: { price: number | undefined; at: number; oneShot: boolean }): SetAlert | undefined;
  /**
   * Steps every alert of the symbols read, in one transaction, and returns those that fired
   * (recorded before this returns). `reference(alert)` gives a move alert's reference.
   */
  evaluate(source: string, readings: ReadonlyMap<string, Omit<Reading, 'reference'>>, reference: (alert: StoredAlert) => number | undefined): Firing[];
  firings(source: string, limit?: number): LoggedFiring[];
}

/**
 * The reference a move alert measures from: the price when it was set, or the day's open or the
 * last close as recorded (`recorded`); undefined for any other alert. One rule for the watch and
 * for the check when an alert is set, so that the two never measure a move differently.
 */
function moveReference(condition: AlertCondition, setPrice: number | undefined, recorded: (from: 'open' | 'close') => number | undefined): number | undefined {
  if (condition.kind !== 'move') return undefined;
  return condition.from === 'set' ? setPrice : recorded(condition.from);
}

/**
 * What each poll says to the alerts of the symbols it asked for: a price, or none (a symbol left
 * out, a poll that failed), counted in polls for the stale alerts. Returns what fired.
 */
export class AlertWatch {
  readonly #without = new Map<string, number>();
  #days: { start: number; references: Map<string, { open: number | undefined; close: number | undefined }> } | undefined;
  constructor(
    readonly alerts: AlertsStore,
    readonly history: HistoryStore,
    readonly source: string,
  ) {}

  /** The symbols of the alerts that can fire (neither paused nor done), to be asked for. */
  symbols(): string[] {
    return this.alerts.symbols(this.source);
  }

  /** A poll's answer: `asked` its symbols, `prices` what came. */
  polled(asked: readonly string[], prices: ReadonlyMap<string, number>, now: number): Firing[] {
    const watched = new Set(this.symbols());
    return this.#step(asked.filter((s) => watched.has(s)).map((symbol) => [symbol, prices.get(symbol)]), now);
  }

  /** A poll that failed: no price for any symbol watched. */
  failed(now: number): Firing[] {
    return this.#step(this.symbols().map((symbol) => [symbol, undefined]), now);
  }

  #step(read: readonly (readonly [string, number | undefined])[], now: number): Firing[] {
    const readings = new Map<string, Omit<Reading, 'reference'>>();
    for (const [symbol, price] of read) {
      const pollsWithout = price === undefined ? (this.#without.get(symbol) ?? 0) + 1 : 0;
      this.#without.set(symbol, pollsWithout);
      readings.set(symbol, { price, pollsWithout, now });
    }
    // The day's opens and the last closes, read in two queries for all symbols and kept for the
    // day: an open, once recorded, is the day's, and the closes before it are done. Read again
    // (once a poll at most) only when an alert asks for one not yet known.
    const dayStart = barStart('day', now);
    let readThisPoll = false;
    const days = (): Map<string, { open: number | undefined; close: number | undefined }> => {
      if (this.#days?.start !== dayStart) {
        this.#days = { start: dayStart, references: this.history.dayReferences(this.source, dayStart) };
        readThisPoll = true;
      }
      return this.#days.references;
    };
    return this.alerts.evaluate(this.source, readings, (alert) =>
      moveReference(alert.condition, alert.setPrice, (from) => {
        const known = days().get(alert.symbol)?.[from];
        if (known !== undefined || readThisPoll) return known;
        readThisPoll = true;
        this.#days = { start: dayStart, references: this.history.dayReferences(this.source, dayStart) };
        return this.#days.references.get(alert.symbol)?.[from];
      }),
    );
  }
}

/**
 * One per connection: each caches what it read under the file's data_version, which another
 * connection's writes change but this one's own do not; two on one connection would each miss
 * the other's writes.
 */
const madeAlertsStore = new WeakMap<HistoryStore, AlertsStore>();

export function alertsOf(store: HistoryStore): AlertsStore {
  let made = madeAlertsStore.get(store);
  if (!made) madeAlertsStore.set(store, (made = buildAlertsStore(store)));
  return made;
}

function buildAlertsStore(store: HistoryStore): AlertsStore {
  const { db } = store;
  const columns = 'id, symbol, condition, set_price, set_at, one_shot, paused, snoozed_until, armed, band, done';
  const insert = db.prepare<[number, string, string, number | null, number, number, number, number], AlertRow>(
    `INSERT INTO alerts (source, symbol, condition, set_price, set_at, one_shot, armed, band) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${columns}`,
  );
  const all = db.prepare<[number], AlertRow>(`SELECT ${columns} FROM alerts WHERE source = ? ORDER BY id`);
  const deleteAlert = db.prepare<[number, number]>('DELETE FROM alerts WHERE source = ? AND id = ?');
  const markRemoved = db.prepare<[number]>('UPDATE alert_firings SET removed = 1 WHERE alert = ?');
  const remove = db.transaction((source: number, id: number): boolean => {
    if (deleteAlert.run(source, id).changes === 0) return false;
    markRemoved.run(id);
    return true;
  });
  const setPaused = db.prepare<[number, number, number]>('UPDATE alerts SET paused = ? WHERE source = ? AND id = ?');
  const setSnoozed = db.prepare<[number | null, number, number]>('UPDATE alerts SET snoozed_until = ? WHERE source = ? AND id = ?');
  const setCondition = db.prepare<[string, number | null, number, number, number, number, number, number], AlertRow>(
    `UPDATE alerts SET condition = ?, set_price = ?, set_at = ?, one_shot = ?, armed = ?, band = ?, done = 0, snoozed_until = NULL WHERE source = ? AND id = ? RETURNING ${columns}`,
  );
  const symbolOf = db.prepare<[number, number], string>('SELECT symbol FROM alerts WHERE source = ? AND id = ?').pluck();
  const saveState = db.prepare<[number, number, number | null, number, number]>('UPDATE alerts SET armed = ?, band = ?, snoozed_until = ?, done = ? WHERE id = ?');
  const addFiring = db.prepare<[number, number, string, string, number, number | null, string]>(
    'INSERT INTO alert_firings (alert, source, symbol, condition, at, price, text) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const trimFirings = db.prepare<[number]>('DELETE FROM alert_firings WHERE id <= (SELECT max(id) FROM alert_firings) - ?');
  // Up to twenty more than kept may be in the table between cuts: the log shows the last 100.
  // Read from the firing's own row: its alert may have been removed or changed since.
  const recent = db.prepare<[number, number], { alert: number; symbol: string; condition: string | null; removed: number; at: number; price: number | null; text: string }>(
    'SELECT alert, symbol, condition, removed, at, price, text FROM alert_firings WHERE source = ? ORDER BY id DESC LIMIT ?',
  );

  /**
   * The alerts as this connection last read or wrote them, and the file's data_version then:
   * reading a thousand rows each tick cost ~3 ms, and another process's commit changes the
   * version, so under the write lock the cache is known to be what is stored, or read again.
   */
  let cache: { source: number; version: number; alerts: StoredAlert[] } | undefined;
  const versionNow = db.prepare<[], number>('PRAGMA data_version').pluck();
  const dataVersion = () => versionNow.get()!;
  const current = (source: number): StoredAlert[] => {
    const version = dataVersion();
    if (cache?.source !== source || cache.version !== version) cache = { source, version, alerts: all.all(source).map(fromRow) };
    return cache.alerts;
  };

  /**
   * The alerts stepped under the write lock: their states as stored now, not as this process last
   * saw them, so a crossing another process announced is not announced again.
   */
  const stepAll = db.transaction(
    (source: number, readings: ReadonlyMap<string, Omit<Reading, 'reference'>>, reference: (alert: StoredAlert) => number | undefined): Firing[] => {
      const fired: Firing[] = [];
      let lastFiring = 0;
      const alerts = current(source);
      // A reading a symbol for the alerts that need no reference; a move alert gets its own.
      const plain = new Map<string, Reading>();
      for (let i = 0; i < alerts.length; i++) {
        const alert = alerts[i]!;
        const read = readings.get(alert.symbol);
        if (read === undefined || alert.paused || alert.done) continue;
        let reading: Reading;
        if (alert.condition.kind === 'move') reading = { ...read, reference: reference(alert) };
        else {
          reading = plain.get(alert.symbol) ?? { ...read, reference: undefined };
          plain.set(alert.symbol, reading);
        }
        const { state, fired: didFire } = step(alert.condition, alert, reading);
        if (state !== alert) {
          saveState.run(state.armed ? 1 : 0, state.band ? 1 : 0, state.snoozedUntil ?? null, state.done ? 1 : 0, alert.id);
          alerts[i] = { ...alert, ...state };
        }
        if (!didFire) continue;
        const text = describeFiring(alert.symbol, alert.condition, reading, formatPrice);
        lastFiring = Number(addFiring.run(alert.id, source, alert.symbol, JSON.stringify(alert.condition), reading.now, reading.price ?? null, text).lastInsertRowid);
        fired.push({ alert: alert.id, symbol: alert.symbol, condition: alert.condition, at: reading.now, price: reading.price, text });
      }
      // The log is cut back to its last hundred every twenty firings, not after each.
      if (fired.length > 0 && Math.floor(lastFiring / 20) !== Math.floor((lastFiring - fired.length) / 20)) trimFirings.run(FIRINGS_KEPT);
      return fired;
    },
  );

  /**
   * A new alert's arming, as stored: armed when its condition is known not to hold (then armed by
   * the line, no band), checked against the price and, for a move, the reference the watch would
   * measure from now (the open or the close recorded here, read as AlertWatch reads them).
   */
  const startState = (source: string, symbol: string, condition: AlertCondition, price: number | undefined, at: number, oneShot: boolean) => {
    const reference = moveReference(condition, price, (from) => store.dayReferences(source, barStart('day', at)).get(symbol)?.[from]);
    const reading = { price, pollsWithout: 0, reference, now: at };
    const { armed, band } = initialState(condition, reading, oneShot);
    return { armed: armed ? 1 : 0, band: band ? 1 : 0, held: holds(condition, reading) };
  };

  return {
    add(source, symbol, condition, { price, at, oneShot }) {
      cache = undefined;
      const sourceId = store.sourceId(source, true)!;
      const { armed, band, held } = startState(source, symbol, condition, price, at, oneShot);
      return { ...fromRow(insert.get(sourceId, symbol, JSON.stringify(condition), price ?? null, at, oneShot ? 1 : 0, armed, band)!), held };
    },
    list(source) {
      const sourceId = store.sourceId(source, false);
      // Read afresh only when this file changed since (a detail view asks on every tick).
      return sourceId === undefined ? [] : [...current(sourceId)];
    },
    symbols(source) {
      return [...new Set(this.list(source).filter((alert) => !alert.paused && !alert.done).map((alert) => alert.symbol))];
    },
    remove(source, id) {
      cache = undefined;
      const sourceId = store.sourceId(source, false);
      return sourceId !== undefined && remove(sourceId, id);
    },
    pause(source, id, paused) {
      cache = undefined;
      const sourceId = store.sourceId(source, false);
      return sourceId !== undefined && setPaused.run(paused ? 1 : 0, sourceId, id).changes > 0;
    },
    snooze(source, id, until) {
      cache = undefined;
      const sourceId = store.sourceId(source, false);
      return sourceId !== undefined && setSnoozed.run(until ?? null, sourceId, id).changes > 0;
    },
    replace(source, id, condition, { price, at, oneShot }) {
      cache = undefined;
      const sourceId = store.sourceId(source, false);
      if (sourceId === undefined) return undefined;
      const symbol = symbolOf.get(sourceId, id);
      if (symbol === undefined) return undefined;
      const { armed, band, held } = startState(source, symbol, condition, price, at, oneShot);
      const row = setCondition.get(JSON.stringify(condition), price ?? null, at, oneShot ? 1 : 0, armed, band, sourceId, id);
      return row === undefined ? undefined : { ...fromRow(row), held };
    },
    evaluate(source, readings, reference) {
      const sourceId = store.sourceId(source, false);
      return sourceId === undefined || readings.size === 0 ? [] : stepAll.immediate(sourceId, readings, reference);
    },
    firings(source, limit = FIRINGS_KEPT) {
      const sourceId = store.sourceId(source, false);
      return sourceId === undefined
        ? []
        : recent.all(sourceId, limit).map((row) => ({
            ...row,
            price: row.price ?? undefined,
            condition: row.condition === null ? undefined : conditionOf(row.condition),
            removed: row.removed === 1,
          }));
    },
  };
}
