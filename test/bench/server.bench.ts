// The sandbox benchmark: 50,000 contacts in one list, autocannon (10 connections, 10 s) against
// the list at its first page and 45,000 deep, a single contact, create, and pricing 50 symbols,
// each beside a bare node:http server answering the same request with the sandbox's own answer
// fixed in advance (test/bench/bare-server.mjs): the floor, measured in the same run. Both run as
// processes of their own, as a user would run them.
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCatalogue } from '../../src/server/catalogue.js';
import { openContactsStore, type SeedContact } from '../../src/server/contacts-store.js';
import { ownerOf } from '../../src/server/credentials.js';
import { startBareServer, startServeProcess } from './serve-process.js';
import { writeFileSync } from 'node:fs';

const CONTACTS = 50_000;
const DEEP = 45_000;
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
  const pricingBody = JSON.stringify({ symbols });
  // The sandbox's answers, captured once, for the bare server to give back without any work.
  const capture = async (path: string, init: RequestInit) => {
    const reply = await fetch(`${server.url}${path}`, init);
    return { status: reply.status, body: await reply.text() };
  };
  const bodies = {
    '/list': await capture('/v1/contacts?limit=10', { headers: bearer }),
    '/contact': await capture(`/v1/contacts/${someId}`, { headers: bearer }),
    '/create': await capture('/v1/contacts', { method: 'POST', headers: { ...bearer, 'content-type': 'application/json' }, body: JSON.stringify({ username: 'bench_captured', phone_number: '+447700900000' }) }),
    '/pricing': await capture('/v1/utilities/stock/realtime-pricing', { method: 'POST', headers: { authorization: API_KEY, 'content-type': 'application/json' }, body: pricingBody }),
  };
  const bodiesPath = join(dir, 'bodies.json');
  writeFileSync(bodiesPath, JSON.stringify(bodies));
  const bare = await startBareServer(dir, bodiesPath);
  let created = 0;
  const createRequests = (prefix: string): autocannon.Request[] => [
    {
      setupRequest: (request) => {
        created++;
        return { ...request, body: JSON.stringify({ username: `${prefix}_${created}`, phone_number: `+4477009${String(created).padStart(5, '0')}` }) };
      },
    },
  ];
  const rows: { name: string; sandbox: Figure; floor: Figure }[] = [];
  const side = async (name: string, sandbox: autocannon.Options, floor: autocannon.Options) => {
    const row = { name, sandbox: await load(name, sandbox), floor: await load('  bare node:http, same answer', floor) };
    process.stdout.write(`${''.padEnd(34)} ${(row.sandbox.rps / Math.max(1, row.floor.rps)).toFixed(2)} of bare\n`);
    rows.push(row);
    return row;
  };
  try {
    const first = await side('GET /v1/contacts?limit=10', { url: `${server.url}/v1/contacts?limit=10`, headers: bearer }, { url: `${bare.url}/list` });
    const deep = await side(`… ${DEEP.toLocaleString('en')} contacts deep`, { url: `${server.url}/v1/contacts?limit=10&starting_after=${deepCursor}`, headers: bearer }, { url: `${bare.url}/list` });
    await side('GET /v1/contacts/:id', { url: `${server.url}/v1/contacts/${someId}`, headers: bearer }, { url: `${bare.url}/contact` });
    await side(
      'POST /v1/contacts',
      { url: `${server.url}/v1/contacts`, method: 'POST', headers: { ...bearer, 'content-type': 'application/json' }, requests: createRequests('bench_new') },
      { url: `${bare.url}/create`, method: 'POST', headers: { 'content-type': 'application/json' }, requests: createRequests('bench_bare') },
    );
    await side(
      'POST realtime-pricing (50 symbols)',
      { url: `${server.url}/v1/utilities/stock/realtime-pricing`, method: 'POST', headers: { authorization: API_KEY, 'content-type': 'application/json' }, body: pricingBody },
      { url: `${bare.url}/pricing`, method: 'POST', headers: { 'content-type': 'application/json' }, body: pricingBody },
    );
    const memory = rssMb(server.pid);
    process.stdout.write(`\nserver RSS ${memory.rss.toFixed(0)} MB (peak ${memory.peak.toFixed(0)} MB)\n\n`);

    const ratio = deep.sandbox.p99 / Math.max(first.sandbox.p99, 1);
    const listShare = Math.min(first.sandbox.rps / first.floor.rps, deep.sandbox.rps / deep.floor.rps);
    process.stdout.write('targets (issue 14):\n');
    process.stdout.write(`  list pages >= 0.5 of bare node: first ${(first.sandbox.rps / first.floor.rps).toFixed(2)}, deep ${(deep.sandbox.rps / deep.floor.rps).toFixed(2)}  ${verdict(listShare >= 0.5)}\n`);
    process.stdout.write(`  deep page p99 within 1.2x of the first page's: ${ratio.toFixed(2)}x (${deep.sandbox.p99} vs ${first.sandbox.p99} ms)  ${verdict(deep.sandbox.p99 <= Math.max(first.sandbox.p99, 1) * 1.2)}\n`);
    for (const row of rows.slice(2)) process.stdout.write(`  ${row.name}: ${(row.sandbox.rps / row.floor.rps).toFixed(2)} of bare (no target of its own)\n`);
    process.stdout.write(`  RSS after the runs < 120 MB: ${memory.rss.toFixed(0)} MB (peak ${memory.peak.toFixed(0)})  ${verdict(memory.rss < 120)}\n`);
  } finally {
    await bare.stop();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
