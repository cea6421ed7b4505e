// The dashboard's script run with V8's code cache: real files in a temp dir, a real script, and the
// cache V8 makes of it taken (or refused) by V8 itself, each start a process of its own (within one,
// V8 keeps what it compiled and would never look at the file again).
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';
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

  it('takes a damaged cache as none (checked before V8 reads it), and writes a good one in its place', async () => {
    await start('save');
    const [name] = cacheFiles();
    const path = join(cacheDir, name!);
    const bytes = readFileSync(path);
    // Deep in V8's part, which V8 itself does not check in a release build.
    bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
    writeFileSync(path, bytes);
    expect((await start('save')).use).toBe('rejected');
    expect((await start()).use).toBe('used');
  });

  it('takes a whole file V8 refuses as none, and writes a good one in its place', async () => {
    await start('save');
    const [name] = cacheFiles();
    const path = join(cacheDir, name!);
    const bytes = readFileSync(path);
    // V8's own header spoiled, and the file's checksum made to match: V8 is the one to refuse it.
    bytes.fill(7, 8, 40);
    bytes.writeUInt32BE(crc32(bytes.subarray(8)), 4);
    writeFileSync(path, bytes);
    expect((await start('save')).use).toBe('rejected');
    expect((await start()).use).toBe('used');
  });

  it('names the cache by the build, the file, Node and the flags, so none is taken for another', () => {
    const source = readFileSync(file, 'utf8');
    const stat = { size: 100, mtimeMs: 1 };
    expect(cacheName(source, stat, ['--flag'])).toBe(cacheName(source, { ...stat }, ['--flag']));
    expect(cacheName(source, stat, ['--flag'])).not.toBe(cacheName(source, stat, ['--other']));
    expect(cacheName(source, stat, ['--flag'])).not.toBe(cacheName(source.replace('00000000000000aa', '00000000000000bb'), stat, ['--flag']));
    // An edit that leaves the build line as it was still changes the size or the time.
    expect(cacheName(source, stat, ['--flag'])).not.toBe(cacheName(source, { size: 100, mtimeMs: 2 }, ['--flag']));
    expect(cacheName(source, stat, ['--flag'])).not.toBe(cacheName(source, { size: 101, mtimeMs: 1 }, ['--flag']));
    run().save();
    expect(run().use).toBe('used');
    expect(run(['--other']).use).toBe('absent');
    writeScript('00000000000000bb');
    expect(run().use).toBe('absent');
  });

  it("keeps its own cache and the two newest others (installs taking turns), every other file, and writes under way", () => {
    mkdirSync(cacheDir, { recursive: true });
    const others = ['dashboard-000000000000000a.v8cache', 'dashboard-000000000000000b.v8cache', 'dashboard-000000000000000c.v8cache'];
    const stale = '.dashboard-000000000000000a.v8cache.4242.0a1b2c3d.tmp';
    const underWay = '.dashboard-000000000000000b.v8cache.4243.0a1b2c3d.tmp';
    for (const name of [...others, stale, underWay, 'symbols.json', 'dashboard-notes.txt']) writeFileSync(join(cacheDir, name), 'x');
    // Oldest first; the stale write died two minutes ago.
    others.forEach((name, i) => utimesSync(join(cacheDir, name), new Date(Date.now() - (10 - i) * 60_000), new Date(Date.now() - (10 - i) * 60_000)));
    utimesSync(join(cacheDir, stale), new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
    run().save();
    const left = cacheFiles();
    expect(left).toEqual(expect.arrayContaining(['symbols.json', 'dashboard-notes.txt', underWay, others[1], others[2]]));
    expect(left).not.toContain(others[0]);
    expect(left).not.toContain(stale);
    expect(left.filter((name) => name.endsWith('.v8cache'))).toHaveLength(3);
  });

  it('reads no cache through a link, nor from a FIFO put in its place (a start would wait on it for ever)', () => {
    const first = run();
    first.save();
    const path = first.cacheFile!;
    const real = join(dir, 'real.v8cache');
    renameSync(path, real);
    symlinkSync(real, path);
    expect(run().use).toBe('absent');
    rmSync(path);
    execFileSync('mkfifo', [path]);
    expect(run().use).toBe('absent');
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

  /** A start with the cache directory as it is now: none read, none written, where it leads left as it was. */
  function refused(leadsTo = cacheDir): void {
    const before = readdirSync(leadsTo);
    const start = run();
    expect(start.use).toBe('absent');
    expect(start.cacheFile).toBeUndefined();
    start.save();
    expect(readdirSync(leadsTo)).toEqual(before);
  }

  it('keeps no cache in a cache directory others may write to: one there is not read, none is written', () => {
    run().save();
    for (const mode of [0o770, 0o707, 0o777, 0o720]) {
      chmodSync(cacheDir, mode);
      refused();
    }
    // Empty, as a first start finds it.
    rmSync(cacheDir, { recursive: true });
    mkdirSync(cacheDir, { mode: 0o700 });
    chmodSync(cacheDir, 0o775);
    refused();
    chmodSync(cacheDir, 0o700);
    run().save();
    expect(run().use).toBe('used');
  });

  it('keeps no cache through a cache directory that is a link, even to a directory of the user\'s; a link above it is followed', () => {
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o700 });
    mkdirSync(join(dir, 'cache'));
    symlinkSync(elsewhere, cacheDir);
    refused(elsewhere);
    // A cache already where the link leads is not read either.
    runDashboardScript({ file, cacheDir: elsewhere, flags: ['--flag'] }).save();
    expect(readdirSync(elsewhere)).toHaveLength(1);
    refused(elsewhere);
    // `~/.cache` itself a link (to a disk of the user's): tickbook's directory is made and kept there.
    rmSync(join(dir, 'cache'), { recursive: true });
    const disk = join(dir, 'disk');
    mkdirSync(disk, { mode: 0o700 });
    symlinkSync(disk, join(dir, 'cache'));
    run().save();
    expect(readdirSync(join(disk, 'tickbook'))).toHaveLength(1);
    expect(run().use).toBe('used');
  });

  it.skipIf(process.getuid?.() !== 0)("keeps no cache in a cache directory that is another user's, nor through a link to one", () => {
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    chownSync(cacheDir, 12345, 12345);
    refused();
    const theirs = join(dir, 'theirs');
    renameSync(cacheDir, theirs);
    symlinkSync(theirs, cacheDir);
    refused(theirs);
  });

  it.skipIf(process.getuid?.() !== 0)("does not read another user's cache (run as root, which can give one away)", () => {
    run().save();
    const [name] = cacheFiles();
    chownSync(join(cacheDir, name!), 12345, 12345);
    expect(run().use).toBe('absent');
  });

  it.skipIf(process.getuid?.() !== 0)("keeps no cache in another user's home (root, as under sudo): neither read nor made there", () => {
    const home = join(dir, 'someone');
    mkdirSync(home);
    chownSync(home, 12345, 12345);
    const elsewhere = runDashboardScript({ file, cacheDir: join(home, '.cache', 'tickbook'), flags: [] });
    expect(elsewhere.use).toBe('absent');
    expect(elsewhere.cacheFile).toBeUndefined();
    elsewhere.save();
    expect(readdirSync(home)).toEqual([]);
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

  it('writes no cache, at once, in a cache directory under /proc, where a recursive mkdir never returns', async () => {
    // In a process of its own: a save that hangs is then a timeout, not a hung test.
    const result = await runChild(process.execPath, ['--import', 'tsx', child, file, '/proc/tickbook-code-cache-test/tickbook', '--flag', 'save'], { timeoutMs: 10_000 });
    expect(result.timedOut).toBe(false);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toMatchObject({ use: 'absent' });
  });
});
