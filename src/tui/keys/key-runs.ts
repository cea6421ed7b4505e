// Key presses as runs of the same key: a held j is one run of 100, moved as one step of 100.

export interface KeyRun {
  name: string;
  count: number;
}

/**
 * The runs in `names` (the keys of one input event), the whole repeated `repeats` times (the
 * paced input hands over a run of the same key sequence as one).
 */
export function keyRuns(names: readonly string[], repeats = 1): KeyRun[] {
  const runs: KeyRun[] = [];
  for (let pass = 0; pass < Math.max(1, repeats); pass++) {
    for (const name of names) {
      const last = runs.at(-1);
      if (last?.name === name) last.count++;
      else runs.push({ name, count: 1 });
    }
  }
  return runs;
}
