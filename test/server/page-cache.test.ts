// The sandbox's page cache (src/server/page-cache.ts): what the list and a contact's GET
// answer stays what the database holds, whoever wrote it: this store, or another connection (as
// a second process would).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openContactsStore, type ContactsStore } from '../../src/server/contacts-store.js';
import { PageCache } from '../../src/server/page-cache.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tickbook-rowjson-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true, maxRetries: 5 }));

function seeded(path: string): ContactsStore {
  const store = openContactsStore(path);
  store.insertMany('owner-a', Array.from({ length: 30 }, (_, i) => ({
    username: `u${i}`,
    phoneNumber: `+1555${1000000 + i}`,
    avatarUrl: null,
    displayName: `Name ${i}`,
    createdAt: 1000 + i,
    lastActiveAt: i % 2 ? 2000 + i : null,
  })));
  return store;
}

/** The reference: the page as rows, stringified by JSON. */
function expected(store: ContactsStore, query: { limit: number; active?: boolean; startingAfter?: string }): string {
  const page = store.page('owner-a', query);
  return JSON.stringify({ has_more: page.has_more, data: page.data });
}

describe('the sandbox store with its page cache', () => {
  it('pages read twice are the same bytes, and a contact GET is that contact\'s text', () => {
    const store = seeded(join(dir, 'a.db'));
    try {
      const first = store.pageBody('owner-a', { limit: 10 }).toString();
      expect(first).toBe(expected(store, { limit: 10 }));
      expect(store.pageBody('owner-a', { limit: 10 }).toString()).toBe(first);
      const top = store.page('owner-a', { limit: 1 }).data[0]!;
      expect(store.getJson('owner-a', top.id)).toBe(JSON.stringify(top));
      // Kept for owner-a, it is still not owner-b's.
      expect(store.getJson('owner-b', top.id)).toBeUndefined();
      const after = store.page('owner-a', { limit: 10 }).data[9]!.id;
      // A page kept for one cursor does not answer a query with both.
      store.pageBody('owner-a', { limit: 10, startingAfter: after });
      expect(() => store.pageBody('owner-a', { limit: 10, startingAfter: after, endingBefore: after })).toThrow(/cannot be used together/);
      expect(store.pageBody('owner-a', { limit: 10, startingAfter: after }).toString()).toBe(expected(store, { limit: 10, startingAfter: after }));
    } finally {
      store.close();
    }
  });

  it('a create, rename or delete by this store shows at once in the list and the GET', () => {
    const store = seeded(join(dir, 'a.db'));
    try {
      const [top, second] = store.page('owner-a', { limit: 2 }).data;
      store.pageBody('owner-a', { limit: 10 }).toString();
      const renamed = store.rename('owner-a', top!.id, 'Renamed here');
      expect(JSON.parse(renamed!).display_name).toBe('Renamed here');
      expect(store.getJson('owner-a', top!.id)).toBe(renamed);
      expect(store.pageBody('owner-a', { limit: 10 }).toString()).toBe(expected(store, { limit: 10 }));
      expect(store.pageBody('owner-a', { limit: 10 }).toString()).toContain('Renamed here');
      expect(store.delete('owner-a', second!.id)).toBe(true);
      expect(store.getJson('owner-a', second!.id)).toBeUndefined();
      expect(store.pageBody('owner-a', { limit: 10 }).toString()).not.toContain(second!.id);
      expect(store.pageBody('owner-a', { limit: 10 }).toString()).toBe(expected(store, { limit: 10 }));
      store.create('owner-a', { username: 'made_here', phoneNumber: '+15550008888', displayName: null, avatarUrl: null }, 20_000_000);
      expect(store.pageBody('owner-a', { limit: 10 }).toString()).toContain('made_here');
      expect(store.pageBody('owner-a', { limit: 10 }).toString()).toBe(expected(store, { limit: 10 }));
      // A page and its neighbour after a write: the cursor's page moved along.
      const tenth = store.page('owner-a', { limit: 10 }).data[9]!.id;
      expect(store.pageBody('owner-a', { limit: 5, startingAfter: tenth }).toString()).toBe(expected(store, { limit: 5, startingAfter: tenth }));
      store.delete('owner-a', tenth);
      expect(() => store.pageBody('owner-a', { limit: 5, startingAfter: tenth }).toString()).toThrow(/no contact/);
    } finally {
      store.close();
    }
  });

  it('a rename, delete or create by another connection on the same file shows at the next read', () => {
    const path = join(dir, 'shared.db');
    const served = seeded(path);
    const other = openContactsStore(path);
    try {
      const [top, second] = served.page('owner-a', { limit: 2 }).data;
      served.pageBody('owner-a', { limit: 10 }).toString();
      served.getJson('owner-a', top!.id);

      other.rename('owner-a', top!.id, 'Renamed elsewhere');
      expect(JSON.parse(served.getJson('owner-a', top!.id)!).display_name).toBe('Renamed elsewhere');
      expect(served.pageBody('owner-a', { limit: 10 }).toString()).toContain('Renamed elsewhere');

      other.delete('owner-a', second!.id);
      expect(served.getJson('owner-a', second!.id)).toBeUndefined();
      expect(served.pageBody('owner-a', { limit: 10 }).toString()).toBe(expected(served, { limit: 10 }));

      other.create('owner-a', { username: 'newcomer', phoneNumber: '+15550009999', displayName: 'New', avatarUrl: null }, 10_000_000);
      expect(served.pageBody('owner-a', { limit: 10 }).toString()).toContain('newcomer');
      expect(served.pageBody('owner-a', { limit: 10 }).toString()).toBe(expected(served, { limit: 10 }));
    } finally {
      other.close();
      served.close();
    }
  });
});

describe('PageCache', () => {
  const text = (b: Buffer) => b.toString('utf8');
  it('keeps pages up to its bytes, oldest out first; a page larger than all of it is not kept', () => {
    const cache = new PageCache(10, () => 1);
    cache.check();
    let loads = 0;
    const load = (page: string) => () => (loads++, Buffer.from(page));
    cache.get('p1', load('aaaa'));
    cache.get('p2', load('bbbb'));
    expect(cache.size).toEqual({ pages: 2, bytes: 8 });
    cache.get('p3', load('cccc'));
    expect(cache.size).toEqual({ pages: 2, bytes: 8 });
    expect(text(cache.get('p3', load('never')))).toBe('cccc');
    expect(text(cache.get('p1', load('aaaa')))).toBe('aaaa');
    expect(loads).toBe(4);
    // Bytes, not characters: two é are four bytes.
    cache.drop();
    cache.get('e', load('éé'));
    expect(cache.size).toEqual({ pages: 1, bytes: 4 });
    expect(text(cache.get('big', load('x'.repeat(11))))).toBe('x'.repeat(11));
    expect(text(cache.get('big', load('x'.repeat(11))))).toBe('x'.repeat(11));
    expect(loads).toBe(7);
    expect(cache.size.bytes).toBeLessThanOrEqual(10);
  });

  it('drops everything when the data version moves, or when told', () => {
    let version = 1;
    const cache = new PageCache(100, () => version);
    cache.check();
    cache.get('p', () => Buffer.from('page'));
    cache.check();
    expect(text(cache.get('p', () => Buffer.from('never')))).toBe('page');
    version = 2;
    cache.check();
    expect(text(cache.get('p', () => Buffer.from('page 2')))).toBe('page 2');
    cache.drop();
    expect(cache.size).toEqual({ pages: 0, bytes: 0 });
    expect(text(cache.get('p', () => Buffer.from('page 3')))).toBe('page 3');
  });
});
