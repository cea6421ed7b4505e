// What of a damaged price history is the user's own and can still be read (the alerts and their
// log, the lots), copied into the new file started in its place: prices come again with the next
// polls, but what the user set up would otherwise be lost with the file moved aside.
import Database from 'better-sqlite3';
import { upgradeSchema } from '../sqlite/schema.js';
import { BUSY_TIMEOUT_MS } from './history-failure.js';
import { alertNumbersAbove, LAST_LOT_NUMBERS, MIGRATIONS, SCHEMA_VERSION } from './history-schema.js';

/** The user's own tables, copied from a damaged file, each with its name in the warning. */
const OWN_TABLES = [
  ['alerts', 'alerts'],
  ["alerts' log", 'alert_firings'],
  ['lots', 'lots'],
] as const;

/**
 * Copies the servers and the user's own tables (OWN_TABLES; with `series`, the symbols recorded)
 * from `from` into `to`, each with the columns `to` has, each table whole or not at all (its name
 * put in `lost`): a row a damaged page garbled (a NULL where none may be) loses its table, not
 * the rest. A log is copied only with its alerts. Returns how many alerts and lots were copied.
 */
function copyOwn(from: Database.Database, to: Database.Database, lost: string[], series = false): { alerts: number; lots: number } {
  // Whole tables, read in the order they are stored (no index is used: one may be the damage).
  const read = (table: string): Record<string, unknown>[] | undefined => {
    const columns = to.pragma(`table_info(${table})`) as { name: string }[];
    try {
      return from.prepare<[], Record<string, unknown>>(`SELECT ${columns.map((c) => c.name).join(', ')} FROM ${table}`).all();
    } catch {
      return undefined;
    }
  };
  const insert = (table: string, rows: readonly Record<string, unknown>[]) => {
    const columns = Object.keys(rows[0] ?? {});
    if (columns.length === 0) return;
    const put = to.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`);
    for (const row of rows) put.run(row);
  };
  const count: Record<string, number> = {};
  const sources = read('sources');
  // Not even its servers could be read: nothing of it is kept (nor said kept).
  if (!sources) throw new Error('no servers');
  return to.transaction(() => {
    insert('sources', sources);
    if (series) {
      const symbols = read('series');
      if (symbols) to.transaction(() => insert('series', symbols))();
    }
    for (const [name, table] of OWN_TABLES) {
      if (table === 'alert_firings' && !(count.alerts! > 0)) continue;
      const rows = read(table);
      try {
        if (!rows) throw new Error('not read');
        to.transaction(() => insert(table, rows))();
        count[table] = rows.length;
      } catch {
        lost.push(name);
      }
    }
    return { alerts: count.alerts ?? 0, lots: count.lots ?? 0 };
  })();
}

/** What was kept from the damaged file `aside` in the new file's `db`, in words for the warning. */
export function keepFrom(aside: string, db: Database.Database): string {
  let old: Database.Database | undefined;
  let staged: Database.Database | undefined;
  let kept: { alerts: number; lots: number };
  const lost: string[] = [];
  try {
    // Read-write (nothing is written), so that closing it takes away the -wal and -shm its opening
    // made, as doctor's does; read-only where it may not be written.
    try {
      old = new Database(aside, { fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
    } catch {
      old = new Database(aside, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
    }
    let from = old;
    const version = old.pragma('user_version', { simple: true }) as number;
    if (version < SCHEMA_VERSION) {
      // An older file (found damaged as it was being upgraded): its rows as its version has them,
      // brought to this version by the migrations themselves, in memory, and copied from there.
      staged = new Database(':memory:');
      for (const migration of MIGRATIONS.slice(0, version)) staged.exec(migration);
      staged.pragma(`user_version = ${version}`);
      copyOwn(old, staged, lost, true);
      upgradeSchema(staged, MIGRATIONS, (reason) => new Error(reason));
      from = staged;
    }
    kept = copyOwn(from, db, lost);
    // Numbers used stay used: above the copied alerts' and log's, and any removed above both.
    let used = 0;
    try {
      used = from.prepare<[], number>("SELECT seq FROM sqlite_sequence WHERE name = 'alerts'").pluck().get() ?? 0;
    } catch {
      // Not known (the table could not be read): the alerts' and the log's numbers are.
    }
    db.exec(alertNumbersAbove(`max(${Number(used)}, (SELECT coalesce(max(alert), 0) FROM alert_firings))`));
    // The lot numbers given before, so that none is given again; garbled or absent (a file of
    // before lots were numbered, staged above), the kept lots' own numbers stand.
    try {
      const given = from.prepare<[], Record<string, unknown>>('SELECT source, symbol, last FROM lot_numbers').all();
      const put = db.prepare('INSERT INTO lot_numbers (source, symbol, last) VALUES (@source, @symbol, @last)');
      db.transaction(() => {
        for (const row of given) put.run(row);
      })();
    } catch {
      // Not known: the kept lots' numbers are (below).
    }
    db.exec(LAST_LOT_NUMBERS);
  } catch {
    // Not even its servers could be read (or written anew): nothing of it is kept.
    lost.splice(0, lost.length, 'alerts', 'lots');
    kept = { alerts: 0, lots: 0 };
  } finally {
    staged?.close();
    old?.close();
  }
  const counted = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const keptWords = [kept.alerts > 0 && counted(kept.alerts, 'alert'), kept.lots > 0 && counted(kept.lots, 'lot')].filter(Boolean).join(' and ');
  const lostWords = [...new Set(lost)].join(' and ');
  return (keptWords ? `, with its ${keptWords}` : '') + (lostWords ? `; its ${lostWords}, if any, could not be read (they stay in the file moved aside)` : '');
}
