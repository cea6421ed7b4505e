// Loaded into the dashboard by the soak benchmark when SOAK_SPEEDUP is above 1
// (NODE_OPTIONS=--import, after soak-probe.mjs): the dashboard's clock runs that many times
// faster. Date and the timers are scaled, so an hour of one-second ticks takes 1/N of an hour:
// eight hours of polling are looked at in half an hour. What is not scaled (the garbage
// collector's own timing, sockets' idle timeouts, the server) runs at its real pace, so this is a
// quick look at what grows with ticks, not a replacement for a run in real time.
const speedup = Number(process.env.SOAK_SPEEDUP ?? 1);
if (speedup > 1) {
  const RealDate = Date;
  const realNow = RealDate.now;
  const start = realNow();
  const now = () => start + (realNow() - start) * speedup;
  globalThis.Date = class extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(now());
      else super(...args);
    }
    static now() {
      return now();
    }
  };
  const { setTimeout: realSetTimeout, setInterval: realSetInterval } = globalThis;
  globalThis.setTimeout = (callback, ms, ...args) => realSetTimeout(callback, (Number(ms) || 0) / speedup, ...args);
  globalThis.setInterval = (callback, ms, ...args) => realSetInterval(callback, (Number(ms) || 0) / speedup, ...args);
}
