// A sandbox database made before the demo contacts' numbers were all possible ones (issue 37,
// item 7) holds Fatima Bello's old +23412345678, which the import refuses as too short for
// Nigeria: opened by this tickbook, her number (and her copies' in a long demo list) becomes the
// one new databases get, once, and nothing else in the file changes.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parsePossiblePhoneNumber } from '../../src/api/possible-phone.js';
import type { ContactRecord } from '../../src/server/contacts-schema.js';
import { openContactsStore } from '../../src/server/contacts-store.js';
import { ownerOf } from '../../src/server/credentials.js';
import { demoContacts } from '../../src/server/demo-data.js';

const dir = mkdtempSync(join(tmpdir(), 'tickbook-demo-number-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const OLD = '+23412345678';
const OWNER = ownerOf('demo-token');
const market = { fresh: () => ({ seed: 7, epochMs: Date.UTC(2026, 0, 1) }) };

/** Every contact of `owner` in the database at `path`, by username. */
function contactsIn(path: string, owner: string): Map<string, ContactRecord> {
  const store = openContactsStore(path, { market });
  try {
    return new Map(store.page(owner, { limit: 1000 }).data.map((c) => [c.username, c]));
  } finally {
    store.close();
  }
}

describe("the old demo number in a sandbox database made before it changed", () => {
  it("is changed to the new one when the sandbox opens the file, in every copy of Fatima Bello's; a number of the user's own stays", () => {
    const path = join(dir, 'sandbox.db');
    // A long demo list (--demo-contacts 150: fatima.bello, -2, -3), as the sandbox seeds one.
    const created = openContactsStore(path, { market, initialContacts: () => ({ owner: OWNER, contacts: demoContacts(7, Date.UTC(2026, 0, 1), 150) }) });
    created.create(OWNER, { username: 'my.lagos.friend', phoneNumber: OLD, displayName: 'Friend', avatarUrl: null });
    created.close();
    // What the tickbook before the change left in the file: the old number, schema version 2.
    const old = new Database(path);
    const changed = old.prepare("UPDATE contacts SET phone_number = ? WHERE username LIKE 'fatima.bello%'").run(OLD).changes;
    expect(changed).toBe(3);
    old.pragma('user_version = 2');
    old.close();

    const after = contactsIn(path, OWNER);
    const now = demoContacts(7, Date.UTC(2026, 0, 1)).find((c) => c.username === 'fatima.bello')!.phoneNumber;
    expect(now).toBe('+2342012345678');
    expect(parsePossiblePhoneNumber(now, 'phone')).toBe(now);
    for (const username of ['fatima.bello', 'fatima.bello-2', 'fatima.bello-3']) {
      expect(after.get(username), username).toMatchObject({ phone_number: now, display_name: 'Fatima Bello' });
    }
    // Not a demo contact: the user's own, as they made it (the server takes any E.164).
    expect(after.get('my.lagos.friend')).toMatchObject({ phone_number: OLD });
    expect(after.size).toBe(151);
    const db = new Database(path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(3);
    db.close();
  });
});
