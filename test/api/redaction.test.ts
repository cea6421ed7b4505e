// A server that sends a credential back in any form (encoded, upper-cased, cut short, inside a
// Basic login, in a request id, a Location, a record the client quotes) gets none of it onto the
// screen or into the log: its text is withheld whole. Real servers on loopback.
import { afterEach, describe, expect, it } from 'vitest';
import type { ClientOptions, TickbookClient } from '../../src/api/client.js';
import type { RequestLogEntry } from '../../src/api/transport.js';
import { Redactor } from '../../src/api/redaction.js';
import { apiError, closeAllServers, contactJson, errorJson, httpServer, json, trackedClient, within } from '../helpers/servers.js';

const TOKEN = 'tok/Sup3r+Secret=4711';
const KEY = 'key-Hush9Hush-0815';

afterEach(closeAllServers);

function makeClient(url: string, options: Partial<ClientOptions> = {}): { client: TickbookClient; log: RequestLogEntry[] } {
  const log: RequestLogEntry[] = [];
  const client = trackedClient(url, {
    token: TOKEN,
    apiKey: KEY,
    timeouts: { connectMs: 1000, headersMs: 2000, bodyMs: 2000 },
    retry: { retries: 0 },
    onRequest: (entry) => log.push(entry),
    ...options,
  });
  return { client, log };
}

const b64 = (text: string) => Buffer.from(text).toString('base64');
const b64url = (text: string) => Buffer.from(text).toString('base64url');

/** How a server might echo the credential it was sent: [name, echo of the secret]. */
const ECHOES: Array<[string, (secret: string) => string]> = [
  ['as sent', (s) => s],
  ['upper-cased', (s) => s.toUpperCase()],
  ['URL-encoded', (s) => encodeURIComponent(s)],
  ['form-encoded', (s) => new URLSearchParams({ t: s }).toString()],
  ['base64', (s) => b64(s)],
  ['base64url', (s) => b64url(s)],
  ['base64 of "Bearer secret"', (s) => b64(`Bearer ${s}`)],
  // Three user names, so the secret starts at each of the three byte offsets base64 has.
  ['base64 of "alice:secret" (Basic)', (s) => b64(`alice:${s}`)],
  ['base64 of "bob:secret" (Basic)', (s) => b64(`bob:${s}`)],
  ['base64 of "a:secret" (Basic)', (s) => b64(`a:${s}`)],
  ['base64 of a JSON blob holding it', (s) => b64(`{"user":"x","token":"${s}","n":1}`)],
  ['hex, upper-cased', (s) => Buffer.from(s).toString('hex').toUpperCase()],
];

/** Everything of an error and the log that reaches a screen or a file, as one text. */
function shown(error: { message: string; describe(): string; requestId: string | undefined; code: string | undefined }, log: RequestLogEntry[]): string {
  return [error.message, error.describe(), error.requestId ?? '', error.code ?? '', JSON.stringify(log)].join('\n');
}

describe('a server echoing a credential in any form', () => {
  for (const [name, echo] of ECHOES) {
    it(`${name}: the message, the request ids and the code are withheld, for the token and the key`, async () => {
      const server = await httpServer((req, res) => {
        const sent = String(req.headers.authorization).replace(/^Bearer /, '');
        const form = echo(sent);
        json(res, 401, { ...errorJson(`bad_${form}`, `credential ${form} is not valid`), request_id: `rq-${form}` }, { 'x-request-id': `hdr-${form}` });
      });
      const { client, log } = makeClient(server.url);
      const contacts = await apiError(client.listContacts(), 'auth');
      const market = await apiError(client.listSymbols(), 'auth');
      for (const [error, secret] of [[contacts, TOKEN], [market, KEY]] as const) {
        const text = shown(error, log);
        expect(text.toLowerCase()).not.toContain(echo(secret).toLowerCase());
        expect(error.message).toBe("the server's message was withheld: it contained a credential");
        expect(error.requestId).toBeUndefined();
        expect(error.code).toBeUndefined();
        expect(error.status).toBe(401);
      }
    });
  }

  it('a credential of under 4 characters is caught too, in the message and the request id', async () => {
    const server = await httpServer((req, res) => {
      const sent = String(req.headers.authorization).replace(/^Bearer /, '');
      json(res, 403, { ...errorJson('forbidden', `token ${sent} has no access`), request_id: `id-${sent}` }, { 'x-request-id': `h-${sent}` });
    });
    const { client, log } = makeClient(server.url, { token: 'Zq7', apiKey: 'k9' });
    const contacts = await apiError(client.listContacts(), 'auth');
    const market = await apiError(client.listSymbols(), 'auth');
    expect(shown(contacts, log)).not.toContain('Zq7');
    expect(shown(market, log)).not.toContain('k9');
    expect(contacts.message).toContain('withheld');
    expect(market.message).toContain('withheld');
  });

  it('a redirect whose Location holds the credential names no location', async () => {
    const server = await httpServer((req, res) => {
      const sent = String(req.headers.authorization).replace(/^Bearer /, '');
      res.writeHead(302, { location: `https://elsewhere.example/${encodeURIComponent(sent)}/v1/contacts` });
      res.end();
    });
    const { client, log } = makeClient(server.url);
    const error = await apiError(client.listContacts(), 'protocol');
    expect(error.message).toContain('302');
    expect(error.message).toContain('withheld');
    expect(shown(error, log)).not.toContain(encodeURIComponent(TOKEN));
  });

  it('an answer that quotes the credential where a price belongs: the record is named without it', async () => {
    const longKey = 'key-Hush9Hush-0815-and-then-some-more';
    const server = await httpServer((req, res) => {
      const symbols = (JSON.parse(req.body) as { symbols: string[] }).symbols;
      json(res, 200, {
        status: 'success',
        stock_symbols: symbols,
        // The parser quotes a bad value cut to a few characters: the start of the key is a leak too.
        stock_data: [{ symbol: 'AAPL', price: String(req.headers.authorization), volume: 1 }],
      });
    });
    const { client } = makeClient(server.url, { apiKey: longKey });
    const result = await within(client.realtimePricing(['AAPL']));
    expect(result.rejected).toHaveLength(1);
    const text = JSON.stringify(result.rejected);
    expect(text).not.toContain(longKey.slice(0, 8));
    expect(result.rejected[0]!.reason).toContain('withheld');
  });

  it('a message that holds no credential is shown as it is', async () => {
    const server = await httpServer((_req, res) => json(res, 401, errorJson('unauthorized', 'the token has expired')));
    const { client } = makeClient(server.url);
    const error = await apiError(client.listContacts(), 'auth');
    expect(error.message).toBe('the token has expired');
    expect(error.requestId).toBe('11111111-2222-4333-8444-555555555555');
    expect(error.code).toBe('unauthorized');
  });
});

describe('Redactor', () => {
  it('finds a secret base64-encoded at any offset inside a longer text, and not in unrelated text', () => {
    const redactor = new Redactor(['s3cr3t-value']);
    for (const user of ['', 'a', 'ab', 'abc', 'abcd']) {
      expect(redactor.holdsSecret(`Basic ${b64(`${user}:s3cr3t-value`)}`), user).toBe(true);
      expect(redactor.holdsSecret(b64url(`${user}s3cr3t-value and more`)), user).toBe(true);
    }
    expect(redactor.holdsSecret('the token has expired')).toBe(false);
    expect(redactor.holdsSecret(b64('alice:another-secret'))).toBe(false);
  });
});

describe('server text quoted in the client\'s own words', () => {
  it('a Content-Encoding that echoes the credential is not quoted in the error or the log', async () => {
    const server = await httpServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': String(req.headers.authorization) });
      res.end('{}');
    });
    const { client, log } = makeClient(server.url);
    const error = await apiError(client.listContacts(), 'protocol');
    const text = shown(error, log);
    expect(text).not.toContain(TOKEN);
    expect(error.message).toMatch(/sent an answer tickbook cannot read \(the server's message was withheld: it contained a credential\)/);
  });
});

describe('a contact holding the credential', () => {
  it('is refused whole: not printed, not used as a cursor', async () => {
    const server = await httpServer((req, res) => {
      const sent = String(req.headers.authorization).replace(/^Bearer /, '');
      json(res, 200, { has_more: true, data: [contactJson({ id: `ct_${encodeURIComponent(sent)}` })] });
    });
    const { client, log } = makeClient(server.url);
    const error = await apiError(client.listContacts(), 'protocol');
    expect(shown(error, log)).not.toContain(encodeURIComponent(TOKEN));
    expect(error.message).toBe('the server sent a contact holding a credential of this request; it was withheld');
  });
});
