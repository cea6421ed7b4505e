// `tickbook` and `tickbook serve` as child processes of the built bin: help, usage errors (one
// line on stderr, exit 2), the startup banner, one log line per request, and no secret on screen.
import { chmodSync, existsSync, lchownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  BIN,
  call,
  killTickbookChildren,
  runTickbookToExit,
  startServe,
  type ServeProcess,
  UUID,
} from '../helpers/sandbox.js';

const SERVE_OPTIONS = [
  '--host',
  '--port',
  '--db',
  '--seed',
  '--reset-market',
  '--no-demo-data',
  '--rate-limit',
  '--token',
  '--api-key',
  '--restricted-api-key',
] as const;

let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  expect(existsSync(join(BIN, '..', '..', 'dist', 'cli', 'main.js')), 'run `node scripts/build-if-needed.mjs` first').toBe(true);
});

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tickbook-cli-'));
  // Nothing may touch the real home directory.
  env = {
    ...process.env,
    HOME: join(dir, 'home'),
    XDG_DATA_HOME: join(dir, 'xdg-data'),
    XDG_CONFIG_HOME: join(dir, 'xdg-config'),
  };
});

afterEach(async () => {
  await killTickbookChildren();
  rmSync(dir, { recursive: true, force: true });
});

function lines(text: string): string[] {
  return text.split('\n').filter((line) => line !== '');
}

describe('help', () => {
  it('tickbook serve --help (and -h, and tickbook help serve) exit 0 and list every option of serve', async () => {
    for (const args of [['serve', '--help'], ['serve', '-h'], ['help', 'serve']]) {
      const result = await runTickbookToExit(args, env);
      expect(result.code, args.join(' ')).toBe(0);
      expect(result.stderr, args.join(' ')).toBe('');
      expect(result.stdout).toMatch(/^Usage: tickbook serve/);
      for (const option of SERVE_OPTIONS) {
        expect(result.stdout, `${args.join(' ')} lists ${option}`).toMatch(new RegExp(`^\\s+${option}\\b`, 'm'));
      }
      expect(result.stdout).toMatch(/^\s+-h, --help\b/m);
    }
  });

  it('tickbook --help exits 0, names the serve command and where its options are', async () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      const result = await runTickbookToExit(args, env);
      expect(result.code, args.join(' ')).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout).toMatch(/^Usage: tickbook/);
      expect(result.stdout).toMatch(/^\s+serve\s+\S/m);
      expect(result.stdout).toMatch(/tickbook serve --help/);
      expect(result.stdout).toMatch(/--help/);
      expect(result.stdout).toMatch(/--version/);
    }
  });

  it('tickbook --version prints the package version', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    const result = await runTickbookToExit(['--version'], env);
    expect(result).toMatchObject({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });
});

describe('usage errors: one line on stderr naming the problem, exit 2', () => {
  const cases: { args: string[]; names: RegExp[] }[] = [
    { args: ['serve', '--nope'], names: [/--nope/] },
    { args: ['serve', '--port', '99999'], names: [/--port/, /99999/] },
    { args: ['serve', '--port', 'abc'], names: [/--port/, /abc/] },
    // A negative number is a value, checked against the option's range.
    { args: ['serve', '--port', '-5'], names: [/option --port must be an integer from 0 to 65535, not "-5"/] },
    { args: ['serve', '--seed', '-1'], names: [/option --seed must be an integer from 0 to 4294967295, not "-1"/] },
    { args: ['serve', '--port', '1', '--port', '2'], names: [/option --port given twice/] },
    { args: ['serve', '--port', '80.5'], names: [/--port/, /80\.5/] },
    { args: ['serve', '--rate-limit', '0'], names: [/--rate-limit/, /\b0\b/] },
    { args: ['serve', '--rate-limit', 'lots'], names: [/--rate-limit/, /lots/] },
    { args: ['serve', '--seed', '4294967296'], names: [/--seed/, /4294967296/] },
    { args: ['serve', '--port'], names: [/--port/] },
    { args: ['serve', '--no-demo-data=yes'], names: [/--no-demo-data/] },
    { args: ['serve', '--reset-market=yes'], names: [/--reset-market/] },
    { args: ['serve', '--demo-contacts', '0'], names: [/option --demo-contacts must be an integer from 1 to 100000, not "0"/] },
    { args: ['serve', '--demo-contacts', '100001'], names: [/--demo-contacts/, /100001/] },
    { args: ['serve', '--demo-contacts', '500', '--no-demo-data'], names: [/--demo-contacts/, /--no-demo-data/] },
    { args: ['serve', '--token', ''], names: [/--token/] },
    { args: ['serve', 'extra'], names: [/extra/] },
    { args: ['frobnicate'], names: [/frobnicate/] },
    { args: ['--nope'], names: [/--nope/] },
  ];

  for (const { args, names } of cases) {
    it(`tickbook ${args.map((a) => (a === '' ? "''" : a)).join(' ')}`, async () => {
      const result = await runTickbookToExit(args, env);
      expect(result.code, result.stderr).toBe(2);
      expect(result.signal).toBe(null);
      expect(result.stdout).toBe('');
      expect(result.stderr.endsWith('\n'), JSON.stringify(result.stderr)).toBe(true);
      expect(lines(result.stderr), JSON.stringify(result.stderr)).toHaveLength(1);
      expect(result.stderr).toMatch(/^tickbook: /);
      for (const name of names) expect(result.stderr).toMatch(name);
      expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
      // Refused before anything was created.
      expect(existsSync(join(dir, 'xdg-data'))).toBe(false);
      expect(existsSync(join(dir, 'home'))).toBe(false);
    });
  }

  it('serve --host 0.0.0.0 without --token and --api-key is refused in one line, exit 2', async () => {
    for (const extra of [[], ['--token', 'a-real-token-123'], ['--api-key', 'a-real-key-123']]) {
      const result = await runTickbookToExit(['serve', '--host', '0.0.0.0', '--port', '0', ...extra], env);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stdout).toBe('');
      expect(lines(result.stderr), JSON.stringify(result.stderr)).toHaveLength(1);
      expect(result.stderr).toMatch(/refus/i);
      expect(result.stderr).toMatch(/0\.0\.0\.0/);
      expect(result.stderr).toMatch(/--token/);
      expect(result.stderr).toMatch(/--api-key/);
      // The secret given is not echoed back.
      expect(result.stderr).not.toMatch(/a-real-(token|key)-123/);
      expect(existsSync(join(dir, 'xdg-data'))).toBe(false);
    }
  });
});

describe('serve --db that cannot be opened: one line naming --db, the place and the reason', () => {
  async function refused(db: string, reason: RegExp, status = 2, extraEnv: NodeJS.ProcessEnv = {}): Promise<string> {
    const args = ['serve', '--port', '0', ...(db === '' ? [] : ['--db', db])];
    const result = await runTickbookToExit(args, { ...env, ...extraEnv });
    expect(result.code, result.stderr).toBe(status);
    expect(result.signal).toBe(null);
    expect(result.stdout).toBe('');
    expect(lines(result.stderr), JSON.stringify(result.stderr)).toHaveLength(1);
    expect(result.stderr).toMatch(/^tickbook: /);
    expect(result.stderr).toMatch(reason);
    expect(result.stderr).not.toMatch(/\n\s+at |Error:|SQLITE_|\b(ENOENT|ENOTDIR|EACCES|EISDIR|EEXIST|EPERM)\b|mkdir/); // no stack, no system jargon
    return result.stderr;
  }

  it('in a directory that does not exist: refused (exit 2), and the directory is not created', async () => {
    const missing = join(dir, 'nowhere', 'deeper');
    const stderr = await refused(join(missing, 'x.db'), /does not exist/);
    expect(stderr).toMatch(/--db/);
    expect(stderr).toContain(missing);
    expect(existsSync(join(dir, 'nowhere'))).toBe(false);
    // Nor was the default data directory made for it.
    expect(existsSync(join(dir, 'xdg-data'))).toBe(false);
  });

  it('a directory given as the file', async () => {
    const folder = join(dir, 'folder');
    mkdirSync(folder);
    const stderr = await refused(folder, /is a directory/);
    expect(stderr).toMatch(/--db/);
    expect(stderr).toContain(folder);
  });

  it('a file that is not SQLite, which is left as it was', async () => {
    const notes = join(dir, 'notes.txt');
    const text = 'shopping list: eggs, milk, and a great deal more text than a database header\n'.repeat(20);
    writeFileSync(notes, text);
    const stderr = await refused(notes, /not a SQLite database/);
    expect(stderr).toMatch(/--db/);
    expect(stderr).toContain(notes);
    expect(readFileSync(notes, 'utf8')).toBe(text);
    expect(readdirSync(dir).filter((name) => name.startsWith('notes.txt'))).toEqual(['notes.txt']);
  });

  it('under a path where a file stands in for a directory', async () => {
    const file = join(dir, 'plain-file');
    writeFileSync(file, 'x');
    const stderr = await refused(join(file, 'x.db'), /not a directory/);
    expect(stderr).toMatch(/--db/);
    expect(stderr).toContain(file);
  });

  it('a link to nothing in a directory that does not exist: refused naming the link and where it points, and nothing is made', async () => {
    const target = join(dir, 'nowhere', 'x.db');
    const link = join(dir, 'link.db');
    symlinkSync(target, link);
    const stderr = await refused(link, /symbolic link/);
    expect(stderr).toBe(`tickbook: option --db ${link}: it is a symbolic link to ${target}, and the directory ${join(dir, 'nowhere')} does not exist (see tickbook --help)\n`);
    expect(readdirSync(dir)).toEqual(['link.db']);
  });

  it.skipIf(process.getuid?.() !== 0)('a link another user owns (as one planted in /tmp would be): not followed, and nothing is made where it points', async () => {
    const target = join(dir, 'planted.db');
    const link = join(dir, 'link.db');
    symlinkSync(target, link);
    lchownSync(link, 65534, 65534);
    const stderr = await refused(link, /not followed/);
    expect(stderr).toBe(`tickbook: option --db ${link}: ${link} is a symbolic link owned by another user (uid 65534): not followed (see tickbook --help)\n`);
    expect(readdirSync(dir)).toEqual(['link.db']);
  });

  it.skipIf(process.getuid?.() === 0)('in a directory tickbook may not write to (as a user other than root)', async () => {
    const locked = join(dir, 'locked');
    mkdirSync(locked, 0o500);
    try {
      const stderr = await refused(join(locked, 'x.db'), /permission denied/i);
      expect(stderr).toMatch(/--db/);
      expect(stderr).toContain(locked);
    } finally {
      chmodSync(locked, 0o700);
    }
  });

  it('the default place when XDG_DATA_HOME is a file: exit 1, naming the directory it could not make', async () => {
    const file = join(dir, 'data-file');
    writeFileSync(file, 'x');
    const stderr = await refused('', /not a directory/, 1, { XDG_DATA_HOME: file });
    expect(stderr).toContain(file);
    expect(stderr).not.toMatch(/--db/);
  });
});

describe('serve', () => {
  let proc: ServeProcess;

  it('prints the base URLs and the demo credentials, then "listening on http://127.0.0.1:PORT"', async () => {
    proc = await startServe(['--port', '0', '--seed', '5'], env);
    const out = lines(proc.stdout());
    const listening = out.findIndex((line) => line.startsWith('listening on '));
    expect(listening).toBe(out.length - 1);
    expect(out[listening]).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
    const url = proc.url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:(\d+)$/);
    expect(Number(new URL(url).port)).toBeGreaterThan(0);

    const banner = out.slice(0, listening).join('\n');
    expect(banner).toMatch(new RegExp(`base_url:\\s+${url.replace(/\./g, '\\.')}$`, 'm'));
    expect(banner).toMatch(new RegExp(`market_data_url:\\s+${url.replace(/\./g, '\\.')}$`, 'm'));
    expect(banner).toMatch(/bearer token.*\bdemo-token\b/);
    expect(banner).toMatch(/API key.*\bdemo-key\b/);
    expect(banner).toMatch(/restricted.*\bdemo-restricted-key\b/);
    expect(banner).toMatch(/seed:\s+5\b/);
    // The default database lives under $XDG_DATA_HOME, and a new one gets the demo contacts.
    const dbPath = join(dir, 'xdg-data', 'tickbook', 'sandbox.db');
    expect(banner).toContain(dbPath);
    expect(existsSync(dbPath)).toBe(true);
    expect(proc.stderr()).toBe('');

    // The printed credentials work against the printed URLs.
    const list = await call(url, '/v1/contacts', { auth: 'Bearer demo-token' });
    expect(list.status).toBe(200);
    expect(list.json.data).toHaveLength(10);
    expect(list.json.has_more).toBe(true);
    const symbols = await call(url, '/v1/utilities/stock/symbols', { auth: 'demo-key' });
    expect(symbols.status).toBe(200);
    expect((await call(url, '/v1/utilities/stock/symbols', { auth: 'demo-restricted-key' })).status).toBe(401);
    // Nothing was created outside the temporary directory's XDG data home.
    expect(readdirSync(dir).sort()).toEqual(['xdg-data']);
  });

  it('--demo-contacts 10000 fills a new database with that many contacts, each its own; an existing one is left as it is, and says so', async () => {
    const db = join(dir, 'long.db');
    proc = await startServe(['--port', '0', '--db', db, '--demo-contacts', '10000'], env);
    const usernames = new Set<string>();
    let after: string | undefined;
    for (;;) {
      const page = await call(proc.url, `/v1/contacts?limit=100${after ? `&starting_after=${after}` : ''}`, { auth: 'Bearer demo-token' });
      expect(page.status).toBe(200);
      for (const contact of page.json.data as { username: string }[]) usernames.add(contact.username);
      if (!page.json.has_more) break;
      after = page.json.data.at(-1).id;
    }
    expect(usernames.size).toBe(10_000);
    expect(proc.stdout()).toContain('(new: filled with demo contacts)');
    expect(proc.stderr()).toBe('');
    proc.child.kill('SIGTERM');
    await proc.exited;
    proc = await startServe(['--port', '0', '--db', db, '--demo-contacts', '20'], env);
    await proc.waitFor(/--demo-contacts fills only a new database; .*long\.db already existed and keeps its contacts/, 'stderr');
    const first = await call(proc.url, '/v1/contacts?limit=100', { auth: 'Bearer demo-token' });
    expect(first.json.has_more).toBe(true);
  });

  it('writes one log line per request: method, path, status, ms and the request id', async () => {
    proc = await startServe(['--port', '0', '--db', join(dir, 's.db'), '--no-demo-data', '--seed', '3'], env);
    const before = lines(proc.stdout()).length;
    const requests = [
      { method: 'GET', path: '/v1/contacts?limit=5', reply: await call(proc.url, '/v1/contacts?limit=5', { auth: 'Bearer demo-token' }) },
      {
        method: 'POST',
        path: '/v1/contacts',
        reply: await call(proc.url, '/v1/contacts', { auth: 'Bearer demo-token', form: { username: 'logged', phone_number: '+14155550100' } }),
      },
      { method: 'GET', path: '/v1/contacts/ct_missing', reply: await call(proc.url, '/v1/contacts/ct_missing', { auth: 'Bearer demo-token' }) },
      { method: 'GET', path: '/v1/contacts', reply: await call(proc.url, '/v1/contacts') },
      {
        method: 'POST',
        path: '/v1/utilities/stock/realtime-pricing',
        reply: await call(proc.url, '/v1/utilities/stock/realtime-pricing', { auth: 'demo-key', json: { symbols: ['AAPL'] } }),
      },
      { method: 'DELETE', path: '/v1/nowhere', reply: await call(proc.url, '/v1/nowhere', { method: 'DELETE' }) },
    ];
    expect(requests.map((r) => r.reply.status)).toEqual([200, 201, 404, 401, 200, 404]);

    for (const { method, path, reply } of requests) {
      const id = reply.headers['x-request-id'];
      expect(typeof id === 'string' && UUID.test(id), String(id)).toBe(true);
      const escaped = path.replace(/[.?]/g, '\\$&');
      const match = await proc.waitFor(
        new RegExp(`^(\\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z) ${method} ${escaped} ${reply.status} (\\d+(?:\\.\\d+)?)ms ${id}$`, 'm'),
      );
      expect(Number.isNaN(Date.parse(match[1]!))).toBe(false);
      expect(Number(match[2])).toBeGreaterThanOrEqual(0);
      // Exactly one line for this request.
      expect(proc.stdout().split(id as string).length - 1, `${method} ${path}`).toBe(1);
    }
    expect(lines(proc.stdout()).length - before).toBe(requests.length);
    expect(proc.stderr()).toBe('');
  });

  it('never shows a token or API key given on the command line', async () => {
    const token = 'supersecrettoken123';
    const apiKey = 'hushhushapikey456';
    const db = join(dir, 's.db');
    proc = await startServe(['--port', '0', '--db', db, '--seed', '1', '--token', token, '--api-key', apiKey], env);
    // The banner says a token was given, and nothing of it: not even its last characters.
    expect(proc.stdout()).toMatch(/bearer token.*1 given on the command line/);
    expect(proc.stdout()).toMatch(/API key.*1 given on the command line/);
    expect(proc.stdout()).not.toMatch(/n123|y456/);

    const auth = `Bearer ${token}`;
    const created = await call(proc.url, '/v1/contacts', { auth, form: { username: 'quiet', phone_number: '+14155550100' } });
    expect(created.status, created.text).toBe(201);
    expect((await call(proc.url, `/v1/contacts/${created.json.id}`, { auth })).status).toBe(200);
    expect((await call(proc.url, '/v1/contacts', { auth })).status).toBe(200);
    expect((await call(proc.url, '/v1/contacts', { auth: 'Bearer demo-token' })).status).toBe(401);
    expect((await call(proc.url, `/v1/contacts?token=${token}`, { auth })).status).toBe(400);
    expect((await call(proc.url, `/v1/contacts?access_token=${token}&limit=2`, { auth })).status).toBe(400);
    // A name spelled with percent-encoding is a secret's name all the same.
    expect((await call(proc.url, `/v1/contacts?%74oken=${token}`, { auth })).status).toBe(400);
    expect((await call(proc.url, `/v1/contacts?api%5Fkey=${token}`, { auth })).status).toBe(400);
    expect((await call(proc.url, '/v1/utilities/stock/symbols', { auth: apiKey })).status).toBe(200);
    expect((await call(proc.url, '/v1/utilities/stock/symbols', { auth: `Bearer ${apiKey}` })).status).toBe(401);
    const priced = await call(proc.url, '/v1/utilities/stock/realtime-pricing', { auth: apiKey, json: { symbols: ['MSFT'] } });
    expect(priced.status).toBe(200);
    // No answer body echoes it either.
    expect(priced.text).not.toContain(apiKey);

    // Every request has been logged...
    await proc.waitFor(/ POST \/v1\/utilities\/stock\/realtime-pricing 200 /);
    expect(proc.stdout()).toMatch(/ GET \/v1\/contacts\?token=(%5B|\[)redacted(%5D|\]) 400 /);
    // ...then stop it, so all its output is in.
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toEqual({ code: 0, signal: null });

    const everything = proc.stdout() + proc.stderr();
    expect(everything).not.toContain(token);
    expect(everything).not.toContain(apiKey);
    expect(everything).not.toContain(token.slice(0, 12));
    // Nor does the database file hold them.
    for (const file of readdirSync(dir).filter((f) => f.startsWith('s.db'))) {
      const bytes = readFileSync(join(dir, file)).toString('latin1');
      expect(bytes, file).not.toContain(token);
      expect(bytes, file).not.toContain(apiKey);
    }
  });
});
