// A pricing server that does no work: each batch the benchmark sends gets a valid answer made
// before the first request and found by the request's exact text (anything else is echoed).
// Against it the client benchmark measures what this machine allows at best, and with a delay
// what concurrency gains when a server takes time, as a real one across a network does.
// Usage: node reference-pricing-server.mjs DELAY_MS SYMBOL...   (prints "listening on URL")
import { createServer } from 'node:http';

const BATCH = 100;
const delayMs = Number(process.argv[2]);
const symbols = process.argv.slice(3);

const answer = (batch) =>
  JSON.stringify({
    status: 'success',
    stock_symbols: batch,
    stock_data: batch.map((symbol, i) => ({ symbol, price: 100 + i + 0.25, volume: 1_000_000 + i })),
    request_id: '00000000-0000-4000-8000-000000000000',
    request_time: new Date().toISOString(),
  });

// The batches exactly as the client sends them: the watchlist in order, 100 at a time.
const prepared = new Map();
for (let i = 0; i < symbols.length; i += BATCH) {
  const batch = symbols.slice(i, i + BATCH);
  prepared.set(JSON.stringify({ symbols: batch }), answer(batch));
}

const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const text = Buffer.concat(chunks).toString('utf8');
    let body = prepared.get(text);
    if (body === undefined) {
      try {
        body = answer(JSON.parse(text).symbols);
      } catch {
        res.writeHead(400).end();
        return;
      }
    }
    const send = () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    if (delayMs > 0) setTimeout(send, delayMs);
    else send();
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
