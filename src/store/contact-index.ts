// The contacts as last read from the server, kept in the local store (the history file) so that a
// search of the whole list is instant at the next start, while a walk of the list refreshes it.
import type { Contact } from '../api/types.js';
import type { HistoryStore } from './history-store.js';

interface Row {
  id: string;
  username: string;
  display_name: string | null;
  phone: string;
  avatar_url: string | null;
  conversation_id: string;
  created_at: number;
  last_active_at: number | null;
}

const fromRow = (row: Row): Contact => ({
  id: row.id,
  username: row.username,
  displayName: row.display_name,
  phoneNumber: row.phone,
  avatarUrl: row.avatar_url,
  conversationId: row.conversation_id,
  createdAt: new Date(row.created_at),
  lastActiveAt: row.last_active_at === null ? null : new Date(row.last_active_at),
});

export interface ContactIndex {
  /** Every contact indexed, newest first (the list's order). */
  all(source: string): Contact[];
  count(source: string): number;
  /** Contacts read (a page, a create, a rename), seen by the walk that began at `seen`. */
  put(source: string, contacts: readonly Contact[], seen: number): void;
  remove(source: string, ids: readonly string[]): void;
  /** Forgets every contact a walk that began at `walkStart` and read the whole list did not see; how many. */
  forgetUnseen(source: string, walkStart: number): number;
}

export function contactIndexOf(store: HistoryStore): ContactIndex {
  const { db } = store;
  const all = db.prepare<[number], Row>(
    'SELECT id, username, display_name, phone, avatar_url, conversation_id, created_at, last_active_at FROM contact_index WHERE source = ? ORDER BY created_at DESC, id DESC',
  );
  const count = db.prepare<[number], number>('SELECT count(*) FROM contact_index WHERE source = ?').pluck();
  const upsert = db.prepare<[number, string, string, string | null, string, string | null, string, number, number | null, number]>(
    `INSERT INTO contact_index (source, id, username, display_name, phone, avatar_url, conversation_id, created_at, last_active_at, seen)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (source, id) DO UPDATE SET username = excluded.username, display_name = excluded.display_name, phone = excluded.phone,
       avatar_url = excluded.avatar_url, last_active_at = excluded.last_active_at, seen = max(seen, excluded.seen)`,
  );
  const remove = db.prepare<[number, string]>('DELETE FROM contact_index WHERE source = ? AND id = ?');
  const forget = db.prepare<[number, number]>('DELETE FROM contact_index WHERE source = ? AND seen < ?');
  const putAll = db.transaction((source: number, contacts: readonly Contact[], seen: number) => {
    for (const c of contacts) {
      upsert.run(source, c.id, c.username, c.displayName, c.phoneNumber, c.avatarUrl, c.conversationId, c.createdAt.getTime(), c.lastActiveAt?.getTime() ?? null, seen);
    }
  });
  const removeAll = db.transaction((source: number, ids: readonly string[]) => {
    for (const id of ids) remove.run(source, id);
  });
  return {
    all(source) {
      const id = store.sourceId(source, false);
      return id === undefined ? [] : all.all(id).map(fromRow);
    },
    count(source) {
      const id = store.sourceId(source, false);
      return id === undefined ? 0 : count.get(id)!;
    },
    put(source, contacts, seen) {
      if (contacts.length > 0) putAll.immediate(store.sourceId(source, true)!, contacts, seen);
    },
    remove(source, ids) {
      const id = store.sourceId(source, false);
      if (id !== undefined && ids.length > 0) removeAll.immediate(id, ids);
    },
    forgetUnseen(source, walkStart) {
      const id = store.sourceId(source, false);
      return id === undefined ? 0 : forget.run(id, walkStart).changes;
    },
  };
}
