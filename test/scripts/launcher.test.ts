// bin/tickbook and the Node it runs on: the tests and npm's scripts on the Node 24 the
// devDependency `node` pins; a clone started by an older Node runs itself again on that one; an
// install without it says which Node it needs. The older Node is the machine's own (Node 20 here).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { fakeNodeVersion, findOldNode, nodeMajor, shellPathFor } from '../helpers/old-node.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin/tickbook');
const pinned = join(root, 'node_modules/node/bin/node');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string }; scripts: Record<string, string> };
const pinnedVersion = (JSON.parse(readFileSync(join(root, 'node_modules/node/package.json'), 'utf8')) as { version: string }).version;
const dir = mkdtempSync(join(tmpdir(), 'tickbook-launcher-'));
/** Servers the tests started: a test that fails must not leave one running. */
const servers: number[] = [];
afterAll(() => {
  for (const pid of servers) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Ended.
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

const old = findOldNode();

/** Runs `command args`, with a probe that appends each Node's version that loads it to a file. */
function runProbed(command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const seen = join(dir, `seen-${Math.random().toString(36).slice(2)}.txt`);
  const probe = join(dir, 'probe.cjs');
  writeFileSync(probe, `require('node:fs').appendFileSync(process.env.PROBE_OUT, process.version + '\\n');\n`);
  const run = spawnSync(command, args, { encoding: 'utf8', env: { ...process.env, ...env, PROBE_OUT: seen, NODE_OPTIONS: `--require=${probe}` } });
  let versions: string[] = [];
  try {
    versions = readFileSync(seen, 'utf8').trim().split('\n');
  } catch {
    // No node started.
  }
  return { ...run, versions };
}

/** A copy of bin/tickbook as a global install has it: the built dist, no node_modules, so no pinned Node. */
function installedWithoutPinnedNode(): string {
  const install = mkdtempSync(join(dir, 'global-'));
  mkdirSync(join(install, 'bin'));
  copyFileSync(bin, join(install, 'bin/tickbook'));
  copyFileSync(join(root, 'package.json'), join(install, 'package.json'));
  symlinkSync(join(root, 'dist'), join(install, 'dist'));
  return install;
}

describe('the launcher', () => {
  it('is executable, and its #! line runs node with nothing else (busybox env and older coreutils run it)', () => {
    expect(statSync(bin).mode & 0o111).not.toBe(0);
    expect(readFileSync(bin, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
  });

  it('asks for Node 22.19 in package.json, and npm start runs it without flags or variables', () => {
    expect(pkg.engines.node).toBe('>=22.19');
    expect(readFileSync(join(root, '.nvmrc'), 'utf8').trim()).toBe('24');
    expect(pkg.scripts.start).toBe('node bin/tickbook');
  });

  it('the tests, and what they start with process.execPath, run on the pinned Node 24', () => {
    console.log(`tests run on Node ${process.version} (${process.execPath})`);
    expect(nodeMajor(pinnedVersion)).toBe(24);
    expect(process.version).toBe(`v${pinnedVersion}`);
    expect(realpathSync(process.execPath)).toBe(realpathSync(pinned));
    expect(execFileSync(process.execPath, ['-p', 'process.version'], { encoding: 'utf8' }).trim()).toBe(`v${pinnedVersion}`);
  });

  // undici 8 needs 22.19 (before 22.15 it cannot even load); no machine here has a Node 22 that old,
  // so the pinned Node says it is one.
  it('counts the minor version: a Node 22 before 22.19 is refused in one line, exit 1; 22.19 and 23.0 run', () => {
    const install = installedWithoutPinnedNode();
    const as = (version: string) => spawnSync(process.execPath, ['--require', fakeNodeVersion(dir, version), join(install, 'bin/tickbook'), '--version'], { encoding: 'utf8' });
    const refused = as('22.18.0');
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(`tickbook: needs Node.js 22.19 or newer; this is Node v22.18.0 (${process.execPath})\n`);
    expect(refused.status).toBe(1);
    for (const version of ['22.19.0', '23.0.0']) {
      const run = as(version);
      expect(run.stderr, version).toBe('');
      expect(run.stdout.trim(), version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(run.status, version).toBe(0);
    }
  });

  it('runs on the Node it was started by when that is new enough', () => {
    const run = runProbed(process.execPath, [bin, '--version']);
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    expect(run.versions).toEqual([`v${pinnedVersion}`]);
  });
});

describe.skipIf(!old)('the launcher started by an older Node', () => {
  it('from a clone runs itself again on the pinned Node, given its arguments, with its exit code', () => {
    const run = runProbed(old!, [bin, '--version']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    expect(nodeMajor(run.versions[0]!)).toBeLessThan(22);
    expect(run.versions.slice(1)).toEqual([`v${pinnedVersion}`]);
    // A usage mistake's exit code (2) and message come through as they are.
    const usage = runProbed(old!, [bin, '--no-such-option']);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/--no-such-option/);
    expect(usage.versions.slice(1)).toEqual([`v${pinnedVersion}`]);
  });

  it('passes a signal sent to it on to the Node it runs, and ends as that one ends', async () => {
    const home = mkdtempSync(join(dir, 'home-'));
    /** `tickbook serve` on a free port under the old Node, once listening: the launcher, and the Node 24 it started. */
    const serve = async () => {
      const child = spawn(old!, [bin, 'serve', '--port', '0'], { env: { ...process.env, HOME: home, XDG_DATA_HOME: join(home, 'data') }, stdio: ['ignore', 'pipe', 'pipe'] });
      servers.push(child.pid!);
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stderr })));
      let stdout = '';
      await new Promise<void>((resolve) => child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk).includes('listening on') && resolve()));
      const [inner] = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(' ').map(Number);
      servers.push(inner!);
      expect(realpathSync(`/proc/${inner}/exe`)).toBe(realpathSync(pinned));
      return { launcher: child, inner: inner!, ended };
    };
    // SIGTERM to the launcher: the server hears it, finishes and exits 0, and so does the launcher.
    const first = await serve();
    first.launcher.kill('SIGTERM');
    const byTerm = await first.ended;
    expect(byTerm).toMatchObject({ code: 0, signal: null });
    expect(byTerm.stderr).toContain('SIGTERM: finishing in-flight requests, then stopping');
    expect(existsSync(`/proc/${first.inner}`)).toBe(false);
    // The server killed: the launcher ends by the same signal.
    const second = await serve();
    process.kill(second.inner, 'SIGKILL');
    expect(await second.ended).toMatchObject({ code: null, signal: 'SIGKILL' });
  });

  it('run by its #! line from a shell whose node is the older one, does the same', () => {
    const run = runProbed(bin, ['--version'], { PATH: shellPathFor(old!) });
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    expect(nodeMajor(run.versions[0]!)).toBeLessThan(22);
    expect(run.versions.slice(1)).toEqual([`v${pinnedVersion}`]);
  });

  it('installed without the pinned Node, says in one line which Node it needs, exit 1', () => {
    const install = installedWithoutPinnedNode();
    const version = execFileSync(old!, ['--version'], { encoding: 'utf8' }).trim();
    for (const run of [runProbed(old!, [join(install, 'bin/tickbook'), '--version']), runProbed(join(install, 'bin/tickbook'), ['--version'], { PATH: shellPathFor(old!) })]) {
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(`tickbook: needs Node.js 22.19 or newer; this is Node ${version} (${realpathSync(old!)})\n`);
      expect(run.status).toBe(1);
      expect(run.versions).toEqual([version]);
    }
    // The same copy runs on a Node that is new enough.
    const fresh = runProbed(process.execPath, [join(install, 'bin/tickbook'), '--version']);
    expect(fresh.status).toBe(0);
    expect(fresh.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
