// `tickbook holdings`: lots added, listed with totals per currency and removed from the shell;
// real processes of the built CLI against a real sandbox and a real history file.
import Database from 'better-sqlite3';
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { historyPath, historySource } from '../../src/store/history-source.js';
import { openHistoryStore } from '../../src/store/history-store.js';
import { holdingsOf } from '../../src/store/holdings-store.js';
import { runTickbookToExit } from '../helpers/sandbox.js';
import { setUpCliHomes } from '../helpers/cli-homes.js';

const { freshEnv } = setUpCliHomes('tickbook-holdings-cli-');

interface LotJson {
  lot: number;
  quantity: string;
  cost: string;
  date: string | null;
}
interface PositionJson {
  symbol: string;
  currency: string;
  quantity: string;
  average_cost: string;
  price: string | null;
  cost: string;
  value: string | null;
  day: string | null;
  gain: string | null;
  gain_percent: number | null;
  lots: LotJson[];
}
interface TotalJson {
  currency: string;
  cost: string;
  value: string;
  day: string;
  gain: string;
  gain_percent: number | null;
  positions: number;
  unpriced: number;
}
interface Listing {
  status: string;
  positions: PositionJson[];
  totals: TotalJson[];
}

async function listed(env: NodeJS.ProcessEnv): Promise<Listing> {
  const run = await runTickbookToExit(['holdings', '--json'], env);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Listing;
}

/** Minor units written in the major unit, as the JSON writes money: 150130n, 2 → "1501.30". */
function minorText(minor: bigint, digits: number): string {
  const sign = minor < 0n ? '-' : '';
  const size = minor < 0n ? -minor : minor;
  if (digits === 0) return `${sign}${size}`;
  const base = 10n ** BigInt(digits);
  return `${sign}${size / base}.${(size % base).toString().padStart(digits, '0')}`;
}

/** A money string as minor units (cents, pence, yen). */
const minorOf = (text: string): bigint => BigInt(text.replace(/[.,+]/g, ''));

/**
 * What `quantity` (whole shares) at `price` is worth in the currency's minor unit, worked out
 * apart from money.ts: the sandbox's prices have two decimals, so quantity × price in hundredths
 * of the price unit is exact. `perMinor` is how many hundredths of the price unit make one minor
 * unit: 1 for cents, 100 for yen (no decimals) and for pence (a London price is in pence already).
 */
function valueMinor(quantity: bigint, price: number, perMinor: bigint): bigint {
  const hundredths = Math.round(price * 100);
  expect(Math.abs(price * 100 - hundredths), `price ${price} has two decimals`).toBeLessThan(1e-6);
  const product = quantity * BigInt(hundredths);
  // The quantities below are chosen so that this divides exactly: no rounding to agree on.
  expect(product % perMinor).toBe(0n);
  return product / perMinor;
}

describe('tickbook holdings', () => {
  it('with no holdings says how to add one, and --json gives empty lists', async () => {
    const env = freshEnv();
    expect(await runTickbookToExit(['holdings'], env)).toMatchObject({ code: 0, stdout: '', stderr: 'tickbook: no holdings: tickbook holdings add AAPL 10 --cost 150\n' });
    const run = await runTickbookToExit(['holdings', 'list', '--json'], env);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toEqual({ status: 'success', positions: [], totals: [] });
  });

  it('adds lots in four currencies and lists them, as JSON and as a table, with exact costs and one total per currency', async () => {
    const env = freshEnv();
    const adds: [string[], string][] = [
      [['AAPL', '10', '--cost', '150.1'], 'AAPL lot 1: 10 at 150.1\n'],
      [['aapl', '1', '--cost', '0.1', '--date', '2024-01-05'], 'AAPL lot 2: 1 at 0.1 on 2024-01-05\n'],
      [['AAPL', '1', '--cost', '0.20'], 'AAPL lot 3: 1 at 0.2\n'],
      [['VOD.L', '1000', '--cost', '72.5'], 'VOD.L lot 1: 1000 at 72.5\n'],
      [['7203.T', '100', '--cost', '2500'], '7203.T lot 1: 100 at 2500\n'],
      [['SAP.DE', '3', '--cost', '250.333333'], 'SAP.DE lot 1: 3 at 250.333333\n'],
    ];
    for (const [args, said] of adds) {
      const run = await runTickbookToExit(['holdings', 'add', ...args], env);
      expect(run, args.join(' ')).toMatchObject({ code: 0, stdout: said, stderr: '' });
    }

    const { status, positions, totals } = await listed(env);
    expect(status).toBe('success');
    // Figures per share (the average cost, a lot's cost, the price) in the listing's price unit,
    // exact, with at least the decimals of the amounts beside them (none for yen, two for pence).
    expect(positions.map((p) => [p.symbol, p.currency, p.quantity, p.average_cost, p.cost])).toEqual([
      ['7203.T', 'JPY', '100', '2500', '250000'],
      // 1501 + 0.1 + 0.2, added exactly; the average, 1501.3 / 12, to the millionth.
      ['AAPL', 'USD', '12', '125.108333', '1501.30'],
      // 750.999999 is shown once, rounded: 751.00.
      ['SAP.DE', 'EUR', '3', '250.333333', '751.00'],
      // 1000 × 72.5 pence.
      ['VOD.L', 'GBP', '1000', '72.50', '725.00'],
    ]);
    expect(positions[1]!.lots).toEqual([
      { lot: 1, quantity: '10', cost: '150.10', date: null },
      { lot: 2, quantity: '1', cost: '0.10', date: '2024-01-05' },
      { lot: 3, quantity: '1', cost: '0.20', date: null },
    ]);
    expect(positions.find((p) => p.symbol === 'VOD.L')!.lots[0]).toMatchObject({ cost: '72.50' });
    expect(positions.find((p) => p.symbol === '7203.T')!.lots[0]).toMatchObject({ cost: '2500' });
    // One form: every amount and figure a decimal string, never a number beside strings.
    const form: Record<string, RegExp> = { JPY: /^-?\d+(\.\d{1,6})?$/, USD: /^-?\d+\.\d{2,6}$/, EUR: /^-?\d+\.\d{2,6}$/, GBP: /^-?\d+\.\d{2,6}$/ };
    for (const p of positions) {
      for (const figure of [p.price, p.average_cost, p.cost, p.value, p.gain, ...p.lots.map((l) => l.cost)]) expect(figure, p.symbol).toMatch(form[p.currency]!);
    }

    // Prices move in the sandbox: each value must be the quantity at the price printed beside it.
    const perMinor: Record<string, [bigint, number]> = { JPY: [100n, 0], USD: [1n, 2], EUR: [1n, 2], GBP: [100n, 2] };
    for (const p of positions) {
      const [per, digits] = perMinor[p.currency]!;
      const value = valueMinor(BigInt(p.quantity), Number(p.price), per);
      expect(p.value, p.symbol).toBe(minorText(value, digits));
      expect(p.gain, p.symbol).toBe(minorText(value - minorOf(p.cost), digits));
      expect(p.gain_percent!, p.symbol).toBeCloseTo((Number(value - minorOf(p.cost)) / Number(minorOf(p.cost))) * 100, 1);
      // Nothing recorded today in this fresh history: no open to measure the day from.
      expect(p.day, p.symbol).toBeNull();
    }

    // Never one sum over dollars, euros, yen and pounds: one total each, as the currencies come.
    expect(totals.map((t) => [t.currency, t.cost, t.positions, t.unpriced])).toEqual([
      ['JPY', '250000', 1, 0],
      ['USD', '1501.30', 1, 0],
      ['EUR', '751.00', 1, 0],
      ['GBP', '725.00', 1, 0],
    ]);
    for (const t of totals) {
      const p = positions.find((x) => x.currency === t.currency)!;
      expect([t.value, t.gain], t.currency).toEqual([p.value, p.gain]);
    }

    // The table: read again, so at prices of its own, which its values must agree with.
    const run = await runTickbookToExit(['holdings'], env);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(/^SYMBOL +CCY +QTY +AVG COST +PRICE +VALUE +DAY +P\/L +P\/L %$/);
    const rows = new Map(lines.map((line) => line.trim().split(/ {2,}/)).map((cells) => [cells[0]!, cells]));
    for (const p of positions) {
      const [per, digits] = perMinor[p.currency]!;
      const [, currency, quantity, , price, value] = rows.get(p.symbol)!;
      expect(currency).toBe(p.currency);
      expect(value!.replace(/,/g, ''), p.symbol).toBe(minorText(valueMinor(BigInt(quantity!), Number(price!.replace(/,/g, '')), per), digits));
    }
    expect(rows.get('AAPL')!.slice(1, 4)).toEqual(['USD', '12', '125.11']);
    // A symbol of several lots lists them, numbered as holdings rm --lot takes them.
    expect(rows.get('lot 1')!.slice(1)).toEqual(['10', '150.10']);
    expect(rows.get('lot 2')!.slice(1)).toEqual(['1', '0.1000', '2024-01-05']);
    expect(rows.get('lot 3')!.slice(1)).toEqual(['1', '0.2000']);
    expect(run.stdout).toMatch(/^TOTAL +COST +VALUE +DAY +P\/L +P\/L %$/m);
    expect(run.stdout).toMatch(/^JPY +250,000 +[\d,]+ /m);
    expect(run.stdout).toMatch(/^USD +1,501\.30 +[\d,]+\.\d\d /m);
    expect(run.stdout).toMatch(/^EUR +751\.00 +[\d,]+\.\d\d /m);
    expect(run.stdout).toMatch(/^GBP +725\.00 +[\d,]+\.\d\d /m);
  });

  it('refuses bad input with exit 2, naming the field, and saves nothing', async () => {
    const env = freshEnv();
    const bad: [string[], RegExp][] = [
      [['add', 'AAPL', '-1', '--cost', '150'], /^tickbook: quantity cannot be negative/],
      [['add', 'AAPL', '0', '--cost', '150'], /^tickbook: quantity must be greater than 0/],
      [['add', 'AAPL', '10', '--cost', 'abc'], /^tickbook: cost per share is not a number \("abc"\)/],
      [['add', 'AAPL', '10', '--cost', '0'], /^tickbook: cost per share must be greater than 0/],
      [['add', 'AAPL', '10', '--cost', '1.0000001'], /^tickbook: cost per share has more than 6 decimals/],
      [['add', 'AAPL', '10', '--cost', '150', '--date', '2999-01-01'], /^tickbook: date 2999-01-01 is in the future/],
      [['add', 'AAPL', '10', '--cost', '150', '--date', '2025-02-30'], /^tickbook: date 2025-02-30 is not a day of the calendar/],
      [['add', 'AAPL', '-1', '--cost', '0'], /^tickbook: quantity cannot be negative; cost per share must be greater than 0/],
      [['add', 'NOPE1', '10', '--cost', '150'], /^tickbook: the symbol NOPE1 is not known to the server/],
      [['add', 'AAPL', '10'], /^tickbook: option --cost \(the cost per share\) is required/],
      [['add', 'AAPL', '--cost', '150'], /^tickbook: expected a quantity after the symbol/],
      [['add', 'AAPL', '10', '20', '--cost', '150'], /^tickbook: unexpected argument "20"/],
      [['add', 'A$B', '10', '--cost', '150'], /"A\$B" is not a stock symbol/],
      [['add', 'AAPL', '10', '--cost', '150', '--lot', '1'], /^tickbook: option --lot is for holdings rm/],
      [['add', 'AAPL', '10', '--cost', '150', '--json'], /^tickbook: option --json is for holdings \(the list\), not holdings add/],
      [['rm', 'AAPL', '--json'], /^tickbook: option --json is for holdings \(the list\), not holdings rm/],
      [['rm', 'AAPL', '--lot', '0'], /^tickbook: option --lot must be a lot's number/],
      [['--cost', '150'], /^tickbook: options --cost and --date are for holdings add/],
      [['sell', 'AAPL'], /^tickbook: unknown holdings action "sell"/],
    ];
    // None of these writes, so they may run at once.
    const runs = await Promise.all(bad.map(([args]) => runTickbookToExit(['holdings', ...args], env)));
    runs.forEach((run, i) => {
      const [args, message] = bad[i]!;
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toMatch(message);
      expect(run.stdout, args.join(' ')).toBe('');
    });
    expect(await listed(env)).toEqual({ status: 'success', positions: [], totals: [] });
  });

  it('rm --lot N removes lot N, whose number is its own: run twice, the second fails naming it and removes nothing', async () => {
    const env = freshEnv();
    for (const args of [
      ['AAPL', '10', '--cost', '100'],
      ['MSFT', '1', '--cost', '400'],
      ['AAPL', '20', '--cost', '200'],
      ['AAPL', '30', '--cost', '300'],
    ]) {
      expect((await runTickbookToExit(['holdings', 'add', ...args], env)).code).toBe(0);
    }
    const lotsOf = async (symbol: string) => (await listed(env)).positions.find((p) => p.symbol === symbol)?.lots.map((l) => `${l.lot}: ${l.quantity}`);
    /** Runs that each fail and change nothing, at once. */
    const failing = (...runs: string[][]) => Promise.all(runs.map((args) => runTickbookToExit(['holdings', ...args], env)));

    expect(await runTickbookToExit(['holdings', 'rm', 'AAPL', '--lot', '2'], env)).toMatchObject({ code: 0, stdout: 'removed AAPL lot 2: 20 at 200\n', stderr: '' });
    expect(await failing(['rm', 'AAPL', '--lot', '2'], ['rm', 'AAPL', '--lot', '4'], ['rm', 'IBM', '--lot', '1'])).toMatchObject([
      { code: 1, stdout: '', stderr: 'tickbook: no lot 2 of AAPL: it was removed (tickbook holdings lists them)\n' },
      { code: 1, stdout: '', stderr: 'tickbook: no lot 4 of AAPL: the last added is lot 3 (tickbook holdings lists them)\n' },
      { code: 1, stdout: '', stderr: 'tickbook: no lot 1 of IBM: no lot of IBM was ever added (tickbook holdings lists them)\n' },
    ]);
    // The lot after it kept its number (lot 3 is not lot 2 now), and nothing else was removed.
    expect(await lotsOf('AAPL')).toEqual(['1: 10', '3: 30']);
    const table = await runTickbookToExit(['holdings'], env);
    expect(table.stdout).toMatch(/^ +lot 1 +10 +100\.00 *\n +lot 3 +30 +300\.00 *$/m);
    // A new lot takes the next number never given.
    expect(await runTickbookToExit(['holdings', 'add', 'AAPL', '40', '--cost', '400'], env)).toMatchObject({ code: 0, stdout: 'AAPL lot 4: 40 at 400\n' });

    expect(await runTickbookToExit(['holdings', 'rm', 'aapl'], env)).toMatchObject({ code: 0, stdout: 'removed AAPL: 3 lots\n' });
    expect(await failing(['rm', 'AAPL'], ['rm', 'AAPL', '--lot', '1'])).toMatchObject([
      { code: 1, stdout: '', stderr: 'tickbook: no holdings of AAPL (tickbook holdings lists them)\n' },
      { code: 1, stdout: '', stderr: 'tickbook: no lot 1 of AAPL: it was removed (tickbook holdings lists them)\n' },
    ]);
    // Numbers go on after every lot of a symbol was removed; a lone lot but lot 1 is listed by its
    // number, a lone lot 1 (MSFT's, untouched throughout) is not.
    expect(await runTickbookToExit(['holdings', 'add', 'AAPL', '5', '--cost', '50'], env)).toMatchObject({ code: 0, stdout: 'AAPL lot 5: 5 at 50\n' });
    const after = (await runTickbookToExit(['holdings'], env)).stdout;
    expect(after).toMatch(/^AAPL .*\n +lot 5 +5 +50\.00 *\nMSFT .*\n\n/m);
  }, 40_000);

  it('a history file of the version before lot numbers keeps its lots under the numbers it listed them with', async () => {
    const env = freshEnv();
    // Made by tickbook before lots had numbers (test/fixtures/history/README.md), for another
    // server: here the test sandbox's, the only thing changed.
    const path = historyPath(env);
    mkdirSync(dirname(path), { recursive: true });
    copyFileSync(fileURLToPath(new URL('../fixtures/history/holdings-v5.db', import.meta.url)), path);
    const db = new Database(path);
    db.prepare('UPDATE sources SET key = ?').run(historySource({ marketDataUrl: env.TICKBOOK_BASE_URL! }));
    db.close();
    const { positions } = await listed(env);
    expect(positions.map((p) => [p.symbol, p.lots.map((l) => `${l.lot}: ${l.quantity} at ${l.cost}`)])).toEqual([
      ['AAPL', ['1: 10 at 150.25', '2: 0.5 at 0.10', '3: 40 at 400.00']],
      ['MSFT', ['1: 2 at 400.00', '2: 1 at 410.50']],
      ['VOD.L', ['1: 1000 at 72.50']],
    ]);
    expect(await runTickbookToExit(['holdings', 'rm', 'AAPL', '--lot', '2'], env)).toMatchObject({ code: 0, stdout: 'removed AAPL lot 2: 0.5 at 0.1\n' });
    expect(await runTickbookToExit(['holdings', 'rm', 'AAPL', '--lot', '2'], env)).toMatchObject({ code: 1, stderr: 'tickbook: no lot 2 of AAPL: it was removed (tickbook holdings lists them)\n' });
    expect(await runTickbookToExit(['holdings', 'add', 'AAPL', '1', '--cost', '1'], env)).toMatchObject({ code: 0, stdout: 'AAPL lot 4: 1 at 1\n' });
  });

  it('measures the day from the day’s first recorded price, and leaves out what the server no longer serves', async () => {
    const env = freshEnv();
    expect((await runTickbookToExit(['holdings', 'add', 'AAPL', '10', '--cost', '150'], env)).code).toBe(0);
    // The history as a dashboard would have left it: today's first AAPL price recorded, and a lot
    // of a symbol the server has since stopped serving.
    const store = openHistoryStore(historyPath(env));
    try {
      const [{ key }] = store.db.prepare('SELECT key FROM sources').all() as [{ key: string }];
      store.record(key, [{ symbol: 'AAPL', price: 100, volume: 1000 }], Date.now());
      holdingsOf(store).add(key, 'GONE1', { quantity: 4_000_000n, cost: 25_000_000n, bought: undefined }, Date.now());
    } finally {
      store.close();
    }

    const { positions, totals } = await listed(env);
    const aapl = positions.find((p) => p.symbol === 'AAPL')!;
    const value = valueMinor(10n, Number(aapl.price), 1n);
    expect(aapl.value).toBe(minorText(value, 2));
    expect(aapl.day).toBe(minorText(value - 100_000n, 2));
    expect(positions.find((p) => p.symbol === 'GONE1')).toMatchObject({ currency: 'USD', cost: '100.00', price: null, value: null, day: null, gain: null, gain_percent: null });
    // GONE1's cost stays out of the total until it has a price: beside no value it would read as a loss.
    expect(totals).toEqual([
      { currency: 'USD', cost: '1500.00', value: aapl.value, day: aapl.day, gain: aapl.gain, gain_percent: aapl.gain_percent, positions: 2, unpriced: 1, day_unknown: 0 },
    ]);

    const table = await runTickbookToExit(['holdings'], env);
    expect(table.stdout).toMatch(/^GONE1 +USD +4 +25\.00 +not served +- +- +- +-$/m);
    expect(table.stdout).toMatch(/^USD +1,500\.00 .* 1 without a price, left out$/m);
  });
});
