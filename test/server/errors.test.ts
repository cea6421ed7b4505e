// Every error code of the contract's table, produced on purpose over real HTTP.
import Database from 'better-sqlite3';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app.js';
import { loadCatalogue } from '../../src/server/catalogue.js';
import { type ContactsStore, openContactsStore } from '../../src/server/contacts-store.js';
import { Gatekeeper } from '../../src/server/credentials.js';
import { MarketSimulator } from '../../src/server/market.js';
import {
  call,
  type CallOptions,
  client,
  expectError,
  type Reply,
  startTestSandbox,
  type TestSandbox,
  UUID,
} from '../helpers/sandbox.js';

const PHONE = '+442079460958';
const PRICING = '/v1/utilities/stock/realtime-pricing';
const SYMBOLS = '/v1/utilities/stock/symbols';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function allowOf(reply: Reply): string[] {
  const allow = reply.headers.allow;
  expect(typeof allow, 'Allow header').toBe('string');
  return (allow as string)
    .split(',')
    .map((m) => m.trim())
    .sort();
}

describe('error codes', () => {
  let sandbox: TestSandbox;
  let api: ReturnType<typeof client>;
  let bearer: string;
  let existingId: string;

  const contacts = (path: string, options: CallOptions = {}) =>
    call(sandbox.contactsUrl, path, { auth: bearer, ...options });
  const pricing = (options: CallOptions) => call(sandbox.marketDataUrl, PRICING, { auth: sandbox.apiKey, ...options });

  beforeAll(async () => {
    sandbox = await startTestSandbox({ tokens: ['demo-token', 'other-user-token'] });
    api = client(sandbox);
    bearer = `Bearer ${sandbox.token}`;
    const created = await api.create({ username: 'existing', phone_number: PHONE });
    expect(created.status).toBe(201);
    existingId = created.json.id;
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  describe('missing_parameters (400)', () => {
    it('username absent or blank', async () => {
      expectError(await api.create({ phone_number: PHONE }), 400, 'missing_parameters', /username/);
      expectError(await api.create({ username: '   ', phone_number: PHONE }), 400, 'missing_parameters', /username/);
      expectError(await contacts('/v1/contacts', { json: { phone_number: PHONE } }), 400, 'missing_parameters', /username/);
    });

    it('phone_number absent or empty', async () => {
      expectError(await api.create({ username: 'nophone' }), 400, 'missing_parameters', /phone_number/);
      expectError(await api.create({ username: 'nophone', phone_number: '' }), 400, 'missing_parameters', /phone_number/);
      expectError(await contacts('/v1/contacts', { json: { username: 'nophone' } }), 400, 'missing_parameters', /phone_number/);
    });

    it('symbols missing, not an array, or empty', async () => {
      expectError(await pricing({ json: {} }), 400, 'missing_parameters', /symbols/);
      expectError(await pricing({ json: { symbols: 'AAPL' } }), 400, 'missing_parameters', /symbols/);
      expectError(await pricing({ json: { symbols: { 0: 'AAPL' } } }), 400, 'missing_parameters', /symbols/);
      expectError(await pricing({ json: { symbols: [] } }), 400, 'missing_parameters', /symbols/);
    });
  });

  describe('invalid_parameters (400)', () => {
    it('username with characters outside A–Z a–z 0–9 . _ -', async () => {
      for (const username of ['has space', 'semi;colon', 'ümlaut', 'at@sign', 'slash/name']) {
        expectError(await api.create({ username, phone_number: PHONE }), 400, 'invalid_parameters', /username/);
      }
    });

    it('username over 32 characters (32 is fine)', async () => {
      expectError(await api.create({ username: 'a'.repeat(33), phone_number: PHONE }), 400, 'invalid_parameters', /username.*32/);
      const ok = await api.create({ username: 'b'.repeat(32), phone_number: PHONE });
      expect(ok.status).toBe(201);
    });

    it('username of the wrong type', async () => {
      expectError(await contacts('/v1/contacts', { json: { username: 42, phone_number: PHONE } }), 400, 'invalid_parameters', /username/);
    });

    it('phone_number not in E.164 form', async () => {
      for (const phone_number of ['02079460958', '+0 20 7946 0958', '+12345', '+1234567890123456', '+44 20 ABC 0958', 'phone']) {
        expectError(await api.create({ username: 'badphone', phone_number }), 400, 'invalid_parameters', /phone_number/);
      }
    });

    it('avatar_url not an absolute http(s) URL, or too long', async () => {
      for (const avatar_url of ['ftp://example.com/a.png', 'javascript:alert(1)', '/relative/a.png', 'not a url', 'file:///etc/passwd']) {
        expectError(
          await api.create({ username: 'badavatar', phone_number: PHONE, avatar_url }),
          400,
          'invalid_parameters',
          /avatar_url/,
        );
      }
      const long = `https://example.com/${'a'.repeat(2049)}`;
      expectError(await api.create({ username: 'badavatar', phone_number: PHONE, avatar_url: long }), 400, 'invalid_parameters', /avatar_url/);
    });

    it('display_name over 64 code points', async () => {
      expectError(
        await api.create({ username: 'longname', phone_number: PHONE, display_name: 'x'.repeat(65) }),
        400,
        'invalid_parameters',
        /display_name.*64/,
      );
      expectError(
        await api.create({ username: 'longname', phone_number: PHONE, display_name: '😀'.repeat(65) }),
        400,
        'invalid_parameters',
        /display_name/,
      );
      expectError(await api.rename(existingId, { display_name: 'y'.repeat(65) }), 400, 'invalid_parameters', /display_name/);
    });

    it('display_name with a control character', async () => {
      expectError(
        await api.create({ username: 'ctrl', phone_number: PHONE, display_name: 'Bell\u0007Ringer' }),
        400,
        'invalid_parameters',
        /display_name/,
      );
      expectError(await api.rename(existingId, { display_name: 'Tab\u0000Null' }), 400, 'invalid_parameters', /display_name/);
    });

    it('limit that is not an integer from 1 to 100', async () => {
      for (const limit of ['abc', '0', '101', '-1', '2.5', '']) {
        expectError(await api.list(`?limit=${limit}`), 400, 'invalid_parameters', /limit/);
      }
    });

    it('active other than true, false, 1 or 0', async () => {
      expectError(await api.list('?active=maybe'), 400, 'invalid_parameters', /active/);
      expectError(await api.list('?active=2'), 400, 'invalid_parameters', /active/);
    });

    it('an unknown cursor', async () => {
      expectError(await api.list('?starting_after=ct_doesnotexist'), 400, 'invalid_parameters', /starting_after/);
      expectError(await api.list('?ending_before=ct_doesnotexist'), 400, 'invalid_parameters', /ending_before/);
    });

    it('a cursor from another user is not in this list', async () => {
      const other = client(sandbox, 'other-user-token');
      expectError(await other.list(`?starting_after=${existingId}`), 400, 'invalid_parameters', /starting_after/);
    });

    it('both cursors at once', async () => {
      expectError(
        await api.list(`?starting_after=${existingId}&ending_before=${existingId}`),
        400,
        'invalid_parameters',
        /starting_after.*ending_before|ending_before.*starting_after/,
      );
    });

    it('a field that cannot be updated', async () => {
      expectError(await api.rename(existingId, { username: 'renamed' }), 400, 'invalid_parameters', /username/);
      expectError(
        await contacts(`/v1/contacts/${existingId}`, { method: 'PUT', json: { display_name: 'ok', phone_number: PHONE } }),
        400,
        'invalid_parameters',
        /phone_number/,
      );
      // Nothing changed.
      const after = await api.get(existingId);
      expect(after.status).toBe(200);
      expect(after.json).toMatchObject({ username: 'existing', phone_number: PHONE, display_name: null });
    });

    it('display_name of the wrong type on update', async () => {
      expectError(
        await contacts(`/v1/contacts/${existingId}`, { method: 'PUT', json: { display_name: 7 } }),
        400,
        'invalid_parameters',
        /display_name/,
      );
    });

    it('over 100 symbols', async () => {
      const symbols = Array.from({ length: 101 }, (_, i) => `S${i}`);
      expectError(await pricing({ json: { symbols } }), 400, 'invalid_parameters', /symbols.*100/);
      // 100 is the limit, not over it.
      const ok = await pricing({ json: { symbols: symbols.slice(0, 100) } });
      expect(ok.status).toBe(200);
    });

    it('a malformed symbol', async () => {
      for (const bad of ['AA PL', '$AAPL', 'A'.repeat(16), '   ']) {
        expectError(await pricing({ json: { symbols: ['MSFT', bad] } }), 400, 'invalid_parameters', /symbols\[1\]/);
      }
      expectError(await pricing({ json: { symbols: [42] } }), 400, 'invalid_parameters', /symbols\[0\]/);
    });
  });

  describe('unauthorized (401), contact operations', () => {
    it('no Authorization header', async () => {
      expectError(await contacts('/v1/contacts', { auth: null }), 401, 'unauthorized', /Authorization|Bearer/);
      expectError(
        await contacts('/v1/contacts', { auth: null, form: { username: 'anon', phone_number: PHONE } }),
        401,
        'unauthorized',
        /Authorization|Bearer/,
      );
      expectError(await contacts(`/v1/contacts/${existingId}`, { auth: null }), 401, 'unauthorized', /Authorization|Bearer/);
    });

    it('a scheme other than Bearer', async () => {
      expectError(await contacts('/v1/contacts', { auth: `Basic ${Buffer.from('demo:token').toString('base64')}` }), 401, 'unauthorized', /Bearer/);
      expectError(await contacts('/v1/contacts', { auth: sandbox.token }), 401, 'unauthorized', /Bearer/);
      expectError(await contacts('/v1/contacts', { auth: `Token ${sandbox.token}` }), 401, 'unauthorized', /Bearer/);
    });

    it('an unknown token', async () => {
      expectError(await contacts('/v1/contacts', { auth: 'Bearer not-a-real-token' }), 401, 'unauthorized', /token/);
      expectError(await contacts('/v1/contacts', { auth: `Bearer ${sandbox.apiKey}` }), 401, 'unauthorized', /token/);
    });

    it('never echoes the offered secret', async () => {
      const reply = await contacts('/v1/contacts', { auth: 'Bearer s3cret-never-echoed' });
      expectError(reply, 401, 'unauthorized');
      expect(reply.text).not.toContain('s3cret-never-echoed');
    });
  });

  describe('permission_error (401), market data operations', () => {
    it('no API key', async () => {
      expectError(await call(sandbox.marketDataUrl, SYMBOLS), 401, 'permission_error', /API key/);
      expectError(await pricing({ auth: null, json: { symbols: ['AAPL'] } }), 401, 'permission_error', /API key/);
    });

    it('an unknown API key', async () => {
      expectError(await call(sandbox.marketDataUrl, SYMBOLS, { auth: 'nope-key' }), 401, 'permission_error', /API key/);
      expectError(await pricing({ auth: 'nope-key', json: { symbols: ['AAPL'] } }), 401, 'permission_error', /API key/);
    });

    it('the restricted key', async () => {
      expectError(await call(sandbox.marketDataUrl, SYMBOLS, { auth: 'demo-restricted-key' }), 401, 'permission_error', /API key/);
      expectError(await pricing({ auth: 'demo-restricted-key', json: { symbols: ['AAPL'] } }), 401, 'permission_error', /API key/);
    });

    it('a Bearer-prefixed key', async () => {
      expect(sandbox.apiKey).toBe('demo-key');
      expectError(await call(sandbox.marketDataUrl, SYMBOLS, { auth: 'Bearer demo-key' }), 401, 'permission_error', /API key/);
      expectError(await pricing({ auth: 'Bearer demo-key', json: { symbols: ['AAPL'] } }), 401, 'permission_error', /API key/);
      // The bare key works.
      expect((await api.symbols()).status).toBe(200);
    });
  });

  describe('not_found (404)', () => {
    it('an unknown contact id, for get, update and delete', async () => {
      expectError(await api.get('ct_unknown'), 404, 'not_found', /ct_unknown/);
      expectError(await api.rename('ct_unknown', { display_name: 'x' }), 404, 'not_found', /ct_unknown/);
      expectError(await api.remove('ct_unknown'), 404, 'not_found', /ct_unknown/);
    });

    it("another user's contact id, never 403", async () => {
      const other = client(sandbox, 'other-user-token');
      expectError(await other.get(existingId), 404, 'not_found', /no contact/);
      expectError(await other.rename(existingId, { display_name: 'hijacked' }), 404, 'not_found', /no contact/);
      expectError(await other.remove(existingId), 404, 'not_found', /no contact/);
      const still = await api.get(existingId);
      expect(still.status).toBe(200);
      expect(still.json.display_name).toBeNull();
    });

    it('an unknown path', async () => {
      for (const path of ['/', '/v1', '/v1/nothing', '/v2/contacts', '/v1/contacts/a/b', '/v1/utilities/stock/prices']) {
        expectError(await contacts(path), 404, 'not_found', /path/);
      }
    });
  });

  describe('method_not_allowed (405)', () => {
    it('on the contact list, with Allow', async () => {
      for (const method of ['DELETE', 'PUT', 'PATCH']) {
        const reply = await contacts('/v1/contacts', { method });
        expectError(reply, 405, 'method_not_allowed', new RegExp(method));
        expect(allowOf(reply)).toEqual(['GET', 'HEAD', 'OPTIONS', 'POST']);
      }
    });

    it('on one contact, with Allow', async () => {
      const reply = await contacts(`/v1/contacts/${existingId}`, { method: 'PATCH', json: { display_name: 'x' } });
      expectError(reply, 405, 'method_not_allowed', /PATCH/);
      expect(allowOf(reply)).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PUT']);
      const post = await contacts(`/v1/contacts/${existingId}`, { method: 'POST', form: { display_name: 'x' } });
      expectError(post, 405, 'method_not_allowed', /POST/);
      expect(allowOf(post)).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PUT']);
    });

    it('on the market data paths, with Allow', async () => {
      const get = await call(sandbox.marketDataUrl, PRICING, { auth: sandbox.apiKey });
      expectError(get, 405, 'method_not_allowed', /GET/);
      expect(allowOf(get)).toEqual(['OPTIONS', 'POST']);
      const post = await call(sandbox.marketDataUrl, SYMBOLS, { auth: sandbox.apiKey, json: {} });
      expectError(post, 405, 'method_not_allowed', /POST/);
      expect(allowOf(post)).toEqual(['GET', 'HEAD', 'OPTIONS']);
    });
  });

  describe('duplicate_contact (409)', () => {
    it('the same username differing only in case', async () => {
      const first = await api.create({ username: 'Alice.Smith', phone_number: PHONE });
      expect(first.status).toBe(201);
      expectError(await api.create({ username: 'alice.smith', phone_number: '+15550109999' }), 409, 'duplicate_contact', /alice\.smith/i);
      expectError(
        await contacts('/v1/contacts', { json: { username: 'ALICE.SMITH', phone_number: PHONE } }),
        409,
        'duplicate_contact',
        /alice\.smith/i,
      );
      expectError(await api.create({ username: 'Alice.Smith', phone_number: PHONE }), 409, 'duplicate_contact', /username/);

      // The failed creates left no contact and no orphaned conversation behind.
      const list = await api.list('?limit=100');
      expect((list.json.data as { username: string }[]).filter((c) => c.username.toLowerCase() === 'alice.smith')).toHaveLength(1);
      const db = new Database(sandbox.dbPath, { readonly: true, fileMustExist: true });
      try {
        const contactsCount = db.prepare('SELECT count(*) AS n FROM contacts').get() as { n: number };
        const conversationsCount = db.prepare('SELECT count(*) AS n FROM conversations').get() as { n: number };
        expect(conversationsCount.n).toBe(contactsCount.n);
      } finally {
        db.close();
      }
    });

    it('another user may hold the same username', async () => {
      const other = client(sandbox, 'other-user-token');
      const reply = await other.create({ username: 'alice.smith', phone_number: PHONE });
      expect(reply.status).toBe(201);
    });
  });

  describe('payload_too_large (413)', () => {
    it('a body just over 64 KiB; exactly 64 KiB is accepted', async () => {
      const overhead = JSON.stringify({ username: 'big', phone_number: PHONE, display_name: 'Big' }).length;
      const padded = (size: number) =>
        JSON.stringify({ username: 'big', phone_number: PHONE, display_name: `${' '.repeat(size - overhead)}Big` });
      const exact = padded(64 * 1024);
      expect(Buffer.byteLength(exact)).toBe(65536);
      const over = padded(64 * 1024 + 1);
      expect(Buffer.byteLength(over)).toBe(65537);

      const tooBig = await contacts('/v1/contacts', { body: over, contentType: 'application/json' });
      expectError(tooBig, 413, 'payload_too_large', /64 KiB/);
      expect(tooBig.headers.connection).toBe('close');

      const fits = await contacts('/v1/contacts', { body: exact, contentType: 'application/json' });
      expect(fits.status, fits.text.slice(0, 200)).toBe(201);
      expect(fits.json.display_name).toBe('Big');
    });

    it('also on update and on pricing', async () => {
      const body = `display_name=${'a'.repeat(64 * 1024)}`;
      expectError(
        await contacts(`/v1/contacts/${existingId}`, { method: 'PUT', body, contentType: 'application/x-www-form-urlencoded' }),
        413,
        'payload_too_large',
        /64 KiB/,
      );
      const symbols = JSON.stringify({ symbols: ['AAPL'], pad: 'x'.repeat(64 * 1024) });
      expectError(await pricing({ body: symbols, contentType: 'application/json' }), 413, 'payload_too_large', /64 KiB/);
    });
  });

  describe('unsupported_media_type (415)', () => {
    it('text/plain on create and update', async () => {
      expectError(
        await contacts('/v1/contacts', { body: 'username=plain&phone_number=%2B442079460958', contentType: 'text/plain' }),
        415,
        'unsupported_media_type',
        /text\/plain/,
      );
      expectError(
        await contacts(`/v1/contacts/${existingId}`, { method: 'PUT', body: 'display_name=x', contentType: 'text/plain' }),
        415,
        'unsupported_media_type',
        /text\/plain/,
      );
    });

    it('form fields to realtime-pricing', async () => {
      expectError(
        await pricing({ form: { symbols: 'AAPL' } }),
        415,
        'unsupported_media_type',
        /application\/x-www-form-urlencoded.*application\/json|application\/json/,
      );
    });
  });
});

describe('rate_limited (429)', () => {
  let sandbox: TestSandbox;
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    sandbox = await startTestSandbox({ rateLimit: 3 });
    api = client(sandbox);
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it('answers the 4th call in a second with 429 and Retry-After, then recovers', async () => {
    // Start just after a second boundary so all four calls fall in the same one-second window.
    await sleep(1000 - (Date.now() % 1000) + 20);
    const replies: Reply[] = [];
    for (let i = 0; i < 4; i++) replies.push(await api.list());
    expect(replies.slice(0, 3).map((r) => r.status)).toEqual([200, 200, 200]);

    const limited = replies[3]!;
    expectError(limited, 429, 'rate_limited', /too many requests|per second/);
    const retryAfter = limited.headers['retry-after'];
    expect(retryAfter).toMatch(/^\d+$/);
    const seconds = Number(retryAfter);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(2);

    await sleep(seconds * 1000);
    const again = await api.list();
    expect(again.status).toBe(200);
    expect(again.headers['x-request-id']).toMatch(UUID);
  });
});

describe('server_error (500)', () => {
  let server: Server;
  let store: ContactsStore;
  let base: string;
  const log: string[] = [];
  const auth = 'Bearer t0ken';

  beforeAll(async () => {
    store = openContactsStore(':memory:');
    const catalogue = loadCatalogue();
    const handler = createApp({
      store,
      market: new MarketSimulator({ catalogue, seed: 3 }),
      catalogue,
      gatekeeper: new Gatekeeper({ tokens: ['t0ken'], apiKeys: ['k3y'], restrictedApiKeys: [] }),
      log: (line) => log.push(line),
    });
    server = createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('a closed database answers 500 server_error with a message that leaks nothing', async () => {
    const before = await call(base, '/v1/contacts', { auth, form: { username: 'works', phone_number: PHONE } });
    expect(before.status).toBe(201);

    store.close();

    const replies = [
      await call(base, '/v1/contacts', { auth }),
      await call(base, '/v1/contacts', { auth, form: { username: 'fails', phone_number: PHONE } }),
      await call(base, `/v1/contacts/${before.json.id}`, { auth }),
    ];
    for (const reply of replies) {
      const message = expectError(reply, 500, 'server_error');
      expect(message).not.toMatch(/\n\s*at\s/);
      expect(message).not.toMatch(/sql/i);
      expect(message).not.toMatch(/database|connection is not open/i);
      expect(message).not.toMatch(/[/\\][\w.-]+[/\\]|\.ts\b|\.js\b/);
      expect(reply.text).not.toMatch(/sql|\n\s*at\s|node_modules|\.ts:\d+/i);
    }

    // The market does not touch the database and keeps working.
    const symbols = await call(base, SYMBOLS, { auth: 'k3y' });
    expect(symbols.status).toBe(200);
  });
});
