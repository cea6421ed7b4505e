// The contacts a new sandbox starts with, so a first run shows a lived-in list. The people live
// in a TSV beside this module; their times are drawn from the seed relative to now.
import { readFileSync } from 'node:fs';
import type { SeedContact } from './contacts-store.js';
import { sequence } from './random.js';
import { normalisePhoneNumber, validateDisplayName, validateUsername } from './validate.js';

const dataFile = new URL('./data/demo-contacts.tsv', import.meta.url);
const DAY = 86_400;

/** The most contacts `--demo-contacts` makes: a long list to try, not a database to fill. */
export const DEMO_CONTACTS_MAX = 100_000;

/**
 * The demo people, or `count` contacts: the people again and again, each round's usernames
 * numbered ("ana.lima-2") so every one is its own contact, for trying a long list.
 */
export function demoContacts(seed: number, nowMs = Date.now(), count?: number): SeedContact[] {
  const random = sequence(seed ^ 0x1f2e3d4c);
  const now = Math.floor(nowMs / 1000);
  const people = readFileSync(dataFile, 'utf8').split('\n').filter((line) => line.trim() !== '').slice(1);
  const lines = Array.from({ length: count ?? people.length }, (_, i) => {
    const round = Math.floor(i / people.length);
    const line = people[i % people.length]!;
    return round === 0 ? line : line.replace(/^[^\t]*/, (username) => `${username.slice(0, 24)}-${round + 1}`);
  });
  return lines.map((line) => {
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
