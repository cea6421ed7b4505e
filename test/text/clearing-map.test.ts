// The bound the frame caches share: a Map that empties itself rather than grow past its limit.
import { describe, expect, it } from 'vitest';
import { ClearingMap, remembered } from '../../src/text/remembered.js';

describe('ClearingMap', () => {
  it('holds up to its limit, and a new key past it starts it afresh with that key alone', () => {
    const map = new ClearingMap<string, number>(3);
    for (const [i, key] of ['a', 'b', 'c'].entries()) map.set(key, i);
    expect([...map.keys()]).toEqual(['a', 'b', 'c']);
    map.set('d', 3);
    expect([...map.entries()]).toEqual([['d', 3]]);
  });

  it('keeps what it holds when a key it has is set again at the limit', () => {
    const map = new ClearingMap<string, number>(2);
    map.set('a', 1).set('b', 2).set('a', 3);
    expect([...map.entries()]).toEqual([
      ['a', 3],
      ['b', 2],
    ]);
  });

  it('never holds more than its limit through remembered, however many keys go through', () => {
    const map = new ClearingMap<number, string>(100);
    for (let i = 0; i < 10_000; i++) {
      expect(remembered(map, i % 250, () => String(i % 250))).toBe(String(i % 250));
      expect(map.size).toBeLessThanOrEqual(100);
    }
  });
});
