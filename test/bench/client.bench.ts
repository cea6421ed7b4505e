// The client benchmark, against the sandbox in its own process: a 500-symbol watchlist (5
// batches) against one 100-symbol request, sequential getContact over keep-alive, and walking
// 10,000 contacts with the iterator. The pricing ratio is also measured against a server that
// does no work (the best this machine allows) and one that answers after 2 ms (as a server
// across a network does), so a missed figure can be told apart from a client that serialises.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TickbookClient } from '../../src/api/client.js';
import { loadCatalogue } from '../../src/server/catalogue.js';
import { openContactsStore, type SeedContact } from '../../src/server/contacts-store.js';
import { ownerOf } from '../../src/server/credentials.js';
import { startReferencePricingServer, startServeProcess } from './serve-process.js';

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

/** p50 of a 500-symbol call over p50 of a 100-symbol call, printing both. */
async function pricingRatio(
  what: string,
  client: TickbookClient,
  hundred: readonly string[],
  fiveHundred: readonly string[],
): Promise<number> {
  const one = await timeRuns(RUNS, () => client.realtimePricing(hundred));
  const five = await timeRuns(RUNS, () => client.realtimePricing(fiveHundred));
  const ratio = percentile(five, 50) / percentile(one, 50);
  process.stdout.write(
    `pricing against ${what}\n` +
      `  100 symbols (1 request)    p50 ${percentile(one, 50).toFixed(2)} ms   p99 ${percentile(one, 99).toFixed(2)} ms\n` +
      `  500 symbols (5 batches)    p50 ${percentile(five, 50).toFixed(2)} ms   p99 ${percentile(five, 99).toFixed(2)} ms   ${ratio.toFixed(2)}x\n`,
  );
  return ratio;
}

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

    const sandboxRatio = await pricingRatio('the sandbox', client, hundred, fiveHundred);

    const references: string[] = [];
    for (const delayMs of [0, 2]) {
      const reference = await startReferencePricingServer(dir, delayMs, fiveHundred);
      const referenceClient = new TickbookClient({ contactsUrl: reference.url, marketDataUrl: reference.url, apiKey: API_KEY });
      try {
        for (let i = 0; i < 50; i++) await referenceClient.realtimePricing(fiveHundred);
        const what = delayMs === 0 ? 'a server doing no work' : `a server answering after ${delayMs} ms`;
        references.push(`${what} ${(await pricingRatio(what, referenceClient, hundred, fiveHundred)).toFixed(2)}x`);
      } finally {
        await referenceClient.close();
        await reference.stop();
      }
    }
    process.stdout.write('\n');

    const page = await client.listContacts({ limit: 100 });
    const ids = page.contacts.map((c) => c.id);
    // Three rounds: the first ones run while V8 is still optimising this path in both processes
    // (measured here: round 1 at about half the speed of round 3), the last is the steady state.
    const rounds: number[] = [];
    for (let round = 0; round < 3; round++) {
      const roundStarted = performance.now();
      for (let i = 0; i < 1000; i++) await client.getContact(ids[i % ids.length]!);
      rounds.push(1000 / ((performance.now() - roundStarted) / 1000));
    }
    const getsPerSecond = rounds.at(-1)!;
    process.stdout.write(
      `1,000 sequential getContact        ${rounds.map((r) => r.toFixed(0)).join(' / ')} per second (rounds 1 to 3)\n`,
    );

    const started = performance.now();
    let count = 0;
    for await (const _ of client.allContacts({ limit: 100 })) count++;
    const perSecond = count / ((performance.now() - started) / 1000);
    process.stdout.write(`iterating ${count.toLocaleString('en')} contacts (limit 100)  ${perSecond.toFixed(0)} contacts per second\n\n`);

    process.stdout.write('targets:\n');
    process.stdout.write(
      `  500 symbols within 1.6x of 100 (p50): ${sandboxRatio.toFixed(2)}x  ${verdict(sandboxRatio <= 1.6)}` +
        `  (same client against ${references.join(', against ')})\n`,
    );
    process.stdout.write(`  getContact >= 3,000/s (round 3): ${getsPerSecond.toFixed(0)}  ${verdict(getsPerSecond >= 3000)}\n`);
    process.stdout.write(`  iterator >= 20,000 contacts/s: ${perSecond.toFixed(0)}  ${verdict(perSecond >= 20_000 && count === CONTACTS)}\n`);
  } finally {
    await client.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
