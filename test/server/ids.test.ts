// Contact and conversation ids: unique, and in creation order as text, however many come in one
// millisecond and across refills of the random pool.
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/server/ids.js';

describe('newId', () => {
  it('5,000 ids in one millisecond (five refills of the random pool) are unique, sort in the order made, and look alike', () => {
    const now = Date.now() + 60_000;
    const ids = Array.from({ length: 5000 }, () => newId('ct_', now));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    for (const id of ids) expect(id).toMatch(/^ct_[0-9a-z]{9}[0-9a-z]{4}[0-9a-f]{8}$/);
    // The random part is not the same few bytes over and over.
    expect(new Set(ids.map((id) => id.slice(-8))).size).toBeGreaterThan(4900);
  });

  it('a later millisecond sorts after, and a clock that steps back does not break the order', () => {
    const now = Date.now() + 120_000;
    const a = newId('cv_', now);
    const b = newId('cv_', now + 1);
    const c = newId('cv_', now - 5000);
    expect(a < b && b < c).toBe(true);
  });
});
