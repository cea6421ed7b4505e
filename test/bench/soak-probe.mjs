// Loaded into the dashboard by the soak benchmark (NODE_OPTIONS=--import): appends the process's
// memory and open descriptors to $SOAK_PROBE_FILE every $SOAK_PROBE_MS, one JSON line each. Kept
// out of the product: only the benchmark measures itself this way.
import { appendFileSync, readdirSync } from 'node:fs';

const file = process.env.SOAK_PROBE_FILE;
const every = Number(process.env.SOAK_PROBE_MS ?? 10_000);
if (file) {
  const sample = () => {
    const m = process.memoryUsage();
    let fds = -1;
    try {
      fds = readdirSync('/proc/self/fd').length;
    } catch {}
    appendFileSync(file, `${JSON.stringify({ at: Date.now(), rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers, fds })}\n`);
  };
  // The first sample waits a period: at import the app itself is not loaded yet.
  setInterval(sample, every).unref();
}
