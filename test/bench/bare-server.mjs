// The floor for the sandbox benchmark: a bare node:http server that answers each path with a
// body fixed in advance (the sandbox's own answer to the same request, captured once), doing no
// work at all. Usage: node bare-server.mjs BODIES.json   (prints "listening on URL")
// BODIES.json: {"/path": {"status": 200, "body": "…"}, …}; any other path answers 404.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const bodies = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const answers = new Map(
  Object.entries(bodies).map(([path, { status, body }]) => [path, { status, body: Buffer.from(body), headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) } }]),
);
const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
  // A request body is read whole, as the sandbox reads it, and then let go.
  req.resume();
  req.on('end', () => {
    const answer = answers.get(req.url.split('?')[0]);
    if (!answer) return void res.writeHead(404).end();
    res.writeHead(answer.status, answer.headers).end(answer.body);
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
