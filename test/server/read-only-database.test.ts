// A sandbox database tickbook may read but not write (a real read-only file and directory; as
// root the server runs as nobody, so the modes bind): reads are served, and every write is
// refused with the contract's error envelope naming the file and saying it is read-only. Nothing
// is written on the way, not even SQLite's -wal and -shm files.
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/server/sandbox.js';
import { call, expectError } from '../helpers/sandbox.js';
import {
  killUnprivilegedChildren,
  runTickbookUnprivileged,
  runTickbookUnprivilegedToExit,
  traversableTempDir,
} from '../helpers/unprivileged-server.js';
import { cleanEnv } from '../helpers/child.js';

const READ_ONLY = /^the sandbox database (\S+) is read-only \([^)]+\): contacts can be listed and read, but not created, renamed or deleted$/;

let root: string;
let dataDir: string;
let dbPath: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  root = traversableTempDir('tickbook-ro-');
  // Laid out as the default place, so the commands' embedded sandbox opens it too.
  dataDir = join(root, 'data', 'tickbook');
  dbPath = join(dataDir, 'sandbox.db');
  env = { ...cleanEnv(), HOME: join(root, 'home'), XDG_DATA_HOME: join(root, 'data'), XDG_CONFIG_HOME: join(root, 'config') };
  mkdirSync(dataDir, { recursive: true, mode: 0o755 });
  chmodSync(join(root, 'data'), 0o755);
  // A database as a first run leaves it: demo contacts and a market, closed cleanly.
  const sandbox = await startSandbox({ dbPath, port: 0, seed: 11 });
  await sandbox.close();
});

afterEach(async () => {
  await killUnprivilegedChildren();
  chmodSync(dataDir, 0o755);
  rmSync(root, { recursive: true, force: true });
});

/** The data directory's entries and the database's bytes, to show nothing was written. */
function snapshot(): { files: string[]; bytes: Buffer } {
  return { files: readdirSync(dataDir).sort(), bytes: readFileSync(dbPath) };
}

async function serveReadOnly(): Promise<{ url: string; banner: string }> {
  const run = runTickbookUnprivileged(['serve', '--port', '0', '--db', dbPath], env);
  const match = await run.waitFor(/^listening on (http:\/\/\S+:\d+)$/m);
  return { url: match[1]!, banner: run.stdout() };
}

interface Layout {
  what: string;
  make: () => void;
  /** The reason the banner and every refusal give. */
  reason: () => string;
  /** Whether SQLite cannot even put its -shm beside the file. */
  nothingWritten: boolean;
}

const layouts: Layout[] = [
  {
    what: 'a read-only file in a read-only directory',
    make: () => {
      chmodSync(dbPath, 0o444);
      chmodSync(dataDir, 0o555);
    },
    reason: () => 'tickbook may not write it',
    nothingWritten: true,
  },
  {
    what: 'a file anyone may write in a read-only directory',
    make: () => {
      chmodSync(dbPath, 0o666);
      chmodSync(dataDir, 0o555);
    },
    reason: () => `tickbook may not write in ${dataDir}`,
    nothingWritten: true,
  },
  {
    // SQLite may put its -shm and -wal beside it; only the file refuses writes.
    what: 'a read-only file in a directory anyone may write',
    make: () => {
      chmodSync(dbPath, 0o444);
      chmodSync(dataDir, 0o777);
    },
    reason: () => 'tickbook may not write it',
    nothingWritten: false,
  },
];

describe('serve on a read-only database', () => {
  for (const { what, make, reason, nothingWritten } of layouts) {
    it(`${what}: reads are served, every write is refused naming the file`, async () => {
      make();
      const before = snapshot();
      const { url, banner } = await serveReadOnly();
      expect(banner).toContain(`database:                 ${dbPath}  (read-only: ${reason()}; reads are served, writes refused)`);
      const auth = 'Bearer demo-token';

      const list = await call(url, '/v1/contacts?limit=100', { auth });
      expect(list.status, list.text).toBe(200);
      expect(list.json.data.length).toBeGreaterThan(20);
      const first = list.json.data[0];
      expect((await call(url, `/v1/contacts/${first.id}`, { auth })).json.username).toBe(first.username);
      const prices = await call(url, '/v1/utilities/stock/realtime-pricing', { auth: 'demo-key', json: { symbols: ['AAPL'] } });
      expect(prices.status, prices.text).toBe(200);

      const writes = [
        await call(url, '/v1/contacts', { auth, form: { username: 'new_one', phone_number: '+442079460958' } }),
        await call(url, `/v1/contacts/${first.id}`, { method: 'PUT', auth, form: { display_name: 'Renamed' } }),
        await call(url, `/v1/contacts/${first.id}`, { method: 'DELETE', auth }),
      ];
      for (const reply of writes) {
        const message = expectError(reply, 500, 'server_error', READ_ONLY);
        expect(READ_ONLY.exec(message)![1]).toBe(dbPath);
        expect(message).toContain(`(${reason()})`);
        expect(message).not.toMatch(/SQLITE|attempt to write/);
      }
      // An id that is not there is still not found.
      expectError(await call(url, '/v1/contacts/ct_nothere', { method: 'DELETE', auth }), 404, 'not_found');
      expect((await call(url, '/v1/contacts?limit=100', { auth })).json.data).toEqual(list.json.data);
      if (nothingWritten) expect(snapshot()).toEqual(before);
      expect(readFileSync(dbPath)).toEqual(before.bytes);
    });
  }
});

describe('the commands’ embedded sandbox on a read-only data directory', () => {
  it('contacts list lists; contacts create says in one line which file is read-only, exit 1', async () => {
    chmodSync(dbPath, 0o444);
    chmodSync(dataDir, 0o555);
    const before = snapshot();

    const list = await runTickbookUnprivilegedToExit(['contacts', 'list', '--limit', '5', '--json'], env);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout).data).toHaveLength(5);

    const create = await runTickbookUnprivilegedToExit(['contacts', 'create', '--username', 'x_y', '--phone', '+442079460958'], env);
    expect(create.code).toBe(1);
    expect(create.stdout).toBe('');
    const lines = create.stderr.split('\n').filter((line) => line !== '');
    expect(lines, create.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^tickbook: the sandbox database \S+ is read-only \(.+\): contacts can be listed and read, but not created, renamed or deleted \(HTTP 500, request [0-9a-f-]{36}\)$/);
    expect(lines[0]).toContain(dbPath);
    expect(snapshot()).toEqual(before);
  });
});
