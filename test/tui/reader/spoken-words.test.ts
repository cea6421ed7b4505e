import { describe, expect, it } from 'vitest';
import { amountWords, changeWords, contactWords, keyWords, percentWords, priceWords, trendWord } from '../../../src/tui/reader/spoken-words.js';
import type { SymbolRow } from '../../../src/tui/ticker/ticker-state.js';

const row = (price: number, previous: number | undefined, first: number, history: number[] = [first, price]): SymbolRow => ({ price, previous, first, volume: 1000, history, updatedAt: 0 });

describe('amounts in words', () => {
  it('says dollars and their cents as on a price tag, and an amount under one as cents', () => {
    expect(amountWords('206.74', 'AAPL')).toBe('206 dollars 74');
    expect(amountWords('206.05', 'AAPL')).toBe('206 dollars 05');
    expect(amountWords('1.00', 'AAPL')).toBe('1 dollar');
    expect(amountWords('0.12', 'AAPL')).toBe('12 cents');
    expect(amountWords('0.01', 'AAPL')).toBe('1 cent');
    expect(amountWords('3', 'AAPL')).toBe('3 dollars');
  });

  it('reads more decimals than the currency has as a number, and each currency in its own words', () => {
    expect(amountWords('0.1234', 'PENNY')).toBe('0.1234 dollars');
    expect(amountWords('250.5', 'VOD.L')).toBe('250.5 pence');
    expect(amountWords('181.20', 'SAP.DE')).toBe('181 euros 20');
    expect(amountWords('2890', '7203.T')).toBe('2890 yen');
    expect(amountWords('12.50', 'ABC.XX')).toBe('12.50 XX');
  });

  it('says a change as up or down with its unit, and none as unchanged', () => {
    expect(changeWords(0.12, 206.74, 'AAPL')).toBe('up 12 cents');
    expect(changeWords(-1.05, 206.74, 'AAPL')).toBe('down 1 dollar 05');
    expect(changeWords(0.001, 206.74, 'AAPL')).toBe('unchanged');
    expect(percentWords(0.1)).toBe('up 0.1 percent');
    expect(percentWords(-3)).toBe('down 3 percent');
    expect(percentWords(0.001)).toBe('unchanged');
  });
});

describe('a price in words', () => {
  it('labels every value, with no arrow, sign or sparkline', () => {
    const words = priceWords('AAPL', row(206.74, 206.62, 206.5, [206.5, 206.6, 206.74]), undefined, 'Apple Inc.');
    expect(words).toBe('AAPL, Apple Inc., 206 dollars 74, up 12 cents, session up 0.12 percent, rising');
    expect(words).not.toMatch(/[▲▼+%$]/);
  });

  it('says why there is no price', () => {
    expect(priceWords('ZZZZ', undefined, 'not known to the server')).toBe('ZZZZ, not known to the server');
    expect(priceWords('AAPL', undefined)).toBe('AAPL, no price yet');
  });

  it('leaves out the tick change before a second price, and cleans what the server sent', () => {
    expect(priceWords('AAPL', row(10, undefined, 10, [10]), undefined, 'Evil\u001b[2JCo')).toBe('AAPL, EvilCo, 10 dollars, session unchanged');
  });

  it('makes a word of the sparkline', () => {
    expect(trendWord([1, 2, 3])).toBe('rising');
    expect(trendWord([3, 2, 1])).toBe('falling');
    expect(trendWord([100, 100.00001])).toBe('steady');
    expect(trendWord([5])).toBeUndefined();
  });
});

describe('contacts and keys in words', () => {
  it('says a contact by name and username, or that it has no display name', () => {
    expect(contactWords({ displayName: 'Ada Lovelace', username: 'ada' })).toBe('Ada Lovelace, username ada');
    expect(contactWords({ displayName: null, username: 'ada' })).toBe('ada, no display name');
  });

  it('names keys as a person says them', () => {
    expect(keyWords('shift-tab')).toBe('shift tab');
    expect(keyWords('ctrl-c')).toBe('control c');
    expect(keyWords('G')).toBe('capital G');
    expect(keyWords('?')).toBe('question mark');
    expect(keyWords('pagedown')).toBe('page down');
    expect(keyWords('j')).toBe('j');
  });
});
