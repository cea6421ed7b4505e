// The dashboard as a shell starts it, ticking: V8's memory reducer runs one full collection where
// Node 20's V8 would run three (src/launch/memory-reducer.ts). Read from V8's own --trace-gc lines,
// beside a start whose own reducer flag keeps the launcher from touching it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/tmux.js';
import { hasScript, startInPty, type PtyRun } from '../helpers/pty.js';

const reductions = (text: string): number => text.split('Mark-Compact (reduce)').length - 1;

describe.skipIf(!hasScript() || !/^11\.3\./.test(process.versions.v8))("the memory reducer, on Node 20's V8", () => {
  let home: string;
  const runs: PtyRun[] = [];
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'tickbook-reducer-'));
  });
  afterEach(() => {
    for (const run of runs.splice(0)) run.kill();
    rmSync(home, { recursive: true, force: true });
  });

  function start(name: string, flags: string[]): PtyRun {
    const dir = join(home, name);
    const env = { LANG: 'C.UTF-8', HOME: dir, XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config'), XDG_CACHE_HOME: join(dir, 'cache') };
    const run = startInPty([process.execPath, '--max-semi-space-size=1', '--trace-gc', ...flags, BIN, '--watchlist', 'AAPL,MSFT,NVDA,AMZN,GOOGL,META', '--interval', '1'], env, mkdtempSync(join(tmpdir(), 'tickbook-reducer-run-')));
    runs.push(run);
    return run;
  }

  it('runs one collection, 8 s into a ticking dashboard, where the default runs more', async () => {
    const ours = start('ours', []);
    const theirs = start('theirs', ['--no-memory-reducer-single-gc']);
    // The reducer starts 8 s after the first full collection; the default's next ones come well
    // within a second of each other.
    await theirs.until((text) => reductions(text) >= 2, 'the default reducer’s second collection', 45_000);
    await ours.until((text) => reductions(text) >= 1, 'the reducer’s collection', 45_000);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(reductions(ours.text())).toBe(1);
    expect(ours.text()).not.toMatch(/unrecognized flag/);
    for (const run of [ours, theirs]) run.send('q');
    expect(await ours.exited).toBe(0);
    expect(await theirs.exited).toBe(0);
  }, 90_000);
});
