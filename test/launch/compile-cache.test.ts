// Node's compile cache for the commands that run from the ES modules, as bin/tickbook turns it on:
// real directories in a temp dir, `tickbook --version` run as a process (a cache is read only when
// a module is compiled, once a process), and Node's own word (NODE_DEBUG_NATIVE=COMPILE_CACHE) on
// whether it took a cache file or compiled.
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { ROOT, cleanEnv, runChild } from '../helpers/child.js';
import { NOBODY, RUNS_AS_NOBODY, traversableTempDir, unprivileged } from '../helpers/unprivileged.js';

const BIN = join(ROOT, 'bin/tickbook');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const root = traversableTempDir('tickbook-compile-cache-');
afterAll(() => rmSync(root, { recursive: true, force: true }));

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(root, 'home-'));
  chmodSync(home, 0o755);
});

/** `tickbook --version` with its cache under `cacheHome`; Node's compile-cache log on stderr. */
async function version(cacheHome: string, options: { asNobody?: boolean } = {}) {
  const env: NodeJS.ProcessEnv = { ...cleanEnv(), HOME: home, XDG_CACHE_HOME: cacheHome, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' };
  delete env.NODE_COMPILE_CACHE;
  delete env.NODE_DISABLE_COMPILE_CACHE;
  const [command, args] = options.asNobody ? unprivileged(process.execPath, [BIN, '--version']) : [process.execPath, [BIN, '--version']];
  const run = await runChild(command, args, { env, timeoutMs: 15_000 });
  expect(run.timedOut).toBe(false);
  expect(run.code).toBe(0);
  expect(run.stdout).toBe(`${VERSION}\n`);
  expect(run.stderr).not.toMatch(/^tickbook:|Error|\n\s+at /m);
  return run;
}

/** Every file and directory under `dir` with its permission bits, as `mode path` lines. */
function modes(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((name) => `${(statSync(join(dir, name)).mode & 0o777).toString(8)} ${name}`);
}

const ENTRY = /compile cache\] V8 code cache for ESM file:\/\/\S*dist\/bundle\/tickbook\.mjs was (\w+(?: \w+)?)/;

describe("Node's compile cache for the ES modules", () => {
  /** A cache home with tickbook's directory in it, as the dashboard or shell completion leaves it. */
  function cacheHomeWithTickbook(): string {
    const cacheHome = join(home, 'cache');
    mkdirSync(join(cacheHome, 'tickbook'), { recursive: true, mode: 0o700 });
    return cacheHome;
  }

  it('is written by the first start, the directories 0700 and the files 0600, and taken by the next', async () => {
    const cacheHome = cacheHomeWithTickbook();
    const first = await version(cacheHome);
    expect(ENTRY.exec(first.stderr)?.[1]).toBe('not initialized');
    const compile = join(cacheHome, 'tickbook', 'compile');
    const written = modes(cacheHome);
    // Node's own directory (its version, architecture, V8's tag and the uid), one file a module.
    const [nodeDir, ...others] = readdirSync(compile);
    expect(others).toEqual([]);
    expect(nodeDir).toMatch(new RegExp(`^${process.version}-${process.arch}-[0-9a-f]{8}-${process.getuid!()}$`));
    const files = readdirSync(join(compile, nodeDir!));
    expect(files.length).toBeGreaterThan(1);
    expect(written).toEqual(
      expect.arrayContaining(['700 tickbook', '700 tickbook/compile', `700 tickbook/compile/${nodeDir}`, ...files.map((file) => `600 tickbook/compile/${nodeDir}/${file}`)]),
    );
    expect(written.filter((line) => !/^(600|700) /.test(line))).toEqual([]);
    const before = files.map((file) => statSync(join(compile, nodeDir!, file)).mtimeMs);

    const second = await version(cacheHome);
    expect(ENTRY.exec(second.stderr)?.[1]).toBe('accepted');
    expect(second.stderr).not.toMatch(/was (not initialized|rejected)/);
    // Taken as it was: nothing written again.
    expect(readdirSync(join(compile, nodeDir!)).sort()).toEqual([...files].sort());
    expect(files.map((file) => statSync(join(compile, nodeDir!, file)).mtimeMs)).toEqual(before);
  });

  it('is refused and written again whole when a file of it is damaged', async () => {
    const cacheHome = cacheHomeWithTickbook();
    await version(cacheHome);
    const dir = join(cacheHome, 'tickbook', 'compile', readdirSync(join(cacheHome, 'tickbook', 'compile'))[0]!);
    for (const file of readdirSync(dir)) writeFileSync(join(dir, file), Buffer.alloc(statSync(join(dir, file)).size, 0x5a));
    const damaged = await version(cacheHome);
    expect(ENTRY.exec(damaged.stderr)?.[1]).toBe('not initialized');
    expect(ENTRY.exec((await version(cacheHome)).stderr)?.[1]).toBe('accepted');
  });

  it("makes no cache directory (nor a home) that is not there: tickbook's own is made by the dashboard or shell completion", async () => {
    const run = await version(join(home, 'cache'));
    expect(run.stderr).not.toContain('compile cache');
    expect(readdirSync(home)).toEqual([]);
  });

  describe('never stops or holds a start: without a cache where none can be kept', () => {
    it("a file where tickbook's cache directory would be", async () => {
      mkdirSync(join(home, 'cache'));
      writeFileSync(join(home, 'cache', 'tickbook'), 'not a directory');
      const run = await version(join(home, 'cache'));
      expect(run.stderr).not.toContain('compile cache');
    });

    it('a cache directory under /proc, where a recursive mkdir never ends', async () => {
      const run = await version('/proc/tickbook-compile-cache-test');
      expect(run.stderr).not.toContain('compile cache');
    });

    it('a compile directory that is a link, even to one of ours', async () => {
      const elsewhere = join(home, 'elsewhere');
      mkdirSync(elsewhere, { mode: 0o700 });
      const cacheHome = cacheHomeWithTickbook();
      symlinkSync(elsewhere, join(cacheHome, 'tickbook', 'compile'));
      const run = await version(cacheHome);
      expect(run.stderr).not.toContain('compile cache');
      expect(readdirSync(elsewhere)).toEqual([]);
    });

    it('a compile directory others may write to', async () => {
      const compile = join(cacheHomeWithTickbook(), 'tickbook', 'compile');
      mkdirSync(compile, { mode: 0o700 });
      chmodSync(compile, 0o777);
      const run = await version(join(home, 'cache'));
      expect(run.stderr).not.toContain('compile cache');
      expect(readdirSync(compile)).toEqual([]);
    });

    it("tickbook's cache directory a link, or one others may write to, as the dashboard's code cache is refused there too", async () => {
      const elsewhere = join(home, 'elsewhere');
      mkdirSync(elsewhere, { mode: 0o700 });
      mkdirSync(join(home, 'cache'));
      symlinkSync(elsewhere, join(home, 'cache', 'tickbook'));
      expect((await version(join(home, 'cache'))).stderr).not.toContain('compile cache');
      expect(readdirSync(elsewhere)).toEqual([]);
      const groupWritable = join(home, 'group-writable');
      mkdirSync(join(groupWritable, 'tickbook'), { recursive: true });
      chmodSync(join(groupWritable, 'tickbook'), 0o770);
      expect((await version(groupWritable)).stderr).not.toContain('compile cache');
      expect(readdirSync(join(groupWritable, 'tickbook'))).toEqual([]);
    });

    it.runIf(RUNS_AS_NOBODY)("a cache directory that is not the user's (root's, here run as nobody), or read-only", async () => {
      // root's 0755: nobody may not write in it, and it is not theirs.
      const rootOwned = join(home, 'root-cache');
      mkdirSync(join(rootOwned, 'tickbook'), { recursive: true, mode: 0o755 });
      chmodSync(rootOwned, 0o755);
      const run = await version(rootOwned, { asNobody: true });
      expect(run.stderr).not.toContain('compile cache');
      expect(readdirSync(join(rootOwned, 'tickbook'))).toEqual([]);
      // nobody's own, read-only.
      const readOnly = join(home, 'read-only');
      mkdirSync(join(readOnly, 'tickbook'), { recursive: true, mode: 0o500 });
      chownSync(readOnly, NOBODY, NOBODY);
      chownSync(join(readOnly, 'tickbook'), NOBODY, NOBODY);
      const again = await version(readOnly, { asNobody: true });
      expect(again.stderr).not.toContain('compile cache');
      expect(readdirSync(join(readOnly, 'tickbook'))).toEqual([]);
    });
  });
});
