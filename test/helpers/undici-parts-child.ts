// A child that asks with the client's undici (src/api/undici-parts.ts) in a process that never
// loads undici's index, as the dashboard's bundle does: the index is what puts the request API on
// every dispatcher, so a test process that loads it (the test helpers do) would hide a missing part.
// Usage: undici-parts-child.ts DIRECT_URL PROXY_URL PROXIED_URL; prints
// {"answers":[…],"index":false}: each answer's status and body, and whether undici's index was loaded.
import { createRequire } from 'node:module';
import { Dispatchers } from '../../src/api/proxy.js';
import { ProxyAgent } from '../../src/api/undici-parts.js';
import type { Dispatcher } from 'undici';

const [direct, proxy, proxied] = process.argv.slice(2).map((url) => new URL(url!)) as [URL, URL, URL];

async function ask(dispatcher: Dispatcher, url: URL, path: string): Promise<string> {
  const response = await dispatcher.request({ origin: url.origin, path, method: 'GET' });
  return `${response.statusCode} ${await response.body.text()}`;
}

// The client's routes: straight to a loopback server, and through HTTP_PROXY as an absolute-URI
// request; then what an https:// target gets, a CONNECT tunnel (ProxyAgent's connect()).
const dispatchers = new Dispatchers({ HTTP_PROXY: proxy.href }, 1000);
const tunnel = new ProxyAgent({ uri: proxy.href, proxyTunnel: true });
const answers = [
  await ask((await dispatchers.for(direct)).dispatcher, direct, '/direct'),
  await ask((await dispatchers.for(proxied)).dispatcher, proxied, '/proxied'),
  await ask(tunnel, proxied, '/tunnelled'),
];
await Promise.all([dispatchers.destroy(), tunnel.destroy()]);
const index = Object.keys(createRequire(import.meta.url).cache).some((file) => /[\\/]node_modules[\\/]undici[\\/]index\.js$/.test(file));
process.stdout.write(JSON.stringify({ answers, index }));
