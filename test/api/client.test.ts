// TickbookClient against the real sandbox, in-process on port 0: every method, the cursors in
// both directions, the error kinds the sandbox's answers become, batching of long watchlists.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TickbookClient, type ClientOptions } from '../../src/api/client.js';
import { ApiError, type ApiErrorKind } from '../../src/api/errors.js';
import { contactName, type Contact, type ContactPage, type PageQuery } from '../../src/api/types.js';
import { loadCatalogue } from '../../src/server/catalogue.js';
import { startTestSandbox, type TestSandbox, UUID } from '../helpers/sandbox.js';

const clients: TickbookClient[] = [];

function clientFor(sandbox: TestSandbox, options: Partial<ClientOptions> = {}): TickbookClient {
  const client = new TickbookClient({
    contactsUrl: sandbox.contactsUrl,
    marketDataUrl: sandbox.marketDataUrl,
    token: sandbox.token,
    apiKey: sandbox.apiKey,
    retry: { retries: 0 },
    ...options,
  });
  clients.push(client);
  return client;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

/** The ApiError a call rejects with; fails the test when it resolves or throws something else. */
async function apiError(promise: Promise<unknown>, kind: ApiErrorKind): Promise<ApiError> {
  let caught: unknown;
  try {
    const value = await promise;
    throw new Error(`expected an ApiError of kind ${kind}, the call resolved with ${JSON.stringify(value)?.slice(0, 300)}`);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ApiError);
  const error = caught as ApiError;
  expect(error.kind, error.message).toBe(kind);
  return error;
}

/** Request lines the sandbox logged since `from` for a method and path (query ignored). */
function logged(sandbox: TestSandbox, from: number, method: string, path: string): string[] {
  return sandbox.logLines.slice(from).filter((line) => {
    const [, m, p] = line.split(' ');
    return m === method && p?.split('?')[0] === path;
  });
}

function ids(contacts: readonly Contact[]): string[] {
  return contacts.map((c) => c.id);
}

function expectContactShape(contact: Contact): void {
  expect(contact.id).toMatch(/^ct_/);
  expect(contact.conversationId).toMatch(/^cv_/);
  expect(contact.createdAt).toBeInstanceOf(Date);
  expect(Number.isNaN(contact.createdAt.getTime())).toBe(false);
  if (contact.lastActiveAt !== null) expect(contact.lastActiveAt).toBeInstanceOf(Date);
  expect(contact.displayName === null || typeof contact.displayName === 'string').toBe(true);
}

/** Newest first: created_at descending, then id descending (byte order). */
function expectListOrder(contacts: readonly Contact[]): void {
  for (let i = 1; i < contacts.length; i++) {
    const a = contacts[i - 1]!;
    const b = contacts[i]!;
    const inOrder = a.createdAt.getTime() > b.createdAt.getTime() || (a.createdAt.getTime() === b.createdAt.getTime() && a.id > b.id);
    expect(inOrder, `${a.id} before ${b.id}`).toBe(true);
  }
}

describe('contact list against the demo sandbox', () => {
  let sandbox: TestSandbox;
  let client: TickbookClient;
  /** The whole list in one page (the demo data has fewer than 100 contacts). */
  let everyone: Contact[];

  beforeAll(async () => {
    sandbox = await startTestSandbox({ demoData: true });
    const reference = new TickbookClient({
      contactsUrl: sandbox.contactsUrl,
      marketDataUrl: sandbox.marketDataUrl,
      token: sandbox.token,
      apiKey: sandbox.apiKey,
    });
    try {
      const page = await reference.listContacts({ limit: 100 });
      expect(page.hasMore).toBe(false);
      everyone = page.contacts;
    } finally {
      await reference.close();
    }
    expect(everyone.length).toBeGreaterThan(30);
    expect(everyone.length).toBeLessThan(100);
  });

  afterAll(async () => {
    await sandbox?.close();
  });

  beforeEach(() => {
    client = clientFor(sandbox);
  });

  it('lists the first page: default limit 10, newest first, typed contacts, no previous', async () => {
    const page = await client.listContacts();
    expect(page.contacts).toHaveLength(10);
    expect(page.hasMore).toBe(true);
    expect(ids(page.contacts)).toEqual(ids(everyone.slice(0, 10)));
    expect(page.previous).toBeUndefined();
    expect(page.next).toEqual({ startingAfter: page.contacts[9]!.id });
    for (const contact of page.contacts) expectContactShape(contact);
    expectListOrder(page.contacts);
    // The demo data holds contacts without a display name: null stays null, contactName fills in.
    const unnamed = everyone.filter((c) => c.displayName === null);
    const named = everyone.filter((c) => c.displayName !== null);
    expect(unnamed.length).toBeGreaterThan(0);
    expect(named.length).toBeGreaterThan(0);
    for (const c of unnamed) expect(contactName(c)).toBe(c.username);
    for (const c of named) expect(contactName(c)).toBe(c.displayName);
    // Seconds from the server, read as seconds: the demo contacts were created within the last half year.
    const now = Date.now();
    for (const c of everyone) {
      expect(c.createdAt.getTime()).toBeLessThanOrEqual(now + 1000);
      expect(c.createdAt.getTime()).toBeGreaterThan(now - 200 * 86_400_000);
    }
  });

  it('walks forward with next and back with previous, each page the same both ways', async () => {
    const limit = 7;
    const forward: ContactPage[] = [];
    let query: PageQuery | undefined = { limit };
    while (query) {
      expect(forward.length, 'the forward walk does not end').toBeLessThan(50);
      const page: ContactPage = await client.listContacts(query);
      forward.push(page);
      query = page.next;
    }
    const pageCount = Math.ceil(everyone.length / limit);
    expect(forward).toHaveLength(pageCount);
    expect(forward.flatMap((p) => ids(p.contacts))).toEqual(ids(everyone));
    for (const [n, page] of forward.entries()) {
      expect(page.contacts.length, `page ${n}`).toBe(n < pageCount - 1 ? limit : everyone.length - limit * (pageCount - 1));
      expect(page.hasMore, `page ${n} hasMore`).toBe(n < pageCount - 1);
      if (n === 0) expect(page.previous, 'first page previous').toBeUndefined();
      else expect(page.previous, `page ${n} previous`).toEqual({ limit, endingBefore: page.contacts[0]!.id });
      if (n === pageCount - 1) expect(page.next, 'last page next').toBeUndefined();
      else expect(page.next, `page ${n} next`).toEqual({ limit, startingAfter: page.contacts.at(-1)!.id });
    }

    // `previous` after going forward gives exactly the page before.
    for (let n = 1; n < pageCount; n++) {
      const back = await client.listContacts(forward[n]!.previous!);
      expect(ids(back.contacts), `previous of page ${n}`).toEqual(ids(forward[n - 1]!.contacts));
    }

    // Walk all the way back from the last page.
    const backward: ContactPage[] = [];
    query = forward.at(-1)!.previous;
    while (query) {
      expect(backward.length, 'the backward walk does not end').toBeLessThan(50);
      const page: ContactPage = await client.listContacts(query);
      backward.push(page);
      query = page.previous;
    }
    expect(backward).toHaveLength(pageCount - 1);
    backward.reverse();
    for (let n = 0; n < pageCount - 1; n++) {
      const page = backward[n]!;
      expect(ids(page.contacts), `page ${n} walking back`).toEqual(ids(forward[n]!.contacts));
      expectListOrder(page.contacts);
      expect(page.hasMore, `page ${n} walking back hasMore`).toBe(n > 0);
      if (n === 0) expect(page.previous).toBeUndefined();
      // `next` after coming back gives exactly the page after.
      expect(page.next, `page ${n} walking back next`).toEqual({ limit, startingAfter: page.contacts.at(-1)!.id });
      const after = await client.listContacts(page.next!);
      expect(ids(after.contacts), `next of page ${n} after coming back`).toEqual(ids(forward[n + 1]!.contacts));
    }
  });

  it('allContacts yields every contact once, in order, a page of 7 per request', async () => {
    const from = sandbox.logLines.length;
    const seen: string[] = [];
    for await (const contact of client.allContacts({ limit: 7 })) seen.push(contact.id);
    expect(seen).toEqual(ids(everyone));
    expect(new Set(seen).size).toBe(seen.length);
    // The sandbox logs each request once the response has finished.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(logged(sandbox, from, 'GET', '/v1/contacts')).toHaveLength(Math.ceil(everyone.length / 7));
  });

  it('allContacts stops fetching when the caller stops iterating', async () => {
    const from = sandbox.logLines.length;
    const seen: string[] = [];
    for await (const contact of client.allContacts({ limit: 7 })) {
      seen.push(contact.id);
      if (seen.length === 10) break;
    }
    expect(seen).toEqual(ids(everyone.slice(0, 10)));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(logged(sandbox, from, 'GET', '/v1/contacts')).toHaveLength(2);
  });

  it('filters by activity, keeping the filter on every cursor', async () => {
    const active = everyone.filter((c) => c.lastActiveAt !== null);
    const inactive = everyone.filter((c) => c.lastActiveAt === null);
    expect(active.length).toBeGreaterThan(7);
    expect(inactive.length).toBeGreaterThan(7);

    const first = await client.listContacts({ limit: 5, active: true });
    expect(ids(first.contacts)).toEqual(ids(active.slice(0, 5)));
    expect(first.next).toEqual({ limit: 5, active: true, startingAfter: first.contacts[4]!.id });

    const seenActive: Contact[] = [];
    for await (const c of client.allContacts({ limit: 7, active: true })) seenActive.push(c);
    expect(ids(seenActive)).toEqual(ids(active));
    for (const c of seenActive) {
      expect(c.lastActiveAt).toBeInstanceOf(Date);
      expect(c.lastActiveAt!.getTime()).toBeGreaterThanOrEqual(c.createdAt.getTime());
    }

    const seenInactive: Contact[] = [];
    for await (const c of client.allContacts({ limit: 7, active: false })) seenInactive.push(c);
    expect(ids(seenInactive)).toEqual(ids(inactive));
    for (const c of seenInactive) expect(c.lastActiveAt).toBeNull();

    // Back from the second page of the filtered list.
    const second = await client.listContacts(first.next!);
    expect(second.previous).toEqual({ limit: 5, active: true, endingBefore: second.contacts[0]!.id });
    const back = await client.listContacts(second.previous!);
    expect(ids(back.contacts)).toEqual(ids(first.contacts));
  });

  it('turns a bad limit or an unknown cursor into kind invalid naming the field', async () => {
    const limit = await apiError(client.listContacts({ limit: 101 }), 'invalid');
    expect(limit.status).toBe(400);
    expect(limit.code).toBe('invalid_parameters');
    expect(limit.field).toBe('limit');
    expect(limit.requestId).toMatch(UUID);
    const cursor = await apiError(client.listContacts({ startingAfter: 'ct_nosuchcontact' }), 'invalid');
    expect(cursor.status).toBe(400);
  });
});

describe('contact operations against a fresh sandbox', () => {
  let sandbox: TestSandbox;
  let client: TickbookClient;

  beforeAll(async () => {
    sandbox = await startTestSandbox({ demoData: false, tokens: ['alpha-user-token', 'beta-user-token'] });
  });

  afterAll(async () => {
    await sandbox?.close();
  });

  beforeEach(() => {
    client = clientFor(sandbox);
  });

  it('creates, gets, renames, resets and deletes a contact; afterwards it is not found', async () => {
    const before = Date.now();
    const created = await client.createContact({
      username: 'grace.hopper',
      phoneNumber: '+44 20 7946-0958',
      displayName: 'Grace',
      avatarUrl: 'https://example.com/grace.png',
    });
    expectContactShape(created);
    expect(created).toMatchObject({
      username: 'grace.hopper',
      phoneNumber: '+442079460958',
      displayName: 'Grace',
      avatarUrl: 'https://example.com/grace.png',
      lastActiveAt: null,
    });
    // Seconds on the wire become the right Date.
    expect(created.createdAt.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(created.createdAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);

    const got = await client.getContact(created.id);
    expect(got).toEqual(created);

    const renamed = await client.updateContact(created.id, 'Amazing Grace');
    expect(renamed).toEqual({ ...created, displayName: 'Amazing Grace' });
    expect(contactName(renamed)).toBe('Amazing Grace');
    expect((await client.getContact(created.id)).displayName).toBe('Amazing Grace');

    const reset = await client.updateContact(created.id, null);
    expect(reset.displayName).toBeNull();
    expect(contactName(reset)).toBe('grace.hopper');
    expect((await client.getContact(created.id)).displayName).toBeNull();

    await client.updateContact(created.id, 'Again');
    const emptied = await client.updateContact(created.id, '');
    expect(emptied.displayName).toBeNull();
    expect(contactName(emptied)).toBe('grace.hopper');

    const listed = await client.listContacts();
    expect(ids(listed.contacts)).toContain(created.id);

    const deleted = await client.deleteContact(created.id);
    expect(deleted).toEqual({ id: created.id, deleted: true });

    const gone = await apiError(client.getContact(created.id), 'not_found');
    expect(gone.status).toBe(404);
    expect(gone.code).toBe('not_found');
    expect(gone.requestId).toMatch(UUID);
    expect((await apiError(client.deleteContact(created.id), 'not_found')).status).toBe(404);
    expect((await apiError(client.updateContact(created.id, 'x'), 'not_found')).status).toBe(404);
    expect(ids((await client.listContacts()).contacts)).not.toContain(created.id);
  });

  it('creates without a display name: null on the wire stays null, the username is shown', async () => {
    const created = await client.createContact({ username: 'linus', phoneNumber: '+15550100200' });
    expect(created.displayName).toBeNull();
    expect(created.avatarUrl).toBeNull();
    expect(contactName(created)).toBe('linus');
    expect((await client.getContact(created.id)).displayName).toBeNull();
  });

  it('an unknown contact id is not_found, and so is another user\'s contact', async () => {
    const missing = await apiError(client.getContact('ct_doesnotexist'), 'not_found');
    expect(missing.status).toBe(404);
    const mine = await client.createContact({ username: 'private.person', phoneNumber: '+15550100250' });
    const other = clientFor(sandbox, { token: 'beta-user-token' });
    expect((await apiError(other.getContact(mine.id), 'not_found')).status).toBe(404);
    await apiError(other.updateContact(mine.id, 'hijacked'), 'not_found');
    await apiError(other.deleteContact(mine.id), 'not_found');
    expect(ids((await other.listContacts({ limit: 100 })).contacts)).not.toContain(mine.id);
    expect((await client.getContact(mine.id)).displayName).toBeNull();
  });

  it('a duplicate username (any case) is a conflict', async () => {
    await client.createContact({ username: 'Ada_Lovelace', phoneNumber: '+15550100300' });
    const duplicate = await apiError(client.createContact({ username: 'ada_lovelace', phoneNumber: '+15550100301' }), 'conflict');
    expect(duplicate.status).toBe(409);
    expect(duplicate.code).toBe('duplicate_contact');
    expect(duplicate.requestId).toMatch(UUID);
  });

  it('an invalid phone number is kind invalid, naming phone_number, refused by the client without a request', async () => {
    const from = sandbox.logLines.length;
    const error = await apiError(client.createContact({ username: 'badphone', phoneNumber: '12345' }), 'invalid');
    expect(error.status).toBe(0);
    expect(error.field).toBe('phone_number');
    expect(error.message).toMatch(/phone_number/);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(logged(sandbox, from, 'POST', '/v1/contacts')).toHaveLength(0);
  });

  it("the server's 400 for a field is kind invalid with its code, naming the field", async () => {
    const from = sandbox.logLines.length;
    const error = await apiError(client.createContact({ username: 'bad user!', phoneNumber: '+15550100399' }), 'invalid');
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_parameters');
    expect(error.field).toBe('username');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(logged(sandbox, from, 'POST', '/v1/contacts')).toHaveLength(1);
  });

  it('a missing username is kind invalid naming username; a bad display name on rename names display_name', async () => {
    const missing = await apiError(client.createContact({ username: '', phoneNumber: '+15550100400' }), 'invalid');
    expect(missing.code).toBe('missing_parameters');
    expect(missing.field).toBe('username');
    const created = await client.createContact({ username: 'renamed', phoneNumber: '+15550100401' });
    const tooLong = await apiError(client.updateContact(created.id, 'x'.repeat(65)), 'invalid');
    expect(tooLong.field).toBe('display_name');
  });

  it('an unknown bearer token is kind auth, and the token is not in the message', async () => {
    const stranger = clientFor(sandbox, { token: 'not-a-real-token-42' });
    const error = await apiError(stranger.listContacts(), 'auth');
    expect(error.status).toBe(401);
    expect(error.code).toBe('unauthorized');
    expect(error.message).not.toContain('not-a-real-token-42');
    await apiError(stranger.createContact({ username: 'x', phoneNumber: '+15550100500' }), 'auth');
  });

  it('no token at all is kind auth without sending anything', async () => {
    const from = sandbox.logLines.length;
    const anonymous = clientFor(sandbox, { token: undefined });
    await apiError(anonymous.listContacts(), 'auth');
    const keyless = clientFor(sandbox, { apiKey: undefined });
    await apiError(keyless.listSymbols(), 'auth');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sandbox.logLines.slice(from)).toEqual([]);
  });

  it('the restricted market key is kind auth for pricing and symbols, and is not in the message', async () => {
    const restricted = clientFor(sandbox, { apiKey: 'demo-restricted-key' });
    const pricing = await apiError(restricted.realtimePricing(['AAPL']), 'auth');
    expect(pricing.status).toBe(401);
    expect(pricing.code).toBe('permission_error');
    expect(pricing.message).not.toContain('demo-restricted-key');
    const symbols = await apiError(restricted.listSymbols(), 'auth');
    expect(symbols.code).toBe('permission_error');
    // The bearer token is not a market key: the market group never hears "Bearer".
    const tokenAsKey = clientFor(sandbox, { apiKey: sandbox.token });
    await apiError(tokenAsKey.listSymbols(), 'auth');
  });

  it('prices a 250-symbol watchlist in 3 requests, quotes and unknowns in watchlist order', async () => {
    const catalogue = loadCatalogue();
    const known = new Set(catalogue.map((l) => l.symbol));
    const picked = catalogue.filter((_, i) => i % 2 === 0).slice(0, 245).map((l) => l.symbol);
    expect(picked).toHaveLength(245);
    const unknowns = ['ZZZZQ', 'NOSUCH.X', 'QWERTY9', 'XXXX-Y'];
    for (const u of unknowns) expect(known.has(u)).toBe(false);
    const watchlist: string[] = [...picked];
    watchlist.splice(3, 0, 'ZZZZQ');
    watchlist.splice(60, 0, 'A$B');
    watchlist.splice(120, 0, 'NOSUCH.X');
    watchlist.splice(200, 0, 'QWERTY9');
    watchlist.push('XXXX-Y');
    // A few in another case and with spaces: normalised, still priced.
    watchlist[10] = ` ${watchlist[10]!.toLowerCase()} `;
    watchlist[150] = watchlist[150]!.toLowerCase();
    expect(watchlist).toHaveLength(250);
    const normalised = watchlist.map((s) => s.trim().toUpperCase());

    const from = sandbox.logLines.length;
    const before = Date.now();
    const result = await client.realtimePricing(watchlist);
    expect(result.symbols).toEqual(normalised);
    expect(result.quotes.map((q) => q.symbol)).toEqual(normalised.filter((s) => known.has(s)));
    expect(result.quotes).toHaveLength(245);
    expect(result.unknown).toEqual(['ZZZZQ', 'A$B', 'NOSUCH.X', 'QWERTY9', 'XXXX-Y']);
    for (const quote of result.quotes) {
      expect(quote.price, quote.symbol).toBeGreaterThan(0);
      expect(Number.isInteger(quote.volume), quote.symbol).toBe(true);
      expect(quote.volume).toBeGreaterThanOrEqual(0);
    }
    expect(result.requestTime).toBeInstanceOf(Date);
    expect(result.requestTime.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(result.requestTime.getTime()).toBeLessThanOrEqual(Date.now() + 1000);

    await new Promise((resolve) => setTimeout(resolve, 20));
    const requests = logged(sandbox, from, 'POST', '/v1/utilities/stock/realtime-pricing');
    expect(requests).toHaveLength(3);
    for (const line of requests) expect(line.split(' ')[3], line).toBe('200');
  });

  it('prices a short watchlist in one request; an empty one sends nothing', async () => {
    const from = sandbox.logLines.length;
    const result = await client.realtimePricing(['msft', 'AAPL', 'MSFT', 'VOD.L', 'NOPE']);
    expect(result.symbols).toEqual(['MSFT', 'AAPL', 'VOD.L', 'NOPE']);
    expect(result.quotes.map((q) => q.symbol)).toEqual(['MSFT', 'AAPL', 'VOD.L']);
    expect(result.unknown).toEqual(['NOPE']);
    const empty = await client.realtimePricing([]);
    expect(empty.quotes).toEqual([]);
    expect(empty.unknown).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(logged(sandbox, from, 'POST', '/v1/utilities/stock/realtime-pricing')).toHaveLength(1);
  });

  it('lists the whole symbol catalogue', async () => {
    const symbols = await client.listSymbols();
    expect(symbols.length).toBeGreaterThanOrEqual(400);
    expect(symbols.length).toBe(loadCatalogue().length);
    const bySymbol = new Map(symbols.map((s) => [s.symbol, s.name]));
    expect(bySymbol.get('AAPL')).toBe('Apple Inc.');
    for (const s of ['MSFT', 'VOD.L', 'SHOP.TO', 'SAP.DE', '7203.T']) expect(bySymbol.has(s), s).toBe(true);
    for (const s of symbols) expect(s.name.length, s.symbol).toBeGreaterThan(0);
  });

  it('an already aborted signal rejects with an AbortError and sends nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    const signal = controller.signal;
    const from = sandbox.logLines.length;
    const calls: Array<[string, () => Promise<unknown>]> = [
      ['listContacts', () => client.listContacts({}, { signal })],
      ['createContact', () => client.createContact({ username: 'never_sent', phoneNumber: '+15550100600' }, { signal })],
      ['getContact', () => client.getContact('ct_x', { signal })],
      ['updateContact', () => client.updateContact('ct_x', 'y', { signal })],
      ['deleteContact', () => client.deleteContact('ct_x', { signal })],
      ['realtimePricing', () => client.realtimePricing(['AAPL'], { signal })],
      ['listSymbols', () => client.listSymbols({ signal })],
      ['allContacts', async () => {
        for await (const c of client.allContacts({}, { signal })) void c;
      }],
    ];
    for (const [name, run] of calls) {
      let caught: unknown;
      try {
        await run();
      } catch (error) {
        caught = error;
      }
      expect(caught, name).toBeDefined();
      expect((caught as Error).name, name).toBe('AbortError');
    }
    // A request sent after them is logged; none of the aborted ones is.
    await client.listSymbols();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const lines = sandbox.logLines.slice(from);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('GET /v1/utilities/stock/symbols 200');
    const all: string[] = [];
    for await (const c of client.allContacts({ limit: 100 })) all.push(c.username);
    expect(all).not.toContain('never_sent');
  });
});
