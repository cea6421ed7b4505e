// The sandbox a command starts for itself listens on loopback, where every account on the machine
// can find its port (`ss -ltnp`). It must answer only the process that made it: the public demo
// credentials open nothing, asked by another account (nobody, through setpriv) or by this one;
// and the user's contacts are the ones `serve` shows on the same database with the demo token.
import { readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cleanEnv, runChild } from '../helpers/child.js';
import { DEMO_API_KEY, DEMO_TOKEN } from '../../src/server/credentials.js';
import { listenSandbox, startSandbox } from '../../src/server/sandbox.js';
import { call, expectError, killTickbookChildren, runTickbook, runTickbookToExit } from '../helpers/sandbox.js';
import { traversableTempDir, unprivileged } from '../helpers/unprivileged.js';

const root = traversableTempDir('tickbook-in-process-');
afterEach(killTickbookChildren);
afterAll(() => rmSync(root, { recursive: true, force: true }));

let homes = 0;
function freshHome(): NodeJS.ProcessEnv {
  const home = join(root, `home-${++homes}`);
  return { ...cleanEnv(), HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data'), XDG_CACHE_HOME: join(home, 'cache') };
}

/** The TCP ports process `pid` listens on, read from /proc as `ss -ltnp` reads them. */
function listeningPorts(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
      if (inode) inodes.add(inode);
    } catch {
      // Closed meanwhile.
    }
  }
  const ports: number[] = [];
  for (const table of ['tcp', 'tcp6']) {
    for (const line of readFileSync(`/proc/${pid}/net/${table}`, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local address, remote, state (0A: LISTEN), …, inode
      if (fields[3] === '0A' && inodes.has(fields[9]!)) ports.push(parseInt(fields[1]!.split(':')[1]!, 16));
    }
  }
  return ports;
}

/** The status of a GET of `url` with `authorization`, asked by the nobody account where this runs as root. */
async function statusAsAnotherAccount(url: string, authorization: string): Promise<string> {
  const script = `fetch(${JSON.stringify(url)}, { headers: { authorization: ${JSON.stringify(authorization)} } }).then((r) => console.log(r.status), (e) => console.log('failed: ' + e.message))`;
  const [command, args] = unprivileged(process.execPath, ['-e', script]);
  const run = await runChild(command, args, { env: cleanEnv(), cwd: root });
  return run.stdout.trim();
}

describe('the in-process sandbox', () => {
  it('refuses the public demo token and API key, from another account and from this one, while it serves its own process', async () => {
    const env = freshHome();
    const watch = runTickbook(['quote', 'AAPL', '--watch', '--interval', '1'], env);
    // A price printed: the sandbox is open and answering its own process.
    await watch.waitFor(/AAPL \d+\.\d\d/);
    const ports = listeningPorts(watch.child.pid!);
    expect(ports).toHaveLength(1);
    const url = `http://127.0.0.1:${ports[0]}`;

    expect(await statusAsAnotherAccount(`${url}/v1/contacts`, 'Bearer demo-token')).toBe('401');
    expect(await statusAsAnotherAccount(`${url}/v1/utilities/stock/symbols`, 'demo-key')).toBe('401');

    // Nor may anyone write with it.
    const create = await call(url, '/v1/contacts', { auth: 'Bearer demo-token', form: { username: 'intruder', phone_number: '+14155550100' } });
    expectError(create, 401, 'unauthorized', /not recognised/);
    const restricted = await call(url, '/v1/utilities/stock/realtime-pricing', { auth: 'demo-restricted-key', json: { symbols: ['AAPL'] } });
    expectError(restricted, 401, 'permission_error', /not recognised/);

    // Still answering its own process all the while: one more tick printed after the refusals.
    const ticks = (watch.stdout().match(/AAPL/g) ?? []).length;
    await watch.waitFor(new RegExp(`(?:AAPL[^]*?){${ticks + 1}}`));
    watch.child.kill('SIGTERM');
    expect((await watch.exited).code).toBe(0);
  });

  it('makes a credential of its own each time, not the demo one, which its server alone accepts', async () => {
    const dbPath = join(root, 'own-credentials.db');
    const first = await listenSandbox({ port: 0, inProcess: true, dbPath });
    const second = await listenSandbox({ port: 0, inProcess: true, dbPath });
    try {
      expect(new Set([first.token, second.token, DEMO_TOKEN]).size).toBe(3);
      expect(new Set([first.apiKey, second.apiKey, DEMO_API_KEY]).size).toBe(3);
      expect(first.token).toMatch(/^tickbook-token-[A-Za-z0-9_-]{43}$/);
      expect(first.credentials).toMatchObject({ tokens: [first.token], apiKeys: [first.apiKey], restrictedApiKeys: [] });
      await first.open();
      expectError(await call(first.url, '/v1/contacts', { auth: `Bearer ${second.token}` }), 401, 'unauthorized');
      expect((await call(first.url, '/v1/contacts', { auth: `Bearer ${first.token}` })).status).toBe(200);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('opens, run after run, the same contacts `serve` shows with the demo token on that database', async () => {
    const env = freshHome();
    const made = await runTickbookToExit(['contacts', 'create', '--username', 'kept.between.runs', '--phone', '+14155550142', '--json'], env);
    expect(made.code).toBe(0);
    const listed = await runTickbookToExit(['contacts', 'list', '--limit', '100', '--json'], env);
    expect(JSON.parse(listed.stdout).data.map((c: { username: string }) => c.username)).toContain('kept.between.runs');

    // As `tickbook serve` opens it: the demo credentials, the market the database keeps.
    const served = await startSandbox({ dbPath: join(env.XDG_DATA_HOME!, 'tickbook', 'sandbox.db'), demoData: false });
    try {
      const page = await call(served.url, '/v1/contacts?limit=100', { auth: 'Bearer demo-token' });
      expect(page.status).toBe(200);
      expect(page.json.data.map((c: { username: string }) => c.username)).toContain('kept.between.runs');
    } finally {
      await served.close();
    }
  });
});
