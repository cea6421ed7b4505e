// Requests at the edges of HTTP/1.1, sent byte for byte on raw sockets to a real sandbox: heads
// too large to parse, methods Node's parser does not know, HEAD and OPTIONS. Each answer carries
// the contract's envelope where it has a body, and the server keeps serving afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  client,
  expectError,
  type RawAnswer,
  rawRequest,
  startTestSandbox,
  type TestSandbox,
  UUID,
} from '../helpers/sandbox.js';

const PRICING = '/v1/utilities/stock/realtime-pricing';
const SYMBOLS = '/v1/utilities/stock/symbols';

/** A request head that asks the server to close afterwards, so the whole answer is read. */
function head(method: string, path: string, headers: Record<string, string> = {}): string {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `${method} ${path} HTTP/1.1\r\nHost: sandbox\r\nConnection: close\r\n${lines.join('')}\r\n`;
}

function allowOf(answer: RawAnswer): string[] {
  const allow = answer.headers.allow;
  expect(typeof allow, `Allow header in ${answer.statusLine}`).toBe('string');
  return (allow as string)
    .split(',')
    .map((m) => m.trim())
    .sort();
}

/** The envelope as a raw socket sees it: status line, JSON headers and a body the length says. */
function expectRawError(answer: RawAnswer, status: number, reason: string, code: string, message?: RegExp): void {
  expect(answer.statusLine).toBe(`HTTP/1.1 ${status} ${reason}`);
  expectError(answer, status, code, message);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
}

describe('the edges of HTTP/1.1', () => {
  let sandbox: TestSandbox;
  let api: ReturnType<typeof client>;
  let contactPath: string;
  let auth: { contacts: Record<string, string>; market: Record<string, string> };

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    api = client(sandbox);
    const created = await api.create({ username: 'edge', phone_number: '+442079460958' });
    expect(created.status).toBe(201);
    contactPath = `/v1/contacts/${created.json.id}`;
    auth = {
      contacts: { Authorization: `Bearer ${sandbox.token}` },
      market: { Authorization: sandbox.apiKey },
    };
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  async function expectStillServing(): Promise<void> {
    const list = await api.list();
    expect(list.status, list.text).toBe(200);
  }

  describe('a head too large to parse', () => {
    for (const [what, size] of [
      ['100 KB', 100 * 1024],
      ['1 MB', 1024 * 1024],
    ] as const) {
      it(`a ${what} header → 431 headers_too_large in the envelope, and the server keeps serving`, async () => {
        const answer = await rawRequest(
          sandbox.url,
          head('GET', '/v1/contacts', { ...auth.contacts, 'X-Padding': 'a'.repeat(size) }),
        );
        expectRawError(answer, 431, 'Request Header Fields Too Large', 'headers_too_large', /header/i);
        expect(answer.closed).toBe(true);
        await expectStillServing();
      });
    }

    it('a head just under the limit is still answered', async () => {
      const answer = await rawRequest(sandbox.url, head('GET', '/v1/contacts', { ...auth.contacts, 'X-Padding': 'a'.repeat(12 * 1024) }));
      expect(answer.status, answer.body).toBe(200);
    });
  });

  describe('methods the server does not take', () => {
    const known: [string, string[]][] = [
      ['/v1/contacts', ['GET', 'HEAD', 'OPTIONS', 'POST']],
      ['/v1/contacts/ct_anything', ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PUT']],
      [PRICING, ['OPTIONS', 'POST']],
      [SYMBOLS, ['GET', 'HEAD', 'OPTIONS']],
    ];

    for (const [path, allow] of known) {
      it(`a method Node's parser does not know (BREW) on ${path} → 405 with Allow`, async () => {
        const answer = await rawRequest(sandbox.url, head('BREW', path, auth.contacts));
        expectRawError(answer, 405, 'Method Not Allowed', 'method_not_allowed', /BREW/);
        expect(allowOf(answer)).toEqual(allow);
        expect(answer.json.message).toContain(path);
        // The operator's log has the request like any other.
        expect(sandbox.logLines.some((line) => line.includes(` BREW ${path} 405 `) && line.endsWith(answer.json.request_id))).toBe(
          true,
        );
        await expectStillServing();
      });

      it(`methods Node knows but the path does not take (PATCH, PROPFIND) on ${path} → 405 with the same Allow`, async () => {
        for (const method of ['PATCH', 'PROPFIND']) {
          const answer = await rawRequest(sandbox.url, head(method, path, auth.contacts));
          expectRawError(answer, 405, 'Method Not Allowed', 'method_not_allowed', new RegExp(method));
          expect(allowOf(answer)).toEqual(allow);
        }
      });
    }

    it('an unknown method with a query or in absolute form still finds the path', async () => {
      for (const target of ['/v1/contacts?limit=3', `${sandbox.url}/v1/contacts`]) {
        const answer = await rawRequest(sandbox.url, head('FROBNICATE', target));
        expectRawError(answer, 405, 'Method Not Allowed', 'method_not_allowed', /FROBNICATE/);
        expect(allowOf(answer)).toEqual(['GET', 'HEAD', 'OPTIONS', 'POST']);
      }
    });

    it('an unknown method after a good request on the same connection: the first answered, then 405 for its own path', async () => {
      const answer = await rawRequest(
        sandbox.url,
        `GET /v1/contacts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${sandbox.token}\r\n\r\n${head('BREW', SYMBOLS)}`,
      );
      expect(answer.status).toBe(200);
      const second = answer.body.indexOf('HTTP/1.1 405 Method Not Allowed\r\n');
      expect(second, answer.body).toBeGreaterThan(0);
      const rest = answer.body.slice(second);
      expect(rest).toMatch(/\r\nallow: GET, HEAD, OPTIONS\r\n/i);
      const body = JSON.parse(rest.slice(rest.indexOf('\r\n\r\n') + 4)) as { code: string; message: string };
      expect(body.code).toBe('method_not_allowed');
      expect(body.message).toContain(SYMBOLS);
    });

    it('an unknown method on an unknown path → 404 not_found, as any method there', async () => {
      const answer = await rawRequest(sandbox.url, head('BREW', '/v1/coffee'));
      expectRawError(answer, 404, 'Not Found', 'not_found', /\/v1\/coffee/);
      expect(answer.headers.allow).toBeUndefined();
    });

    it('a request line cut short after an unknown method → 400 (a 405 must carry Allow, and the path never came)', async () => {
      const answer = await rawRequest(sandbox.url, 'BREW /v1/con');
      expectRawError(answer, 400, 'Bad Request', 'invalid_parameters', /cut short after BREW/);
      expect(answer.headers.allow).toBeUndefined();
    });
  });

  describe('HEAD answers as GET, without the body', () => {
    /** The headers that must match between GET and HEAD (Date and the request id may not). */
    function comparable(answer: RawAnswer): Record<string, string> {
      const { date: _date, 'x-request-id': id, ...rest } = answer.headers as Record<string, string>;
      expect(id).toMatch(UUID);
      return rest;
    }

    it('on every GET route: same status and headers (content-length included), no body', async () => {
      const routes: [string, Record<string, string>][] = [
        ['/v1/contacts', auth.contacts],
        ['/v1/contacts?limit=1&active=false', auth.contacts],
        [contactPath, auth.contacts],
        [SYMBOLS, auth.market],
      ];
      for (const [path, headers] of routes) {
        const get = await rawRequest(sandbox.url, head('GET', path, headers));
        const headAnswer = await rawRequest(sandbox.url, head('HEAD', path, headers));
        expect(get.status, `GET ${path}: ${get.body.slice(0, 200)}`).toBe(200);
        expect(headAnswer.statusLine, `HEAD ${path}`).toBe(get.statusLine);
        expect(comparable(headAnswer), `HEAD ${path}`).toEqual(comparable(get));
        expect(Number(headAnswer.headers['content-length'])).toBe(Buffer.byteLength(get.body));
        expect(Number(headAnswer.headers['content-length'])).toBeGreaterThan(0);
        expect(headAnswer.body, `HEAD ${path}`).toBe('');
      }
    });

    it('errors too: the status and headers of the envelope, no body', async () => {
      const cases: [string, Record<string, string>, number, string][] = [
        ['/v1/contacts', {}, 401, 'unauthorized'],
        ['/v1/contacts/ct_nobody', auth.contacts, 404, 'not_found'],
        ['/v1/nowhere', {}, 404, 'not_found'],
        [PRICING, auth.market, 405, 'method_not_allowed'],
      ];
      for (const [path, headers, status, code] of cases) {
        const get = await rawRequest(sandbox.url, head('GET', path, headers));
        expectError(get, status, code);
        const headAnswer = await rawRequest(sandbox.url, head('HEAD', path, headers));
        expect(headAnswer.status, `HEAD ${path}`).toBe(status);
        expect(headAnswer.headers['content-type']).toMatch(/^application\/json/);
        expect(Number(headAnswer.headers['content-length'])).toBeGreaterThan(0);
        expect(headAnswer.headers['x-request-id']).toMatch(UUID);
        expect(headAnswer.body, `HEAD ${path}`).toBe('');
      }
      const pricing = await rawRequest(sandbox.url, head('HEAD', PRICING, auth.market));
      expect(allowOf(pricing)).toEqual(['OPTIONS', 'POST']);
    });
  });

  describe('OPTIONS', () => {
    it('on a known path: 204 with Allow and X-Request-Id, no body, no credentials needed', async () => {
      for (const [path, allow] of [
        ['/v1/contacts', ['GET', 'HEAD', 'OPTIONS', 'POST']],
        [contactPath, ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PUT']],
        [PRICING, ['OPTIONS', 'POST']],
      ] as const) {
        const answer = await rawRequest(sandbox.url, head('OPTIONS', path));
        expect(answer.statusLine).toBe('HTTP/1.1 204 No Content');
        expect(allowOf(answer)).toEqual(allow);
        expect(answer.headers['x-request-id']).toMatch(UUID);
        expect(answer.body).toBe('');
      }
    });

    it('on an unknown path: 404 not_found', async () => {
      expectRawError(await rawRequest(sandbox.url, head('OPTIONS', '/v1/nowhere')), 404, 'Not Found', 'not_found');
    });
  });
});
