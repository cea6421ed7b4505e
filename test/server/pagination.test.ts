// The contact list's cursors: walking forward and back visits every contact once, in list order
// (created_at descending, then id descending), and the walk survives writes made during it.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContactRecord } from '../../src/server/contacts-schema.js';
import { openContactsStore, type ContactsStore } from '../../src/server/contacts-store.js';
import { client, expectError, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

type Api = ReturnType<typeof client>;

interface ListPage {
  has_more: boolean;
  data: ContactRecord[];
}

/** Byte order, as SQLite compares TEXT (the ids are ASCII). */
function listOrder(a: ContactRecord, b: ContactRecord): number {
  if (a.created_at !== b.created_at) return b.created_at - a.created_at;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

function expectInListOrder(contacts: readonly ContactRecord[], where: string): void {
  for (let i = 1; i < contacts.length; i++) {
    expect(listOrder(contacts[i - 1]!, contacts[i]!), `${where}: ${contacts[i - 1]!.id} before ${contacts[i]!.id}`).toBeLessThan(0);
  }
}

async function page(api: Api, query: string): Promise<ListPage> {
  const reply = await api.list(query);
  expect(reply.status, `${query}: ${reply.text}`).toBe(200);
  expect(typeof reply.json.has_more).toBe('boolean');
  expect(Array.isArray(reply.json.data)).toBe(true);
  return reply.json as ListPage;
}

/** Walks forward from the first page; returns the pages in order. */
async function walkForward(api: Api, limit: number, filter = '', onPage?: (p: ListPage, n: number) => Promise<void>) {
  const pages: ListPage[] = [];
  let query = `?limit=${limit}${filter}`;
  for (let n = 0; n < 1000; n++) {
    const p = await page(api, query);
    pages.push(p);
    expect(p.data.length, `page ${n} size`).toBeLessThanOrEqual(limit);
    if (onPage) await onPage(p, n);
    if (!p.has_more) return pages;
    expect(p.data.length, `page ${n} has has_more but is not full`).toBe(limit);
    query = `?limit=${limit}${filter}&starting_after=${encodeURIComponent(p.data.at(-1)!.id)}`;
  }
  throw new Error('the forward walk did not end');
}

function ids(contacts: readonly ContactRecord[]): string[] {
  return contacts.map((c) => c.id);
}

function expectEachOnce(seen: readonly string[], expected: readonly string[]): void {
  const counts = new Map<string, number>();
  for (const id of seen) counts.set(id, (counts.get(id) ?? 0) + 1);
  const repeated = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
  expect(repeated, 'contacts seen more than once').toEqual([]);
  const missing = expected.filter((id) => !counts.has(id));
  expect(missing, 'contacts never seen').toEqual([]);
  const extra = seen.filter((id) => !expected.includes(id));
  expect(extra, 'contacts seen that should not be').toEqual([]);
}

describe('walking 250 contacts with limit=7', () => {
  let sandbox: TestSandbox;
  let api: Api;
  /** In creation order. */
  const created: ContactRecord[] = [];

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    api = client(sandbox);
    // One at a time, so creation order is well defined: the list must be its reverse.
    for (let i = 0; i < 250; i++) {
      const reply = await api.create({ username: `walker_${String(i).padStart(3, '0')}`, phone_number: `+1555${String(1000000 + i)}` });
      expect(reply.status, reply.text).toBe(201);
      created.push(reply.json as ContactRecord);
    }
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it('forward with starting_after: every contact once, newest first, has_more on all pages but the last', async () => {
    const pages = await walkForward(api, 7);
    expect(pages.length).toBe(Math.ceil(250 / 7));
    pages.forEach((p, n) => expect(p.has_more, `has_more on page ${n}`).toBe(n < pages.length - 1));
    const seen = pages.flatMap((p) => p.data);
    expectEachOnce(ids(seen), ids(created));
    expectInListOrder(seen, 'forward walk');
    // Newest first: exactly the reverse of creation order, and the same as sorting by the rule.
    expect(ids(seen)).toEqual(ids([...created].reverse()));
    expect(ids(seen)).toEqual(ids([...created].sort(listOrder)));
    // The pages return the contacts exactly as they were created.
    const byId = new Map(created.map((c) => [c.id, c]));
    for (const contact of seen) expect(contact).toEqual(byId.get(contact.id));
  });

  it('back from the last page with ending_before: every contact once, each page newest first', async () => {
    const forward = await walkForward(api, 7);
    const last = forward.at(-1)!;
    const pages: ListPage[] = [last];
    let current = last;
    for (let n = 0; n < 100; n++) {
      const p = await page(api, `?limit=7&ending_before=${encodeURIComponent(current.data[0]!.id)}`);
      pages.unshift(p);
      expect(p.data.length).toBeGreaterThan(0);
      expectInListOrder(p.data, `backward page ${n}`);
      // Each page ends right before the contact the cursor named.
      expect(listOrder(p.data.at(-1)!, current.data[0]!)).toBeLessThan(0);
      current = p;
      if (!p.has_more) break;
      expect(p.data.length).toBe(7);
    }
    // has_more (in the direction of travel) is false exactly on the first page of the list.
    const backward = pages.slice(0, -1);
    backward.forEach((p, n) => expect(p.has_more, `has_more on backward page ${n}`).toBe(n > 0));
    const seen = pages.flatMap((p) => p.data);
    expectEachOnce(ids(seen), ids(created));
    expectInListOrder(seen, 'backward walk');
    // The first page reached going back is the list's own first page.
    const first = await page(api, '?limit=7');
    expect(ids(pages[0]!.data)).toEqual(ids(first.data));
  });

  it('ending_before the newest contact is an empty first page, starting_after the oldest an empty last page', async () => {
    const newest = created.at(-1)!;
    const oldest = created[0]!;
    expect(await page(api, `?limit=7&ending_before=${newest.id}`)).toEqual({ has_more: false, data: [] });
    expect(await page(api, `?limit=7&starting_after=${oldest.id}`)).toEqual({ has_more: false, data: [] });
  });

  it('rejects both cursors at once and a cursor that names no contact', async () => {
    const a = created[10]!.id;
    const b = created[20]!.id;
    expectError(await api.list(`?limit=7&starting_after=${a}&ending_before=${b}`), 400, 'invalid_parameters');
    expectError(await api.list('?limit=7&starting_after=ct_nope'), 400, 'invalid_parameters', /starting_after/);
    expectError(await api.list('?limit=7&ending_before=ct_nope'), 400, 'invalid_parameters', /ending_before/);
  });
});

describe('a forward walk while the list changes', () => {
  let sandbox: TestSandbox;
  let api: Api;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    api = client(sandbox);
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it('neither skips nor repeats a contact that existed throughout', async () => {
    const original: ContactRecord[] = [];
    for (let i = 0; i < 60; i++) {
      const reply = await api.create({ username: `mover_${i}`, phone_number: `+4420794${String(10000 + i)}` });
      expect(reply.status, reply.text).toBe(201);
      original.push(reply.json as ContactRecord);
    }
    const inOrder = [...original].sort(listOrder);
    const seen: string[] = [];
    let deletedSeen: string | undefined;
    let deletedAhead: string | undefined;
    let added: ContactRecord | undefined;

    await walkForward(api, 7, '', async (p, n) => {
      seen.push(...ids(p.data));
      if (n !== 2) return;
      const cursor = p.data.at(-1)!.id;
      // One already seen (not the cursor), one not reached yet, and a brand-new one.
      deletedSeen = p.data[1]!.id;
      deletedAhead = inOrder[seen.length + 10]!.id;
      expect(deletedSeen).not.toBe(cursor);
      expect(seen).not.toContain(deletedAhead);
      expect((await api.remove(deletedSeen)).status).toBe(200);
      expect((await api.remove(deletedAhead)).status).toBe(200);
      const reply = await api.create({ username: 'newcomer', phone_number: '+14155550100' });
      expect(reply.status, reply.text).toBe(201);
      added = reply.json as ContactRecord;
    });

    expect(added).toBeDefined();
    const survivors = ids(original).filter((id) => id !== deletedSeen && id !== deletedAhead);
    // Every survivor seen exactly once, the one deleted after being seen was seen once, the one
    // deleted ahead of the cursor never; the newcomer sorts before the cursor, so not at all.
    expectEachOnce(seen, [...survivors, deletedSeen!]);
    expect(seen).not.toContain(deletedAhead);
    expect(seen).not.toContain(added!.id);
    // The list itself now holds the survivors and the newcomer.
    const after = (await walkForward(api, 100)).flatMap((p) => p.data);
    expectEachOnce(ids(after), [...survivors, added!.id]);
    expect(after[0]!.id).toBe(added!.id);
  });

  it('a cursor whose contact has since been deleted is 400 invalid_parameters', async () => {
    const reply = await api.create({ username: 'short_lived', phone_number: '+14155550199' });
    expect(reply.status).toBe(201);
    const id = (reply.json as ContactRecord).id;
    expect((await api.remove(id)).status).toBe(200);
    expectError(await api.list(`?limit=7&starting_after=${id}`), 400, 'invalid_parameters');
    expectError(await api.list(`?limit=7&ending_before=${id}`), 400, 'invalid_parameters');
  });
});

describe('active filter with cursors (demo data)', () => {
  let sandbox: TestSandbox;
  let api: Api;
  let all: ContactRecord[];

  beforeAll(async () => {
    sandbox = await startTestSandbox({ demoData: true });
    api = client(sandbox);
    all = (await walkForward(api, 100)).flatMap((p) => p.data);
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it('the demo list has both active and never-active contacts', () => {
    expect(all.filter((c) => c.last_active_at !== null).length).toBeGreaterThanOrEqual(8);
    expect(all.filter((c) => c.last_active_at === null).length).toBeGreaterThanOrEqual(8);
  });

  for (const [value, active] of [
    ['true', true],
    ['1', true],
    ['false', false],
    ['0', false],
  ] as const) {
    it(`active=${value} walks only the ${active ? 'active' : 'never-active'} contacts, each once, in list order`, async () => {
      const pages = await walkForward(api, 7, `&active=${value}`);
      pages.forEach((p, n) => expect(p.has_more, `has_more on page ${n}`).toBe(n < pages.length - 1));
      const seen = pages.flatMap((p) => p.data);
      for (const c of seen) expect(c.last_active_at !== null, c.id).toBe(active);
      const expected = all.filter((c) => (c.last_active_at !== null) === active);
      expectEachOnce(ids(seen), ids(expected));
      expect(ids(seen)).toEqual(ids(expected));
      expectInListOrder(seen, `active=${value}`);

      // And back again from the last page.
      let current = pages.at(-1)!;
      const back: ContactRecord[] = [...current.data];
      while (true) {
        const p = await page(api, `?limit=7&active=${value}&ending_before=${current.data[0]!.id}`);
        for (const c of p.data) expect(c.last_active_at !== null, c.id).toBe(active);
        back.unshift(...p.data);
        current = p;
        if (!p.has_more) break;
      }
      expect(ids(back)).toEqual(ids(expected));
    });
  }

  it('a cursor naming a contact outside the filtered list is 400 invalid_parameters', async () => {
    const inactive = all.find((c) => c.last_active_at === null)!;
    const active = all.find((c) => c.last_active_at !== null)!;
    expectError(await api.list(`?limit=7&active=true&starting_after=${inactive.id}`), 400, 'invalid_parameters', /starting_after/);
    expectError(await api.list(`?limit=7&active=true&ending_before=${inactive.id}`), 400, 'invalid_parameters', /ending_before/);
    expectError(await api.list(`?limit=7&active=false&starting_after=${active.id}`), 400, 'invalid_parameters');
    // The same ids are fine as cursors of the unfiltered list.
    expect((await api.list(`?limit=7&starting_after=${inactive.id}`)).status).toBe(200);
    expect((await api.list(`?limit=7&active=true&starting_after=${active.id}`)).status).toBe(200);
  });
});

describe('pages are keyset queries', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tickbook-plan-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('every page statement searches an index on (owner, created_at, id) without sorting or scanning', () => {
    // Record the SQL text the store prepares (the statements themselves are untouched), then ask
    // SQLite, on a second connection to the same file, how it runs each list query.
    const sources: string[] = [];
    const prepare = Database.prototype.prepare;
    Database.prototype.prepare = function (this: Database.Database, source: string) {
      sources.push(source);
      return prepare.call(this, source);
    } as typeof prepare;
    const path = join(dir, 'plan.db');
    let store: ContactsStore;
    try {
      store = openContactsStore(path);
    } finally {
      Database.prototype.prepare = prepare;
    }
    try {
      const now = Math.floor(Date.now() / 1000);
      store.insertMany(
        'owner-a',
        Array.from({ length: 2000 }, (_, i) => ({
          username: `u${i}`,
          phoneNumber: `+1555${1000000 + i}`,
          avatarUrl: null,
          displayName: null,
          createdAt: now - i,
          lastActiveAt: i % 3 === 0 ? now : null,
        })),
      );
      expect(store.page('owner-a', { limit: 7 }).data).toHaveLength(7);
      // The list's body as SQLite makes it is the very text JSON.stringify makes of the rows.
      for (const query of [{ limit: 7 }, { limit: 7, active: true }, { limit: 100, active: false }]) {
        const page = store.page('owner-a', query);
        expect(store.pageBody('owner-a', query).toString()).toBe(JSON.stringify({ has_more: page.has_more, data: page.data }));
      }

      const pageSql = sources.filter((s) => /FROM contacts/.test(s) && /ORDER BY/.test(s));
      // Nine filters and directions, each as rows and as JSON.
      expect(pageSql.length).toBe(18);
      const db = new Database(path, { readonly: true });
      try {
        for (const sql of pageSql) {
          const plan = db
            .prepare(`EXPLAIN QUERY PLAN ${sql}`)
            .all({ owner: 'owner-a', take: 8, cursorCreatedAt: now - 1000, cursorId: 'ct_x' }) as { detail: string }[];
          const details = plan.map((row) => row.detail).join(' | ');
          expect(details, sql).toMatch(/SEARCH contacts USING (COVERING )?INDEX contacts_\w*in_order \(owner=\?/);
          expect(details, sql).not.toMatch(/TEMP B-TREE/);
          expect(details, sql).not.toMatch(/SCAN contacts/);
          expect(sql).not.toMatch(/\bOFFSET\b/i);
          if (/@cursorId/.test(sql)) expect(details, sql).toMatch(/\(created_at,id\)[<>]\(\?,\?\)/);
        }
      } finally {
        db.close();
      }
    } finally {
      store.close();
    }
  });

  it('the list body SQLite makes is byte for byte what JSON.stringify makes, whatever the text: accents, emoji, quotes, backslashes, U+2028', () => {
    const store = openContactsStore(join(dir, 'bytes.db'));
    try {
      const names = ['José Álvarez-Núñez', 'Family 👨‍👩‍👧‍👦', 'Quote "q" \\ back', '李伟', null, "O'Brien", 'emoji 🏄🏽', 'a\u00a0b', 'line\u2028sep'];
      store.insertMany('owner-b', names.map((displayName, i) => ({
        username: `u${i}`,
        phoneNumber: `+1555000${1000 + i}`,
        displayName,
        avatarUrl: i % 2 ? `https://x.example/${i}.png?a=1&b="2"` : null,
        createdAt: 1000 + i,
        lastActiveAt: i % 3 ? 2000 + i : null,
      })));
      for (const query of [{ limit: 3 }, { limit: 100 }, { limit: 5, active: true }, { limit: 5, active: false }]) {
        const page = store.page('owner-b', query);
        expect(store.pageBody('owner-b', query).toString()).toBe(JSON.stringify({ has_more: page.has_more, data: page.data }));
      }
    } finally {
      store.close();
    }
  });
});
