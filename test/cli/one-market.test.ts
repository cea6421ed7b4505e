// One sandbox database, one market: every process on it (`tickbook quote` with its embedded
// sandbox, `tickbook serve`, restarted or racing on a new file) prices from the seed and epoch
// kept in the database, so prices agree and the day's volume never goes down.
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../src/server/catalogue.js';
import { MarketSimulator } from '../../src/server/market.js';
import { BIN, call, killTickbookChildren, runTickbookToExit, startServe } from '../helpers/sandbox.js';

const SYMBOLS = ['AAPL', 'MSFT', 'NVDA', 'VOD.L', 'SAP.DE', '7203.T'];
const DAY_MS = 86_400_000;

let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  expect(existsSync(join(BIN, '..', '..', 'dist', 'cli', 'main.js')), 'run `node scripts/build-if-needed.mjs` first').toBe(true);
});

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tickbook-market-'));
  // Nothing may touch the real home directory, and nothing may reach a configured server.
  env = {
    ...process.env,
    HOME: join(dir, 'home'),
    XDG_DATA_HOME: join(dir, 'xdg-data'),
    XDG_CONFIG_HOME: join(dir, 'xdg-config'),
  };
  for (const name of ['TICKBOOK_BASE_URL', 'TICKBOOK_MARKET_DATA_URL', 'TICKBOOK_TOKEN', 'TICKBOOK_API_KEY']) delete env[name];
});

afterEach(async () => {
  await killTickbookChildren();
  rmSync(dir, { recursive: true, force: true });
});

interface Quote {
  symbol: string;
  price: number;
  volume: number;
}

function storedMarket(dbPath: string): { seed: number; epochMs: number } {
  const db = new Database(dbPath, { readonly: true });
  try {
    const row = db.prepare('SELECT seed, epoch_ms AS epochMs FROM market').get() as { seed: number; epochMs: number };
    return row;
  } finally {
    db.close();
  }
}

const bannerSeed = (stdout: string): number => Number(/market seed:\s+(\d+)/.exec(stdout)?.[1]);

describe('tickbook quote on the embedded sandbox', () => {
  it('run again and again on one database: one market, so the day volume never goes down', async () => {
    const runs: { from: number; to: number; quotes: Quote[] }[] = [];
    for (let i = 0; i < 4; i++) {
      const from = Date.now();
      const result = await runTickbookToExit(['quote', ...SYMBOLS, '--json'], env, 15_000);
      const to = Date.now();
      expect(result.code, result.stderr).toBe(0);
      runs.push({ from, to, quotes: (JSON.parse(result.stdout) as { stock_data: Quote[] }).stock_data });
    }
    for (let i = 1; i < runs.length; i++) {
      const [before, after] = [runs[i - 1]!, runs[i]!];
      // A new UTC day starts the volume again; otherwise it only grows.
      if (Math.floor(before.to / DAY_MS) !== Math.floor(after.from / DAY_MS)) continue;
      for (const [k, quote] of after.quotes.entries()) {
        const earlier = before.quotes[k]!;
        expect(quote.volume, `${quote.symbol}, run ${i + 1} after run ${i}`).toBeGreaterThanOrEqual(earlier.volume);
        // Seconds apart on one walk, prices differ by hundredths of a percent, not percents.
        expect(Math.abs(quote.price / earlier.price - 1), `${quote.symbol} price, run ${i + 1} after run ${i}`).toBeLessThan(0.005);
      }
    }
    // And that market is the one the database keeps: each volume lies between the market's
    // volume when the run started and when it ended.
    const { seed, epochMs } = storedMarket(join(dir, 'xdg-data', 'tickbook', 'sandbox.db'));
    const catalogue = loadCatalogue();
    // A fresh simulator per moment: its never-go-back guard must not carry one moment into another.
    const volumeAt = (symbol: string, at: number): number =>
      new MarketSimulator({ catalogue, seed, epochMs, now: () => at }).quote(symbol)!.volume;
    for (const run of runs) {
      if (Math.floor(run.from / DAY_MS) !== Math.floor(run.to / DAY_MS)) continue;
      for (const quote of run.quotes) {
        expect(quote.volume, quote.symbol).toBeGreaterThanOrEqual(volumeAt(quote.symbol, run.from));
        expect(quote.volume, quote.symbol).toBeLessThanOrEqual(volumeAt(quote.symbol, run.to));
      }
    }
  });
});

describe('tickbook serve and the database market', () => {
  it('serve restarted without --seed keeps the database market: the same seed, and prices carry on', async () => {
    const db = join(dir, 'market.db');
    const first = await startServe(['--port', '0', '--db', db, '--no-demo-data'], env);
    const seed = bannerSeed(first.stdout());
    expect(seed).toBeGreaterThan(0);
    const before = await call(first.url, '/v1/utilities/stock/realtime-pricing', { auth: 'demo-key', json: { symbols: SYMBOLS } });
    first.child.kill('SIGTERM');
    expect(await first.exited).toEqual({ code: 0, signal: null });

    const second = await startServe(['--port', '0', '--db', db, '--no-demo-data'], env);
    expect(bannerSeed(second.stdout())).toBe(seed);
    // The banner says whose seed it is.
    expect(first.stdout()).toMatch(/market seed:.*\bnew\b.*database/);
    expect(second.stdout()).toMatch(/market seed:.*database/);
    const after = await call(second.url, '/v1/utilities/stock/realtime-pricing', { auth: 'demo-key', json: { symbols: SYMBOLS } });
    for (const [k, quote] of (after.json.stock_data as Quote[]).entries()) {
      const earlier = (before.json.stock_data as Quote[])[k]!;
      expect(Math.abs(quote.price / earlier.price - 1), quote.symbol).toBeLessThan(0.005);
      if (Math.floor(Date.now() / DAY_MS) === Math.floor((Date.now() - 60_000) / DAY_MS)) {
        expect(quote.volume, quote.symbol).toBeGreaterThanOrEqual(earlier.volume);
      }
    }
  });

  it('several serve processes racing to create one new database all take the same market', async () => {
    const db = join(dir, 'race.db');
    const servers = await Promise.all(
      Array.from({ length: 4 }, () => startServe(['--port', '0', '--db', db, '--no-demo-data'], env)),
    );
    const seeds = servers.map((server) => bannerSeed(server.stdout()));
    expect(new Set(seeds).size, `seeds: ${seeds.join(', ')}`).toBe(1);
    expect(storedMarket(db).seed).toBe(seeds[0]);
  });

  it('a different --seed on an existing database is refused in one line naming the stored seed (exit 2)', async () => {
    const db = join(dir, 'seeded.db');
    const first = await startServe(['--port', '0', '--db', db, '--no-demo-data', '--seed', '5'], env);
    expect(bannerSeed(first.stdout())).toBe(5);
    first.child.kill('SIGTERM');
    await first.exited;

    const refused = await runTickbookToExit(['serve', '--port', '0', '--db', db, '--seed', '6'], env);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.trimEnd().split('\n'), refused.stderr).toHaveLength(1);
    expect(refused.stderr).toMatch(/^tickbook: .*--seed 6\b/);
    expect(refused.stderr).toMatch(/\b5\b/);
    expect(refused.stderr).toContain(db);
    expect(refused.stderr).toMatch(/--reset-market/);
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(storedMarket(db).seed).toBe(5);

    // The same seed is no conflict.
    const same = await startServe(['--port', '0', '--db', db, '--seed', '5'], env);
    expect(bannerSeed(same.stdout())).toBe(5);
  });

  it('--reset-market --seed N starts a new market in the database, which later starts keep', async () => {
    const db = join(dir, 'reset.db');
    const first = await startServe(['--port', '0', '--db', db, '--no-demo-data', '--seed', '5'], env);
    const epoch = storedMarket(db).epochMs;
    first.child.kill('SIGTERM');
    await first.exited;

    const reset = await startServe(['--port', '0', '--db', db, '--reset-market', '--seed', '6'], env);
    expect(bannerSeed(reset.stdout())).toBe(6);
    expect(reset.stdout()).toMatch(/reset/);
    expect(storedMarket(db).seed).toBe(6);
    expect(storedMarket(db).epochMs).toBeGreaterThanOrEqual(epoch);
    reset.child.kill('SIGTERM');
    await reset.exited;

    const later = await startServe(['--port', '0', '--db', db], env);
    expect(bannerSeed(later.stdout())).toBe(6);
  });
});
