// The dashboard as a shell starts it: V8's memory reducer runs one full collection where Node 20's
// V8 would run three (src/launch/v8-flags.ts). Read from V8's own --trace-gc lines, beside a start
// whose own reducer flag keeps the launcher from touching it.
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/tmux.js';
import { flagsFor } from '../../src/launch/v8-flags.js';
import { hasScript, usePtyHome } from '../helpers/pty.js';

interface Collection {
  /** Milliseconds since the start, as --trace-gc prints it. */
  at: number;
  full: boolean;
  reducer: boolean;
}

const collections = (text: string): Collection[] =>
  [...text.matchAll(/(\d+) ms: (Scavenge|Mark-Compact)( \(reduce\))?/g)].map((match) => ({ at: Number(match[1]), full: match[2] === 'Mark-Compact', reducer: match[3] !== undefined }));

/**
 * The reducer's collections, grouped into its runs: a run ends at a full collection of V8's own.
 * The default runs a second collection about 0.5 s after its first, or 8 s later when the program
 * is busy then; with one a run, the reducer starts again only after another full collection. So
 * runs, not gaps or a count at some moment: on a loaded machine the two dashboards do not keep step.
 */
function reducerRuns(text: string): number[] {
  const runs: number[] = [];
  let inRun = false;
  for (const collection of collections(text).filter((c) => c.full)) {
    if (!collection.reducer) inRun = false;
    else if (inRun) runs[runs.length - 1]! += 1;
    else {
      runs.push(1);
      inRun = true;
    }
  }
  return runs;
}

// Where the launcher gives the flag: Node 20's V8.
const reducesOnce = flagsFor({ v8: process.versions.v8, options: [] }).includes('--memory-reducer-single-gc');

describe.skipIf(!hasScript() || !reducesOnce)("the memory reducer, on Node 20's V8", () => {
  const ours = usePtyHome('tickbook-reducer-ours-');
  const theirs = usePtyHome('tickbook-reducer-theirs-');
  // A dashboard left nearly still. V8 puts its reducer off while the program allocates briskly
  // (about 1 MB/s, ticking every second), and a machine loaded with several dashboards made that
  // last over a minute; nearly still, the test took 24-33 s with three at once.
  const LIMIT_MS = 150_000;
  const argv = (flags: string[]) => [process.execPath, '--max-semi-space-size=1', '--trace-gc', ...flags, BIN, '--watchlist', 'AAPL', '--interval', '60'];

  it('runs one collection at a time in a dashboard, where the default runs more, back to back', async () => {
    const one = ours.start(argv([]), LIMIT_MS);
    const control = theirs.start(argv(['--no-memory-reducer-single-gc']), LIMIT_MS);
    await Promise.all([
      control.until((text) => reducerRuns(text).some((run) => run >= 2), 'the default reducer’s second collection in one run', LIMIT_MS - 30_000),
      one.until((text) => reducerRuns(text).length >= 1, 'the reducer’s collection', LIMIT_MS - 30_000),
    ]);
    // Long enough for a second collection in that run to come: the default's comes 0.5 s after its
    // first when the program is quiet, 8 s after when it is not.
    await new Promise((resolve) => setTimeout(resolve, 9000));
    expect(reducerRuns(one.text()).every((run) => run === 1), JSON.stringify(collections(one.text()).filter((c) => c.full))).toBe(true);
    expect(one.text()).not.toMatch(/unrecognized flag/);
    for (const run of [one, control]) run.send('q');
    expect(await one.exited).toBe(0);
    expect(await control.exited).toBe(0);
  }, LIMIT_MS);
});
