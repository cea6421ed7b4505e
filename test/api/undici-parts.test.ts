// The client's undici is the parts it uses (src/api/undici-parts.ts), not undici's index: asked in
// a process of its own, where nothing loads the index (the test helpers here do), every route the
// client takes still works.
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, runChild, tsxArgs } from '../helpers/child.js';
import { startForwardProxy, type ForwardProxy } from '../helpers/forward-proxy.js';
import { closeAllServers, httpServer } from '../helpers/servers.js';

const proxies: ForwardProxy[] = [];

afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
  await closeAllServers();
});

describe("undici's parts without its index", () => {
  it('ask straight, through a proxy and through its CONNECT tunnel', async () => {
    const server = await httpServer((req, res) => res.end(`answered ${req.path}`));
    const proxy = await startForwardProxy();
    proxies.push(proxy);
    const port = new URL(server.url).port;
    // A name no resolver knows: it is reached through the proxy or not at all.
    const proxied = `http://api.tickbook.test:${port}`;
    const run = await runChild(process.execPath, tsxArgs('test/helpers/undici-parts-child.ts', [server.url, proxy.url, proxied]), { cwd: ROOT });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      answers: ['200 answered /direct', '200 answered /proxied', '200 answered /tunnelled'],
      index: false,
    });
    expect(proxy.seen).toEqual([`GET ${proxied}/proxied`, `CONNECT api.tickbook.test:${port}`]);
  });
});
