// The dashboard's script run with V8's code cache: real files in a temp dir, a real script, and the
// cache V8 makes of it taken (or refused) by V8 itself, each start a process of its own (within one,
// V8 keeps what it compiled and would never look at the file again).
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { type CacheUse, cacheName, runDashboardScript } from '../../src/launch/dashboard-script.js';
import { ROOT, runChild } from '../helpers/child.js';

const root = mkdtempSync(join(tmpdir(), 'tickbook-dashboard-script-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

type Seen = { runs: number; filename: string; dirname: string; joined: string; exported: boolean };
const seen = () => (globalThis as { __dashboardScriptSeen?: Seen }).__dashboardScriptSeen;

let dir: string;
let file: string;
let cacheDir: string;
/** A script with enough functions in it for a cache to hold, run once each time. */
function writeScript(build: string): void {
  const functions = Array.from({ length: 200 }, (_, i) => `function f${i}(x) { return x * ${i} + ${i}; }`).join('\n');
  writeFileSync(
    file,
    `${functions}
const path = require('node:path');
module.exports = { f1 };
const previous = globalThis.__dashboardScriptSeen;
globalThis.__dashboardScriptSeen = {
  runs: (previous?.runs ?? 0) + 1,
  filename: __filename,
  dirname: __dirname,
  joined: path.join('a', 'b'),
  exported: module.exports.f1 === f1 && this === exports,
  total: ${Array.from({ length: 200 }, (_, i) => `f${i}(1)`).join(' + ')},
};
//# tickbook-build=${build}
`,
  );
}

beforeEach(() => {
  dir = mkdtempSync(join(root, 'case-'));
  file = join(dir, 'dashboard.cjs');
  cacheDir = join(dir, 'cache', 'tickbook');
  writeScript('00000000000000aa');
  delete (globalThis as { __dashboardScriptSeen?: Seen }).__dashboardScriptSeen;
});

const run = (flags: readonly string[] = ['--flag']) => runDashboardScript({ file, cacheDir, flags });
const child = join(ROOT, 'test/helpers/dashboard-script-child.ts');
/** A start in a process of its own: whether it used a cache, and what it did with it. */
async function start(then: 'save' | 'keep' = 'keep', flag = '--flag'): Promise<{ use: CacheUse; cacheFile: string }> {
  const result = await runChild(process.execPath, ['--import', 'tsx', child, file, cacheDir, flag, then]);
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as { use: CacheUse; cacheFile: string };
}
const cacheFiles = () => (existsSync(cacheDir) ? readdirSync(cacheDir) : []);

describe('the dashboard script', () => {
  it('runs as Node runs a CommonJS module: require, module, exports, __filename and __dirname', () => {
    run();
    expect(seen()).toMatchObject({ runs: 1, filename: file, dirname: dir, joined: join('a', 'b'), exported: true });
  });

  it('finds no cache at first, writes one when asked, and the next start uses it', async () => {
    const first = await start('save');
    expect(first.use).toBe('absent');
    const [name] = cacheFiles();
    expect(name).toMatch(/^dashboard-[0-9a-f]{16}\.v8cache$/);
    expect(first.cacheFile).toBe(join(cacheDir, name!));
    // Only the user can read it, or write where it is.
    expect(statSync(join(cacheDir, name!)).mode & 0o777).toBe(0o600);
    expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
    expect((await start()).use).toBe('used');
  });

  it('writes once: a second save, or a save after a start that used the cache, leaves the file alone', async () => {
    const first = run();
    expect(first.use).toBe('absent');
    first.save();
    const path = first.cacheFile!;
    const written = statSync(path).mtimeMs;
    first.save();
    expect((await start('save')).use).toBe('used');
    expect(statSync(path).mtimeMs).toBe(written);
  });

  it('takes a cache V8 refuses (a damaged file) as none, and writes a good one in its place', async () => {
    await start('save');
    const [name] = cacheFiles();
    const path = join(cacheDir, name!);
    const bytes = readFileSync(path);
    bytes.fill(7, 0, 64);
    writeFileSync(path, bytes);
    expect((await start('save')).use).toBe('rejected');
    expect((await start()).use).toBe('used');
  });

  it('names the cache by the build, Node and the flags, so none is taken for another', () => {
    const source = readFileSync(file, 'utf8');
    expect(cacheName(source, ['--flag'])).toBe(cacheName(source, ['--flag']));
    expect(cacheName(source, ['--flag'])).not.toBe(cacheName(source, ['--other']));
    expect(cacheName(source, ['--flag'])).not.toBe(cacheName(source.replace('00000000000000aa', '00000000000000bb'), ['--flag']));
    run().save();
    expect(run().use).toBe('used');
    expect(run(['--other']).use).toBe('absent');
    writeScript('00000000000000bb');
    expect(run().use).toBe('absent');
  });

  it("keeps only its own build's cache, and every other file in the directory", () => {
    mkdirSync(cacheDir, { recursive: true });
    const older = 'dashboard-0123456789abcdef.v8cache';
    const stale = 'dashboard-0123456789abcdef.v8cache.4242.tmp';
    for (const name of [older, stale, 'symbols.json', 'dashboard-notes.txt']) writeFileSync(join(cacheDir, name), 'x');
    run().save();
    const left = cacheFiles();
    expect(left).toContain('symbols.json');
    expect(left).toContain('dashboard-notes.txt');
    expect(left).not.toContain(older);
    expect(left).not.toContain(stale);
    expect(left.filter((name) => name.endsWith('.v8cache'))).toHaveLength(1);
  });

  it('does not read a cache that others could have written: V8 would run what it holds', () => {
    run().save();
    const [name] = cacheFiles();
    const path = join(cacheDir, name!);
    chmodSync(path, 0o620);
    expect(run().use).toBe('absent');
    chmodSync(path, 0o602);
    expect(run().use).toBe('absent');
    chmodSync(path, 0o600);
    expect(run().use).not.toBe('absent');
  });

  it.skipIf(process.getuid?.() !== 0)("does not read another user's cache (run as root, which can give one away)", () => {
    run().save();
    const [name] = cacheFiles();
    chownSync(join(cacheDir, name!), 12345, 12345);
    expect(run().use).toBe('absent');
  });

  it('runs without a cache where none can be kept: no cache directory, or one that cannot be made', () => {
    const none = runDashboardScript({ file, cacheDir: undefined, flags: [] });
    expect(none.use).toBe('absent');
    expect(none.cacheFile).toBeUndefined();
    expect(() => none.save()).not.toThrow();
    writeFileSync(join(dir, 'a-file'), '');
    const blocked = runDashboardScript({ file, cacheDir: join(dir, 'a-file', 'tickbook'), flags: [] });
    expect(() => blocked.save()).not.toThrow();
    expect(existsSync(join(dir, 'a-file', 'tickbook'))).toBe(false);
    expect(seen()!.runs).toBe(2);
  });
});
