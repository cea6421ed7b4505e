// Another process holding a SQLite file locked, as a second dashboard or a `sqlite3` shell would:
// node --import tsx hold-lock-child.ts PATH [whole]
// BEGIN EXCLUSIVE (in WAL mode: others may read, not write), or with `whole` in exclusive locking
// mode (others may not even read); prints "held", and lets go when its stdin ends.
import Database from 'better-sqlite3';

const [path, how] = process.argv.slice(2);
const db = new Database(path!, { fileMustExist: true });
if (how === 'whole') db.pragma('locking_mode = EXCLUSIVE');
db.exec('BEGIN EXCLUSIVE');
process.stdout.write('held\n');
process.stdin.resume();
process.stdin.on('end', () => {
  db.exec('ROLLBACK');
  db.close();
  process.exit(0);
});
