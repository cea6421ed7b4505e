// `tickbook quote SYMBOL... --watch`: prices asked for every interval, a line per tick (or with
// --ndjson an object per symbol per tick), each recorded in the price history as the dashboard
// records it. Ends with status 0 on Ctrl-C, SIGTERM or when the reader leaves (`| head`); a poll
// that fails is said on stderr and tried again (poll-loop.ts), as the dashboard's ticker does.
import { describeRejected } from '../api/types.js';
import { PriceRecorder } from '../store/price-recorder.js';
import { formatChange, formatPrice } from '../text/numbers.js';
import { clockTime } from '../text/time.js';
import type { OpenedClient } from './open-client.js';
import { writeNdjson } from './output.js';
import { pollUntilStopped, troubleOnStderr, warn } from './poll-loop.js';

export async function watchQuotes(
  { client, historySource }: OpenedClient,
  symbols: readonly string[],
  options: { intervalS: number; ndjson: boolean; now?: () => number },
): Promise<number> {
  const now = options.now ?? Date.now;
  const recorder = new PriceRecorder({ source: historySource, onWarning: (w) => warn(`warning: ${w}`), onTrouble: troubleOnStderr(), now });
  await recorder.open();
  const previous = new Map<string, number>();
  const toldUnknown = new Set<string>();
  try {
    return await pollUntilStopped(
      async (signal) => {
        const result = await client.realtimePricing(symbols, { signal });
        const at = now();
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
          if (cells.length > 0) process.stdout.write(`${clockTime(at, true)}  ${cells.join('  ')}\n`);
        }
        for (const q of result.quotes) previous.set(q.symbol, q.price);
        const unknown = result.unknown.filter((s) => !toldUnknown.has(s));
        if (unknown.length > 0) warn(`unknown: ${unknown.join(' ')}`);
        unknown.forEach((s) => toldUnknown.add(s));
        for (const rejected of result.rejected) warn(`left out ${describeRejected(rejected)}`);
      },
      { intervalS: options.intervalS, now },
    );
  } finally {
    recorder.close();
  }
}
