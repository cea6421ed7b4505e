// Key presses as runs of the same key: a held j comes as many in one read, and is one run of
// them, moved as one step of that many.
import type { KeyPress } from './terminal-input.js';

export interface KeyRun {
  key: KeyPress;
  count: number;
}

/** The run that starts at `at` in `keys` (the keys of one read, in order): that key and its repeats after it. */
export function runAt(keys: readonly KeyPress[], at: number): KeyRun {
  const key = keys[at]!;
  let count = 1;
  while (keys[at + count]?.name === key.name && keys[at + count]?.text === key.text) count++;
  return { key, count };
}
