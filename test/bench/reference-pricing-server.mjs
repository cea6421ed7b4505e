// A pricing server that does no work: every request gets the same valid 100-quote answer, after
// an optional delay. Against it the client benchmark measures what this machine allows at best
// (no server work at all) and what concurrency gains when a server takes time, as a real one does.
// Usage: node reference-pricing-server.mjs DELAY_MS SYMBOL...   (prints "listening on URL")
import { createServer } from 'node:http';

const delayMs = Number(process.argv[2]);
const symbols = process.argv.slice(3);
const body = JSON.stringify({
  status: 'success',
  stock_symbols: symbols,
  stock_data: symbols.map((symbol, i) => ({ symbol, price: 100 + i + 0.25, volume: 1_000_000 + i })),
  request_id: '00000000-0000-4000-8000-000000000000',
  request_time: new Date().toISOString(),
});
const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };

const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
  req.resume();
  req.on('end', () => {
    const answer = () => {
      res.writeHead(200, headers);
      res.end(body);
    };
    if (delayMs > 0) setTimeout(answer, delayMs);
    else answer();
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
