// Opaque ids that still sort by creation time, so the list's tie-break on id (for contacts
// created in the same second) keeps creation order.
import { randomBytes } from 'node:crypto';

let lastMs = 0;
let counter = 0;

export function newId(prefix: 'ct_' | 'cv_', nowMs = Date.now()): string {
  if (nowMs > lastMs) {
    lastMs = nowMs;
    counter = 0;
  } else {
    counter++;
  }
  const time = lastMs.toString(36).padStart(9, '0');
  const sequence = counter.toString(36).padStart(4, '0');
  return `${prefix}${time}${sequence}${randomBytes(4).toString('hex')}`;
}
