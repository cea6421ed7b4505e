// walkIntoIndex (src/contacts/index-walk.ts) against a real sandbox holding 250 contacts in a known
// order: the whole list read in the largest pages (100) and written to a real index in a temp
// history file, what was deleted on the server since the last walk forgotten, and the walk's two
// brakes: beforePage, which the dashboard uses to let the user's paging go first (a walk that did
// not wait would compete with every keypress), and an abort signal, after which nothing more is
// asked of the server and nothing is forgotten (a walk cut short has not seen the whole list).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TickbookClient } from '../../src/api/client.js';
import type { RequestLogEntry } from '../../src/api/transport.js';
import { walkIntoIndex } from '../../src/contacts/index-walk.js';
import { contactIndexOf, type ContactIndex } from '../../src/store/contact-index.js';
import { contactsSource } from '../../src/store/history-source.js';
import { type HistoryStore, openHistoryStore } from '../../src/store/history-store.js';
import { MANY_API_KEY, MANY_TOKEN, manyUsername, startManyContactsSandbox } from '../helpers/many-contacts.js';
import { sandboxClient, type TestSandbox } from '../helpers/sandbox.js';

const COUNT = 250;

let sb: TestSandbox;
/** The client the walks use; every request it makes is recorded in `requests`. */
let walker: TickbookClient;
/** A second client, for changing the server behind the walk's back. */
let checker: TickbookClient;
let requests: RequestLogEntry[];

beforeAll(async () => {
  sb = await startManyContactsSandbox(COUNT);
  walker = new TickbookClient({
    contactsUrl: sb.contactsUrl,
    marketDataUrl: sb.marketDataUrl,
    token: MANY_TOKEN,
    apiKey: MANY_API_KEY,
    onRequest: (entry) => requests.push(entry),
  });
  checker = sandboxClient(sb);
});
afterAll(async () => {
  await walker?.close();
  await checker?.close();
  await sb?.close();
});

let dir: string;
let store: HistoryStore;
let index: ContactIndex;
const source = () => contactsSource({ contactsUrl: sb.contactsUrl, token: MANY_TOKEN });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tickbook-index-walk-'));
  store = openHistoryStore(join(dir, 'history.db'));
  index = contactIndexOf(store);
  requests = [];
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The list requests made, as "limit=…&starting_after=…" (the cursor shown as the contact's username). */
const listQueries = (): URLSearchParams[] =>
  requests.filter((r) => r.method === 'GET' && new URL(r.url).pathname.endsWith('/v1/contacts')).map((r) => new URL(r.url).searchParams);

/** The GET /v1/contacts lines in the sandbox's own log: what reached the server. */
const serverListCalls = (): number => sb.logLines.filter((line) => / GET \/v1\/contacts(\?| )/.test(line)).length;

/** The usernames the server lists now, newest first. */
async function serverUsernames(): Promise<string[]> {
  const names: string[] = [];
  for await (const c of checker.allContacts({ limit: 100 })) names.push(c.username);
  return names;
}

describe('walking the list into the index', () => {
  it('reads every contact in pages of 100, each page written as it comes, in the list order', async () => {
    const pages: number[] = [];
    const countsAtPage: number[] = [];
    const result = await walkIntoIndex(walker, index, source(), {
      onPage: (read) => {
        pages.push(read);
        // Written before onPage is told: a search during the walk finds what was read so far.
        countsAtPage.push(index.count(source()));
      },
    });
    expect(result).toEqual({ read: COUNT, gone: 0 });
    expect(pages).toEqual([100, 200, 250]);
    expect(countsAtPage).toEqual([100, 200, 250]);

    const queries = listQueries();
    expect(queries).toHaveLength(3);
    expect(queries.map((q) => q.get('limit'))).toEqual(['100', '100', '100']);
    // Each page after the one before: no page read twice, none skipped.
    expect(queries[0]!.get('starting_after')).toBeNull();
    const all = index.all(source());
    expect(queries[1]!.get('starting_after')).toBe(all[99]!.id);
    expect(queries[2]!.get('starting_after')).toBe(all[199]!.id);

    expect(all.map((c) => c.username)).toEqual(Array.from({ length: COUNT }, (_, i) => manyUsername(i)));
    expect(all.map((c) => c.username)).toEqual(await serverUsernames());
  });

  it('forgets a contact deleted on the server since the last walk, and learns one created', async () => {
    await walkIntoIndex(walker, index, source());
    const before = index.all(source());
    const victim = before[150]!;
    await checker.deleteContact(victim.id);
    const created = await checker.createContact({ username: 'walk_newcomer', phoneNumber: '+442079460123', displayName: 'Walk Newcomer' });
    try {
      const result = await walkIntoIndex(walker, index, source());
      expect(result).toEqual({ read: COUNT, gone: 1 });
      const after = index.all(source());
      expect(after.map((c) => c.id)).not.toContain(victim.id);
      expect(after[0]!.id).toBe(created.id);
      expect(after.map((c) => c.username)).toEqual(await serverUsernames());
    } finally {
      // Put back as it was for the other tests: the newcomer gone, the victim again (same place).
      await checker.deleteContact(created.id);
      await restore(victim.username, victim.phoneNumber, victim.displayName, victim.createdAt);
    }
  });

  it('awaits beforePage between pages (never before the first): while it holds, nothing more is asked', async () => {
    const events: string[] = [];
    let release!: () => void;
    let paused!: () => void;
    const pausedOnce = new Promise<void>((resolve) => (paused = resolve));
    let held = false;
    const walk = walkIntoIndex(walker, index, source(), {
      onPage: (read) => events.push(`page ${read}`),
      beforePage: () => {
        events.push('before');
        if (held) return Promise.resolve();
        held = true;
        paused();
        return new Promise<void>((resolve) => (release = resolve));
      },
    });
    await pausedOnce;
    expect(events).toEqual(['page 100', 'before']);
    // A round trip of another client's: the server and the event loop had time for a second page,
    // and none was asked for.
    await checker.listContacts({ limit: 1 });
    expect(listQueries()).toHaveLength(1);
    expect(index.count(source())).toBe(100);

    release();
    expect(await walk).toEqual({ read: COUNT, gone: 0 });
    expect(events).toEqual(['page 100', 'before', 'page 200', 'before', 'page 250']);
    expect(listQueries()).toHaveLength(3);
  });

  it('a contact the dashboard put in the index while the walk was on its way (seen after it began) is not forgotten', async () => {
    await walkIntoIndex(walker, index, source());
    let created: Awaited<ReturnType<TickbookClient['createContact']>> | undefined;
    try {
      const result = await walkIntoIndex(walker, index, source(), {
        beforePage: async () => {
          if (created) return;
          // Created after the walk read the first page: the walk never sees it. The dashboard
          // puts what it creates in the index as it is made, seen now.
          created = await checker.createContact({ username: 'made_midwalk', phoneNumber: '+442079460124' });
          index.put(source(), [created], Date.now());
        },
      });
      expect(result.gone).toBe(0);
      expect(index.all(source())[0]!.id).toBe(created!.id);
      expect(index.count(source())).toBe(COUNT + 1);
    } finally {
      if (created) await checker.deleteContact(created.id);
    }
  });

  it('an abort between pages stops the walk: no more requests, and nothing forgotten', async () => {
    await walkIntoIndex(walker, index, source());
    const victim = index.all(source())[220]!;
    await checker.deleteContact(victim.id);
    try {
      requests = [];
      const serverBefore = serverListCalls();
      const abort = new AbortController();
      const walk = walkIntoIndex(walker, index, source(), {
        signal: abort.signal,
        beforePage: async () => abort.abort(),
      });
      await expect(walk).rejects.toMatchObject({ name: 'AbortError' });
      // One page read; the second never sent (the server saw one request, the client made one).
      expect(listQueries()).toHaveLength(1);
      await checker.listContacts({ limit: 1 });
      expect(serverListCalls()).toBe(serverBefore + 2);
      // Cut short, the walk has not seen the whole list: the deleted one stays until a whole walk.
      expect(index.count(source())).toBe(COUNT);
      expect(index.all(source()).map((c) => c.id)).toContain(victim.id);
      expect(await walkIntoIndex(walker, index, source())).toEqual({ read: COUNT - 1, gone: 1 });
    } finally {
      await restore(victim.username, victim.phoneNumber, victim.displayName, victim.createdAt);
    }
  });

  it('an abort while the first page is on its way: the walk rejects and writes nothing', async () => {
    const abort = new AbortController();
    const walk = walkIntoIndex(walker, index, source(), { signal: abort.signal });
    abort.abort();
    await expect(walk).rejects.toMatchObject({ name: 'AbortError' });
    expect(index.count(source())).toBe(0);
    // Already aborted: not one request.
    requests = [];
    await expect(walkIntoIndex(walker, index, source(), { signal: abort.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(requests).toEqual([]);
  });
});

/** Puts a deleted contact back where it was in the list (the sandbox's store, as the fill made it). */
async function restore(username: string, phoneNumber: string, displayName: string | null, createdAt: Date): Promise<void> {
  const { openContactsStore } = await import('../../src/server/contacts-store.js');
  const { ownerOf } = await import('../../src/server/credentials.js');
  const db = openContactsStore(sb.dbPath);
  try {
    db.insertMany(ownerOf(MANY_TOKEN), [{ username, phoneNumber, displayName, avatarUrl: null, createdAt: Math.floor(createdAt.getTime() / 1000), lastActiveAt: null }]);
  } finally {
    db.close();
  }
  expect((await serverUsernames()).length).toBe(COUNT);
}
