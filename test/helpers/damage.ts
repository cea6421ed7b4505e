// A history file damaged for real: the root page of one table or index (as sqlite_master names it;
// for a WITHOUT ROWID table, its primary key's b-tree) overwritten with bytes no page holds, the
// rest of the file and its header intact, so that SQLite opens it and finds the damage only at the
// first statement that reads that page.
import Database from 'better-sqlite3';
import { closeSync, openSync, writeSync } from 'node:fs';

export function damagePage(path: string, name: string): void {
  const db = new Database(path, { fileMustExist: true });
  // What the write-ahead log holds is put into the file first: a page there would hide the damage.
  db.pragma('wal_checkpoint(TRUNCATE)');
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const root = db.prepare<[string], number>('SELECT rootpage FROM sqlite_master WHERE name = ?').pluck().get(name);
  db.close();
  if (!root) throw new Error(`no table or index ${name} in ${path}`);
  const fd = openSync(path, 'r+');
  try {
    writeSync(fd, Buffer.alloc(pageSize, 0xab), 0, pageSize, (root - 1) * pageSize);
  } finally {
    closeSync(fd);
  }
}
