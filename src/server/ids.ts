// Opaque ids that still sort by creation time, so the list's tie-break on id (for contacts
// created in the same second) keeps creation order.
import { randomFillSync } from 'node:crypto';

let lastMs = 0;
let counter = 0;

// Four random bytes an id, taken from a pool filled 4 KiB at a time: randomBytes(4) for each was
// 5% of a create's time in bench:server.
const pool = Buffer.alloc(4096);
let taken = pool.length;

function randomHex4(): string {
  if (taken + 4 > pool.length) {
    randomFillSync(pool);
    taken = 0;
  }
  const hex = pool.toString('hex', taken, taken + 4);
  taken += 4;
  return hex;
}

export function newId(prefix: 'ct_' | 'cv_', nowMs = Date.now()): string {
  if (nowMs > lastMs) {
    lastMs = nowMs;
    counter = 0;
  } else {
    counter++;
  }
  const time = lastMs.toString(36).padStart(9, '0');
  const sequence = counter.toString(36).padStart(4, '0');
  return `${prefix}${time}${sequence}${randomHex4()}`;
}
