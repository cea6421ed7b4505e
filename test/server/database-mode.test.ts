// The sandbox database holds the user's contacts: only its owner may read it (issue 18, item 4).
// A new database file is 0600 whatever the umask, and so are the -wal and -shm files SQLite makes
// beside it; the data directory tickbook makes for it is 0700.
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openContactsStore } from '../../src/server/contacts-store.js';
import { BIN } from '../helpers/sandbox.js';
import { runChild } from '../helpers/child.js';

const mode = (path: string) => statSync(path).mode & 0o777;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tickbook-db-mode-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('a new sandbox database', () => {
  it('is 0600, and so are its -wal and -shm files, under a umask of 022', () => {
    const previous = process.umask(0o022);
    try {
      const path = join(dir, 'new.db');
      const store = openContactsStore(path);
      try {
        expect(existsSync(`${path}-wal`)).toBe(true);
        for (const file of [path, `${path}-wal`, `${path}-shm`]) expect(mode(file).toString(8), file).toBe('600');
      } finally {
        store.close();
      }
    } finally {
      process.umask(previous);
    }
  });

  it('an existing database keeps the mode it has: it is the user\'s file', () => {
    const path = join(dir, 'kept.db');
    openContactsStore(path).close();
    chmodSync(path, 0o640);
    openContactsStore(path).close();
    expect(mode(path).toString(8)).toBe('640');
  });

  it('made by a command in a fresh home: the data directory is 0700, the database 0600', async () => {
    const run = await runChild(process.execPath, [BIN, 'contacts', 'list', '--limit', '1'], {
      env: { PATH: process.env.PATH, HOME: dir, XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config') },
      timeoutMs: 15_000,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(mode(join(dir, 'data', 'tickbook')).toString(8)).toBe('700');
    expect(mode(join(dir, 'data', 'tickbook', 'sandbox.db')).toString(8)).toBe('600');
  });
});
