// `tickbook doctor` against a healthy setup and broken ones, with the built bin in fresh homes.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanEnv } from '../helpers/child.js';
import { fakeNodeVersion } from '../helpers/old-node.js';
import { BIN, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let home: string;
let env: NodeJS.ProcessEnv;
let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'tickbook-doctor-'));
  env = { ...cleanEnv(), HOME: home, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data'), TERM: 'xterm-256color' };
});
afterEach(() => rmSync(home, { recursive: true, force: true, maxRetries: 5 }));

/** Run without blocking this process: the test sandbox it asks lives here. `entry` is what node runs: the launcher, or what it loads. */
async function doctor(args: string[] = [], entry: readonly string[] = [BIN]) {
  const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [...entry, 'doctor', ...args], { env, encoding: 'utf8', timeout: 30_000 }, (error, stdout, stderr) =>
      resolve({ status: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
  const lines = new Map(run.stdout.split('\n').filter(Boolean).map((line) => {
    const [mark, what, ...rest] = line.split(/\s+/);
    return [what!, { mark: mark!, detail: rest.join(' ') }];
  }));
  return { code: run.status, stdout: run.stdout, stderr: run.stderr, lines };
}

describe('tickbook doctor', async () => {
  it('for a screen reader (--screen-reader, or TICKBOOK_SCREEN_READER=1) says each verdict in a word, with no mark', async () => {
    // The first run makes the sandbox's database; the runs compared find it there.
    await doctor();
    const plain = await doctor();
    for (const run of [await doctor(['--screen-reader']), await (async () => {
      env.TICKBOOK_SCREEN_READER = '1';
      return doctor();
    })()]) {
      expect(run.code).toBe(plain.code);
      expect(run.stdout).not.toMatch(/[✓✗·]/u);
      // The same findings, in the same order, each led by its word.
      expect([...run.lines.keys()]).toEqual([...plain.lines.keys()]);
      const words = new Map([['✓', 'ok:'], ['✗', 'problem:'], ['·', 'note:']]);
      for (const [what, line] of plain.lines) expect(run.lines.get(what)!.mark, what).toBe(words.get(line.mark));
    }
  });

  it('a fresh setup on the embedded sandbox: every line well or only informative, exit 0', async () => {
    const run = await doctor();
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect([...run.lines.keys()]).toEqual(['node', 'terminal', 'mouse', 'config', 'history', 'sandbox', 'contacts', 'market', 'clock']);
    expect(run.lines.get('node')).toMatchObject({ mark: '✓', detail: expect.stringContaining(process.version) });
    // Run here without a terminal: said, not failed.
    expect(run.lines.get('terminal')!.mark).toBe('·');
    // Nothing to ask without a terminal: the mouse line says only what the dashboard will do.
    expect(run.lines.get('mouse')).toMatchObject({ mark: '·', detail: expect.stringMatching(/reads clicks and the wheel/) });
    expect(run.lines.get('config')).toMatchObject({ mark: '·', detail: expect.stringMatching(/does not exist: every setting is its default/) });
    expect(run.lines.get('contacts')).toMatchObject({ mark: '✓', detail: expect.stringMatching(/sandbox.*answers, the token is accepted \(\d+ ms\)/) });
    expect(run.lines.get('market')!.mark).toBe('✓');
    expect(run.lines.get('clock')!.detail).toMatch(/the sandbox runs on this machine's clock/);
    // Second run: the sandbox's file now made, and intact.
    expect((await doctor()).lines.get('sandbox')).toMatchObject({ mark: '✓', detail: expect.stringMatching(/intact$/) });
  });

  // The launcher refuses such a Node before doctor runs (test/scripts/launcher.test.ts); run
  // without it, doctor says the same. The pinned Node says it is 22.18.
  it('a Node before 22.19: ✗ node, naming the version needed, exit 1', async () => {
    const run = await doctor([], ['--require', fakeNodeVersion(home, '22.18.0'), join(dirname(BIN), '../dist/bundle/tickbook.mjs')]);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.lines.get('node')).toEqual({ mark: '✗', detail: `v22.18.0 (${process.execPath}): tickbook needs 22.19 or later` });
  });

  it('a configured server that answers: its latency, the credentials accepted, the clocks compared', async () => {
    mkdirSync(join(home, 'config', 'tickbook'), { recursive: true });
    writeFileSync(join(home, 'config', 'tickbook', 'config.json'), JSON.stringify({ base_url: sandbox.url }), { mode: 0o600 });
    env.TICKBOOK_TOKEN = sandbox.token;
    env.TICKBOOK_API_KEY = sandbox.apiKey;
    const run = await doctor();
    expect(run.code, run.stdout).toBe(0);
    expect(run.lines.get('config')!.mark).toBe('✓');
    expect(run.lines.get('contacts')!.detail).toMatch(/127\.0\.0\.1.*answers/);
    expect(run.lines.get('clock')).toMatchObject({ mark: '✓', detail: expect.stringMatching(/this machine .*, the server /) });
  });

  it('broken files: a config that is not JSON, a history file that is not SQLite: each ✗ saying why, exit 1', async () => {
    mkdirSync(join(home, 'config', 'tickbook'), { recursive: true });
    writeFileSync(join(home, 'config', 'tickbook', 'config.json'), '{"interval": 5,');
    mkdirSync(join(home, 'data', 'tickbook'), { recursive: true });
    writeFileSync(join(home, 'data', 'tickbook', 'history.db'), 'not a database at all, just text');
    const run = await doctor();
    expect(run.code).toBe(1);
    expect(run.lines.get('config')).toMatchObject({ mark: '✗', detail: expect.stringMatching(/invalid JSON at line 1, column 16/) });
    expect(run.lines.get('history')).toMatchObject({ mark: '✗', detail: expect.stringMatching(/is not a SQLite database/) });
    expect(run.lines.get('connection')).toMatchObject({ mark: '✗', detail: expect.stringMatching(/not checked: .*config file/) });
  });

  it('a token refused, then a server not there: ✗ saying why, never the token, exit 1', async () => {
    env.TICKBOOK_BASE_URL = sandbox.url;
    env.TICKBOOK_TOKEN = 'wrong-token-123';
    env.TICKBOOK_API_KEY = sandbox.apiKey;
    const run = await doctor();
    expect(run.code).toBe(1);
    expect(run.lines.get('contacts')).toMatchObject({ mark: '✗', detail: expect.stringMatching(/not recognised|unauthori[sz]ed/i) });
    expect(run.lines.get('market')!.mark).toBe('✓');
    expect(run.stdout + run.stderr).not.toContain('wrong-token-123');

    env.TICKBOOK_BASE_URL = 'http://127.0.0.1:9';
    const gone = await doctor();
    expect(gone.code).toBe(1);
    expect(gone.lines.get('contacts')).toMatchObject({ mark: '✗', detail: expect.stringMatching(/refused/) });
    expect(gone.lines.get('clock')!.mark).toBe('·');
  });

  it('a history file that is a directory: ✗ with the reason, every other line still said; a WAL file checked leaves nothing behind', async () => {
    mkdirSync(join(home, 'data', 'tickbook', 'history.db'), { recursive: true });
    let run = await doctor();
    expect(run.code).toBe(1);
    expect(run.lines.get('history')).toMatchObject({ mark: '✗', detail: expect.stringMatching(/history\.db: .*director/i) });
    expect([...run.lines.keys()]).toContain('clock');
    rmSync(join(home, 'data', 'tickbook', 'history.db'), { recursive: true });
    // The dashboard's files as a run leaves them, then checked: no -wal or -shm made by the check.
    await doctor();
    const files = () => readdirSync(join(home, 'data', 'tickbook')).sort();
    const before = files();
    run = await doctor();
    expect(run.lines.get('sandbox')!.mark).toBe('✓');
    expect(files()).toEqual(before);
  });

  it('a non-UTF-8 locale gets ASCII marks', async () => {
    env.LANG = 'C';
    env.LC_ALL = 'C';
    const run = await doctor();
    expect(run.stdout).toMatch(/^ok +node/m);
    expect(run.stdout).not.toMatch(/[✓✗·]/);
  });
});
