// The client benchmark, against the sandbox in its own process: a 500-symbol watchlist (5
// batches) against one 100-symbol request, sequential getContact over keep-alive, and walking
// 10,000 contacts with the iterator.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TickbookClient } from '../../src/api/client.js';
import { loadCatalogue } from '../../src/server/catalogue.js';
import { openContactsStore, type SeedContact } from '../../src/server/contacts-store.js';
import { ownerOf } from '../../src/server/credentials.js';
import { startServeProcess } from './serve-process.js';

const TOKEN = 'bench-token-0123456789';
const API_KEY = 'bench-key-0123456789';
const CONTACTS = 10_000;
const RUNS = 200;

const dir = mkdtempSync(join(tmpdir(), 'tickbook-bench-'));
const dbPath = join(dir, 'bench.db');

function seed(): void {
  const store = openContactsStore(dbPath);
  const now = Math.floor(Date.now() / 1000);
  const contacts: SeedContact[] = Array.from({ length: CONTACTS }, (_, i) => ({
    username: `user_${i}`,
    phoneNumber: `+1555${String(1_000_000 + i).padStart(7, '0')}`,
    displayName: i % 3 === 0 ? null : `Contact number ${i}`,
    avatarUrl: null,
    createdAt: now - i,
    lastActiveAt: i % 2 === 0 ? now - i : null,
  }));
  store.insertMany(ownerOf(TOKEN), contacts);
  store.close();
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function timeRuns(runs: number, work: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await work();
    samples.push(performance.now() - started);
  }
  return samples;
}

const verdict = (ok: boolean): string => (ok ? 'met' : 'MISSED');

async function main(): Promise<void> {
  seed();
  const server = await startServeProcess(dir, dbPath, TOKEN, API_KEY);
  const client = new TickbookClient({ contactsUrl: server.url, marketDataUrl: server.url, token: TOKEN, apiKey: API_KEY });
  try {
    const catalogue = loadCatalogue().map((l) => l.symbol);
    const hundred = catalogue.slice(0, 100);
    const fiveHundred = catalogue.slice(0, 500);
    // Warm up connections and the server's JIT before measuring.
    for (let i = 0; i < 50; i++) await client.realtimePricing(fiveHundred);

    const one = await timeRuns(RUNS, () => client.realtimePricing(hundred));
    const five = await timeRuns(RUNS, () => client.realtimePricing(fiveHundred));
    const ratio = percentile(five, 50) / percentile(one, 50);
    process.stdout.write(
      `pricing 100 symbols (1 request)    p50 ${percentile(one, 50).toFixed(2)} ms   p99 ${percentile(one, 99).toFixed(2)} ms\n` +
        `pricing 500 symbols (5 batches)    p50 ${percentile(five, 50).toFixed(2)} ms   p99 ${percentile(five, 99).toFixed(2)} ms\n`,
    );

    const page = await client.listContacts({ limit: 100 });
    const ids = page.contacts.map((c) => c.id);
    let started = performance.now();
    for (let i = 0; i < 1000; i++) await client.getContact(ids[i % ids.length]!);
    const getsPerSecond = 1000 / ((performance.now() - started) / 1000);
    process.stdout.write(`1,000 sequential getContact        ${getsPerSecond.toFixed(0)} per second\n`);

    started = performance.now();
    let count = 0;
    for await (const _ of client.allContacts({ limit: 100 })) count++;
    const perSecond = count / ((performance.now() - started) / 1000);
    process.stdout.write(`iterating ${count.toLocaleString('en')} contacts (limit 100)  ${perSecond.toFixed(0)} contacts per second\n\n`);

    process.stdout.write('targets:\n');
    process.stdout.write(`  500 symbols within 1.6x of 100 (p50): ${ratio.toFixed(2)}x  ${verdict(ratio <= 1.6)}\n`);
    process.stdout.write(`  getContact >= 3,000/s: ${getsPerSecond.toFixed(0)}  ${verdict(getsPerSecond >= 3000)}\n`);
    process.stdout.write(`  iterator >= 20,000 contacts/s: ${perSecond.toFixed(0)}  ${verdict(perSecond >= 20_000 && count === CONTACTS)}\n`);
  } finally {
    await client.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
