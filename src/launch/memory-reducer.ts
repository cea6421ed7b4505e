// V8's memory reducer, told to run one collection where Node 20's V8 runs three.
//
// Once a program has been quiet for 8 s after a full collection, the reducer starts up to three
// more full collections, each dropping the optimised code it finds held weakly; a dashboard that
// ticks every second then compiles that code again at the next ticks. With one: 1.35 and 1.52% of
// a core ticking 12 symbols at 80x24 for 60 s, against 1.57 and 1.72% with three, RSS the same
// (93-95 MB); switching the reducer off saves a little more but costs 10 MB (README, "Where the
// misses stand").
//
// The flag is V8's own and comes and goes with its versions: V8 12.4 (Node 22) replaced it with
// --memory-reducer-gc-count (default 2), and a flag V8 does not know makes node refuse to start
// when given on the command line, or prints "Error: unrecognized flag" over the terminal when set
// at run time. So it is set at run time, only on the V8 it was measured on (Node 20's 11.3), and
// never over a memory-reducer flag the user gave.

import { setFlagsFromString } from 'node:v8';

const MEMORY_REDUCER_FLAG = '--memory-reducer-single-gc';

/** V8 versions that know the flag and on which it was measured. */
const MEASURED_ON = /^11\.3\./;

export interface Runtime {
  /** `process.versions.v8`. */
  v8: string;
  /** The node options given: `process.execArgv` and `NODE_OPTIONS`. */
  options: readonly string[];
}

/** Whether the flag is set for this runtime: a V8 it was measured on, and no reducer flag of the user's. */
export function reducesOnce(runtime: Runtime): boolean {
  return MEASURED_ON.test(runtime.v8) && !runtime.options.some(namesTheReducer);
}

/**
 * Whether an option (or NODE_OPTIONS' whole text) holds a reducer flag in any spelling V8 takes:
 * `-` and `_` alike, `--no-` or `--no` before the name.
 */
function namesTheReducer(option: string): boolean {
  return /(?:^|\s)--?(?:no-?)?memory-reducer/.test(option.replaceAll('_', '-'));
}

/** Sets the flag when `reducesOnce` says so; returns whether it did. Takes effect at the reducer's next start. */
export function reduceOnce(runtime: Runtime): boolean {
  if (!reducesOnce(runtime)) return false;
  setFlagsFromString(MEMORY_REDUCER_FLAG);
  return true;
}
