// The hand-written pricing answer must be byte for byte what JSON.stringify would write.
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../src/server/catalogue.js';
import { MarketSimulator } from '../../src/server/market.js';
import { pricingBody } from '../../src/server/pricing-body.js';

const catalogue = loadCatalogue();

function expected(symbols: string[], quotes: unknown[], requestId: string, requestTime: string): string {
  return JSON.stringify({ status: 'success', stock_symbols: symbols, stock_data: quotes, request_id: requestId, request_time: requestTime });
}

describe('pricingBody', () => {
  it('matches JSON.stringify for every listing of the catalogue, priced by the simulator', () => {
    const market = new MarketSimulator({ catalogue, seed: 7, now: () => Date.UTC(2026, 10, 20, 15, 0, 0, 123) });
    for (let start = 0; start < catalogue.length; start += 100) {
      const symbols = catalogue.slice(start, start + 100).map((l) => l.symbol);
      // Twice: the second pass uses the cached per-symbol fragments.
      for (let pass = 0; pass < 2; pass++) {
        const quotes = symbols.map((s) => market.quote(s)!);
        const text = pricingBody(symbols, quotes, `req-${start}`, '2026-11-20T15:00:00.123Z');
        expect(text).toBe(expected(symbols, quotes, `req-${start}`, '2026-11-20T15:00:00.123Z'));
        expect(JSON.parse(text)).toEqual(JSON.parse(expected(symbols, quotes, `req-${start}`, '2026-11-20T15:00:00.123Z')));
      }
    }
  });

  it('matches for the edges: no quotes, unknown symbols echoed only, tiny and huge numbers', () => {
    const cases: Array<[string[], { symbol: string; price: number; volume: number }[]]> = [
      [['NOPE', 'ZZZZ.X'], []],
      [['A', 'B-C', '7203.T'], [
        { symbol: 'A', price: 0.0001, volume: 0 },
        { symbol: 'B-C', price: 1e-7, volume: Number.MAX_SAFE_INTEGER },
        { symbol: '7203.T', price: 123456789.12, volume: 1 },
      ]],
    ];
    for (const [symbols, quotes] of cases) {
      expect(pricingBody(symbols, quotes, 'id "quoted"', 't')).toBe(expected(symbols, quotes, 'id "quoted"', 't'));
    }
  });
});
