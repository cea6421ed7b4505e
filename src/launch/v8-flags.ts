// V8 flags the dashboard sets for itself, measured on Node 20's V8 (11.3) ticking 12 symbols a
// second at 80x24 (README, "Where the misses stand", CPU at 80x24).
//
// - The memory reducer runs one collection where 11.3 runs three. Once a program has been quiet
//   for 8 s after a full collection, the reducer starts up to three more, each dropping the
//   optimised code it finds held weakly; a dashboard that ticks every second then compiles that
//   code again. With one: 1.35 and 1.52% of a core over 60 s, against 1.57 and 1.72% with three,
//   RSS the same (93-95 MB); switching the reducer off saves a little more but costs 10 MB.
// - An interrupt budget 8 times V8's own. V8 optimises a function with TurboFan once it has run
//   enough bytecode; code that runs once a frame, once a second, gets there one function after
//   another for minutes, compiling on V8's worker threads all the while (37-61 compiles a minute
//   in a 9-minute run). With 8 times the budget that code stays with Sparkplug, while a tight
//   loop (the contact search, a month's chart) still turns hot within milliseconds.
//
// Flags come and go with V8's versions: V8 12.4 (Node 22) replaced --memory-reducer-single-gc
// with --memory-reducer-gc-count, and a flag V8 does not know makes node refuse to start when
// given on the command line, or prints "Error: unrecognized flag" over the terminal when set at
// run time. So they are set at run time, only on the V8 they were measured on, each never over a
// flag of its family the user gave. Set before the dashboard's script is compiled, so the code
// cache's flag hash is the same on every start.

import { setFlagsFromString } from 'node:v8';

/** V8 versions on which the flags were measured (and exist). */
const MEASURED_ON = /^11\.3\./;

/** V8's own interrupt budget on 11.3 (`node --v8-options`). */
const V8_INTERRUPT_BUDGET = 67_584;

/**
 * Each flag with its family: the user's flags that leave it unset, in any spelling V8 takes (`-`
 * and `_` alike, `--no-` or `--no` before the name), the family's longer names too
 * (`--memory-reducer-for-small-heaps`, `--interrupt-budget-for-feedback-allocation`): a user
 * tuning one of them is measuring something of their own.
 */
const FLAGS: readonly { flag: string; family: RegExp }[] = [
  { flag: '--memory-reducer-single-gc', family: /(?:^|\s)--?(?:no-?)?memory-reducer/ },
  { flag: `--interrupt-budget=${8 * V8_INTERRUPT_BUDGET}`, family: /(?:^|\s)--?(?:no-?)?interrupt-budget/ },
];

export interface Runtime {
  /** `process.versions.v8`. */
  v8: string;
  /** The node options given: `process.execArgv` and `NODE_OPTIONS`. */
  options: readonly string[];
}

/** The flags to set for this runtime: none on a V8 they were not measured on, none of a family the user set. */
export function flagsFor(runtime: Runtime): string[] {
  if (!MEASURED_ON.test(runtime.v8)) return [];
  const given = runtime.options.map((option) => option.replaceAll('_', '-'));
  return FLAGS.filter(({ family }) => !given.some((option) => family.test(option))).map(({ flag }) => flag);
}

/** Sets the flags `flagsFor` gives; returns them. Each takes effect from V8's next use of it. */
export function setV8Flags(runtime: Runtime): string[] {
  const flags = flagsFor(runtime);
  for (const flag of flags) setFlagsFromString(flag);
  return flags;
}
