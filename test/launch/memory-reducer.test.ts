// When the launcher tells V8's memory reducer to run one collection, not three: only on the V8 the
// flag was measured on (a flag V8 does not know is an error over the terminal), never over a
// memory-reducer flag of the user's, and, set, silently.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { reducesOnce } from '../../src/launch/memory-reducer.js';

describe("the memory reducer's single collection", () => {
  it('is asked for on Node 20’s V8 only', () => {
    expect(reducesOnce({ v8: '11.3.244.8-node.33', options: [] })).toBe(true);
    // Node 18, 22, 24, 25: the flag unknown, or gone (--memory-reducer-gc-count took its place).
    for (const v8 of ['10.2.154.26-node.36', '12.4.254.21-node.57', '13.6.233.10-node.27', '14.1.146.11-node.25', '111.3.0']) {
      expect(reducesOnce({ v8, options: [] }), v8).toBe(false);
    }
  });

  it('leaves the reducer alone when the user gave a flag of its own, on the command line or in NODE_OPTIONS', () => {
    const v8 = '11.3.244.8-node.33';
    expect(reducesOnce({ v8, options: ['--max-semi-space-size=1', ''] })).toBe(true);
    // Only flags count: not a script's text or a path that happens to name it.
    expect(reducesOnce({ v8, options: ['-e', 'import "/src/launch/memory-reducer.ts"', '--title=memory-reducer'] })).toBe(true);
    for (const options of [['--no-memory-reducer'], ['--memory-reducer-single-gc'], ['', '--no-memory_reducer_single_gc --max-old-space-size=200'], ['--memory-reducer-for-small-heaps'], ['--nomemory-reducer'], ['--no_memory_reducer'], ['--nomemory_reducer_single_gc'], ['--memory_reducer_single_gc']]) {
      expect(reducesOnce({ v8, options }), options.join(' ')).toBe(false);
    }
  });

  it('is set on this Node without a word on stderr', () => {
    const module = new URL('../../src/launch/memory-reducer.ts', import.meta.url).pathname;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', `import { reduceOnce } from ${JSON.stringify(module)}; process.stdout.write(String(reduceOnce({ v8: process.versions.v8, options: process.execArgv })));`], {
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    expect(child.stderr).toBe('');
    expect(child.stdout).toBe(String(/^11\.3\./.test(process.versions.v8)));
  });
});
