// How long the sandbox waits for a request to arrive, on real sockets to a real sandbox started
// with short deadlines (the defaults are 10 s and 30 s): a client that sends its headers a line at
// a time, or its body a byte at a time, past them is answered 408 request_timeout and cut off,
// instead of holding its connection open for as long as it likes. A slow client within them is
// served, and a kept-alive connection waiting between requests is not cut.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVE_HELP } from '../../src/cli/serve.js';
import { HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from '../../src/server/request-deadlines.js';
import { client, expectError, rawRequest, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const HEADERS_MS = 300;
const REQUEST_MS = 1000;

let sandbox: TestSandbox;
let auth: string;

beforeAll(async () => {
  sandbox = await startTestSandbox({ headersTimeoutMs: HEADERS_MS, requestTimeoutMs: REQUEST_MS });
  auth = `Authorization: Bearer ${sandbox.token}\r\n`;
});
afterAll(async () => {
  await sandbox?.close();
});

/** `count` header lines of a request that never ends its head. */
const headerLines = (count: number): string[] => Array.from({ length: count }, (_, i) => `X-Slow-${i}: ${i}\r\n`);

async function expectStillServing(): Promise<void> {
  const list = await client(sandbox).list();
  expect(list.status, list.text).toBe(200);
}

describe('the deadlines for a request to arrive', () => {
  it('headers sent a line at a time past the headers deadline: 408 request_timeout in the envelope, the connection closed, logged', async () => {
    // A line every 100 ms for 3 s: cut off after about 0.3 s, long before it is done.
    const answer = await rawRequest(sandbox.url, ['GET /v1/contacts HTTP/1.1\r\n', 'Host: sandbox\r\n', ...headerLines(30)], { everyMs: 100, limitMs: 5000 });
    expect(answer.statusLine).toBe('HTTP/1.1 408 Request Timeout');
    expectError(answer, 408, 'request_timeout', /did not arrive in time.*0\.3 s .*1 s/);
    expect(answer.closed).toBe(true);
    expect(answer.unsent).toBeGreaterThan(15);
    expect(sandbox.logLines.some((line) => / - - 408 - [0-9a-f-]{36}$/.test(line))).toBe(true);
    await expectStillServing();
  });

  it('a connection that sends nothing at all is answered 408 and closed', async () => {
    const answer = await rawRequest(sandbox.url, [''], { limitMs: 5000 });
    expectError(answer, 408, 'request_timeout');
    expect(answer.closed).toBe(true);
  });

  it('a body sent a byte at a time past the request deadline: 408, the connection closed, and the server serves on', async () => {
    const body = JSON.stringify({ username: 'slow.body', phone_number: '+442079460800' });
    const head = `POST /v1/contacts HTTP/1.1\r\nHost: sandbox\r\n${auth}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    // The head at once, then a byte every 100 ms: 6 s for the body, cut off after about 1 s.
    const answer = await rawRequest(sandbox.url, [head, ...body], { everyMs: 100, limitMs: 5000 });
    expectError(answer, 408, 'request_timeout');
    expect(answer.closed).toBe(true);
    expect(answer.unsent).toBeGreaterThan(20);
    await expectStillServing();
    const list = await client(sandbox).list();
    expect(list.text).not.toContain('slow.body');
  });

  it('a slow client within the deadlines is served: its head in two pieces, a 60 KiB body over 1.6 s (past the headers deadline)', async () => {
    // A sandbox of its own with deadlines the pacing stays well inside on a loaded machine (the
    // head is done after 0.2 s of 1 s, the body after 1.6 s of 4 s), the body outlasting the
    // headers' deadline: only the request's applies to it.
    const roomy = await startTestSandbox({ headersTimeoutMs: 1000, requestTimeoutMs: 4000 });
    try {
      // Near the largest body the sandbox reads (64 KiB), JSON's own spaces making up the size.
      const body = `{"username": "slow.link", "phone_number": "+442079460801",${' '.repeat(60 * 1024)}"display_name": "Over a slow link"}`;
      const head = `POST /v1/contacts HTTP/1.1\r\nHost: sandbox\r\nAuthorization: Bearer ${roomy.token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
      // A piece every 0.2 s: the head in two (done at 0.2 s, with the body's first eighth), then
      // the rest of the body (done at 1.6 s).
      const middle = Math.ceil(head.length / 2);
      const eighth = Math.ceil(body.length / 8);
      const bodyPieces = Array.from({ length: 8 }, (_, i) => body.slice(i * eighth, (i + 1) * eighth));
      const answer = await rawRequest(roomy.url, [head.slice(0, middle), head.slice(middle) + bodyPieces[0], ...bodyPieces.slice(1)], { everyMs: 200, limitMs: 8000 });
      expect(answer.statusLine, answer.body).toBe('HTTP/1.1 201 Created');
      expect(answer.json).toMatchObject({ username: 'slow.link', display_name: 'Over a slow link' });
    } finally {
      await roomy.close();
    }
  });

  it('a kept-alive connection waiting between two requests longer than the headers deadline is not cut', async () => {
    const get = (close: boolean) => `GET /v1/contacts HTTP/1.1\r\nHost: sandbox\r\n${auth}${close ? 'Connection: close\r\n' : ''}\r\n`;
    // The second request 0.6 s after the first, twice the headers deadline.
    const answer = await rawRequest(sandbox.url, [get(false), get(true)], { everyMs: 2 * HEADERS_MS, limitMs: 5000 });
    expect(answer.statusLine).toBe('HTTP/1.1 200 OK');
    expect(answer.body.match(/HTTP\/1\.1 \d+ [^\r]+/g)).toEqual(['HTTP/1.1 200 OK']);
  });
});

describe('the default deadlines', () => {
  it('are 10 s for the line and headers and 30 s for the whole request, set on the server, as serve --help says', async () => {
    expect([HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS]).toEqual([10_000, 30_000]);
    const plain = await startTestSandbox();
    try {
      expect(plain.deadlines).toEqual({ headersMs: 10_000, requestMs: 30_000 });
    } finally {
      await plain.close();
    }
    expect(sandbox.deadlines).toEqual({ headersMs: HEADERS_MS, requestMs: REQUEST_MS });
    expect(SERVE_HELP.replace(/\s+/g, ' ')).toContain('its request line and headers within 10 s and the whole request within 30 s');
  });
});
