// listenSandbox(): the port first, the database when open() is called (the dashboard draws its
// first frame in between). Requests that arrive before wait and are answered once it is open;
// when it cannot open they are told why; closed before opening, nothing is made on disk.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_API_KEY, DEMO_TOKEN } from '../../src/server/credentials.js';
import { listenSandbox, type ListeningSandbox } from '../../src/server/sandbox.js';

let dir: string;
let sandbox: ListeningSandbox | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tickbook-listen-first-'));
});
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const symbols = (url: string) => request(`${url}/v1/market-data/symbols`, { headers: { 'x-api-key': DEMO_API_KEY } });
const contacts = (url: string) => request(`${url}/v1/contacts?limit=1`, { headers: { authorization: `Bearer ${DEMO_TOKEN}` } });

describe('a sandbox that listens before it opens its database', () => {
  it('holds a request sent before open() and answers it once open', async () => {
    const db = join(dir, 'sandbox.db');
    sandbox = await listenSandbox({ port: 0, dbPath: db, seed: 3 });
    expect(existsSync(db)).toBe(false);
    const early = contacts(sandbox.url);
    let answered = false;
    void early.then(() => (answered = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(answered).toBe(false);
    const opened = await sandbox.open();
    expect(opened.seededDemoData).toBe(true);
    const reply = await early;
    expect(reply.statusCode).toBe(200);
    expect(((await reply.body.json()) as { data: unknown[] }).data).toHaveLength(1);
    // Asked again, it is the same opening.
    expect(await sandbox.open()).toBe(opened);
  });

  it('a database that will not open: open() rejects, and waiting and later requests are told why (500)', async () => {
    const db = join(dir, 'a-directory');
    mkdirSync(db);
    sandbox = await listenSandbox({ port: 0, dbPath: db });
    const early = symbols(sandbox.url);
    await expect(sandbox.open()).rejects.toThrow(`cannot open the database ${db}: it is a directory, not a database file`);
    for (const reply of [await early, await contacts(sandbox.url)]) {
      expect(reply.statusCode).toBe(500);
      const body = (await reply.body.json()) as { message: string };
      expect(body.message).toBe(`the sandbox is not serving: cannot open the database ${db}: it is a directory, not a database file`);
    }
  });

  it('closed before open(): no database is made, and open() afterwards refuses', async () => {
    const db = join(dir, 'sandbox.db');
    sandbox = await listenSandbox({ port: 0, dbPath: db });
    await sandbox.close();
    await expect(sandbox.open()).rejects.toThrow('the sandbox was closed before its database was opened');
    expect(existsSync(db)).toBe(false);
  });

  it('closed while it opens: open() rejects, no database is left open, a waiting request is told', async () => {
    const db = join(dir, 'sandbox.db');
    sandbox = await listenSandbox({ port: 0, dbPath: db });
    const early = contacts(sandbox.url);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const opening = sandbox.open();
    const closing = sandbox.close();
    await expect(opening).rejects.toThrow('the sandbox was closed before its database was opened');
    await closing;
    const reply = await early;
    expect(reply.statusCode).toBe(500);
    expect(((await reply.body.json()) as { message: string }).message).toBe('the sandbox is not serving: the sandbox was closed before its database was opened');
    expect(existsSync(db)).toBe(false);
  }, 10_000);

  it('closed while a request waits: the request is answered at once, and the close does not wait out its grace', async () => {
    sandbox = await listenSandbox({ port: 0, dbPath: join(dir, 'sandbox.db') });
    const early = contacts(sandbox.url);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    await sandbox.close();
    expect(performance.now() - started).toBeLessThan(2000);
    const reply = await early;
    expect(reply.statusCode).toBe(500);
    expect(((await reply.body.json()) as { message: string }).message).toBe('the sandbox is not serving: it was closed before its database was opened');
  }, 10_000);
});
