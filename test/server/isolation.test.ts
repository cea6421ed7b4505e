// Each bearer token is one user: another user's contacts are invisible (404, never 403) and
// untouchable, and usernames are unique only within one user's list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContactRecord } from '../../src/server/contacts-schema.js';
import { call, client, expectError, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

type Api = ReturnType<typeof client>;

async function listAll(api: Api, filter = ''): Promise<ContactRecord[]> {
  const all: ContactRecord[] = [];
  let query = `?limit=100${filter}`;
  for (;;) {
    const reply = await api.list(query);
    expect(reply.status, reply.text).toBe(200);
    all.push(...(reply.json.data as ContactRecord[]));
    if (!reply.json.has_more) return all;
    query = `?limit=100${filter}&starting_after=${all.at(-1)!.id}`;
  }
}

describe('two users on one sandbox', () => {
  let sandbox: TestSandbox;
  let a: Api;
  let b: Api;
  let aliceOfA: ContactRecord;

  beforeAll(async () => {
    sandbox = await startTestSandbox({ tokens: ['token-a', 'token-b'] });
    a = client(sandbox, 'token-a');
    b = client(sandbox, 'token-b');
    const reply = await a.create({
      username: 'alice',
      phone_number: '+44 20 7946-0958',
      display_name: 'Alice of A',
      avatar_url: 'https://example.com/alice.png',
    });
    expect(reply.status, reply.text).toBe(201);
    aliceOfA = reply.json as ContactRecord;
    for (let i = 0; i < 3; i++) {
      expect((await a.create({ username: `a_friend_${i}`, phone_number: `+3361234567${i}` })).status).toBe(201);
    }
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it("B's list does not hold A's contacts, A's does", async () => {
    const ofA = await listAll(a);
    expect(ofA.map((c) => c.id)).toContain(aliceOfA.id);
    expect(ofA).toHaveLength(4);
    const ofB = await listAll(b);
    expect(ofB).toEqual([]);
    for (const filter of ['&active=false', '&active=true']) {
      expect((await listAll(b, filter)).map((c) => c.id)).not.toContain(aliceOfA.id);
    }
  });

  it("B gets 404 not_found for A's contact on get, rename and delete", async () => {
    expectError(await b.get(aliceOfA.id), 404, 'not_found');
    expectError(await b.rename(aliceOfA.id, { display_name: 'Hijacked' }), 404, 'not_found');
    expectError(await b.remove(aliceOfA.id), 404, 'not_found');
    // The same answer as an id that exists nowhere, so B learns nothing about A's ids.
    expectError(await b.get('ct_doesnotexist'), 404, 'not_found');
  });

  it("B cannot use A's contact as a list cursor", async () => {
    expectError(await b.list(`?starting_after=${aliceOfA.id}`), 400, 'invalid_parameters');
    expectError(await b.list(`?ending_before=${aliceOfA.id}`), 400, 'invalid_parameters');
  });

  it("A's contact is unchanged afterwards", async () => {
    const reply = await a.get(aliceOfA.id);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json).toEqual(aliceOfA);
    expect(reply.json.display_name).toBe('Alice of A');
    expect((await listAll(a)).find((c) => c.id === aliceOfA.id)).toEqual(aliceOfA);
  });

  it('the same username may be in both lists, but only once in each (case-insensitively)', async () => {
    const bobOfA = await a.create({ username: 'bob', phone_number: '+14155550101' });
    expect(bobOfA.status, bobOfA.text).toBe(201);
    const bobOfB = await b.create({ username: 'bob', phone_number: '+14155550102' });
    expect(bobOfB.status, bobOfB.text).toBe(201);
    const aliceOfB = await b.create({ username: 'ALICE', phone_number: '+14155550103' });
    expect(aliceOfB.status, aliceOfB.text).toBe(201);
    expect(bobOfB.json.id).not.toBe(bobOfA.json.id);
    expect(bobOfB.json.conversation_id).not.toBe(bobOfA.json.conversation_id);

    expectError(await a.create({ username: 'Bob', phone_number: '+14155550104' }), 409, 'duplicate_contact');
    expectError(await b.create({ username: 'alice', phone_number: '+14155550105' }), 409, 'duplicate_contact');

    // Each user sees only their own bob, and deleting B's leaves A's.
    expect((await listAll(b)).map((c) => c.username).sort()).toEqual(['ALICE', 'bob']);
    expect((await b.remove(bobOfB.json.id)).status).toBe(200);
    const stillThere = await a.get(bobOfA.json.id);
    expect(stillThere.status).toBe(200);
    expect(stillThere.json).toEqual(bobOfA.json);
    expectError(await a.get(bobOfB.json.id), 404, 'not_found');
  });

  it('an unknown token is 401 unauthorized, not an empty list', async () => {
    expectError(await call(sandbox.contactsUrl, '/v1/contacts', { auth: 'Bearer token-c' }), 401, 'unauthorized');
    expectError(await call(sandbox.contactsUrl, `/v1/contacts/${aliceOfA.id}`, { auth: 'Bearer token-c' }), 401, 'unauthorized');
    // The default demo token is not accepted when tokens are given.
    expectError(await call(sandbox.contactsUrl, '/v1/contacts', { auth: 'Bearer demo-token' }), 401, 'unauthorized');
  });
});
