// The bars that ticks received in time order make, worked out as a person would: a bar's first
// price is its open, its last its close, the highest and lowest between, and the volume each
// reading adds (bars.ts tradedSince, tested on its own). The store builds its bars a tick at a
// time, from what it wrote before (history-store.ts); its tests check them against these.
import { type Bar, barStart, type BarSize, type Tick, tradedSince } from '../../src/market/bars.js';

export function expectedBars(size: BarSize, ticks: readonly Tick[], previous?: Tick): Bar[] {
  const bars: Bar[] = [];
  let before = previous;
  for (const tick of ticks) {
    if (before !== undefined && tick.t < before.t) throw new Error('expectedBars takes ticks in time order');
    const t = barStart(size, tick.t);
    const traded = tradedSince(size, before, tick);
    const bar = bars.at(-1);
    if (bar?.t === t) {
      bar.high = Math.max(bar.high, tick.price);
      bar.low = Math.min(bar.low, tick.price);
      bar.close = tick.price;
      bar.volume += traded;
      bar.lastT = tick.t;
    } else {
      bars.push({ t, open: tick.price, high: tick.price, low: tick.price, close: tick.price, volume: traded, firstT: tick.t, lastT: tick.t });
    }
    before = tick;
  }
  return bars;
}
