// Hostile and malformed input: each a clear 4xx in the contract's envelope, and the same server
// keeps answering normally afterwards.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type CallOptions, client, expectError, type Reply, startTestSandbox, type TestSandbox, UUID } from '../helpers/sandbox.js';

const PHONE = '+442079460958';
const ONE_MIB = 1024 * 1024;

/** Fails instead of hanging when the server never answers. */
async function withinMs<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A chunked upload (no Content-Length) through node:http, so the server only learns the size as it reads. */
function chunkedPost(url: string, auth: string, size: number): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json', 'transfer-encoding': 'chunked' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
        res.on('error', reject);
      },
    );
    // The server may close the connection before the whole body is sent; only the answer matters.
    req.on('error', reject);
    const piece = Buffer.alloc(16 * 1024, 'a');
    for (let sent = 0; sent < size; sent += piece.length) req.write(piece.subarray(0, Math.min(piece.length, size - sent)));
    req.end();
  });
}

describe('hostile input', () => {
  let sandbox: TestSandbox;
  let api: ReturnType<typeof client>;
  let bearer: string;
  let knownId: string;
  let sqlId: string;

  const contacts = (path: string, options: CallOptions = {}) =>
    call(sandbox.contactsUrl, path, { auth: bearer, ...options });

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    api = client(sandbox);
    bearer = `Bearer ${sandbox.token}`;
    const created = await api.create({ username: 'known', phone_number: PHONE, display_name: 'Known' });
    expect(created.status).toBe(201);
    knownId = created.json.id;
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  describe('bodies', () => {
    it('malformed JSON', async () => {
      for (const body of ['{"username": "a",', '{username: a}', "{'username':'a'}", '\u0000\u0001', '{"a":1}}']) {
        expectError(await contacts('/v1/contacts', { body, contentType: 'application/json' }), 400, 'invalid_parameters', /JSON/);
      }
      expectError(
        await contacts(`/v1/contacts/${knownId}`, { method: 'PUT', body: '{"display_name":', contentType: 'application/json' }),
        400,
        'invalid_parameters',
        /JSON/,
      );
      expectError(
        await call(sandbox.marketDataUrl, '/v1/utilities/stock/realtime-pricing', {
          auth: sandbox.apiKey,
          body: '{"symbols": [AAPL]}',
          contentType: 'application/json',
        }),
        400,
        'invalid_parameters',
        /JSON/,
      );
    });

    it('a JSON array, string, number or null body', async () => {
      const array = JSON.stringify([{ username: 'arr', phone_number: PHONE }]);
      for (const body of [array, '"username"', '42', 'null', 'true']) {
        expectError(await contacts('/v1/contacts', { body, contentType: 'application/json' }), 400, 'invalid_parameters', /JSON object/);
      }
    });

    it('a wrong or missing content type', async () => {
      const form = 'username=wrongtype&phone_number=%2B442079460958';
      for (const contentType of ['text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'application/jsonp']) {
        expectError(await contacts('/v1/contacts', { body: form, contentType }), 415, 'unsupported_media_type', /Content-Type/);
      }
      expectError(await contacts('/v1/contacts', { body: form }), 415, 'unsupported_media_type', /Content-Type/);
    });

    it('a 1 MiB body with Content-Length: 413 with Connection: close, promptly', async () => {
      const reply = await withinMs(
        5000,
        contacts('/v1/contacts', { body: Buffer.alloc(ONE_MIB, 'a'), contentType: 'application/json' }),
      );
      expectError(reply, 413, 'payload_too_large', /64 KiB/);
      expect(reply.headers.connection).toBe('close');
    });

    it('a 1 MiB chunked body: 413 with Connection: close, promptly', async () => {
      const reply = await withinMs(5000, chunkedPost(`${sandbox.contactsUrl}/v1/contacts`, bearer, ONE_MIB));
      expectError(reply, 413, 'payload_too_large', /64 KiB/);
      expect(reply.headers.connection).toBe('close');
    });

    it('a duplicate form field', async () => {
      expectError(
        await contacts('/v1/contacts', {
          body: 'username=twice&username=again&phone_number=%2B442079460958',
          contentType: 'application/x-www-form-urlencoded',
        }),
        400,
        'invalid_parameters',
        /username/,
      );
      expectError(
        await contacts(`/v1/contacts/${knownId}`, {
          method: 'PUT',
          body: 'display_name=One&display_name=Two',
          contentType: 'application/x-www-form-urlencoded',
        }),
        400,
        'invalid_parameters',
        /display_name/,
      );
      expect((await api.get(knownId)).json.display_name).toBe('Known');
    });

    it('fields that are not contact fields, including prototype names', async () => {
      expectError(
        await contacts('/v1/contacts', { body: '{"username":"proto","phone_number":"+442079460958","__proto__":{"admin":true}}', contentType: 'application/json' }),
        400,
        'invalid_parameters',
        /__proto__/,
      );
      expectError(
        await contacts('/v1/contacts', { json: { username: 'extra', phone_number: PHONE, owner: 'someone-else' } }),
        400,
        'invalid_parameters',
        /owner/,
      );
    });

    it('a form field named like an Object.prototype member, sent once, is not called a duplicate', async () => {
      for (const name of ['constructor', 'toString', '__proto__']) {
        const create = await contacts('/v1/contacts', {
          body: `username=protoform&phone_number=%2B442079460958&${name}=x`,
          contentType: 'application/x-www-form-urlencoded',
        });
        expect(expectError(create, 400, 'invalid_parameters', new RegExp(name)), name).not.toMatch(/more than once/);
        const update = await contacts(`/v1/contacts/${knownId}`, {
          method: 'PUT',
          body: `${name}=x`,
          contentType: 'application/x-www-form-urlencoded',
        });
        expect(expectError(update, 400, 'invalid_parameters', new RegExp(name)), name).not.toMatch(/more than once/);
      }
    });
  });

  describe('SQL-looking strings', () => {
    const SQL = "Robert'); DROP TABLE contacts;--";

    it('as display_name: stored verbatim, and the table still works', async () => {
      const created = await api.create({ username: 'bobby.tables', phone_number: PHONE, display_name: SQL });
      expect(created.status).toBe(201);
      expect(created.json.display_name).toBe(SQL);
      sqlId = created.json.id;

      const fetched = await api.get(sqlId);
      expect(fetched.status).toBe(200);
      expect(fetched.json.display_name).toBe(SQL);

      const renamed = await api.rename(sqlId, { display_name: `${SQL} 2` });
      expect(renamed.status).toBe(200);
      expect(renamed.json.display_name).toBe(`${SQL} 2`);

      const list = await api.list('?limit=100');
      expect(list.status).toBe(200);
      const ids = (list.json.data as { id: string }[]).map((c) => c.id);
      expect(ids).toContain(sqlId);
      expect(ids).toContain(knownId);
    });

    it('as a username: a clear 400 naming username', async () => {
      expectError(await api.create({ username: SQL, phone_number: PHONE }), 400, 'invalid_parameters', /username/);
      expectError(await api.create({ username: "' OR '1'='1", phone_number: PHONE }), 400, 'invalid_parameters', /username/);
    });

    it('in query parameters and the path', async () => {
      expectError(await api.list(`?limit=${encodeURIComponent('1; DROP TABLE contacts')}`), 400, 'invalid_parameters', /limit/);
      expectError(await api.list(`?starting_after=${encodeURIComponent("' OR '1'='1")}`), 400, 'invalid_parameters', /starting_after/);
      expectError(await api.get("ct_x' OR '1'='1"), 404, 'not_found', /no contact/);
      expectError(await api.remove("' OR 1=1 --"), 404, 'not_found', /no contact/);
      expect((await api.get(knownId)).status).toBe(200);
    });
  });

  describe('control characters and escape sequences in display_name', () => {
    const hostile = [
      '\u001b[31mred\u001b[0m',
      '\u001b]0;owned\u0007',
      'nul\u0000byte',
      'bell\u0007',
      'back\bspace',
      'del\u007f',
      'c1\u009bcsi',
      'line\u2028separator',
      'two\nlines',
      'carriage\rreturn',
    ];

    it('on create: 400 naming display_name', async () => {
      for (const [i, display_name] of hostile.entries()) {
        expectError(
          await api.create({ username: `ctrl${i}`, phone_number: PHONE, display_name }),
          400,
          'invalid_parameters',
          /display_name/,
        );
      }
      const list = await api.list('?limit=100');
      expect((list.json.data as { username: string }[]).filter((c) => c.username.startsWith('ctrl'))).toEqual([]);
    });

    it('on update, by form and JSON: 400 naming display_name, nothing changed', async () => {
      for (const display_name of hostile) {
        expectError(await api.rename(knownId, { display_name }), 400, 'invalid_parameters', /display_name/);
        expectError(
          await contacts(`/v1/contacts/${knownId}`, { method: 'PUT', json: { display_name } }),
          400,
          'invalid_parameters',
          /display_name/,
        );
      }
      expect((await api.get(knownId)).json.display_name).toBe('Known');
    });
  });

  describe('sizes and numbers', () => {
    it('a 10,000-character username: 400 naming username', async () => {
      const reply = await api.create({ username: 'u'.repeat(10_000), phone_number: PHONE });
      expectError(reply, 400, 'invalid_parameters', /username/);
      expect(reply.text.length).toBeLessThan(2000);
    });

    it('limit=abc, limit=0, limit=101', async () => {
      expectError(await api.list('?limit=abc'), 400, 'invalid_parameters', /limit/);
      expectError(await api.list('?limit=0'), 400, 'invalid_parameters', /limit/);
      expectError(await api.list('?limit=101'), 400, 'invalid_parameters', /limit/);
      expectError(await api.list('?limit=99999999999999999999999'), 400, 'invalid_parameters', /limit/);
      expectError(await api.list('?limit=1e1'), 400, 'invalid_parameters', /limit/);
    });

    it('a 10,000-character contact id in the path: 404', async () => {
      const longId = `ct_${'x'.repeat(10_000)}`;
      expectError(await api.get(longId), 404, 'not_found', /no contact/);
      expectError(await api.rename(longId, { display_name: 'x' }), 404, 'not_found', /no contact/);
      expectError(await api.remove(longId), 404, 'not_found', /no contact/);
    });
  });

  describe('paths', () => {
    it('percent-encoding garbage in the contact id', async () => {
      for (const path of ['/v1/contacts/%E0%A4%A', '/v1/contacts/%', '/v1/contacts/%zz', '/v1/contacts/%C0%AF']) {
        expectError(await contacts(path), 404, 'not_found', /no contact/);
      }
      expectError(await contacts('/v1/contacts/%E0%A4%A', { method: 'DELETE' }), 404, 'not_found', /no contact/);
    });

    it('encoded slashes, dots and NUL', async () => {
      expectError(await contacts(`/v1/contacts/${encodeURIComponent(`${knownId}/../x`)}`), 404, 'not_found', /no contact/);
      expectError(await contacts('/v1/contacts/%00'), 404, 'not_found', /no contact/);
      expectError(await contacts('/v1/contacts/..%2F..%2Fetc%2Fpasswd'), 404, 'not_found', /no contact/);
    });
  });

  describe('afterwards', () => {
    it('the same server still lists and creates correctly', async () => {
      const before = await api.list('?limit=100');
      expect(before.status).toBe(200);
      expect(before.headers['x-request-id']).toMatch(UUID);
      const beforeIds = (before.json.data as { id: string }[]).map((c) => c.id);
      expect(beforeIds).toEqual([sqlId, knownId]);

      const created = await api.create({ username: 'after.all', phone_number: '+44 20 7946-0959', display_name: ' After ' });
      expect(created.status).toBe(201);
      expect(created.json).toMatchObject({
        username: 'after.all',
        phone_number: '+442079460959',
        display_name: 'After',
        avatar_url: null,
        last_active_at: null,
      });
      expect(created.json.id).toMatch(/^ct_/);
      expect(created.json.conversation_id).toMatch(/^cv_/);

      const after = await api.list();
      expect(after.status).toBe(200);
      expect(after.json.has_more).toBe(false);
      expect((after.json.data as { id: string }[]).map((c) => c.id)).toEqual([created.json.id, sqlId, knownId]);
      const sql = (after.json.data as { id: string; display_name: string }[]).find((c) => c.id === sqlId);
      expect(sql?.display_name).toBe("Robert'); DROP TABLE contacts;-- 2");
    });
  });
});
