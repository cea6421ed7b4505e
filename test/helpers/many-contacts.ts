// A real sandbox holding a long contact list in a known order: the contact at list position i
// (newest first, from 0) is user_<i, five digits>, so a test can say which row it landed on.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Contact } from '../../src/api/types.js';
import { openContactsStore, type SeedContact } from '../../src/server/contacts-store.js';
import { ownerOf } from '../../src/server/credentials.js';
import { startTestSandbox, type TestSandbox } from './sandbox.js';

export const MANY_TOKEN = 'many-contacts-token-0123456789';
export const MANY_API_KEY = 'many-contacts-key-0123456789';

export const manyUsername = (position: number): string => `user_${String(position).padStart(5, '0')}`;

/** The list position of a contact made by fillContacts. */
export const positionOf = (contact: Pick<Contact, 'username'>): number => Number(/^user_(\d+)$/.exec(contact.username)?.[1] ?? NaN);

/** Writes `count` contacts, seen with `token`, into a new sandbox database at `dbPath`. */
export function fillContacts(dbPath: string, count: number, token = MANY_TOKEN, nowS = Math.floor(Date.now() / 1000)): void {
  mkdirSync(dirname(dbPath), { recursive: true });
  const store = openContactsStore(dbPath);
  try {
    const contacts: SeedContact[] = Array.from({ length: count }, (_, i) => ({
      username: manyUsername(i),
      phoneNumber: `+1555${String(1_000_000 + i).padStart(7, '0')}`,
      displayName: `Person ${String(i).padStart(5, '0')}`,
      avatarUrl: null,
      createdAt: nowS - i,
      lastActiveAt: i % 2 === 0 ? nowS - i : null,
    }));
    store.insertMany(ownerOf(token), contacts);
  } finally {
    store.close();
  }
}

/** A sandbox on port 0 whose one token sees `count` contacts made by fillContacts. */
export async function startManyContactsSandbox(count: number): Promise<TestSandbox> {
  const dir = mkdtempSync(join(tmpdir(), 'tickbook-many-'));
  const dbPath = join(dir, 'many.db');
  fillContacts(dbPath, count);
  const sandbox = await startTestSandbox({ dbPath, tokens: [MANY_TOKEN], apiKeys: [MANY_API_KEY], demoData: false });
  return {
    ...sandbox,
    close: async () => {
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
