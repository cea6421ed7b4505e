// The V8 flags the launcher sets for the dashboard: only on the V8 they were measured on (a flag V8
// does not know is an error over the terminal), never over a flag of the same family the user
// gave, and, set at run time, silently and to effect.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { flagsFor } from '../../src/launch/v8-flags.js';

const NODE_20 = '11.3.244.8-node.33';
const REDUCER = '--memory-reducer-single-gc';
const BUDGET = '--interrupt-budget=540672';
const module = new URL('../../src/launch/v8-flags.ts', import.meta.url).pathname;

/** Runs `code` in a child node (tsx, NODE_OPTIONS empty) with `flags`, after it imported setV8Flags. */
function child(code: string, flags: string[] = []) {
  return spawnSync(process.execPath, [...flags, '--import', 'tsx', '--input-type=module', '-e', `import { setV8Flags } from ${JSON.stringify(module)};\n${code}`], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
}

describe('the V8 flags the launcher sets', () => {
  it('are set on Node 20’s V8 only', () => {
    expect(flagsFor({ v8: NODE_20, options: [] })).toEqual([REDUCER, BUDGET]);
    // Node 18, 22, 24, 25: the reducer's flag unknown, or gone (--memory-reducer-gc-count took its
    // place), and neither measured there.
    for (const v8 of ['10.2.154.26-node.36', '12.4.254.21-node.57', '13.6.233.10-node.27', '14.1.146.11-node.25', '111.3.0']) {
      expect(flagsFor({ v8, options: [] }), v8).toEqual([]);
    }
  });

  it('leave a family alone when the user gave a flag of it, on the command line or in NODE_OPTIONS, in any spelling V8 takes', () => {
    expect(flagsFor({ v8: NODE_20, options: ['--max-semi-space-size=1', ''] })).toEqual([REDUCER, BUDGET]);
    // Only flags count: not a script's text or a path that happens to name one.
    expect(flagsFor({ v8: NODE_20, options: ['-e', 'import "/src/launch/memory-reducer.ts"', '--title=interrupt-budget'] })).toEqual([REDUCER, BUDGET]);
    const reducers = [['--no-memory-reducer'], ['--memory-reducer-single-gc'], ['', '--no-memory_reducer_single_gc --max-old-space-size=200'], ['--memory-reducer-for-small-heaps'], ['--nomemory-reducer'], ['--no_memory_reducer'], ['--nomemory_reducer_single_gc'], ['--memory_reducer_single_gc']];
    for (const options of reducers) expect(flagsFor({ v8: NODE_20, options }), options.join(' ')).toEqual([BUDGET]);
    const budgets = [['--interrupt-budget=1000'], ['--interrupt_budget=1000'], ['', '--max-old-space-size=200 --interrupt-budget-for-feedback-allocation=10']];
    for (const options of budgets) expect(flagsFor({ v8: NODE_20, options }), options.join(' ')).toEqual([REDUCER]);
    expect(flagsFor({ v8: NODE_20, options: ['--no-memory-reducer', '--interrupt-budget=1'] })).toEqual([]);
  });

  it('are set on this Node without a word on stderr', () => {
    const run = child('process.stdout.write(setV8Flags({ v8: process.versions.v8, options: process.execArgv }).join(" "));');
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(/^11\.3\./.test(process.versions.v8) ? `${REDUCER} ${BUDGET}` : '');
  });

  // The budget is read afresh as functions run, so set at run time it holds for code already
  // loaded: a small function called in a loop turns hot (TurboFan) about 8 times later.
  it.skipIf(!flagsFor({ v8: process.versions.v8, options: [] }).includes(BUDGET))('raise the interrupt budget set at run time: code turns hot later', () => {
    const callsToTurbofan = (set: boolean): number => {
      const run = child(
        `${set ? 'setV8Flags({ v8: process.versions.v8, options: [] });' : ''}
const f = new Function('a', 'let s = 0; for (let i = 0; i < 3; i++) s += a * i; return s;');
let calls = 0;
// eval keeps this loop from being optimised itself, with f inlined into it.
for (; calls < 1_000_000; calls++) { f(calls); if (calls % 100 === 0 && eval('%GetOptimizationStatus(f)') & 16) break; }
process.stdout.write(String(calls));`,
        // Compiled at once, not on a worker thread: the count is then the budget's, not a race's.
        ['--allow-natives-syntax', '--no-concurrent-recompilation'],
      );
      expect(run.stderr).toBe('');
      return Number(run.stdout);
    };
    const usual = callsToTurbofan(false);
    const raised = callsToTurbofan(true);
    expect(usual).toBeGreaterThan(0);
    expect(usual).toBeLessThan(1_000_000);
    expect(raised).toBeGreaterThan(4 * usual);
  });
});
