// The floor for the sandbox benchmark: a bare node:http server that answers each path with a
// body fixed in advance (the sandbox's own answer to the same request, captured once), doing no
// work at all. Usage: node bare-server.mjs BODIES.json [JOURNAL]   (prints "listening on URL")
// BODIES.json: {"/path": {"status": 200, "body": "…"}, …}; any other path answers 404.
// With JOURNAL, a path starting /durable/ is the floor for a durable write: the request's body
// appended to that file, the appends of one turn of the event loop made durable by one
// fdatasync, and only then the fixed answer for the rest of the path (/durable/create answers
// as /create).
import { closeSync, fdatasyncSync, openSync, writeSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const bodies = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const journal = process.argv[3] ? openSync(process.argv[3], 'a') : undefined;
const answers = new Map(
  Object.entries(bodies).map(([path, { status, body }]) => [path, { status, body: Buffer.from(body), headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) } }]),
);
/** Answers waiting for the turn's fdatasync. */
let waiting = [];
function syncTurn() {
  const answering = waiting;
  waiting = [];
  fdatasyncSync(journal);
  for (const answer of answering) answer();
}
const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
  const path = req.url.split('?')[0];
  const durable = journal !== undefined && path.startsWith('/durable/');
  const answer = answers.get(durable ? path.slice('/durable'.length) : path);
  const chunks = [];
  // A request body is read whole, as the sandbox reads it.
  req.on('data', (chunk) => durable && chunks.push(chunk));
  req.on('end', () => {
    if (!answer) return void res.writeHead(404).end();
    const send = () => res.writeHead(answer.status, answer.headers).end(answer.body);
    if (!durable) return send();
    writeSync(journal, Buffer.concat([...chunks, Buffer.from('\n')]));
    waiting.push(send);
    if (waiting.length === 1) setImmediate(syncTurn);
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => {
  if (journal !== undefined) closeSync(journal);
  process.exit(0);
}));
