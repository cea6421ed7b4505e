// Each of tickbook's SQLite connections keeps 2 MB of pages, not better-sqlite3's 16 MB: the price
// history's recording, left to fill 16 MB, grew the dashboard's heap for hours.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { holdPageCache, PAGE_CACHE_KIB } from '../../src/sqlite/page-cache.js';

describe('holdPageCache', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('holds a connection to 2 MB of pages, where better-sqlite3 would keep 16', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tickbook-page-cache-'));
    dirs.push(dir);
    const db = new Database(join(dir, 'x.db'));
    expect(db.pragma('cache_size', { simple: true })).toBe(-16_000);
    holdPageCache(db);
    expect(db.pragma('cache_size', { simple: true })).toBe(-PAGE_CACHE_KIB);
    expect(PAGE_CACHE_KIB).toBe(2000);
    db.close();
  });
});
