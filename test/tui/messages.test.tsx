// Status messages that tell the truth over time: a notice fades, an error goes when what it
// reported recovers (a symbols catalogue that failed is fetched again by itself), and the latest
// messages can be read whole in the message log (m).
import { stripVTControlCharacters } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TickbookClient } from '../../src/api/client.js';
import { Dashboard } from '../../src/tui/Dashboard.js';
import { StatusBoard } from '../../src/tui/state/status.js';
import { drive, renderDashboard, unmountAll } from '../helpers/dashboard.js';
import { waitForFrame } from '../helpers/ink.js';
import { type Proxy, startProxy } from '../helpers/proxy.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sandbox: TestSandbox;
let proxy: Proxy;
const clients: TickbookClient[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox({ demoData: true });
  proxy = await startProxy(sandbox.url);
});
afterEach(async () => {
  await unmountAll();
  for (const client of clients.splice(0)) await client.close();
  proxy.rules = {};
});
afterAll(async () => {
  await proxy.close();
  await sandbox.close();
});

async function mount(noticeMs = 300, ready = true) {
  const client = new TickbookClient({ contactsUrl: proxy.url, marketDataUrl: proxy.url, token: sandbox.token, apiKey: sandbox.apiKey, retry: { retries: 0 } });
  clients.push(client);
  const instance = await renderDashboard(
    <Dashboard client={client} status={new StatusBoard(Date.now, noticeMs)} target="proxy" watchlist={['AAPL']} intervalS={30} size={{ columns: 100, rows: 30 }} />,
    100,
  );
  const h = drive(instance);
  if (ready) await h.until((f) => /on this page/.test(f), 'the first page');
  return h;
}

describe('status messages', () => {
  it('a notice fades: "this is the first page" is gone a moment later', async () => {
    const h = await mount();
    // (One symbol on the watchlist, and the ticker's line says so in the singular.)
    expect(h.frame()).toMatch(/│ 1 symbol · watchlist order/);
    const before = h.instance.frames.length;
    await h.press('p');
    // Shown for 300 ms: on a loaded machine it can come and go between two looks at the last
    // frame, so every frame since the key is read.
    await waitForFrame(() => stripVTControlCharacters(h.instance.frames.slice(before).join('\n')), (f) => f.includes('this is the first page'), 5000, 'the notice');
    await h.until((f) => !f.includes('this is the first page'), 'the notice faded', 3000);
  });

  it('a symbols catalogue that failed is fetched again by itself, and its error goes with it', async () => {
    let failures = 0;
    proxy.rules = {
      answer: (req) => {
        if (!req.url.includes('/stock/symbols') || failures >= 1) return undefined;
        failures++;
        return { status: 503, body: JSON.stringify({ status: 'error', code: 'server_error', message: 'catalogue warming up' }) };
      },
    };
    const before = proxy.count('GET', '/stock/symbols');
    const h = await mount(300, false);
    await h.until((f) => f.includes('✗ symbols: catalogue warming up'), 'the error');
    // Tried again after 2 s, without anyone asking.
    await h.until((f) => !f.includes('catalogue warming up') && /AAPL\s+Apple/.test(f), 'the catalogue (company names) and no error', 6000);
    expect(proxy.count('GET', '/stock/symbols') - before).toBe(2);
  });

  it('m shows the latest messages whole, newest first, even those the status line had to cut; Esc closes', async () => {
    const h = await mount(60_000);
    const long = 'x'.repeat(30);
    // A refused rename: a server stricter than the contract names display_name and its limit.
    proxy.rules = {
      answer: (req) =>
        req.method === 'PUT'
          ? { status: 400, body: JSON.stringify({ status: 'error', code: 'invalid_parameters', message: 'display_name must be at most 20 characters' }) }
          : undefined,
    };
    await h.press('e', '\u0015');
    await h.type(long);
    await h.press('\r');
    await h.until((f) => /✗ .*display_name/.test(f), 'the error in the status line');
    // The error stands in the status line; the notice after it is in the log only.
    await h.press('p', 'm');
    const frame = await h.until((f) => f.includes('Messages, newest first'), 'the message log');
    const lines = frame.split('\n');
    const notice = lines.findIndex((l) => l.includes('· this is the first page'));
    const error = lines.findIndex((l) => /✗ display_name must be at most \d+ characters/.test(l));
    expect(notice).toBeGreaterThan(0);
    expect(error).toBeGreaterThan(notice);
    expect(frame).toContain('Esc close messages');
    await h.press('\u001b');
    await h.until((f) => !f.includes('Messages, newest first') && /on this page/.test(f), 'the panes again');
  });
});
