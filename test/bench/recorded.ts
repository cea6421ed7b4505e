// The figures a benchmark last recorded (docs/dev/baselines.json, machine-readable), which the next
// run is printed against: what a change did to each figure, without a tree of the code before.
// BENCH_RECORD=1 writes the run's figures there instead (with the commit and the day). The
// figures are the VM's of the day (its speed varies by a third from hour to hour): a ratio far
// from 1 is a question to ask with BENCH_BEFORE, not an answer.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const BASELINES = fileURLToPath(new URL('../../docs/dev/baselines.json', import.meta.url));

/** One size's (or case's) figures, by name: lower is better for every one recorded. */
export type Figures = Record<string, number | undefined>;

interface Recorded {
  recorded: string;
  commit: string;
  /** Figures by size or case. */
  figures: Record<string, Figures>;
}

const read = (): Record<string, Recorded> => (existsSync(BASELINES) ? (JSON.parse(readFileSync(BASELINES, 'utf8')) as Record<string, Recorded>) : {});

/** Lines comparing `figures` with what `bench` recorded, or a line saying nothing is recorded. */
export function againstRecorded(bench: string, figures: Record<string, Figures>): string[] {
  const recorded = read()[bench];
  if (!recorded) return [`no figures recorded for ${bench} in ${BASELINES} (BENCH_RECORD=1 records this run's)`];
  const lines = [`against the recorded figures (docs/dev/baselines.json: ${recorded.commit}, ${recorded.recorded}); now / recorded`];
  for (const [where, now] of Object.entries(figures)) {
    const then = recorded.figures[where] ?? {};
    for (const [name, value] of Object.entries(now)) {
      const was = then[name];
      if (value === undefined || was === undefined) continue;
      lines.push(`  ${where.padEnd(7)} ${name.padEnd(24)} ${String(value).padStart(9)} ${String(was).padStart(9)}  ${(value / was).toFixed(2)}x`);
    }
  }
  return lines;
}

/** Writes `figures` as what `bench` recorded now, keeping the other benchmarks' entries. */
export function record(bench: string, figures: Record<string, Figures>): void {
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', cwd: fileURLToPath(new URL('../..', import.meta.url)) }).trim();
  const all = read();
  all[bench] = { recorded: new Date().toISOString().slice(0, 10), commit, figures };
  writeFileSync(BASELINES, `${JSON.stringify(all, null, 2)}\n`);
}
