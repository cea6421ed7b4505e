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
      const first = store.pageJson('owner-a', { limit: 10 });
      expect(first).toBe(expected(store, { limit: 10 }));
      expect(store.pageJson('owner-a', { limit: 10 })).toBe(first);
      const top = store.page('owner-a', { limit: 1 }).data[0]!;
      expect(store.getJson('owner-a', top.id)).toBe(JSON.stringify(top));
      // Kept for owner-a, it is still not owner-b's.
      expect(store.getJson('owner-b', top.id)).toBeUndefined();
      const after = store.page('owner-a', { limit: 10 }).data[9]!.id;
      expect(store.pageJson('owner-a', { limit: 10, startingAfter: after })).toBe(expected(store, { limit: 10, startingAfter: after }));
    } finally {
      store.close();
    }
  });

  it('a create, rename or delete by this store shows at once in the list and the GET', () => {
    const store = seeded(join(dir, 'a.db'));
    try {
      const [top, second] = store.page('owner-a', { limit: 2 }).data;
      store.pageJson('owner-a', { limit: 10 });
      const renamed = store.rename('owner-a', top!.id, 'Renamed here');
      expect(JSON.parse(renamed!).display_name).toBe('Renamed here');
      expect(store.getJson('owner-a', top!.id)).toBe(renamed);
      expect(store.pageJson('owner-a', { limit: 10 })).toBe(expected(store, { limit: 10 }));
      expect(store.pageJson('owner-a', { limit: 10 })).toContain('Renamed here');
      expect(store.delete('owner-a', second!.id)).toBe(true);
      expect(store.getJson('owner-a', second!.id)).toBeUndefined();
      expect(store.pageJson('owner-a', { limit: 10 })).not.toContain(second!.id);
      expect(store.pageJson('owner-a', { limit: 10 })).toBe(expected(store, { limit: 10 }));
      store.create('owner-a', { username: 'made_here', phoneNumber: '+15550008888', displayName: null, avatarUrl: null }, 20_000_000);
      expect(store.pageJson('owner-a', { limit: 10 })).toContain('made_here');
      expect(store.pageJson('owner-a', { limit: 10 })).toBe(expected(store, { limit: 10 }));
      // A page and its neighbour after a write: the cursor's page moved along.
      const tenth = store.page('owner-a', { limit: 10 }).data[9]!.id;
      expect(store.pageJson('owner-a', { limit: 5, startingAfter: tenth })).toBe(expected(store, { limit: 5, startingAfter: tenth }));
      store.delete('owner-a', tenth);
      expect(() => store.pageJson('owner-a', { limit: 5, startingAfter: tenth })).toThrow(/no contact/);
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
      served.pageJson('owner-a', { limit: 10 });
      served.getJson('owner-a', top!.id);

      other.rename('owner-a', top!.id, 'Renamed elsewhere');
      expect(JSON.parse(served.getJson('owner-a', top!.id)!).display_name).toBe('Renamed elsewhere');
      expect(served.pageJson('owner-a', { limit: 10 })).toContain('Renamed elsewhere');

      other.delete('owner-a', second!.id);
      expect(served.getJson('owner-a', second!.id)).toBeUndefined();
      expect(served.pageJson('owner-a', { limit: 10 })).toBe(expected(served, { limit: 10 }));

      other.create('owner-a', { username: 'newcomer', phoneNumber: '+15550009999', displayName: 'New', avatarUrl: null }, 10_000_000);
      expect(served.pageJson('owner-a', { limit: 10 })).toContain('newcomer');
      expect(served.pageJson('owner-a', { limit: 10 })).toBe(expected(served, { limit: 10 }));
    } finally {
      other.close();
      served.close();
    }
  });
});

describe('PageCache', () => {
  it('keeps pages up to its characters, oldest out first; a page larger than all of it is not kept', () => {
    const cache = new PageCache(10, () => 1);
    cache.check();
    let loads = 0;
    const load = (text: string) => () => (loads++, text);
    cache.get('p1', load('aaaa'));
    cache.get('p2', load('bbbb'));
    expect(cache.size).toEqual({ pages: 2, chars: 8 });
    cache.get('p3', load('cccc'));
    expect(cache.size).toEqual({ pages: 2, chars: 8 });
    expect(cache.get('p3', load('never'))).toBe('cccc');
    expect(cache.get('p1', load('aaaa'))).toBe('aaaa');
    expect(loads).toBe(4);
    expect(cache.get('big', load('x'.repeat(11)))).toBe('x'.repeat(11));
    expect(cache.get('big', load('x'.repeat(11)))).toBe('x'.repeat(11));
    expect(loads).toBe(6);
    expect(cache.size.chars).toBeLessThanOrEqual(10);
  });

  it('drops everything when the data version moves, or when told', () => {
    let version = 1;
    const cache = new PageCache(100, () => version);
    cache.check();
    cache.get('p', () => 'page');
    cache.check();
    expect(cache.get('p', () => 'never')).toBe('page');
    version = 2;
    cache.check();
    expect(cache.get('p', () => 'page 2')).toBe('page 2');
    cache.drop();
    expect(cache.size).toEqual({ pages: 0, chars: 0 });
    expect(cache.get('p', () => 'page 3')).toBe('page 3');
  });
});
