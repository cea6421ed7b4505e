// Regression tests: text from a server never reaches the terminal as escape sequences or control
// characters, in the CLI's one-line errors, its "more:" hint, its delete confirmation line and its
// tables and fields. The built bin runs against a small real server that answers with hostile
// text (run `node scripts/build-if-needed.mjs` first).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killTickbookChildren, runTickbookToExit } from '../helpers/sandbox.js';
import { cleanEnv } from '../helpers/child.js';

const TOKEN = 'tok-Sanitise-2468';
const API_KEY = 'key-Sanitise-1357';

/** ESC, BEL, every C1 control (8-bit CSI, OSC, ST, NEL …), DEL and the bidi controls. */
const UNSAFE = /[\u001b\u0007\u0080-\u009f\u007f\u202a-\u202e\u2066-\u2069]/;
const ANY_CONTROL_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

const HOSTILE_MESSAGE = 'bad \u001b]0;PWNED\u0007 \u001b[41mthing\u001b[0m \u009b2J\u0085 \u202eevil \u001b]8;;https://evil.example\u001b\\link\u001b]8;;\u001b\\';
const HOSTILE_REQUEST_ID = 'rid\u001b[5m\u009d0;t\u009c';
const HOSTILE_ID = 'ct_\u001b[31mX\u001b[0m';
const LAST_LIST_ID = 'ct_\u001b[31mZ\u001b]0;T\u0007';

function contactJson(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'ct_plain',
    username: 'ada',
    phone_number: '+15550001111',
    avatar_url: null,
    display_name: null,
    conversation_id: 'cv_plain',
    last_active_at: 1_700_000_000,
    created_at: 1_690_000_000,
    ...over,
  };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

let server: Server;
let url: string;
let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tickbook-sanitise-'));
  const clean = cleanEnv();
  env = {
    ...clean,
    HOME: join(dir, 'home'),
    XDG_CONFIG_HOME: join(dir, 'xdg-config'),
    XDG_DATA_HOME: join(dir, 'xdg-data'),
    NO_COLOR: '1',
  };

  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      if (req.headers.authorization !== `Bearer ${TOKEN}`) {
        json(res, 401, { status: 'error', code: 'unauthorized', message: 'wrong token', request_id: 'r' });
      } else if (req.method === 'GET' && path === '/v1/contacts') {
        json(res, 200, {
          has_more: true,
          data: [
            contactJson({ id: 'ct_\u001b[2Jfirst', display_name: 'Eve \u001b]0;owned\u0007\u202eliam', username: 'eve\u009b31m' }),
            contactJson({ id: LAST_LIST_ID, display_name: null }),
          ],
        });
      } else if (req.method === 'GET' && path === '/v1/contacts/X') {
        json(res, 404, { status: 'error', code: 'not_found', message: HOSTILE_MESSAGE, request_id: HOSTILE_REQUEST_ID });
      } else if (req.method === 'GET' && path === '/v1/contacts/HOSTILE') {
        json(
          res,
          200,
          contactJson({
            id: HOSTILE_ID,
            display_name: 'Mallory \u001b[8mhidden\u001b[28m',
            username: 'mal\u0007lory',
            avatar_url: 'https://evil.example/\u001b]8;;https://x\u001b\\a.png',
            conversation_id: 'cv_\u009b2Jx',
          }),
        );
      } else if (req.method === 'DELETE' && path.startsWith('/v1/contacts/')) {
        json(res, 200, { id: HOSTILE_ID, deleted: true });
      } else {
        json(res, 404, { status: 'error', code: 'not_found', message: 'no such path', request_id: 'r' });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await killTickbookChildren();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

const connection = (): string[] => ['--base-url', url, '--token', TOKEN, '--api-key', API_KEY];

function expectClean(where: string, text: string): void {
  expect(text, `${where}: ${JSON.stringify(text)}`).not.toMatch(UNSAFE);
  expect(text, `${where}: ${JSON.stringify(text)}`).not.toMatch(ANY_CONTROL_BUT_NEWLINE);
}

describe('server text in CLI output', () => {
  it('contacts get X: an error whose message and request_id carry escapes exits 1 with one clean stderr line', async () => {
    const run = await runTickbookToExit(['contacts', 'get', 'X', ...connection()], env, 15_000);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toBe('');
    const lines = run.stderr.split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1), JSON.stringify(run.stderr)).toHaveLength(1);
    expectClean('stderr', run.stderr);
    // What is left is still the server's words, the status and the request id.
    expect(run.stderr).toMatch(/^tickbook: bad .*thing/);
    expect(run.stderr).toContain('HTTP 404');
    expect(run.stderr).toContain('rid');
    expect(run.stderr).not.toContain('PWNED');
  });

  it('contacts list: the "more:" hint after a page whose last id holds an escape has no ESC', async () => {
    const run = await runTickbookToExit(['contacts', 'list', '--limit', '2', ...connection()], env, 15_000);
    expect(run.code, run.stderr).toBe(0);
    expectClean('stdout', run.stdout);
    expectClean('stderr', run.stderr);
    const hint = run.stderr.split('\n').find((line) => line.startsWith('more:'));
    expect(hint, run.stderr).toBeDefined();
    expect(hint).toMatch(/^more: tickbook contacts list --limit 2 --after ct_/);
    // The table still lists both rows.
    expect(run.stdout.trim().split('\n')).toHaveLength(3);
  });

  it('contacts get of a contact with escapes in every field prints clean fields', async () => {
    const run = await runTickbookToExit(['contacts', 'get', 'HOSTILE', ...connection()], env, 15_000);
    expect(run.code, run.stderr).toBe(0);
    expectClean('stdout', run.stdout);
    expectClean('stderr', run.stderr);
    expect(run.stdout).toContain('Mallory');
    expect(run.stdout).toContain('evil.example');
  });

  it('contacts delete ID --yes, answered with an id holding an escape, prints no ESC', async () => {
    const run = await runTickbookToExit(['contacts', 'delete', 'ct_1', '--yes', ...connection()], env, 15_000);
    expect(run.code, run.stderr).toBe(0);
    expectClean('stdout', run.stdout);
    expectClean('stderr', run.stderr);
    expect(run.stdout).toMatch(/^deleted ct_.*X.* and its conversation\n$/);
  });

  it('contacts delete ID --yes --json escapes the hostile id instead of printing it raw', async () => {
    const run = await runTickbookToExit(['contacts', 'delete', 'ct_1', '--yes', '--json', ...connection()], env, 15_000);
    expect(run.code, run.stderr).toBe(0);
    expectClean('stdout', run.stdout);
    // Still the server's id, exactly, once parsed.
    expect(JSON.parse(run.stdout)).toEqual({ id: HOSTILE_ID, deleted: true });
  });

  it('contacts list --json and --ndjson escape every control, and parse back to the server text', async () => {
    for (const flag of ['--json', '--ndjson']) {
      const run = await runTickbookToExit(['contacts', 'list', '--limit', '2', flag, ...connection()], env, 15_000);
      expect(run.code, run.stderr).toBe(0);
      expectClean(`${flag} stdout`, run.stdout);
      expectClean(`${flag} stderr`, run.stderr);
      const ids =
        flag === '--json'
          ? (JSON.parse(run.stdout) as { data: { id: string }[] }).data.map((c) => c.id)
          : run.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { id: string }).id);
      expect(ids).toEqual(['ct_\u001b[2Jfirst', LAST_LIST_ID]);
    }
  });
});
