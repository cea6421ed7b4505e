// A history file damaged for real: one page of a table or index (as sqlite_master names it; for a
// WITHOUT ROWID table, its primary key's b-tree) overwritten with bytes no page holds, the rest of
// the file and its header intact, so that SQLite opens it and finds the damage only at the first
// statement that reads that page.
import Database from 'better-sqlite3';
import { closeSync, openSync, writeSync } from 'node:fs';

/** Damages the root page of `name`: every statement that uses it finds the damage. */
export function damagePage(path: string, name: string): void {
  damage(path, (db) => db.prepare<[string], number>('SELECT rootpage FROM sqlite_master WHERE name = ?').pluck().get(name), name);
}

/**
 * Damages the last leaf page of `name` (by key order), which must span several: a statement that
 * reads or writes only its first keys never meets the damage, one that scans them all does.
 */
export function damageLastLeaf(path: string, name: string): void {
  damage(path, (db) => db.prepare<[string], number>("SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY path DESC LIMIT 1").pluck().get(name), name);
}

function damage(path: string, pageOf: (db: Database.Database) => number | undefined, name: string): void {
  const db = new Database(path, { fileMustExist: true });
  // What the write-ahead log holds is put into the file first: a page there would hide the damage.
  db.pragma('wal_checkpoint(TRUNCATE)');
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const page = pageOf(db);
  db.close();
  if (!page) throw new Error(`no table or index ${name} (or no leaf of it) in ${path}`);
  const fd = openSync(path, 'r+');
  try {
    writeSync(fd, Buffer.alloc(pageSize, 0xab), 0, pageSize, (page - 1) * pageSize);
  } finally {
    closeSync(fd);
  }
}
