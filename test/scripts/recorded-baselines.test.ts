// The benchmarks' recorded figures (docs/dev/baselines.json) are read as bench:tui reads them: a
// run is printed against them figure by figure, and a benchmark with none recorded says how to
// record them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { againstRecorded, BASELINES } from '../bench/recorded.js';

describe('docs/dev/baselines.json', () => {
  it('holds bench:tui\'s figures at both sizes, each a positive number', () => {
    const recorded = JSON.parse(readFileSync(BASELINES, 'utf8')) as { tui: { commit: string; figures: Record<string, Record<string, number>> } };
    expect(recorded.tui.commit).toMatch(/^[0-9a-f]{7,}$/);
    expect(Object.keys(recorded.tui.figures).sort()).toEqual(['120x40', '80x24']);
    for (const figures of Object.values(recorded.tui.figures)) {
      expect(Object.keys(figures)).toEqual(expect.arrayContaining(['startMs', 'rssMB', 'cpuPercent', 'keyP95Ms']));
      for (const value of Object.values(figures)) expect(value).toBeGreaterThan(0);
    }
  });

  it('a run is printed against them, now over recorded, and a benchmark with none says how to record', () => {
    const lines = againstRecorded('tui', { '120x40': { rssMB: 254, startMs: undefined } });
    expect(lines[0]).toMatch(/^against the recorded figures \(docs\/dev\/baselines\.json: [0-9a-f]+, \d{4}-\d\d-\d\d\)/);
    expect(lines.slice(1)).toHaveLength(1);
    expect(lines[1]).toMatch(/120x40 +rssMB +254 +127 +2\.00x$/);
    expect(againstRecorded('no-such-bench', {})).toEqual([expect.stringContaining('BENCH_RECORD=1')]);
  });
});
