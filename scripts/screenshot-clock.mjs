// Loaded into the dashboard by `npm run screenshot` (NODE_OPTIONS=--import, as the soak benchmark
// loads its clock): the dashboard's clock, which its embedded sandbox's market also prices by,
// stands still at SCREENSHOT_CLOCK_MS and moves on SCREENSHOT_STEP_MS when a pricing request
// reaches the sandbox, before it is priced. So the Nth poll prices the market at the same moment in
// every run, and everything drawn from the clock (ages, "3 d ago", "next in 2s", the chart's time
// axis) is the same whenever the screen is read. performance.now stands still too: the status
// line's latency reads 0 ms. Until SCREENSHOT_FAST_POLLS polls have been asked, timers run 20 times
// faster, so the first polls take a second, not half a minute; the timers set after that (the next
// poll's among them) run at their real pace, which leaves the script a poll's interval to read the
// screen. Kept out of the product: only the screenshot runs it.
import http from 'node:http';

const start = Number(process.env.SCREENSHOT_CLOCK_MS);
if (Number.isFinite(start)) {
  const step = Number(process.env.SCREENSHOT_STEP_MS ?? 2000);
  const fastPolls = Number(process.env.SCREENSHOT_FAST_POLLS ?? 0);
  const SPEEDUP = 20;
  const PRICING = '/v1/utilities/stock/realtime-pricing';
  let clock = start;
  let polls = 0;

  const RealDate = Date;
  globalThis.Date = class extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(clock);
      else super(...args);
    }
    static now() {
      return clock;
    }
  };
  const frozen = performance.now();
  performance.now = () => frozen;

  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (event, request, ...rest) {
    if (event === 'request' && request.method === 'POST' && request.url?.startsWith(PRICING)) {
      polls += 1;
      clock += step;
    }
    return emit.call(this, event, request, ...rest);
  };

  const realSetTimeout = globalThis.setTimeout;
  globalThis.setTimeout = (callback, ms, ...args) => realSetTimeout(callback, polls < fastPolls ? (Number(ms) || 0) / SPEEDUP : ms, ...args);
}
