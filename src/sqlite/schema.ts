// A SQLite file's schema brought up to date: the one way tickbook's databases (the sandbox's and
// the price history) read their PRAGMA user_version and migrate. The caller holds the write lock
// (BEGIN IMMEDIATE), so that two processes opening a file at once migrate it once.
import type Database from 'better-sqlite3';

/** "its schema version 7 is newer than this tickbook understands (2)". */
export const newerSchema = (found: number, known: number): string =>
  `its schema version ${found} is newer than this tickbook understands (${known})`;

/**
 * Runs the migrations from the file's version to the last (migrations[v] moves v to v + 1) and
 * returns the version found (0: a new file). A newer file is left as it is: `newer` makes the
 * error thrown.
 */
export function upgradeSchema(db: Database.Database, migrations: readonly string[], newer: (reason: string) => Error): number {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > migrations.length) throw newer(newerSchema(version, migrations.length));
  for (let v = version; v < migrations.length; v++) db.exec(migrations[v]!);
  db.pragma(`user_version = ${migrations.length}`);
  return version;
}
