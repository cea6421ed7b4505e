// Writes are committed in groups: what comes in one turn of the event loop shares a transaction
// and one fsync, each write in a savepoint of its own; every answered write is on disk.
import Database from 'better-sqlite3';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ContactRecord } from '../../src/server/contacts-schema.js';
import { openContactsStore } from '../../src/server/contacts-store.js';
import { HttpError } from '../../src/server/errors.js';
import { call, killTickbookChildren, startServe } from '../helpers/sandbox.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tickbook-group-'));
});
afterEach(async () => {
  await killTickbookChildren();
  rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
});

const fields = (username: string) => ({ username, phoneNumber: '+15550001111', displayName: null, avatarUrl: null });

/** Frames in the WAL now (a passive checkpoint from another connection reports them). */
function walFrames(path: string): number {
  const db = new Database(path);
  try {
    return (db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[])[0]!.log;
  } finally {
    db.close();
  }
}

function truncateWal(path: string): void {
  const db = new Database(path);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

describe('group commit', () => {
  it('writes asked for together are committed together: one refused leaves the others, all answered after', async () => {
    const path = join(dir, 'g.db');
    const store = openContactsStore(path);
    try {
      const names = Array.from({ length: 20 }, (_, i) => `together_${i}`);
      names[7] = 'together_3';
      const outcomes = await Promise.allSettled(names.map((name) => store.grouped(() => store.create('o', fields(name)))));
      const refused = outcomes.filter((o) => o.status === 'rejected');
      expect(refused).toHaveLength(1);
      expect((refused[0] as PromiseRejectedResult).reason).toBeInstanceOf(HttpError);
      expect((refused[0] as PromiseRejectedResult).reason.code).toBe('duplicate_contact');
      expect(store.count('o')).toBe(19);
      // A rename and a delete in the same group as a create.
      const first = (outcomes[0] as PromiseFulfilledResult<ContactRecord>).value;
      const second = (outcomes[1] as PromiseFulfilledResult<ContactRecord>).value;
      const [renamed, deleted, missing] = await Promise.all([
        store.grouped(() => store.rename('o', first.id, 'Renamed')),
        store.grouped(() => store.delete('o', second.id)),
        store.grouped(() => store.delete('o', 'ct_nobody')),
        store.grouped(() => store.create('o', fields('late'))),
      ]);
      expect(JSON.parse(renamed!).display_name).toBe('Renamed');
      expect([deleted, missing]).toEqual([true, false]);
      expect(store.count('o')).toBe(19);
    } finally {
      store.close();
    }
    // What was answered is what another connection reads.
    const db = new Database(path, { readonly: true });
    expect((db.prepare("SELECT count(*) AS n FROM contacts WHERE owner = 'o'").get() as { n: number }).n).toBe(19);
    // The refused create's conversation (written before its contact was refused) went with it.
    expect((db.prepare("SELECT count(*) AS n FROM conversations WHERE owner = 'o'").get() as { n: number }).n).toBe(19);
    db.close();
  });

  it('twenty creates at once write a fraction of the WAL that twenty one after another do', async () => {
    const path = join(dir, 'w.db');
    const store = openContactsStore(path);
    try {
      truncateWal(path);
      for (let i = 0; i < 20; i++) await store.grouped(() => store.create('o', fields(`alone_${i}`)));
      const alone = walFrames(path);
      truncateWal(path);
      await Promise.all(Array.from({ length: 20 }, (_, i) => store.grouped(() => store.create('o', fields(`grouped_${i}`)))));
      const grouped = walFrames(path);
      expect(grouped).toBeGreaterThan(0);
      expect(grouped * 4).toBeLessThan(alone);
    } finally {
      store.close();
    }
  });

  it('a write queued when the store closes is committed first', async () => {
    const path = join(dir, 'c.db');
    const store = openContactsStore(path);
    const pending = store.grouped(() => store.create('o', fields('at_close')));
    store.close();
    await expect(pending).resolves.toMatchObject({ username: 'at_close' });
    const again = openContactsStore(path);
    expect(again.count('o')).toBe(1);
    again.close();
  });

  const strace = spawnSync('strace', ['-V']).status === 0;
  it.skipIf(!strace)('tickbook serve fsyncs each create before it answers (strace)', async () => {
    const db = join(dir, 's.db');
    const env = { ...process.env, XDG_DATA_HOME: join(dir, 'xdg-data'), XDG_CONFIG_HOME: join(dir, 'xdg-config') };
    const serve = await startServe(['--port', '0', '--db', db, '--no-demo-data', '--seed', '1'], env);
    const log = join(dir, 'strace.log');
    const tracer = spawn('strace', ['-f', '-qq', '-p', String(serve.child.pid), '-e', 'trace=fsync,fdatasync', '-o', log], { stdio: 'ignore' });
    const syncs = () => {
      try {
        return readFileSync(log, 'utf8').split('\n').filter((l) => /\b(fsync|fdatasync)\(/.test(l)).length;
      } catch {
        return 0;
      }
    };
    try {
      // strace says nothing once attached: a read of the list is seen by nothing, so wait for a sync to show.
      const auth = 'Bearer demo-token';
      let before = 0;
      for (let i = 0; before === 0 && i < 50; i++) {
        const made = await call(serve.url, '/v1/contacts', { auth, json: { username: `probe_${i}`, phone_number: '+14155550100' } });
        expect(made.status, made.text).toBe(201);
        await new Promise((r) => setTimeout(r, 100));
        before = syncs();
      }
      expect(before, 'strace saw no fsync for a create').toBeGreaterThan(0);
      // Each create answered is a create fsynced: five one after another, five syncs at least.
      for (let i = 0; i < 5; i++) {
        const made = await call(serve.url, '/v1/contacts', { auth, json: { username: `synced_${i}`, phone_number: '+14155550101' } });
        expect(made.status).toBe(201);
      }
      await new Promise((r) => setTimeout(r, 200));
      expect(syncs() - before).toBeGreaterThanOrEqual(5);
    } finally {
      tracer.kill('SIGINT');
      await new Promise((r) => tracer.once('exit', r));
    }
  });
});
