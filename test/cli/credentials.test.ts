// Where credentials go (issue 18, items 1 and 4, and the credential part of 8): one saved in the
// config file only to the origin saved with it; one given on the command line, in the
// environment or in a file to wherever that same run points; one that cannot be an HTTP header
// refused as a usage mistake naming where it came from. A real server on loopback records what
// reached it.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/sandbox.js';
import { type ChildRun, runChild } from '../helpers/child.js';
import { closeAllServers, contactJson, httpServer, json, pricingJson, type TestServer } from '../helpers/servers.js';

const SAVED_TOKEN = 'prod-token-7Hq2xZ';
const SAVED_KEY = 'prod-key-9Kw3vY';

let root: string;
let counter = 0;
let server: TestServer;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'tickbook-credentials-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

beforeEach(async () => {
  // Answers as the API would, to whatever credential arrives: what matters is what arrived.
  server = await httpServer((req, res) => {
    if (req.path === '/v1/contacts') json(res, 200, { has_more: false, data: [contactJson()] });
    else if (req.path === '/v1/utilities/stock/realtime-pricing') json(res, 200, pricingJson(req.body));
    else json(res, 404, { message: 'no such path' });
  });
});
afterEach(closeAllServers);

interface Home {
  dir: string;
  env: NodeJS.ProcessEnv;
}

/** A home of its own whose config file saves credentials for `savedFor`. */
function home(config: Record<string, unknown> | undefined): Home {
  const dir = join(root, `home-${++counter}`);
  mkdirSync(join(dir, 'config', 'tickbook'), { recursive: true });
  if (config !== undefined) writeFileSync(join(dir, 'config', 'tickbook', 'config.json'), JSON.stringify(config), { mode: 0o600 });
  return { dir, env: { PATH: process.env.PATH, HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data') } };
}

const prodConfig = { base_url: 'https://api.prod.example', token: SAVED_TOKEN, api_key: SAVED_KEY };

async function tickbook(args: readonly string[], at: Home, extra: { env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<ChildRun> {
  const run = await runChild(process.execPath, [BIN, ...args], { env: { ...at.env, ...extra.env }, timeoutMs: 15_000, ...(extra.input !== undefined && { input: extra.input }) });
  expect(run.timedOut).toBe(false);
  return run;
}

/** Every credential the server was sent, whatever header carried it. */
const credentialsSeen = (): string[] => server.requests.flatMap((r) => [r.headers.authorization, r.headers['x-api-key']].filter((v): v is string => v !== undefined));

describe('a credential saved in the config file goes only to the origin saved with it', () => {
  it('contacts list pointed elsewhere by --base-url or TICKBOOK_BASE_URL: nothing is sent, the error names the origin and how to give a token', async () => {
    const at = home(prodConfig);
    const runs = await Promise.all([
      tickbook(['contacts', 'list', '--base-url', server.url], at),
      tickbook(['contacts', 'list'], at, { env: { TICKBOOK_BASE_URL: server.url } }),
    ]);
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toContain(`not sending the bearer token from "token" in ${join(at.dir, 'config', 'tickbook', 'config.json')} to ${server.url}`);
      expect(run.stderr).toContain('saved for https://api.prod.example');
      expect(run.stderr).toContain('--token-file FILE or TICKBOOK_TOKEN');
      expect(run.stderr).not.toContain(SAVED_TOKEN);
    }
    expect(server.requests).toHaveLength(0);
  });

  it('quote pointed elsewhere: the saved API key is not sent either', async () => {
    const at = home(prodConfig);
    const run = await tickbook(['quote', 'AAPL', '--base-url', server.url], at);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/not sending the API key .* to http:\/\/127\.0\.0\.1:\d+: it is saved for https:\/\/api\.prod\.example/);
    expect(run.stderr).toContain('--api-key-file FILE or TICKBOOK_API_KEY');
    expect(server.requests).toHaveLength(0);
  });

  it('saved beside this very server, it is sent; saved with no URL beside it, it is not', async () => {
    const saved = await tickbook(['contacts', 'list', '--json'], home({ base_url: server.url, token: SAVED_TOKEN }));
    expect(saved.code, saved.stderr).toBe(0);
    expect(credentialsSeen()).toEqual([`Bearer ${SAVED_TOKEN}`]);

    const bare = await tickbook(['contacts', 'list', '--base-url', server.url], home({ token: SAVED_TOKEN }));
    expect(bare.code).toBe(1);
    expect(bare.stderr).toContain('it is saved with no URL beside it');
    expect(credentialsSeen()).toHaveLength(1);
  });

  it('a token given on the command line, in the environment or in a file goes where that same run points', async () => {
    const at = home(prodConfig);
    const file = join(at.dir, 'token.txt');
    writeFileSync(file, 'file-token-Qp4\n', { mode: 0o600 });
    const runs = await Promise.all([
      tickbook(['contacts', 'list', '--base-url', server.url, '--token', 'flag-token-Ab1'], at),
      tickbook(['contacts', 'list', '--base-url', server.url], at, { env: { TICKBOOK_TOKEN: 'env-token-Cd2' } }),
      tickbook(['contacts', 'list', '--base-url', server.url, '--token-file', file], at),
      tickbook(['contacts', 'list', '--base-url', server.url, '--token-file', '-'], at, { input: 'stdin-token-Ef3\r\n' }),
    ]);
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    expect(credentialsSeen().sort()).toEqual(
      ['Bearer flag-token-Ab1', 'Bearer env-token-Cd2', 'Bearer file-token-Qp4', 'Bearer stdin-token-Ef3'].sort(),
    );
  });

  it('--api-key-file - reads the key from standard input, --token-file a file, in one run', async () => {
    const at = home(undefined);
    const file = join(at.dir, 'token.txt');
    writeFileSync(file, 'tok-from-file\n', { mode: 0o600 });
    const run = await tickbook(['quote', 'AAPL', '--base-url', server.url, '--token-file', file, '--api-key-file', '-'], at, { input: 'key-from-stdin\n' });
    expect(run.code, run.stderr).toBe(0);
    expect(credentialsSeen()).toEqual(['key-from-stdin']);
  });
});

describe('credentials that cannot be sent are usage mistakes naming where they came from (exit 2, nothing sent)', () => {
  const cases: { name: string; args: string[]; env?: NodeJS.ProcessEnv; file?: string; input?: string; says: RegExp }[] = [
    { name: 'a token with a newline in TICKBOOK_TOKEN', args: [], env: { TICKBOOK_TOKEN: 'abc\ndef' }, says: /TICKBOOK_TOKEN: the bearer token has a line break at character 4/ },
    { name: 'a token with a character outside Latin-1 in --token', args: ['--token', 'tök€n'], says: /option --token: the bearer token has a character HTTP cannot carry at character 4/ },
    { name: 'an API key with a control character in TICKBOOK_API_KEY', args: [], env: { TICKBOOK_API_KEY: 'k\u0007y' }, says: /TICKBOOK_API_KEY: the API key has a control character at character 2/ },
    { name: 'a token file of two lines', args: [], file: 'line-one\nline-two\n', says: /option --token-file \(".*token\.txt"\): the bearer token has a line break at character 9/ },
    { name: 'an empty token file', args: [], file: '\n', says: /option --token-file: ".*token\.txt" is empty/ },
    { name: 'a missing token file', args: ['--token-file', '/nonexistent/token'], says: /option --token-file: cannot read "\/nonexistent\/token": no such file or directory \(ENOENT\)/ },
    { name: '--token and --token-file together', args: ['--token', 'a', '--token-file', '/dev/null'], says: /give --token or --token-file, not both/ },
    // Refused before reading: standard input here is empty, and reading it first would say so instead.
    { name: 'both files from standard input', args: ['--token-file', '-', '--api-key-file', '-'], says: /cannot both read standard input/ },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const at = home(undefined);
      const args = ['contacts', 'list', '--base-url', server.url, ...c.args];
      if (c.file !== undefined) {
        const file = join(at.dir, 'token.txt');
        writeFileSync(file, c.file, { mode: 0o600 });
        args.push('--token-file', file);
      }
      const run = await tickbook(args, at, { ...(c.env && { env: c.env }), ...(c.input !== undefined && { input: c.input }) });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(c.says);
      for (const secret of ['def', 'line-two', 'tök€n']) expect(run.stderr).not.toContain(secret);
      expect(server.requests).toHaveLength(0);
    });
  }

  it('the dashboard cannot read a credential from standard input: its keys come from there', async () => {
    const run = await tickbook(['--base-url', server.url, '--token-file', '-'], home(undefined), { input: 'x\n' });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/option --token-file: the dashboard reads its keys from standard input; give the token in a file/);
  });
});

describe('a credential file others can read', () => {
  it('is used all the same (it is the user\'s file), and nothing of it is printed', async () => {
    const at = home(undefined);
    const file = join(at.dir, 'token.txt');
    writeFileSync(file, 'readable-token\n');
    chmodSync(file, 0o644);
    const run = await tickbook(['contacts', 'list', '--base-url', server.url, '--token-file', file], at);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr + run.stdout).not.toContain('readable-token');
  });
});
