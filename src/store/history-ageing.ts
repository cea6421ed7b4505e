// What of the price history ages out, and when: raw ticks are kept for a day, minute bars for 30
// days, day bars for two years. The bars are kept up to date as each tick is recorded, so ageing
// out is only deleting, a little at a time: one slice a step, each in its own transaction.
import type Database from 'better-sqlite3';
import { DAY_MS } from '../market/bars.js';

/** How long each kind of record is kept. */
export const RETENTION_MS = { ticks: DAY_MS, minute: 30 * DAY_MS, day: 730 * DAY_MS } as const;

/** The tables whose records age out, oldest kind first, with how long each is kept. */
const AGEING = [
  ['ticks', RETENTION_MS.ticks],
  ['minute_bars', RETENTION_MS.minute],
  ['day_bars', RETENTION_MS.day],
] as const;

/** At most this much of one symbol's records is deleted in one compaction step. */
const SLICE_MS = { ticks: 3_600_000, minute_bars: 3 * DAY_MS, day_bars: 3650 * DAY_MS } as const;

type AgeingTable = (typeof AGEING)[number][0];

/** Each ageing table's statement for the time of a series' first record there. */
export type OldestStatements = Record<AgeingTable, Database.Statement<[number], { t: number | null }>>;

/** The time of each ageing table's first record of a series: what compaction and a chart's resolution both go by. */
export const oldestOf = (db: Database.Database): OldestStatements =>
  Object.fromEntries(
    AGEING.map(([table]) => [table, db.prepare<[number], { t: number | null }>(`SELECT min(t) AS t FROM ${table} WHERE series = ?`)]),
  ) as OldestStatements;

/**
 * Compaction of `db`, a step a call: deletes one slice of what has aged out by `now` (about an
 * hour of one symbol's ticks at most), in its own transaction; true while more is left.
 */
export function compactor(db: Database.Database, oldest: OldestStatements): (now: number) => boolean {
  const allSeries = db.prepare<[], { id: number }>('SELECT id FROM series ORDER BY id');
  const deleteBefore = Object.fromEntries(
    AGEING.map(([table]) => [table, db.prepare<[number, number]>(`DELETE FROM ${table} WHERE series = ? AND t < ?`)]),
  ) as Record<AgeingTable, Database.Statement<[number, number]>>;

  /** The next table and symbol with records older than kept, from where the last step left off. */
  let compactFrom = 0;
  const compactTx = db.transaction((now: number): boolean => {
    const ids = allSeries.all().map((row) => row.id);
    for (let i = 0; i < ids.length; i++) {
      const id = ids[(compactFrom + i) % ids.length]!;
      for (const [table, keep] of AGEING) {
        const cutoff = now - keep;
        const first = oldest[table].get(id)?.t;
        if (first === null || first === undefined || first >= cutoff) continue;
        deleteBefore[table].run(id, Math.min(cutoff, first + SLICE_MS[table]));
        compactFrom = (compactFrom + i) % ids.length;
        return true;
      }
    }
    return false;
  });
  // Immediate, as a poll's recording is: a transaction that reads first and then writes would fail
  // at once (SQLITE_BUSY) when another process wrote meanwhile.
  return (now) => compactTx.immediate(now);
}
