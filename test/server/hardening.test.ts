// Regression tests for the sandbox's review fixes, over real HTTP: control characters in
// avatar_url and bidi controls in display names are refused naming the field, and a request Node
// cannot even parse is answered with the JSON error envelope (and the server keeps serving).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, client, expectError, rawRequest, startTestSandbox, type TestSandbox, UUID } from '../helpers/sandbox.js';

const PHONE = '+442079460958';

describe('sandbox validation of control characters', () => {
  let sandbox: TestSandbox;
  let api: ReturnType<typeof client>;
  let seq = 0;
  const username = () => `hard_${++seq}`;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    api = client(sandbox);
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  async function count(): Promise<number> {
    const reply = await api.list('?limit=100');
    expect(reply.status).toBe(200);
    return (reply.json.data as unknown[]).length;
  }

  const badAvatars: [string, string][] = [
    ['ESC (a colour sequence)', 'https://img.example/a\u001b[31m.png'],
    ['ESC (an OSC title)', 'https://img.example/\u001b]0;PWNED\u0007a.png'],
    ['BEL', 'https://img.example/a\u0007.png'],
    ['a space', 'https://img.example/a b.png'],
    ['a tab (which new URL() drops)', 'https://img.example/a\tb.png'],
    ['a newline inside (which new URL() drops)', 'https://img.example/a\nb.png'],
    ['a C1 control (NEL)', 'https://img.example/a\u0085.png'],
    ['an 8-bit CSI', 'https://img.example/a\u009b2J.png'],
    ['DEL', 'https://img.example/a\u007f.png'],
    ['a bidi override', 'https://img.example/\u202egnp.a'],
  ];

  for (const [what, avatar] of badAvatars) {
    it(`avatar_url containing ${what} → 400 invalid_parameters naming avatar_url`, async () => {
      const before = await count();
      const reply = await api.create({ username: username(), phone_number: PHONE, avatar_url: avatar });
      expectError(reply, 400, 'invalid_parameters', /avatar_url/);
      // The message names the field, not the hostile text.
      expect(reply.json.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
      expect(await count()).toBe(before);
    });
  }

  it('avatar_url with control characters is refused in a JSON body too', async () => {
    const reply = await call(sandbox.contactsUrl, '/v1/contacts', {
      auth: `Bearer ${sandbox.token}`,
      json: { username: username(), phone_number: PHONE, avatar_url: 'https://img.example/a\u001b[5m.png' },
    });
    expectError(reply, 400, 'invalid_parameters', /avatar_url/);
  });

  it('a plain avatar_url is still accepted and stored as given', async () => {
    const avatar = 'https://img.example/people/ada%20l.png?size=64';
    const reply = await api.create({ username: username(), phone_number: PHONE, avatar_url: avatar });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.json.avatar_url).toBe(avatar);
  });

  const badNames: [string, string][] = [
    ['U+202E (right-to-left override)', 'Ada \u202eecilA'],
    ['U+2066 (left-to-right isolate)', 'Ada \u2066Lovelace\u2069'],
    ['U+2069 alone (pop directional isolate)', 'Ada\u2069'],
    ['U+202A (left-to-right embedding)', '\u202aAda'],
    ['ESC', 'Ada \u001b[31mred'],
    ['a C1 control', 'Ada\u009b2J'],
    ['U+2028 (line separator)', 'Ada\u2028Lovelace'],
  ];

  for (const [what, name] of badNames) {
    it(`display_name containing ${what} → 400 naming display_name, on create and on rename`, async () => {
      const before = await count();
      const created = await api.create({ username: username(), phone_number: PHONE, display_name: name });
      expectError(created, 400, 'invalid_parameters', /display_name/);
      expect(await count()).toBe(before);

      const plain = await api.create({ username: username(), phone_number: PHONE, display_name: 'Plain Name' });
      expect(plain.status, plain.text).toBe(201);
      const renamed = await api.rename(plain.json.id, { display_name: name });
      expectError(renamed, 400, 'invalid_parameters', /display_name/);
      const after = await api.get(plain.json.id);
      expect(after.json.display_name).toBe('Plain Name');
    });
  }

  it('names in other scripts, with accents and emoji, are still accepted', async () => {
    for (const name of ['Zoë Ångström', 'محمد علي', '山田 太郎', 'Ada 👩‍💻']) {
      const reply = await api.create({ username: username(), phone_number: PHONE, display_name: name });
      expect(reply.status, `${name}: ${reply.text}`).toBe(201);
      expect(reply.json.display_name).toBe(name);
    }
  });
});

describe('requests Node cannot parse', () => {
  let sandbox: TestSandbox;
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    api = client(sandbox);
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  const malformed: [string, string][] = [
    ['garbage', 'GARBAGE\r\n\r\n'],
    ['a space in the path', 'GET /v1/con tacts HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a header line without a colon', 'GET /v1/contacts HTTP/1.1\r\nHost: x\r\nNot A Header\r\n\r\n'],
    ['a Content-Length that is not a number', 'POST /v1/contacts HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n'],
    ['an unknown HTTP version', 'GET /v1/contacts HTTP/9.7\r\nHost: x\r\n\r\n'],
    ['an ESC in the request line', 'GET /v1/\u001b[31mcontacts HTTP/1.1\r\nHost: x\r\n\r\n'],
  ];

  for (const [what, bytes] of malformed) {
    it(`${what}: 400 with the JSON error envelope and X-Request-Id, and the server keeps serving`, async () => {
      const answer = await rawRequest(sandbox.url, bytes);
      expect(answer.status, answer.body).toBe(400);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      const body = JSON.parse(answer.body) as Record<string, unknown>;
      expect(body.status).toBe('error');
      expect(typeof body.code).toBe('string');
      expect((body.code as string).length).toBeGreaterThan(0);
      expect(typeof body.message).toBe('string');
      expect((body.message as string).length).toBeGreaterThan(0);
      expect(body.request_id).toMatch(UUID);
      expect(answer.headers['x-request-id']).toBe(body.request_id);
      expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
      expect(answer.closed).toBe(true);

      // The same server still answers ordinary requests.
      const list = await api.list();
      expect(list.status, list.text).toBe(200);
      const unauth = await call(sandbox.contactsUrl, '/v1/contacts');
      expectError(unauth, 401, 'unauthorized');
    });
  }

  it('each unparsable request gets its own request id', async () => {
    const a = JSON.parse((await rawRequest(sandbox.url, 'GARBAGE\r\n\r\n')).body) as { request_id: string };
    const b = JSON.parse((await rawRequest(sandbox.url, 'GARBAGE\r\n\r\n')).body) as { request_id: string };
    expect(a.request_id).not.toBe(b.request_id);
  });

  it('garbage after a good request on the same connection: the first answered, the garbage enveloped', async () => {
    const answer = await rawRequest(
      sandbox.url,
      `GET /v1/contacts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${sandbox.token}\r\n\r\nGARBAGE\r\n\r\n`,
    );
    expect(answer.status).toBe(200);
    // The second answer follows the first on the same socket.
    const second = answer.body.indexOf('HTTP/1.1 400');
    expect(second, answer.body).toBeGreaterThan(0);
    const rest = answer.body.slice(second);
    const body = JSON.parse(rest.slice(rest.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
    expect(body.status).toBe('error');
    expect(body.request_id).toMatch(UUID);
    expect(rest).toMatch(new RegExp(`x-request-id: ${body.request_id as string}\\r\\n`, 'i'));
  });
});
