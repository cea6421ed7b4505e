// The contact index in the history file (src/store/contact-index.ts), on real SQLite files in temp
// directories: the order a search shows "where it is in the list" depends on (newest first, as the
// server pages), upserts that keep the latest fields, removal, and forgetUnseen, which must drop
// only what a finished walk did not see: a contact the dashboard created while the walk was on
// its way must survive it, or search loses what the user just made. Two users on one server are
// two lists that must never mix, and the token a list is kept under must never be written.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Contact } from '../../src/api/types.js';
import { contactIndexOf, type ContactIndex } from '../../src/store/contact-index.js';
import { contactsSource } from '../../src/store/history-source.js';
import { type HistoryStore, openHistoryStore } from '../../src/store/history-store.js';

const SERVER = 'http://contacts.example/api';
const TOKEN_A = 'token-of-user-a-0123456789abcdef';
const TOKEN_B = 'token-of-user-b-0123456789abcdef';
const A = contactsSource({ contactsUrl: SERVER, token: TOKEN_A });
const B = contactsSource({ contactsUrl: SERVER, token: TOKEN_B });

let dir: string;
let path: string;
let store: HistoryStore;
let index: ContactIndex;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tickbook-contact-index-'));
  path = join(dir, 'history.db');
  store = openHistoryStore(path);
  index = contactIndexOf(store);
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A contact created `createdS` seconds after the epoch (the API's times are whole seconds). */
function contact(id: string, createdS: number, fields: Partial<Contact> = {}): Contact {
  return {
    id,
    username: `user_${id}`,
    phoneNumber: `+1555000${String(createdS).padStart(4, '0')}`,
    avatarUrl: null,
    displayName: `Name ${id}`,
    conversationId: `conv_${id}`,
    lastActiveAt: null,
    createdAt: new Date(createdS * 1000),
    ...fields,
  };
}

const ids = (source: string): string[] => index.all(source).map((c) => c.id);

describe('the contact index', () => {
  it('gives every contact back whole, newest first, a tie in time broken by id as the server breaks it', () => {
    const older = contact('c_older', 100, { avatarUrl: 'https://img.example/o.png', lastActiveAt: new Date(150_000) });
    const newest = contact('c_newest', 300, { displayName: null });
    // Same second: the server orders (created_at DESC, id DESC), so c_tie_b comes before c_tie_a.
    const tieA = contact('c_tie_a', 200);
    const tieB = contact('c_tie_b', 200);
    // Put out of order, over two puts: the order is the index's, not the puts'.
    index.put(A, [tieA, older], 1);
    index.put(A, [newest, tieB], 2);
    expect(ids(A)).toEqual(['c_newest', 'c_tie_b', 'c_tie_a', 'c_older']);
    expect(index.count(A)).toBe(4);
    // Every field round-trips, the dates as dates and the missing ones as null.
    expect(index.all(A)[0]).toEqual(newest);
    expect(index.all(A)[3]).toEqual(older);
  });

  it('an unknown list is empty, and asking about it writes nothing', () => {
    expect(index.all(A)).toEqual([]);
    expect(index.count(A)).toBe(0);
    expect(index.forgetUnseen(A, Date.now())).toBe(0);
    index.remove(A, ['nobody']);
    index.put(A, [], 5);
    // None of the above made the source's row: nothing was put.
    expect(store.sourceId(A, false)).toBeUndefined();
  });

  it('a contact put again keeps the latest fields, once (a rename, a number changed, first activity)', () => {
    index.put(A, [contact('c1', 100), contact('c2', 90)], 1);
    const renamed = contact('c1', 100, {
      username: 'renamed_user',
      displayName: 'Zoë Renamed',
      phoneNumber: '+442079460999',
      avatarUrl: 'https://img.example/new.png',
      lastActiveAt: new Date(123_000),
    });
    index.put(A, [renamed], 2);
    expect(index.count(A)).toBe(2);
    expect(index.all(A)[0]).toEqual(renamed);
    // And back to no name: null is a value to keep, not "unchanged".
    index.put(A, [{ ...renamed, displayName: null, avatarUrl: null, lastActiveAt: null }], 3);
    expect(index.all(A)[0]).toMatchObject({ displayName: null, avatarUrl: null, lastActiveAt: null, username: 'renamed_user' });
  });

  it('removes the contacts named, and only those', () => {
    index.put(A, [contact('c1', 100), contact('c2', 90), contact('c3', 80)], 1);
    index.remove(A, ['c2', 'never-there']);
    expect(ids(A)).toEqual(['c1', 'c3']);
    index.remove(A, ['c1', 'c3']);
    expect(ids(A)).toEqual([]);
  });

  it('forgets only what the walk starting at T did not see: a put during the walk (seen after T) survives', () => {
    // The first walk, at t=1000, read three contacts.
    index.put(A, [contact('kept', 300), contact('gone', 200), contact('old', 100)], 1000);
    // The second walk starts at t=2000 and reads two pages: "gone" was deleted on the server.
    const walkStart = 2000;
    index.put(A, [contact('kept', 300)], walkStart);
    // While it walks, the dashboard creates one (seen now, after the walk began) and renames
    // one the walk has not reached yet (also seen now).
    index.put(A, [contact('created', 400)], 2500);
    index.put(A, [contact('old', 100, { displayName: 'Renamed Old' })], 2600);
    // A page of an older walk, written late, does not make what it carries look unseen.
    index.put(A, [contact('kept', 300)], 1000);
    expect(index.forgetUnseen(A, walkStart)).toBe(1);
    expect(ids(A)).toEqual(['created', 'kept', 'old']);
    expect(index.all(A)[2]!.displayName).toBe('Renamed Old');
    // A walk that saw everything forgets nothing.
    expect(index.forgetUnseen(A, walkStart)).toBe(0);
  });

  it('two users on one server are two lists: puts, removes and forgets of one never touch the other', () => {
    expect(A).not.toBe(B);
    // The same id in both (ids need not be unique across users): each keeps its own fields.
    index.put(A, [contact('shared', 100, { displayName: 'As A sees it' }), contact('only_a', 90)], 1000);
    index.put(B, [contact('shared', 100, { displayName: 'As B sees it' }), contact('only_b', 80)], 1000);
    expect(ids(A)).toEqual(['shared', 'only_a']);
    expect(ids(B)).toEqual(['shared', 'only_b']);
    expect(index.all(A)[0]!.displayName).toBe('As A sees it');
    expect(index.all(B)[0]!.displayName).toBe('As B sees it');

    index.put(A, [contact('shared', 100, { displayName: 'A renamed it' })], 1500);
    expect(index.all(B)[0]!.displayName).toBe('As B sees it');

    // A walk of A's list at 2000 that saw nothing: all of A is forgotten, none of B.
    expect(index.forgetUnseen(A, 2000)).toBe(2);
    expect(index.count(A)).toBe(0);
    expect(index.count(B)).toBe(2);

    index.remove(B, ['only_a', 'shared']);
    expect(ids(B)).toEqual(['only_b']);

    // Another server with the same token is another list too.
    const elsewhere = contactsSource({ contactsUrl: 'http://other.example/api', token: TOKEN_B });
    expect(elsewhere).not.toBe(B);
    expect(index.count(elsewhere)).toBe(0);
  });

  it('is kept in the history file (schema 6) under a hash of the token, never the token', () => {
    index.put(A, [contact('c1', 100, { displayName: 'Persisted Person' })], 1);
    store.close();
    const bytes = readFileSync(path).toString('latin1') + readWalIfAny();
    expect(bytes).not.toContain(TOKEN_A);
    expect(A).toMatch(/^contacts:http:\/\/contacts\.example\/api#[0-9a-f]{16}$/);

    store = openHistoryStore(path);
    index = contactIndexOf(store);
    expect(store.db.pragma('user_version', { simple: true })).toBe(7);
    expect(index.all(A).map((c) => c.displayName)).toEqual(['Persisted Person']);
  });
});

/** What a -wal file beside the history holds, if one was left (it is folded in on close). */
function readWalIfAny(): string {
  try {
    return readFileSync(`${path}-wal`).toString('latin1');
  } catch {
    return '';
  }
}
