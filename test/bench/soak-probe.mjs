// Loaded into the dashboard by the soak benchmark (NODE_OPTIONS=--import): appends the process's
// memory and open descriptors to $SOAK_PROBE_FILE every $SOAK_PROBE_MS, one JSON line each. Kept
// out of the product: only the benchmark measures itself this way.
//
// `heapUsed` at a random moment holds whatever garbage the last collection left; `liveHeap` is
// the heap used just after the latest full (mark-sweep) collection, which is what a leak raises.
import { appendFileSync, readdirSync } from 'node:fs';
import { constants, PerformanceObserver } from 'node:perf_hooks';

const file = process.env.SOAK_PROBE_FILE;
const every = Number(process.env.SOAK_PROBE_MS ?? 10_000);
if (file) {
  // Real time, and the dashboard's clock (faster under soak-clock.mjs, loaded after this).
  const realNow = Date.now;
  let liveHeap = 0;
  new PerformanceObserver((list) => {
    if (list.getEntries().some((entry) => entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)) liveHeap = process.memoryUsage().heapUsed;
  }).observe({ entryTypes: ['gc'] });
  const sample = () => {
    const m = process.memoryUsage();
    let fds = -1;
    try {
      fds = readdirSync('/proc/self/fd').length;
    } catch {
      // No /proc (not Linux): the count stays -1.
    }
    appendFileSync(file, `${JSON.stringify({ at: realNow(), clock: Date.now(), rss: m.rss, heapUsed: m.heapUsed, liveHeap, external: m.external, fds })}\n`);
  };
  // The first sample waits a period: at import the app itself is not loaded yet.
  setInterval(sample, every).unref();
}
