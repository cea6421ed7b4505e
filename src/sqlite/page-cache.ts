// SQLite's page cache, held at SQLite's own default of 2 MB for each connection that lives as long
// as its process: the sandbox's, writable or read-only, and the price history's.
// better-sqlite3 builds SQLite with 16 MB (SQLITE_DEFAULT_CACHE_SIZE=-16000), and a connection's
// cache keeps every page it reads or writes until it is full, in malloc'd memory that counts as
// RSS: the sandbox's server was 15 MB higher after 60,000 creates and no faster (bench:server);
// the dashboard's recording of prices grew glibc's heap about 7 MB an hour in the soak as the
// history file grew. The file's pages stay in the OS's cache either way.
import type Database from 'better-sqlite3';

/** KiB of pages a connection keeps. */
export const PAGE_CACHE_KIB = 2000;

/** Holds `db`'s page cache to PAGE_CACHE_KIB. */
export function holdPageCache(db: Database.Database): void {
  db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
}
