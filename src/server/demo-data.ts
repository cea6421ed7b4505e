// The contacts a new sandbox starts with, so a first run shows a lived-in list. The people live
// in a TSV beside this module; their times are drawn from the seed relative to now.
import { readFileSync } from 'node:fs';
import type { SeedContact } from './contacts-store.js';
import { sequence } from './random.js';
import { normalisePhoneNumber, validateDisplayName, validateUsername } from './validate.js';

const dataFile = new URL('./data/demo-contacts.tsv', import.meta.url);
const DAY = 86_400;

export function demoContacts(seed: number, nowMs = Date.now()): SeedContact[] {
  const random = sequence(seed ^ 0x1f2e3d4c);
  const now = Math.floor(nowMs / 1000);
  const lines = readFileSync(dataFile, 'utf8').split('\n').filter((line) => line.trim() !== '');
  return lines.slice(1).map((line) => {
    const [username = '', phone = '', displayName = '', avatar, active] = line.split('\t');
    // Contacts were added over the last half year; the active ones were seen since then.
    const createdAt = now - Math.floor(random() * 180 * DAY);
    const lastActiveAt = active === '1' ? createdAt + Math.floor(random() * (now - createdAt)) : null;
    return {
      username: validateUsername(username),
      phoneNumber: normalisePhoneNumber(phone),
      displayName: validateDisplayName(displayName),
      avatarUrl: avatar === '1' ? `https://avatars.tickbook.example/${username.toLowerCase()}.png` : null,
      createdAt,
      lastActiveAt,
    };
  });
}
