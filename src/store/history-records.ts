// Prices into an open price history and back out: every price the dashboard or `quote --watch`
// receives, keyed by the market-data server and symbol, so that two servers' prices never mix,
// with its minute and day bars kept up to date as it is recorded; read back as ticks, bars, a
// chart's points or a move alert's references. Whoever opens the file (history-store.ts to record,
// history-use.ts for the commands) builds the statements here on its connection.
import type Database from 'better-sqlite3';
import type { Quote } from '../api/types.js';
import { type Bar, barStart, type BarSize, MINUTE_MS, type Tick, tradedSince, withTick } from '../market/bars.js';
import { compactor, oldestOf, RETENTION_MS } from './history-ageing.js';

/** A point of a chart: when, and the price then (a bar's close at its last tick). */
export interface PricePoint {
  t: number;
  price: number;
}

export interface HistoryStore {
  readonly path: string;
  /** The connection, for the alerts kept in the same file (alerts-store.ts). */
  readonly db: Database.Database;
  /** The id of a server's name, made when `create`. */
  sourceId(source: string, create: boolean): number | undefined;
  /** Records one poll's prices, all or none (one transaction): a crash loses at most this poll. */
  record(source: string, quotes: readonly Quote[], at: number): void;
  ticks(source: string, symbol: string, from: number, to: number): Tick[];
  bars(source: string, symbol: string, size: BarSize, from: number, to: number): Bar[];
  /**
   * Prices over [from, to] for a chart, from the finest records that cover `from` (as kept at
   * `now`, which is `to` unless given), at most about `maxPoints` of them (buckets of minute bars
   * give their last close).
   */
  points(source: string, symbol: string, from: number, to: number, maxPoints: number, now?: number): PricePoint[];
  /**
   * Copies what the write-ahead log holds into the file, as far as readers allow (PASSIVE), so
   * that the log stops growing; the recorder calls it every so often, between polls.
   */
  checkpoint(): void;
  /**
   * How long statements wait for another process's lock before failing (SQLITE_BUSY): the
   * recorder waits not at all while the file is known to be held, so that trying it costs nothing.
   */
  waitForLocks(ms: number): void;
  /**
   * For every symbol of `source`: the open of its day bar starting at `dayStart`, and the close
   * of its last day bar before it (the references of move alerts), read in two queries.
   */
  dayReferences(source: string, dayStart: number): Map<string, { open: number | undefined; close: number | undefined }>;
  /** The earliest time anything of the symbol is kept. */
  earliest(source: string, symbol: string): number | undefined;
  /**
   * Deletes one slice of what has aged out (about an hour of one symbol's ticks at most), in its
   * own transaction; true while more is left. Callers yield between calls.
   */
  compactStep(now: number): boolean;
  close(): void;
}

const BAR_COLUMNS = 't, open, high, low, close, volume, first_t AS firstT, last_t AS lastT';

/** The store of statements on `db`, the file at `path`, whoever opened it and however. */
export function buildStore(db: Database.Database, path: string): HistoryStore {
  const findSource = db.prepare<[string], { id: number }>('SELECT id FROM sources WHERE key = ?');
  const addSource = db.prepare<[string], { id: number }>('INSERT INTO sources (key) VALUES (?) RETURNING id');
  const findSeries = db.prepare<[number, string], { id: number }>('SELECT id FROM series WHERE source = ? AND symbol = ?');
  const addSeries = db.prepare<[number, string], { id: number }>('INSERT INTO series (source, symbol) VALUES (?, ?) RETURNING id');
  const lastOf = db.prepare<[number], { t: number | null; volume: number | null }>('SELECT last_t AS t, last_volume AS volume FROM series WHERE id = ?');
  const setLast = db.prepare<[number, number, number]>('UPDATE series SET last_t = ?, last_volume = ? WHERE id = ?');
  const insertTick = db.prepare<[number, number, number, number]>('INSERT INTO ticks (series, t, price, volume) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING');
  const barStatements = (table: string) => ({
    get: db.prepare<[number, number], Bar>(`SELECT ${BAR_COLUMNS} FROM ${table} WHERE series = ? AND t = ?`),
    put: db.prepare(
      `INSERT OR REPLACE INTO ${table} (series, t, open, high, low, close, volume, first_t, last_t)
       VALUES (@series, @t, @open, @high, @low, @close, @volume, @firstT, @lastT)`,
    ),
    range: db.prepare<[number, number, number], Bar>(`SELECT ${BAR_COLUMNS} FROM ${table} WHERE series = ? AND t >= ? AND t <= ? ORDER BY t`),
  });
  const bars = { minute: barStatements('minute_bars'), day: barStatements('day_bars') };
  const tickRange = db.prepare<[number, number, number], Tick>('SELECT t, price, volume FROM ticks WHERE series = ? AND t >= ? AND t <= ? ORDER BY t');
  // The bare column `price` beside max(last_t) is the close of the bar that is last in the bucket.
  const minuteBuckets = db.prepare<[number, number, number, number], PricePoint>(
    `SELECT max(last_t) AS t, close AS price FROM minute_bars
     WHERE series = ? AND t >= ? AND t <= ? GROUP BY t / CAST(? AS INTEGER) ORDER BY 1`,
  );
  const tickBuckets = db.prepare<[number, number, number, number], PricePoint>(
    `SELECT max(t) AS t, price FROM ticks WHERE series = ? AND t >= ? AND t <= ? GROUP BY t / CAST(? AS INTEGER) ORDER BY 1`,
  );
  const earliestOf = db.prepare<[number, number, number], { t: number | null }>(
    `SELECT min(t) AS t FROM (SELECT min(first_t) AS t FROM day_bars WHERE series = ?
       UNION ALL SELECT min(first_t) FROM minute_bars WHERE series = ?
       UNION ALL SELECT min(t) FROM ticks WHERE series = ?)`,
  );
  const opensOn = db.prepare<[number, number], { symbol: string; open: number }>(
    'SELECT s.symbol, d.open FROM series s JOIN day_bars d ON d.series = s.id WHERE s.source = ? AND d.t = ?',
  );
  // The bare column `close` beside max(d.t) is that of the latest day bar before the day.
  const closesBefore = db.prepare<[number, number], { symbol: string; close: number }>(
    'SELECT s.symbol, d.close, max(d.t) FROM series s JOIN day_bars d ON d.series = s.id WHERE s.source = ? AND d.t < ? GROUP BY s.id',
  );
  const oldest = oldestOf(db);

  /**
   * Series ids never change: each is found once. Only ids of series that are committed are kept
   * (see record): an id handed out by a poll that rolled back is given again to the next series.
   */
  const known = new Map<string, number>();
  const key = (source: string, symbol: string) => `${symbol}\u0000${source}`;

  /** A series' id, made when `create`; undefined when it is not there and not to be made. */
  function seriesOf(source: string, symbol: string, create: false): number | undefined;
  function seriesOf(source: string, symbol: string, create: true): number;
  function seriesOf(source: string, symbol: string, create: boolean): number | undefined {
    const id = known.get(key(source, symbol));
    if (id !== undefined) return id;
    const sourceId = sourceIdOf(source, create);
    if (sourceId === undefined) return undefined;
    const found = findSeries.get(sourceId, symbol)?.id ?? (create ? addSeries.get(sourceId, symbol)!.id : undefined);
    if (found !== undefined) known.set(key(source, symbol), found);
    return found;
  }

  /**
   * Servers' ids, found once (the alerts and the lots ask for theirs several times a poll). Only
   * an id read outside a transaction is kept: one read inside may be of a row the transaction
   * made and is yet to roll back.
   */
  const knownSources = new Map<string, number>();

  /** A server's id, made when `create`. */
  function sourceIdOf(source: string, create: boolean): number | undefined {
    const kept = knownSources.get(source);
    if (kept !== undefined) return kept;
    const found = findSource.get(source)?.id;
    if (found !== undefined && !db.inTransaction) knownSources.set(source, found);
    return found ?? (create ? addSource.get(source)!.id : undefined);
  }

  /** The reading recorded last (by any process: another may have recorded since). */
  const lastReading = (id: number): Pick<Tick, 't' | 'volume'> | undefined => {
    const row = lastOf.get(id);
    return row?.t === null || row?.t === undefined || row.volume === null ? undefined : { t: row.t, volume: row.volume };
  };

  /**
   * Each series' current bars and last reading as this connection last wrote them. They hold while
   * no other connection has written (PRAGMA data_version unchanged, read under the write lock): a
   * poll then writes each symbol without first reading what it wrote the poll before, four
   * statements a symbol instead of seven.
   */
  const written = new Map<number, { minute?: Bar; day?: Bar; last?: Pick<Tick, 't' | 'volume'> | null }>();
  let writtenVersion: number | undefined;
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();

  const recordTx = db.transaction((source: string, quotes: readonly Quote[], at: number) => {
    const version = dataVersion.get()!;
    if (version !== writtenVersion) {
      written.clear();
      writtenVersion = version;
    }
    for (const quote of quotes) {
      const id = seriesOf(source, quote.symbol, true);
      // The same instant recorded already (two dashboards at once): it counts once.
      if (insertTick.run(id, at, quote.price, quote.volume).changes === 0) continue;
      const tick = { t: at, price: quote.price, volume: quote.volume };
      let own = written.get(id);
      if (!own) written.set(id, (own = {}));
      const last = own.last === undefined ? lastReading(id) : (own.last ?? undefined);
      for (const size of ['minute', 'day'] as const) {
        const start = barStart(size, at);
        const before = own[size]?.t === start ? own[size] : bars[size].get.get(id, start);
        const bar = withTick(before, start, tick, tradedSince(size, last, tick));
        bars[size].put.run({ series: id, ...bar });
        own[size] = bar;
      }
      // A reading older than the last (a clock set back) leaves the last one standing.
      if (last === undefined || at >= last.t) {
        setLast.run(at, quote.volume, id);
        own.last = { t: at, volume: quote.volume };
      } else own.last = last;
    }
  });

  const compactStep = compactor(db, oldest);

  return {
    path,
    db,
    sourceId: sourceIdOf,
    record(source, quotes, at) {
      if (quotes.length === 0) return;
      try {
        // Immediate: a transaction that reads first and then writes would fail at once
        // (SQLITE_BUSY) when another process wrote meanwhile, where taking the write lock first
        // waits its turn.
        recordTx.immediate(source, quotes, at);
      } catch (error) {
        // Ids made in the poll that rolled back were never kept, nor the bars it wrote.
        known.clear();
        written.clear();
        writtenVersion = undefined;
        throw error;
      }
    },
    ticks(source, symbol, from, to) {
      const id = seriesOf(source, symbol, false);
      return id === undefined ? [] : tickRange.all(id, from, to);
    },
    bars(source, symbol, size, from, to) {
      const id = seriesOf(source, symbol, false);
      return id === undefined ? [] : bars[size].range.all(id, barStart(size, from), to);
    },
    // Which records cover the span is judged from its end, not by reading the clock again: a
    // millisecond between the caller's clock and this one put a month's start past the minute bars.
    points(source, symbol, from, to, maxPoints, now = to) {
      const id = seriesOf(source, symbol, false);
      if (id === undefined) return [];
      // What is recorded may begin well inside the span (recording began an hour ago): the
      // resolution follows the prices there are, not the span's width.
      const firstTick = oldest.ticks.get(id)?.t ?? undefined;
      const firstMinute = oldest.minute_bars.get(id)?.t ?? undefined;
      const bucketOf = (start: number, least: number) => Math.max(least, Math.ceil((to - start) / Math.max(1, maxPoints) / least) * least);
      // Ticks while they cover the start and span at most three hours of prices; more of them
      // than points asked for are bucketed like the minute bars.
      if (from >= now - RETENTION_MS.ticks && firstTick !== undefined && to - Math.max(from, firstTick) <= 3 * 3_600_000) {
        const start = Math.max(from, firstTick);
        const bucket = bucketOf(start, 1000);
        return bucket <= 1000 ? tickRange.all(id, start, to).map(({ t, price }) => ({ t, price })) : tickBuckets.all(id, start, to, bucket);
      }
      // Minute bars, in buckets that give about maxPoints over the prices there are, for a month.
      if (from >= now - RETENTION_MS.minute && firstMinute !== undefined) {
        const start = Math.max(barStart('minute', from), firstMinute);
        return minuteBuckets.all(id, start, to, bucketOf(start, MINUTE_MS));
      }
      return bars.day.range.all(id, barStart('day', from), to).map(({ lastT, close }) => ({ t: lastT, price: close }));
    },
    dayReferences(source, dayStart) {
      const references = new Map<string, { open: number | undefined; close: number | undefined }>();
      const sourceId = sourceIdOf(source, false);
      if (sourceId === undefined) return references;
      for (const { symbol, open } of opensOn.all(sourceId, dayStart)) references.set(symbol, { open, close: undefined });
      for (const { symbol, close } of closesBefore.all(sourceId, dayStart)) references.set(symbol, { open: references.get(symbol)?.open, close });
      return references;
    },
    earliest(source, symbol) {
      const id = seriesOf(source, symbol, false);
      return id === undefined ? undefined : (earliestOf.get(id, id, id)?.t ?? undefined);
    },
    compactStep,
    checkpoint: () => void db.pragma('wal_checkpoint(PASSIVE)'),
    waitForLocks: (ms) => void db.pragma(`busy_timeout = ${ms}`),
    close: () => db.close(),
  };
}
