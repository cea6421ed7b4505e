// The sandbox benchmark: 100,000 contacts in one list, autocannon (10 connections, 10 s) against
// the list at its first page and 90,000 deep, a single contact, create, and pricing 50 symbols.
// The server runs as its own process (the built bin), as a user would run it.
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCatalogue } from '../../src/server/catalogue.js';
import { openContactsStore, type SeedContact } from '../../src/server/contacts-store.js';
import { ownerOf } from '../../src/server/credentials.js';
import { startServeProcess } from './serve-process.js';

const CONTACTS = 100_000;
const DEEP = 90_000;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const TOKEN = 'bench-token-0123456789';
const API_KEY = 'bench-key-0123456789';

const dir = mkdtempSync(join(tmpdir(), 'tickbook-bench-'));
const dbPath = join(dir, 'bench.db');

function seedContacts(): void {
  const store = openContactsStore(dbPath);
  const now = Math.floor(Date.now() / 1000);
  const batch: SeedContact[] = [];
  for (let i = 0; i < CONTACTS; i++) {
    batch.push({
      username: `user_${i}`,
      phoneNumber: `+1555${String(1_000_000 + i).padStart(7, '0')}`,
      displayName: i % 3 === 0 ? null : `Contact number ${i}`,
      avatarUrl: i % 5 === 0 ? `https://avatars.example.com/${i}.png` : null,
      // Several contacts share each second, as bulk imports do: the tie-break on id matters.
      createdAt: now - Math.floor((CONTACTS - i) / 3),
      lastActiveAt: i % 2 === 0 ? now - i : null,
    });
  }
  store.insertMany(ownerOf(TOKEN), batch);
  store.close();
}

function pick(sql: string): string {
  const db = new Database(dbPath, { readonly: true });
  const row = db.prepare(sql).get() as { id: string };
  db.close();
  return row.id;
}

function rssMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

interface Figure {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  bad: number;
}

async function load(name: string, options: autocannon.Options): Promise<Figure> {
  const result = await autocannon({ connections: 10, duration: DURATION, ...options });
  const figure = {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bad: result.non2xx + result.errors + result.timeouts,
  };
  process.stdout.write(
    `${name.padEnd(34)} ${figure.rps.toFixed(0).padStart(8)} req/s   p50 ${String(figure.p50).padStart(3)} ms   ` +
      `p99 ${String(figure.p99).padStart(3)} ms${figure.bad ? `   (${figure.bad} failed)` : ''}\n`,
  );
  return figure;
}

const verdict = (ok: boolean): string => (ok ? 'met' : 'MISSED');

async function main(): Promise<void> {
  process.stdout.write(`seeding ${CONTACTS.toLocaleString('en')} contacts… `);
  let started = performance.now();
  seedContacts();
  process.stdout.write(`${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  const deepCursor = pick(`SELECT id FROM contacts ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ${DEEP - 1}`);
  const someId = pick(`SELECT id FROM contacts ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ${CONTACTS / 2}`);

  started = performance.now();
  const server = await startServeProcess(dir, dbPath, TOKEN, API_KEY);
  process.stdout.write(`server up in ${(performance.now() - started).toFixed(0)} ms at ${server.url}; ` +
    `${DURATION} s per run, 10 connections\n\n`);
  const bearer = { authorization: `Bearer ${TOKEN}` };
  const symbols = loadCatalogue().slice(0, 50).map((l) => l.symbol);
  let created = 0;
  try {
    const first = await load('GET /v1/contacts?limit=10', { url: `${server.url}/v1/contacts?limit=10`, headers: bearer });
    const deep = await load('… 90,000 contacts deep', {
      url: `${server.url}/v1/contacts?limit=10&starting_after=${deepCursor}`,
      headers: bearer,
    });
    await load('GET /v1/contacts/:id', { url: `${server.url}/v1/contacts/${someId}`, headers: bearer });
    await load('POST /v1/contacts', {
      url: `${server.url}/v1/contacts`,
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/x-www-form-urlencoded' },
      requests: [
        {
          setupRequest: (request) => {
            created++;
            return {
              ...request,
              body: `username=bench_new_${created}&phone_number=%2B4477009${String(created).padStart(5, '0')}`,
            };
          },
        },
      ],
    });
    const pricing = await load('POST realtime-pricing (50 symbols)', {
      url: `${server.url}/v1/utilities/stock/realtime-pricing`,
      method: 'POST',
      headers: { authorization: API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ symbols }),
    });
    const memory = rssMb(server.pid);
    process.stdout.write(`\nserver RSS ${memory.rss.toFixed(0)} MB (peak ${memory.peak.toFixed(0)} MB)\n\n`);

    const ratio = deep.p99 / Math.max(first.p99, 1);
    process.stdout.write('targets:\n');
    process.stdout.write(`  deep page p99 within 1.3x of first page's: ${ratio.toFixed(2)}x (${deep.p99} vs ${first.p99} ms)  ${verdict(deep.p99 <= Math.max(first.p99, 1) * 1.3)}\n`);
    process.stdout.write(`  list pages >= 5,000 req/s: ${first.rps.toFixed(0)} and ${deep.rps.toFixed(0)}  ${verdict(Math.min(first.rps, deep.rps) >= 5000)}\n`);
    process.stdout.write(`  pricing >= 5,000 req/s: ${pricing.rps.toFixed(0)}  ${verdict(pricing.rps >= 5000)}\n`);
    process.stdout.write(`  RSS < 150 MB: ${memory.peak.toFixed(0)} MB peak  ${verdict(memory.peak < 150)}\n`);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
