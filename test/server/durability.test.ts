// `tickbook serve` as a real process: an answered write survives SIGKILL, SIGTERM drains in-flight
// requests and exits 0, and the database file is what the store promises.
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ContactRecord } from '../../src/server/contacts-schema.js';
import { BIN, call, killTickbookChildren, runTickbook, startServe } from '../helpers/sandbox.js';

const TOKEN = 'Bearer demo-token';

let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  expect(existsSync(join(BIN, '..', '..', 'dist', 'cli', 'main.js')), 'run `node scripts/build-if-needed.mjs` first').toBe(true);
});

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tickbook-durability-'));
  // Nothing may touch the real home directory.
  env = { ...process.env, XDG_DATA_HOME: join(dir, 'xdg-data'), XDG_CONFIG_HOME: join(dir, 'xdg-config') };
});

afterEach(async () => {
  await killTickbookChildren();
  rmSync(dir, { recursive: true, force: true });
});

function serveArgs(db: string): string[] {
  return ['--port', '0', '--db', db, '--no-demo-data', '--seed', '1'];
}

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took more than ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

describe('an answered write survives the process being killed', () => {
  it('a contact created just before SIGKILL is there, field for field, after a restart', async () => {
    const db = join(dir, 's.db');
    const first = await startServe(serveArgs(db), env);
    const created = await call(first.url, '/v1/contacts', {
      auth: TOKEN,
      form: { username: 'survivor', phone_number: '+44 20 7946 0958', display_name: 'Sur Vivor', avatar_url: 'https://example.com/s.png' },
    });
    expect(created.status, created.text).toBe(201);
    first.child.kill('SIGKILL');
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });

    const second = await startServe(serveArgs(db), env);
    const got = await call(second.url, `/v1/contacts/${(created.json as ContactRecord).id}`, { auth: TOKEN });
    expect(got.status, got.text).toBe(200);
    expect(got.json).toEqual(created.json);
    expect(got.json).toMatchObject({ username: 'survivor', phone_number: '+442079460958', display_name: 'Sur Vivor' });
    const list = await call(second.url, '/v1/contacts', { auth: TOKEN });
    expect(list.json).toEqual({ has_more: false, data: [created.json] });
  });

  it('a delete answered just before SIGKILL stays deleted', async () => {
    const db = join(dir, 's.db');
    const first = await startServe(serveArgs(db), env);
    const created = await call(first.url, '/v1/contacts', { auth: TOKEN, json: { username: 'gone', phone_number: '+14155550100' } });
    expect(created.status).toBe(201);
    const deleted = await call(first.url, `/v1/contacts/${created.json.id}`, { method: 'DELETE', auth: TOKEN });
    expect(deleted.status).toBe(200);
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await startServe(serveArgs(db), env);
    expect((await call(second.url, `/v1/contacts/${created.json.id}`, { auth: TOKEN })).status).toBe(404);
  });
});

describe('SIGTERM', () => {
  it('exits with status 0 within a few seconds, even with an idle keep-alive connection open', async () => {
    const proc = await startServe(serveArgs(join(dir, 's.db')), env);
    // The helper's agent keeps this connection open after the answer.
    expect((await call(proc.url, '/v1/contacts', { auth: TOKEN })).status).toBe(200);
    const started = Date.now();
    proc.child.kill('SIGTERM');
    const exit = await withTimeout(proc.exited, 4_000, 'stopping on SIGTERM');
    expect(exit).toEqual({ code: 0, signal: null });
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(proc.stderr()).toMatch(/SIGTERM/);
  });

  it('a request in flight when SIGTERM arrives still gets its answer, and is kept', async () => {
    const db = join(dir, 's.db');
    const proc = await startServe(serveArgs(db), env);
    const { port, hostname } = new URL(proc.url);
    const body = JSON.stringify({ username: 'slow_writer', phone_number: '+4915123456789', display_name: 'Slow Writer' });
    const half = Math.floor(body.length / 2);

    let newConnection = '';
    const refusedNew = (outcome: string): void => {
      newConnection = outcome;
    };
    let sawContinue!: () => void;
    const continued = new Promise<void>((resolve) => (sawContinue = resolve));
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: hostname,
          port,
          method: 'POST',
          path: '/v1/contacts',
          agent: false,
          headers: {
            authorization: TOKEN,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            // The server answers 100 Continue once it has parsed the headers and handed the
            // request to its handler: proof the request is in flight, without sleeping.
            expect: '100-continue',
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.on('continue', () => sawContinue());
      req.flushHeaders();
      void continued.then(async () => {
        req.write(body.slice(0, half));
        proc.child.kill('SIGTERM');
        // Once the server says it is stopping, the rest of the body goes out.
        await proc.waitFor(/SIGTERM: finishing in-flight requests/, 'stderr', 5_000);
        // While it drains, it takes no new connections.
        const refused = await call(proc.url, '/v1/contacts', { auth: TOKEN }).then(
          (r) => `answered ${r.status}`,
          () => 'refused',
        );
        req.end(body.slice(half));
        refusedNew(refused);
      }).catch(reject);
    });

    const reply = await withTimeout(answer, 8_000, 'the in-flight request');
    expect(reply.status, reply.text).toBe(201);
    const contact = JSON.parse(reply.text) as ContactRecord;
    expect(contact).toMatchObject({ username: 'slow_writer', phone_number: '+4915123456789', display_name: 'Slow Writer' });
    expect(newConnection).toBe('refused');
    expect(await withTimeout(proc.exited, 6_000, 'stopping after the in-flight request')).toEqual({ code: 0, signal: null });
    // Its log line was written before the exit.
    expect(proc.stdout()).toMatch(/ POST \/v1\/contacts 201 [\d.]+ms [0-9a-f-]{36}$/m);

    // The answered write is in the database.
    const restarted = await startServe(serveArgs(db), env);
    const got = await call(restarted.url, `/v1/contacts/${contact.id}`, { auth: TOKEN });
    expect(got.status, got.text).toBe(200);
    expect(got.json).toEqual(contact);
  });

  it('as soon as it has said "listening on", stops cleanly (exit 0) on SIGTERM', async () => {
    // A supervisor may stop the server the moment it reports readiness. Many rounds, because a
    // window between the readiness line and the signal handlers only shows some of the time.
    for (let round = 0; round < 40; round++) {
      const proc = runTickbook(['serve', ...serveArgs(join(dir, 'ready.db'))], env);
      // Like a supervisor: the signal goes out the moment the line is read.
      let seen = '';
      proc.child.stdout!.on('data', (chunk: string) => {
        seen += chunk;
        if (/^listening on http:\/\/\S+:\d+$/m.test(seen) && proc.child.signalCode === null) proc.child.kill('SIGTERM');
      });
      await proc.waitFor(/^listening on /m);
      const exit = await withTimeout(proc.exited, 4_000, 'stopping on SIGTERM');
      expect(exit, `round ${round}: stderr ${JSON.stringify(proc.stderr())}`).toEqual({ code: 0, signal: null });
      expect(proc.stderr()).toMatch(/SIGTERM: finishing in-flight requests/);
    }
    // Forty starts of a process take ~16 s alone, more while the other worker runs its files.
  }, 90_000);
});

describe('the database file', () => {
  let sqlite: Database.Database | undefined;
  afterEach(() => {
    sqlite?.close();
    sqlite = undefined;
  });

  it('is WAL, schema version 3, with contacts and conversations tied by a foreign key, and one market', async () => {
    const db = join(dir, 's.db');
    const proc = await startServe(serveArgs(db), env);
    const kept = await call(proc.url, '/v1/contacts', { auth: TOKEN, form: { username: 'kept', phone_number: '+14155550100' } });
    const dropped = await call(proc.url, '/v1/contacts', { auth: TOKEN, form: { username: 'dropped', phone_number: '+14155550101' } });
    expect(kept.status).toBe(201);
    expect(dropped.status).toBe(201);
    expect((await call(proc.url, `/v1/contacts/${dropped.json.id}`, { method: 'DELETE', auth: TOKEN })).status).toBe(200);
    proc.child.kill('SIGTERM');
    expect(await withTimeout(proc.exited, 6_000, 'stopping')).toEqual({ code: 0, signal: null });

    sqlite = new Database(db);
    expect(sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(sqlite.pragma('user_version', { simple: true })).toBe(3);
    const tables = (sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map(
      (t) => t.name,
    );
    expect(tables).toEqual(expect.arrayContaining(['contacts', 'conversations', 'market']));
    // The market every process on this file prices from: the seed serve was given.
    expect(sqlite.prepare('SELECT seed FROM market').all()).toEqual([{ seed: 1 }]);

    // The schema ties each contact to its conversation...
    const keys = sqlite.pragma('foreign_key_list(contacts)') as { table: string; from: string; to: string }[];
    expect(keys).toContainEqual(expect.objectContaining({ table: 'conversations', from: 'conversation_id', to: 'id' }));
    // ...the server kept it (no dangling reference), and deleting a contact deleted its conversation.
    expect(sqlite.pragma('foreign_key_check')).toEqual([]);
    const conversations = sqlite.prepare('SELECT id FROM conversations').all() as { id: string }[];
    expect(conversations.map((c) => c.id)).toEqual([kept.json.conversation_id]);
    const contacts = sqlite.prepare('SELECT id, conversation_id FROM contacts').all();
    expect(contacts).toEqual([{ id: kept.json.id, conversation_id: kept.json.conversation_id }]);

    // With foreign keys on (as the store opens it), a contact without a conversation is refused.
    sqlite.pragma('foreign_keys = ON');
    expect(() =>
      sqlite!
        .prepare(
          `INSERT INTO contacts (id, owner, username, phone_number, conversation_id, created_at)
           VALUES ('ct_orphan', 'someone', 'orphan', '+14155550102', 'cv_nowhere', 0)`,
        )
        .run(),
    ).toThrow(/FOREIGN KEY/);
    // And the database holds no secret: owners are digests, not tokens.
    const owners = (sqlite.prepare('SELECT DISTINCT owner FROM contacts').all() as { owner: string }[]).map((o) => o.owner);
    expect(owners).not.toContain('demo-token');
  });
});

afterAll(async () => {
  await killTickbookChildren();
});
