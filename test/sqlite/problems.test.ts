// The predicates on SQLite's failures are asked about whatever was thrown, and about the causes of
// errors, which may be missing: each takes any value, and holds only for SQLite's own errors.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isBusy, isDamage, isFullDisk, isReadOnly, sqliteCause, sqliteCode, sqliteProblem } from '../../src/sqlite/problems.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('the predicates on SQLite\'s failures', () => {
  it('take any thrown value, and hold for none that is not SQLite\'s', () => {
    const path = '/tmp/history.db';
    for (const value of [undefined, null, 'text', 42, {}, { code: 42 }, new Error('plain'), Object.assign(new Error('fs'), { code: 'ENOSPC' })]) {
      expect(sqliteCode(value)).toBeUndefined();
      expect(isDamage(value)).toBe(false);
      expect(isBusy(value)).toBe(false);
      expect(isReadOnly(value)).toBe(false);
      expect(isFullDisk(value, path)).toBe(false);
      expect(sqliteProblem(value, 2000, path)).toBeUndefined();
    }
  });

  it('find SQLite\'s error behind one that wraps it, and none behind one made without', () => {
    dir = mkdtempSync(join(tmpdir(), 'tickbook-problems-'));
    const db = new Database(join(dir, 'a.db'));
    let thrown: unknown;
    try {
      db.exec('SELECT * FROM nowhere');
    } catch (error) {
      thrown = error;
    } finally {
      db.close();
    }
    expect(sqliteCode(thrown)).toBe('SQLITE_ERROR');
    const wrapped = new Error('cannot read the alerts', { cause: thrown });
    expect(sqliteCause(wrapped)).toBe(thrown);
    const alone = new Error('its schema version 999 is newer');
    expect(sqliteCause(alone)).toBe(alone);
    expect(isFullDisk(sqliteCause(alone), join(dir, 'a.db'))).toBe(false);
  });
});
