// The sandbox benchmark: 50,000 contacts in one list, autocannon (10 connections) against the
// list at its first page and 45,000 deep, a single contact, create, rename, and pricing 50
// symbols, each beside a bare node:http server answering the same request with the sandbox's own
// answer fixed in advance (test/bench/bare-server.mjs): the floor, measured in the same run. Both
// run as processes of their own, as a user would run them. Each pair runs in ROUNDS rounds taken
// in turn (this VM's speed drifts within a minute), the share being the median of the rounds';
// each side's CPU time per request is read from /proc, which the load generator's limits do not
// blur. Creates and renames are also set beside a bare server that makes each body durable as the sandbox
// does (appended to a file, one fdatasync a turn of the event loop). Then a walk through the
// whole list in pages of 100, every page read once: nothing kept.
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'undici';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCatalogue } from '../../src/server/catalogue.js';
import { openContactsStore, type SeedContact } from '../../src/server/contacts-store.js';
import { ownerOf } from '../../src/server/credentials.js';
import { startBareServer, startServeProcess } from './serve-process.js';

const CONTACTS = 50_000;
const DEEP = 45_000;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
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

/** CPU time (user + system) a process has used, in ms. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

interface Figure {
  rps: number;
  p50: number;
  p99: number;
  bad: number;
  /** The server's CPU time per request, µs. */
  cpuUs: number;
}

async function load(pid: number, options: autocannon.Options, seconds: number): Promise<Figure> {
  const before = cpuMs(pid);
  const result = await autocannon({ connections: 10, duration: seconds, ...options });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bad: result.non2xx + result.errors + result.timeouts,
    cpuUs: ((cpuMs(pid) - before) * 1000) / Math.max(1, result.requests.total),
  };
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** Rounds of one side, summed: mean req/s, the worst p99, CPU per request over all. */
function combine(rounds: readonly Figure[]): Figure {
  return {
    rps: rounds.reduce((sum, r) => sum + r.rps, 0) / rounds.length,
    p50: Math.max(...rounds.map((r) => r.p50)),
    p99: Math.max(...rounds.map((r) => r.p99)),
    bad: rounds.reduce((sum, r) => sum + r.bad, 0),
    cpuUs: median(rounds.map((r) => r.cpuUs)),
  };
}

function line(name: string, figure: Figure): string {
  return (
    `${name.padEnd(34)} ${figure.rps.toFixed(0).padStart(8)} req/s   p50 ${String(figure.p50).padStart(3)} ms   ` +
    `p99 ${String(figure.p99).padStart(3)} ms   ${figure.cpuUs.toFixed(0).padStart(3)} µs CPU a request` +
    `${figure.bad ? `   (${figure.bad} failed)` : ''}\n`
  );
}

const verdict = (ok: boolean): string => (ok ? 'met' : 'MISSED');

async function main(): Promise<void> {
  process.stdout.write(`seeding ${CONTACTS.toLocaleString('en')} contacts… `);
  let started = performance.now();
  seedContacts();
  process.stdout.write(`${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  const deepCursor = pick(`SELECT id FROM contacts ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ${DEEP - 1}`);
  const someId = pick(`SELECT id FROM contacts ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ${CONTACTS / 2}`);
  const renamedId = pick(`SELECT id FROM contacts ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ${Math.floor(CONTACTS / 3)}`);

  started = performance.now();
  const server = await startServeProcess(dir, dbPath, TOKEN, API_KEY);
  process.stdout.write(`server up in ${(performance.now() - started).toFixed(0)} ms at ${server.url}; ` +
    `${DURATION} s a side per operation in ${ROUNDS} rounds taken in turn, 10 connections\n\n`);
  const bearer = { authorization: `Bearer ${TOKEN}` };
  const json = { 'content-type': 'application/json' };
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
    '/create': await capture('/v1/contacts', { method: 'POST', headers: { ...bearer, ...json }, body: JSON.stringify({ username: 'bench_captured', phone_number: '+447700900000' }) }),
    '/rename': await capture(`/v1/contacts/${renamedId}`, { method: 'PUT', headers: { ...bearer, ...json }, body: JSON.stringify({ display_name: 'Renamed 0' }) }),
    '/pricing': await capture('/v1/utilities/stock/realtime-pricing', { method: 'POST', headers: { authorization: API_KEY, ...json }, body: pricingBody }),
    '/page100': await capture('/v1/contacts?limit=100', { headers: bearer }),
  };
  const bodiesPath = join(dir, 'bodies.json');
  writeFileSync(bodiesPath, JSON.stringify(bodies));
  // Its journal beside the database, on the same disk: the floor for a durable write.
  const bare = await startBareServer(dir, bodiesPath, join(dir, 'bare-journal'));
  let sent = 0;
  const createRequests = (prefix: string): autocannon.Request[] => [
    {
      setupRequest: (request) => {
        sent++;
        return { ...request, body: JSON.stringify({ username: `${prefix}_${sent}`, phone_number: `+4477009${String(sent).padStart(5, '0')}` }) };
      },
    },
  ];
  // Every rename a new name, so that each is a write.
  const renameRequests: autocannon.Request[] = [
    { setupRequest: (request) => ({ ...request, body: JSON.stringify({ display_name: `Renamed ${++sent}` }) }) },
  ];
  const rows: { name: string; sandbox: Figure; floor: Figure; share: number }[] = [];
  const side = async (name: string, sandbox: autocannon.Options, floor: autocannon.Options) => {
    const ours: Figure[] = [];
    const theirs: Figure[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      ours.push(await load(server.pid, sandbox, DURATION / ROUNDS));
      theirs.push(await load(bare.pid, floor, DURATION / ROUNDS));
    }
    const row = { name, sandbox: combine(ours), floor: combine(theirs), share: median(ours.map((o, i) => o.rps / Math.max(1, theirs[i]!.rps))) };
    process.stdout.write(line(name, row.sandbox) + line('  bare node:http, same answer', row.floor));
    process.stdout.write(`${''.padEnd(34)} ${row.share.toFixed(2)} of bare (median of ${ROUNDS} rounds: ${ours.map((o, i) => (o.rps / Math.max(1, theirs[i]!.rps)).toFixed(2)).join(', ')})\n`);
    rows.push(row);
    return row;
  };
  try {
    const first = await side('GET /v1/contacts?limit=10', { url: `${server.url}/v1/contacts?limit=10`, headers: bearer }, { url: `${bare.url}/list` });
    const deep = await side(`… ${DEEP.toLocaleString('en')} contacts deep`, { url: `${server.url}/v1/contacts?limit=10&starting_after=${deepCursor}`, headers: bearer }, { url: `${bare.url}/list` });
    await side('GET /v1/contacts/:id', { url: `${server.url}/v1/contacts/${someId}`, headers: bearer }, { url: `${bare.url}/contact` });
    await side(
      'POST /v1/contacts',
      { url: `${server.url}/v1/contacts`, method: 'POST', headers: { ...bearer, ...json }, requests: createRequests('bench_new') },
      { url: `${bare.url}/create`, method: 'POST', headers: json, requests: createRequests('bench_bare') },
    );
    const durableCreate = await side(
      '  … beside a durable floor',
      { url: `${server.url}/v1/contacts`, method: 'POST', headers: { ...bearer, ...json }, requests: createRequests('bench_new2') },
      { url: `${bare.url}/durable/create`, method: 'POST', headers: json, requests: createRequests('bench_bare2') },
    );
    await side(
      'PUT /v1/contacts/:id',
      { url: `${server.url}/v1/contacts/${renamedId}`, method: 'PUT', headers: { ...bearer, ...json }, requests: renameRequests },
      { url: `${bare.url}/rename`, method: 'PUT', headers: json, requests: renameRequests },
    );
    const durableRename = await side(
      '  … beside a durable floor',
      { url: `${server.url}/v1/contacts/${renamedId}`, method: 'PUT', headers: { ...bearer, ...json }, requests: renameRequests },
      { url: `${bare.url}/durable/rename`, method: 'PUT', headers: json, requests: renameRequests },
    );
    await side(
      'POST realtime-pricing (50 symbols)',
      { url: `${server.url}/v1/utilities/stock/realtime-pricing`, method: 'POST', headers: { authorization: API_KEY, ...json }, body: pricingBody },
      { url: `${bare.url}/pricing`, method: 'POST', headers: json, body: pricingBody },
    );
    const walk = await walkList(server.url, bare.url, bearer);
    const memory = rssMb(server.pid);
    process.stdout.write(`\nserver RSS ${memory.rss.toFixed(0)} MB (peak ${memory.peak.toFixed(0)} MB)\n\n`);

    const ratio = deep.sandbox.p99 / Math.max(first.sandbox.p99, 1);
    process.stdout.write('targets (issue 14):\n');
    process.stdout.write(`  list pages >= 0.5 of bare node: first ${first.share.toFixed(2)}, deep ${deep.share.toFixed(2)}  ${verdict(Math.min(first.share, deep.share) >= 0.5)}\n`);
    process.stdout.write(`  deep page p99 within 1.2x of the first page's: ${ratio.toFixed(2)}x (${deep.sandbox.p99} vs ${first.sandbox.p99} ms)  ${verdict(deep.sandbox.p99 <= Math.max(first.sandbox.p99, 1) * 1.2)}\n`);
    for (const row of rows.slice(2)) {
      if (row === durableCreate || row === durableRename) continue;
      process.stdout.write(`  ${row.name}: ${row.share.toFixed(2)} of bare  ${verdict(row.share >= 0.5)}\n`);
    }
    process.stdout.write(
      `  beside bare node:http appending each body to a file, one fdatasync a turn (no target of its own): ` +
        `create ${durableCreate.share.toFixed(2)}, rename ${durableRename.share.toFixed(2)}\n`,
    );
    process.stdout.write(`  the whole list walked, each page read once (nothing kept): ${walk.share.toFixed(2)} of bare (no target of its own)\n`);
    process.stdout.write(`  RSS after the runs < 120 MB: ${memory.rss.toFixed(0)} MB (peak ${memory.peak.toFixed(0)})  ${verdict(memory.rss < 120)}\n`);
  } finally {
    await bare.stop();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The cache cannot help here: every page of the list read once, 100 at a time, one request after
 * another (as `contacts export` and the search index's walk read it), beside the bare server
 * answering as many requests for a fixed page of 100.
 */
async function walkList(url: string, bareUrl: string, headers: Record<string, string>): Promise<{ share: number }> {
  const agent = new Agent({ connections: 1 });
  try {
    const get = async (target: string) => {
      const reply = await request(target, { headers, dispatcher: agent });
      const text = await reply.body.text();
      if (reply.statusCode !== 200) throw new Error(`${target}: ${reply.statusCode} ${text}`);
      return text;
    };
    let started = performance.now();
    let pages = 0;
    let after = '';
    for (;;) {
      const page = JSON.parse(await get(`${url}/v1/contacts?limit=100${after}`)) as { has_more: boolean; data: { id: string }[] };
      pages++;
      if (!page.has_more) break;
      after = `&starting_after=${page.data.at(-1)!.id}`;
    }
    const ours = (performance.now() - started) / pages;
    started = performance.now();
    for (let i = 0; i < pages; i++) JSON.parse(await get(`${bareUrl}/page100`));
    const theirs = (performance.now() - started) / pages;
    process.stdout.write(
      `\nthe whole list in pages of 100, one request at a time: ${pages} pages, ${ours.toFixed(2)} ms a page ` +
        `[bare node:http, a fixed page of 100: ${theirs.toFixed(2)} ms]\n`,
    );
    return { share: theirs / ours };
  } finally {
    await agent.close();
  }
}

await main();
