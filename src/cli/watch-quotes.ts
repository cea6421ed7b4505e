// `tickbook quote SYMBOL... --watch`: prices asked for every interval, a line per tick (or with
// --ndjson an object per symbol per tick), each recorded in the price history as the dashboard
// records it. Ends with status 0 on Ctrl-C, SIGTERM or when the reader leaves (`| head`); a poll
// that fails is said on stderr and tried again, as the dashboard's ticker does.
import { ApiError } from '../api/errors.js';
import { describeRejected } from '../api/types.js';
import { PriceRecorder } from '../store/price-recorder.js';
import { formatChange, formatPrice } from '../text/numbers.js';
import { sanitize } from '../text/sanitize.js';
import { clockTime } from '../text/time.js';
import type { OpenedClient } from './open-client.js';
import { writeNdjson } from './output.js';

const clock = (t: number): string => clockTime(new Date(t), true);

/** Waits `ms`, or less when `signal` ends the wait. */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

export async function watchQuotes(
  { client, historySource }: OpenedClient,
  symbols: readonly string[],
  options: { intervalS: number; ndjson: boolean; now?: () => number },
): Promise<number> {
  const now = options.now ?? Date.now;
  const stop = new AbortController();
  const end = () => stop.abort();
  const signals = ['SIGINT', 'SIGTERM'] as const;
  for (const signal of signals) process.on(signal, end);
  const warn = (line: string) => process.stderr.write(`tickbook: ${sanitize(line)}\n`);
  const recorder = new PriceRecorder({ source: historySource, onWarning: (w) => warn(`warning: ${w}`), now });
  await recorder.open();
  const previous = new Map<string, number>();
  const toldUnknown = new Set<string>();
  let failing: string | undefined;
  try {
    while (!stop.signal.aborted) {
      const started = now();
      let delayMs = options.intervalS * 1000;
      try {
        const result = await client.realtimePricing(symbols, { signal: stop.signal });
        const at = now();
        if (failing !== undefined) warn('prices: answering again');
        failing = undefined;
        recorder.record(result.quotes, at);
        if (options.ndjson) {
          const time = new Date(at).toISOString();
          writeNdjson(result.quotes.map((q) => ({ time, symbol: q.symbol, price: q.price, volume: q.volume })));
        } else {
          const cells = result.quotes.map((q) => {
            const before = previous.get(q.symbol);
            const change = before === undefined ? '' : ` ${q.price >= before ? '+' : ''}${formatChange(q.price - before, q.price)}`;
            return `${q.symbol} ${formatPrice(q.price)}${change}`;
          });
          if (cells.length > 0) process.stdout.write(`${clock(at)}  ${cells.join('  ')}\n`);
        }
        for (const q of result.quotes) previous.set(q.symbol, q.price);
        const unknown = result.unknown.filter((s) => !toldUnknown.has(s));
        if (unknown.length > 0) warn(`unknown: ${unknown.join(' ')}`);
        unknown.forEach((s) => toldUnknown.add(s));
        for (const rejected of result.rejected) warn(`left out ${describeRejected(rejected)}`);
      } catch (error) {
        if (stop.signal.aborted) break;
        const line = `prices: ${error instanceof ApiError ? error.describe() : (error as Error).message}`;
        // Failing the same way again is one line, not one per tick.
        if (line !== failing) warn(line);
        failing = line;
        if (error instanceof ApiError && error.retryAfterMs !== undefined) delayMs = Math.max(delayMs, error.retryAfterMs);
      }
      await sleep(Math.max(0, delayMs - (now() - started)), stop.signal);
    }
    return 0;
  } finally {
    for (const signal of signals) process.off(signal, end);
    recorder.close();
  }
}
