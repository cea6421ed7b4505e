// The floor under a watcher: a bare process that asks the pricing endpoint for the same symbols
// every second with raw undici and parses the answer, recording nothing and checking nothing.
// Usage: node raw-poller.mjs URL API_KEY SYMBOL...   (runs until killed)
import { request } from 'undici';

const [url, apiKey, ...symbols] = process.argv.slice(2);
const body = JSON.stringify({ symbols });
for (;;) {
  const started = Date.now();
  const { body: answer } = await request(`${url}/v1/utilities/stock/realtime-pricing`, {
    method: 'POST',
    headers: { authorization: apiKey, 'content-type': 'application/json' },
    body,
  });
  const parsed = await answer.json();
  if (parsed.status !== 'success') throw new Error(JSON.stringify(parsed));
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1000 - (Date.now() - started))));
}
