// A watch window outlives many server restarts: the client's one keep-alive pool reconnects each
// time without keeping what the old connections were (sockets, descriptors, pool objects).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TickbookClient } from '../../src/api/client.js';
import { startSandbox, type Sandbox } from '../../src/server/sandbox.js';

const dir = mkdtempSync(join(tmpdir(), 'tickbook-reconnects-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const descriptors = (): number => readdirSync('/proc/self/fd').length;
const open = (port = 0): Promise<Sandbox> => startSandbox({ port, dbPath: join(dir, 'sandbox.db'), seed: 7, demoData: false });

describe('the client across server restarts', () => {
  it('polls through 40 restarts on one port with its descriptors flat', async () => {
    let sandbox = await open();
    const port = Number(new URL(sandbox.marketDataUrl).port);
    const client = new TickbookClient({ contactsUrl: sandbox.contactsUrl, marketDataUrl: sandbox.marketDataUrl, token: sandbox.token, apiKey: sandbox.apiKey });
    const symbols = ['AAPL', 'MSFT', 'NVDA'];
    try {
      // Several batches at once: the pool opens more than one connection each time.
      const poll = () => Promise.all([client.realtimePricing(symbols), client.realtimePricing(symbols), client.realtimePricing(symbols)]);
      await poll();
      const before = descriptors();
      for (let i = 0; i < 40; i++) {
        await sandbox.close();
        sandbox = await open(port);
        const results = await poll();
        expect(results.every((r) => r.quotes.length === symbols.length)).toBe(true);
      }
      // The same server and the same few keep-alive connections as before the restarts.
      expect(descriptors() - before).toBeLessThanOrEqual(2);
    } finally {
      await client.close();
      await sandbox.close();
    }
  });
});
