// The sandbox's database on a full disk (a real 2 MB tmpfs filled to its last block): a write is
// refused with a 500 whose message names the file and says the disk is full (not SQLite's "database
// or disk is full" or "disk I/O error", nor "an unexpected problem"), the client shows it, reads go
// on, and with room again writes are made.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { client, expectError, runTickbookToExit, sandboxEnv, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { NO_SMALL_DISK, smallDisk, type SmallDisk } from '../helpers/tmpfs.js';

let disk: SmallDisk | undefined;
let sandbox: TestSandbox | undefined;
let home: string | undefined;
afterEach(async () => {
  await sandbox?.close();
  disk?.unmount();
  if (home) rmSync(home, { recursive: true, force: true });
  sandbox = disk = home = undefined;
});

describe('the sandbox on a full disk', () => {
  it.skipIf(NO_SMALL_DISK !== undefined)('answers a write with a 500 saying the disk is full and naming the database; reads go on; with room again it writes', async () => {
    disk = smallDisk(2048);
    const dbPath = join(disk.dir, 'sandbox.db');
    sandbox = await startTestSandbox({ dbPath });
    const api = client(sandbox);
    expect((await api.create({ username: 'before', phone_number: '+4915112345678' })).status).toBe(201);
    disk.fill();

    const full = new RegExp(`^the sandbox database ${dbPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} cannot be written: the disk is full; nothing was changed$`);
    expectError(await api.create({ username: 'during', phone_number: '+4915112345679' }), 500, 'server_error', full);
    const list = await api.list();
    expect(list.status).toBe(200);
    expect(list.json.data.map((c: { username: string }) => c.username)).toEqual(['before']);

    // What the command line shows of it.
    home = mkdtempSync(join(tmpdir(), 'tickbook-full-disk-'));
    const run = await runTickbookToExit(['contacts', 'create', '--username', 'cli', '--phone', '+4915112345670'], sandboxEnv(sandbox, home));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`the sandbox database ${dbPath} cannot be written: the disk is full; nothing was changed (HTTP 500`);

    disk.free();
    expect((await api.create({ username: 'after', phone_number: '+4915112345671' })).status).toBe(201);
  }, 20_000);
});
