// The dashboard started by bin/tickbook's #! line in a real pty: its first start keeps V8's
// compiled code in $XDG_CACHE_HOME/tickbook once the first frame is out, the next starts from it
// (a cache V8 refused would be written again), and a cache directory that cannot be made costs
// nothing but the cache.
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/tmux.js';
import { hasScript, startInPty } from '../helpers/pty.js';

describe.skipIf(!hasScript())('the code cache, started as a shell starts tickbook', () => {
  let home: string;
  let cache: string;
  let env: Record<string, string>;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'tickbook-code-cache-'));
    cache = join(home, 'cache');
    env = { LANG: 'C.UTF-8', HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: cache };
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  const caches = (): string[] => {
    try {
      return readdirSync(join(cache, 'tickbook')).filter((name) => name.endsWith('.v8cache'));
    } catch {
      return [];
    }
  };

  /** Starts the dashboard, waits for its contacts and for `ready`, quits with q: its exit status. */
  async function dashboardRun(dir: string, ready: () => boolean = () => true): Promise<{ status: number | null; text: string }> {
    const run = startInPty([BIN, '--watchlist', 'AAPL', '--interval', '1'], env, dir);
    await run.until((text) => text.includes('? help') && /page 1/.test(text), 'the dashboard and its contacts');
    await run.until(() => ready(), 'the cache file');
    run.send('q');
    return { status: await run.exited, text: run.text() };
  }

  it('is written by the first start and used, unchanged, by the next', async () => {
    const first = await dashboardRun(mkdtempSync(join(home, 'run-')), () => caches().length === 1);
    expect(first.status).toBe(0);
    const [name] = caches();
    const path = join(cache, 'tickbook', name!);
    const written = statSync(path);
    expect(written.mode & 0o777).toBe(0o600);
    expect(written.size).toBeGreaterThan(100_000);

    const second = await dashboardRun(mkdtempSync(join(home, 'run-')));
    expect(second.status).toBe(0);
    expect(second.text).toContain('AAPL');
    // Had V8 refused the cache, it would have been written again with the first frame, before
    // the contacts the run waited for came.
    expect(caches()).toEqual([name]);
    const after = statSync(path);
    expect([after.ino, after.mtimeMs]).toEqual([written.ino, written.mtimeMs]);
  });

  it('costs a start nothing but the cache where none can be kept', async () => {
    // A file where the cache directory would be: not even root can make a directory in it.
    writeFileSync(cache, '');
    const run = await dashboardRun(mkdtempSync(join(home, 'run-')));
    expect(run.status).toBe(0);
    expect(run.text).not.toMatch(/cache|ENOTDIR|Error/);
  });
});
