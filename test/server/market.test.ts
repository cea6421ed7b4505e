import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../src/server/catalogue.js';
import { ownerOf } from '../../src/server/credentials.js';
import { MarketSimulator, roundPrice } from '../../src/server/market.js';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src/server/sandbox.js';
import { client, expectError, ISO_MS, startTestSandbox, type TestSandbox, UUID } from '../helpers/sandbox.js';

const catalogue = loadCatalogue();
const EPOCH = Date.UTC(2026, 10, 20, 14, 30);

function clockAt(ms: number) {
  const clock = { now: ms };
  return { clock, now: () => clock.now };
}

describe('symbol catalogue', () => {
  it('holds at least 400 real listings, US large caps and suffixed foreign listings', () => {
    expect(catalogue.length).toBeGreaterThanOrEqual(400);
    const symbols = new Set(catalogue.map((l) => l.symbol));
    expect(symbols.size).toBe(catalogue.length);
    for (const symbol of ['AAPL', 'MSFT', 'NVDA', 'AMZN', 'VOD.L', 'SHOP.TO', 'SAP.DE', 'MC.PA', '7203.T', '0700.HK', 'BHP.AX']) {
      expect(symbols.has(symbol), symbol).toBe(true);
    }
    for (const suffix of ['.L', '.TO', '.DE', '.PA', '.T', '.HK', '.AX']) {
      expect(catalogue.filter((l) => l.symbol.endsWith(suffix)).length, suffix).toBeGreaterThanOrEqual(20);
    }
    for (const listing of catalogue) {
      expect(listing.symbol).toMatch(/^[A-Z0-9.-]{1,15}$/);
      expect(listing.name.trim().length).toBeGreaterThan(1);
    }
    expect(catalogue.find((l) => l.symbol === 'AAPL')?.name).toBe('Apple Inc.');
  });
});

describe('market simulator', () => {
  it('replays the same path for the same seed and epoch, and another for another seed', () => {
    const a = clockAt(EPOCH);
    const b = clockAt(EPOCH);
    const c = clockAt(EPOCH);
    const first = new MarketSimulator({ catalogue, seed: 42, epochMs: EPOCH, now: a.now });
    const replay = new MarketSimulator({ catalogue, seed: 42, epochMs: EPOCH, now: b.now });
    const other = new MarketSimulator({ catalogue, seed: 43, epochMs: EPOCH, now: c.now });
    const path = (sim: MarketSimulator, clock: { now: number }) => {
      const prices: number[] = [];
      for (let i = 0; i < 50; i++) {
        clock.now = EPOCH + i * 1_337;
        prices.push(sim.quote('MSFT')!.price);
      }
      return prices;
    };
    // The replay is asked out of order first: the path must not depend on the order of questions.
    b.clock.now = EPOCH + 40 * 1_337;
    replay.quote('MSFT');
    const p1 = path(first, a.clock);
    expect(path(replay, b.clock)).toEqual(p1);
    expect(path(other, c.clock)).not.toEqual(p1);
    expect(new Set(p1).size).toBeGreaterThan(10);
  });

  it('moves a little between two moments close together and realistically over a day', () => {
    const t = clockAt(EPOCH);
    const sim = new MarketSimulator({ catalogue, seed: 9, epochMs: EPOCH, now: t.now });
    const base = catalogue.find((l) => l.symbol === 'AAPL')!.basePrice;
    const start = sim.quote('AAPL')!.price;
    expect(Math.abs(start / base - 1)).toBeLessThanOrEqual(0.04);
    t.clock.now += 200;
    const soon = sim.quote('AAPL')!.price;
    expect(Math.abs(soon / start - 1)).toBeLessThan(0.002);
    // Over many symbols and one trading day (6.5 h), daily moves sit within a few percent.
    const moves: number[] = [];
    for (const listing of catalogue.slice(0, 200)) {
      t.clock.now = EPOCH;
      const open = sim.quote(listing.symbol)!.price;
      t.clock.now = EPOCH + 6.5 * 3600_000;
      moves.push(Math.abs(sim.quote(listing.symbol)!.price / open - 1));
    }
    const mean = moves.reduce((s, m) => s + m, 0) / moves.length;
    expect(mean).toBeGreaterThan(0.003);
    expect(mean).toBeLessThan(0.05);
  });

  it('rounds to 2 places, and to 4 below 1.00', () => {
    expect(roundPrice(123.456789)).toBe(123.46);
    expect(roundPrice(0.123456)).toBe(0.1235);
    const t = clockAt(EPOCH);
    const sim = new MarketSimulator({ catalogue, seed: 1, epochMs: EPOCH, now: t.now });
    for (const { symbol } of catalogue) {
      const { price } = sim.quote(symbol)!;
      const places = price < 1 ? 4 : 2;
      expect(Math.abs(price * 10 ** places - Math.round(price * 10 ** places))).toBeLessThan(1e-6);
      expect(price).toBeGreaterThan(0);
    }
  });

  it('keeps volume cumulative within a day, resets it at the day boundary, and never goes back', () => {
    const t = clockAt(Date.UTC(2026, 10, 20, 0, 0, 5));
    const sim = new MarketSimulator({ catalogue, seed: 5, epochMs: t.clock.now, now: t.now });
    let last = -1;
    for (let i = 0; i < 2000; i++) {
      t.clock.now += 43_000; // ~24 h in 2000 steps
      const { volume } = sim.quote('NVDA')!;
      if (i === 2000 - 1) break;
      expect(Number.isInteger(volume)).toBe(true);
      if (Math.floor(t.clock.now / 86_400_000) === Math.floor((t.clock.now - 43_000) / 86_400_000)) {
        expect(volume).toBeGreaterThanOrEqual(last);
      } else {
        expect(volume).toBeLessThan(last);
      }
      last = volume;
    }
    // A clock stepping backwards does not unwind the day's volume.
    const before = sim.quote('NVDA')!.volume;
    t.clock.now -= 600_000;
    expect(sim.quote('NVDA')!.volume).toBeGreaterThanOrEqual(before);
  });

  it('knows only catalogue symbols', () => {
    const sim = new MarketSimulator({ catalogue, seed: 1 });
    expect(sim.quote('NOPE')).toBeUndefined();
    expect(sim.has('VOD.L')).toBe(true);
  });
});

describe('market data over HTTP', () => {
  let sandbox: TestSandbox;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    api = client(sandbox);
  });
  afterAll(() => sandbox.close());

  it('prices symbols trimmed, upper-cased and de-duplicated in order, echoing unknown ones', async () => {
    const reply = await api.price([' msft', 'VOD.L', 'nosuch', 'MSFT', '7203.t']);
    expect(reply.status).toBe(200);
    expect(reply.json.status).toBe('success');
    expect(reply.json.stock_symbols).toEqual(['MSFT', 'VOD.L', 'NOSUCH', '7203.T']);
    expect(reply.json.stock_data.map((d: { symbol: string }) => d.symbol)).toEqual(['MSFT', 'VOD.L', '7203.T']);
    for (const record of reply.json.stock_data) {
      expect(Object.keys(record).sort()).toEqual(['price', 'symbol', 'volume']);
      expect(typeof record.price).toBe('number');
      expect(Number.isInteger(record.volume)).toBe(true);
    }
    expect(reply.json.request_id).toMatch(UUID);
    expect(reply.headers['x-request-id']).toBe(reply.json.request_id);
    expect(reply.json.request_time).toMatch(ISO_MS);
  });

  it('accepts exactly 100 symbols and refuses 101', async () => {
    const hundred = catalogue.slice(0, 100).map((l) => l.symbol);
    const ok = await api.price(hundred);
    expect(ok.status).toBe(200);
    expect(ok.json.stock_data).toHaveLength(100);
    expectError(await api.price([...hundred, 'ZZZZ']), 400, 'invalid_parameters', /symbols/);
  });

  it('keeps volume from decreasing between polls', async () => {
    const first = (await api.price(['AAPL'])).json.stock_data[0];
    const second = (await api.price(['AAPL'])).json.stock_data[0];
    expect(second.volume).toBeGreaterThanOrEqual(first.volume);
  });

  it('lists the whole catalogue with names', async () => {
    const reply = await api.symbols();
    expect(reply.status).toBe(200);
    expect(reply.json.status).toBe('success');
    expect(reply.json.stock_symbols).toHaveLength(catalogue.length);
    expect(reply.json.stock_symbols).toContainEqual({ symbol: 'SHOP.TO', name: expect.stringMatching(/Shopify/) });
    expect(reply.headers['x-request-id']).toMatch(UUID);
  });
});

describe('one market per database', () => {
  const SYMBOLS = ['AAPL', 'MSFT', 'NVDA', 'VOD.L', 'SAP.DE', '7203.T', 'BHP.AX', 'SHOP.TO'];
  let dir: string;
  let dbPath: string;
  const open: Sandbox[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tickbook-market-'));
    dbPath = join(dir, 'sandbox.db');
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((sandbox) => sandbox.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  async function start(options: SandboxOptions = {}): Promise<Sandbox> {
    const sandbox = await startSandbox({ dbPath, demoData: false, ...options });
    open.push(sandbox);
    return sandbox;
  }

  async function prices(sandbox: Sandbox): Promise<unknown> {
    const reply = await client(sandbox).price(SYMBOLS);
    expect(reply.status, reply.text).toBe(200);
    return reply.json.stock_data;
  }

  function storedMarket(): { seed: number; epoch_ms: number }[] {
    const db = new Database(dbPath, { readonly: true });
    try {
      return db.prepare('SELECT seed, epoch_ms FROM market').all() as { seed: number; epoch_ms: number }[];
    } finally {
      db.close();
    }
  }

  it('two sandboxes on one file, started an hour apart, price alike at the same moment', async () => {
    const t = clockAt(EPOCH);
    const first = await start({ now: t.now });
    t.clock.now = EPOCH + 3_600_000 + 1_234;
    // Started later and without a seed: it takes the database's seed and epoch, not its own.
    const second = await start({ now: t.now });
    expect(second.seed).toBe(first.seed);
    expect(second.marketEpochMs).toBe(EPOCH);
    expect(first.marketEpochMs).toBe(EPOCH);
    for (const at of [EPOCH + 3_600_000 + 1_234, EPOCH + 5 * 3_600_000, EPOCH + 30 * 3_600_000 + 17]) {
      t.clock.now = at;
      expect(await prices(second), `at ${new Date(at).toISOString()}`).toEqual(await prices(first));
    }
  });

  it('keeps the seed and epoch a new database was given, for every later start', async () => {
    const t = clockAt(EPOCH);
    const first = await start({ now: t.now, seed: 4242 });
    expect(first.seed).toBe(4242);
    t.clock.now = EPOCH + 1_000;
    const before = await prices(first);
    await first.close();
    // A restart (no seed, a later clock) carries on the same walk: no jump, same volume.
    t.clock.now = EPOCH + 60_000;
    const restarted = await start({ now: t.now });
    expect(restarted.seed).toBe(4242);
    expect(restarted.marketEpochMs).toBe(EPOCH);
    t.clock.now = EPOCH + 1_000;
    expect(await prices(restarted)).toEqual(before);
    // The same seed again is no conflict.
    const again = await start({ now: t.now, seed: 4242 });
    expect(again.seed).toBe(4242);
    expect(storedMarket()).toEqual([{ seed: 4242, epoch_ms: EPOCH }]);
  });

  it('refuses a different seed on an existing database, naming the stored one, and changes nothing', async () => {
    await start({ seed: 11, now: () => EPOCH });
    await expect(start({ seed: 12 })).rejects.toThrow(/\b11\b.*\b12\b|\b12\b.*\b11\b/);
    await expect(start({ seed: 12 })).rejects.toMatchObject({ name: 'MarketMismatchError', stored: { seed: 11 } });
    expect(storedMarket()).toEqual([{ seed: 11, epoch_ms: EPOCH }]);
  });

  it('resetMarket rewrites the stored market, which every later start then uses', async () => {
    const t = clockAt(EPOCH);
    const first = await start({ seed: 11, now: t.now });
    t.clock.now = EPOCH + 86_400_000;
    const reset = await start({ seed: 12, resetMarket: true, now: t.now });
    expect(reset.seed).toBe(12);
    expect(reset.marketEpochMs).toBe(EPOCH + 86_400_000);
    expect(storedMarket()).toEqual([{ seed: 12, epoch_ms: EPOCH + 86_400_000 }]);
    const later = await start({ now: t.now });
    expect(later.seed).toBe(12);
    expect(await prices(later)).toEqual(await prices(reset));
    // The sandbox already running keeps the market it started with until it restarts.
    expect(first.seed).toBe(11);
    // Without a seed, a reset picks a new one.
    const fresh = await start({ resetMarket: true, now: t.now });
    expect(storedMarket()).toEqual([{ seed: fresh.seed, epoch_ms: EPOCH + 86_400_000 }]);
  });

  it('a schema version 1 database keeps its contacts and gets one market, chosen once', async () => {
    const v1 = new Database(dbPath);
    v1.exec(V1_SCHEMA);
    v1.prepare("INSERT INTO conversations (id, owner, created_at) VALUES ('cv_old', ?, 1700000000)").run(DEMO_OWNER);
    v1.prepare(
      `INSERT INTO contacts (id, owner, username, phone_number, conversation_id, created_at)
       VALUES ('ct_old', ?, 'old.friend', '+442079460958', 'cv_old', 1700000000)`,
    ).run(DEMO_OWNER);
    v1.pragma('user_version = 1');
    v1.close();

    const t = clockAt(EPOCH);
    const first = await start({ now: t.now });
    t.clock.now = EPOCH + 7_000;
    const second = await start({ now: t.now });
    expect(second.seed).toBe(first.seed);
    expect(second.marketEpochMs).toBe(EPOCH);
    expect(await prices(second)).toEqual(await prices(first));
    expect(storedMarket()).toEqual([{ seed: first.seed, epoch_ms: EPOCH }]);
    const list = await client(second).list();
    expect(list.json.data.map((c: { id: string }) => c.id)).toEqual(['ct_old']);
    const db = new Database(dbPath, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(3);
    db.close();
  });

  it("':memory:' databases keep a market per process: each start its own seed, or the one given", async () => {
    const a = await start({ dbPath: ':memory:' });
    const b = await start({ dbPath: ':memory:' });
    expect(a.seed).not.toBe(b.seed);
    const c = await start({ dbPath: ':memory:', seed: 99, marketEpochMs: EPOCH });
    expect(c).toMatchObject({ seed: 99, marketEpochMs: EPOCH });
  });

  it('marketEpochMs and now still replay a market exactly (tests rely on it)', async () => {
    const t = clockAt(EPOCH + 500_000);
    const sandbox = await start({ seed: 42, marketEpochMs: EPOCH, now: t.now });
    const reference = new MarketSimulator({ catalogue, seed: 42, epochMs: EPOCH, now: t.now });
    const replies = (await client(sandbox).price(['MSFT'])).json.stock_data;
    expect(replies).toEqual([reference.quote('MSFT')]);
  });
});

/** The owner the demo token maps to: contacts are stored per digested token. */
const DEMO_OWNER = ownerOf('demo-token');

/** A database as tickbook 0.1 (schema version 1) left it: contacts and conversations, no market. */
const V1_SCHEMA = `
  CREATE TABLE conversations (id TEXT PRIMARY KEY, owner TEXT NOT NULL, created_at INTEGER NOT NULL);
  CREATE TABLE contacts (
    id TEXT PRIMARY KEY, owner TEXT NOT NULL, username TEXT NOT NULL COLLATE NOCASE,
    phone_number TEXT NOT NULL, avatar_url TEXT, display_name TEXT,
    conversation_id TEXT NOT NULL UNIQUE REFERENCES conversations(id),
    last_active_at INTEGER, created_at INTEGER NOT NULL, UNIQUE (owner, username)
  );
  CREATE INDEX contacts_in_order ON contacts (owner, created_at, id);
  CREATE INDEX contacts_active_in_order ON contacts (owner, created_at, id) WHERE last_active_at IS NOT NULL;
  CREATE INDEX contacts_inactive_in_order ON contacts (owner, created_at, id) WHERE last_active_at IS NULL;`;
