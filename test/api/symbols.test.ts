// A watchlist as the client sends it: trimmed, upper-cased, each symbol once, in the order given.
import { describe, expect, it } from 'vitest';
import { normaliseSymbols } from '../../src/api/rules.js';

describe('normaliseSymbols', () => {
  it('trims and upper-cases what needs it, keeps what is already a symbol, drops blanks and repeats, keeps the order', () => {
    expect(normaliseSymbols(['AAPL', ' msft ', 'BRK.B', 'aapl', '', '   ', 'RDS-A', 'MSFT', '\tnvda\n', 'Ñ'])).toEqual([
      'AAPL',
      'MSFT',
      'BRK.B',
      'RDS-A',
      'NVDA',
      'Ñ',
    ]);
  });

  it('leaves a longer-than-a-symbol or odd entry for the caller to refuse, upper-cased', () => {
    expect(normaliseSymbols(['abcdefghijklmnopq', 'a b'])).toEqual(['ABCDEFGHIJKLMNOPQ', 'A B']);
  });
});
