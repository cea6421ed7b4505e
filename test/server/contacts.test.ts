// Every contact operation's success path, over real HTTP against a real sandbox.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  client,
  CONTACT_KEYS,
  expectError,
  type Reply,
  startTestSandbox,
  type TestSandbox,
  UUID,
} from '../helpers/sandbox.js';


const seenRequestIds = new Set<string>();

/** A success answer: the status, a JSON body, and a fresh UUID in X-Request-Id. */
function expectOk(reply: Reply, status: number): void {
  expect(reply.status, reply.text.slice(0, 300)).toBe(status);
  expect(reply.headers['content-type']).toMatch(/^application\/json\b/);
  const requestId = reply.headers['x-request-id'];
  expect(typeof requestId).toBe('string');
  expect(requestId).toMatch(UUID);
  expect(seenRequestIds.has(requestId as string), 'X-Request-Id is reused').toBe(false);
  seenRequestIds.add(requestId as string);
  expect(reply.json).toBeDefined();
}

function expectContactShape(contact: Record<string, unknown>): void {
  expect(Object.keys(contact).sort()).toEqual(CONTACT_KEYS);
  expect(contact.id).toMatch(/^ct_\S+$/);
  expect(contact.conversation_id).toMatch(/^cv_\S+$/);
  expect(Number.isInteger(contact.created_at)).toBe(true);
}

function expectCreatedNow(contact: Record<string, unknown>): void {
  const createdAt = contact.created_at as number;
  expect(Number.isInteger(createdAt)).toBe(true);
  // Seconds, not milliseconds, and within a few seconds of now.
  expect(Math.abs(createdAt - Date.now() / 1000)).toBeLessThan(5);
}

function bearer(sandbox: TestSandbox): string {
  return `Bearer ${sandbox.token}`;
}

describe('create, get, rename and delete', () => {
  let sandbox: TestSandbox;
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    api = client(sandbox);
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it('creates a contact from form fields: 201, normalised phone, all fields', async () => {
    const reply = await api.create({
      username: 'amelia.hart',
      phone_number: '+44 20 7946-0958',
      avatar_url: 'https://avatars.example.com/amelia.png',
      display_name: 'Amelia Hart',
    });
    expectOk(reply, 201);
    expectContactShape(reply.json);
    expect(reply.json).toMatchObject({
      username: 'amelia.hart',
      phone_number: '+442079460958',
      avatar_url: 'https://avatars.example.com/amelia.png',
      display_name: 'Amelia Hart',
      last_active_at: null,
    });
    expectCreatedNow(reply.json);
  });

  it('creates a contact from JSON: display_name and avatar_url null when absent', async () => {
    const reply = await call(sandbox.contactsUrl, '/v1/contacts', {
      auth: bearer(sandbox),
      json: { username: 'kenji_tanaka', phone_number: '+1 (555) 010.9999' },
    });
    expectOk(reply, 201);
    expectContactShape(reply.json);
    expect(reply.json).toMatchObject({
      username: 'kenji_tanaka',
      phone_number: '+15550109999',
      avatar_url: null,
      display_name: null,
      last_active_at: null,
    });
    expectCreatedNow(reply.json);
  });

  it('gives each contact its own id and conversation id', async () => {
    const a = await api.create({ username: 'uniq-a', phone_number: '+4915112345678' });
    const b = await api.create({ username: 'uniq-b', phone_number: '+4915112345678' });
    expectOk(a, 201);
    expectOk(b, 201);
    expect(a.json.id).not.toBe(b.json.id);
    expect(a.json.conversation_id).not.toBe(b.json.conversation_id);
  });

  it('counts display_name length in code points: 64 emoji are accepted', async () => {
    const name = '😀'.repeat(64);
    const reply = await api.create({ username: 'emoji', phone_number: '+33612345678', display_name: name });
    expectOk(reply, 201);
    expect(reply.json.display_name).toBe(name);
  });

  it('retrieves a contact: 200 with the same contact', async () => {
    const created = await api.create({
      username: 'ngozi-okafor',
      phone_number: '+234 803 123 4567',
      display_name: 'Ngozi Okafor',
    });
    expectOk(created, 201);
    const reply = await api.get(created.json.id);
    expectOk(reply, 200);
    expect(reply.json).toEqual(created.json);
  });

  it('renames a contact with a form field: 200, trimmed, the full contact', async () => {
    const created = await api.create({ username: 'jose.alvarez', phone_number: '+34 612 345 678' });
    expectOk(created, 201);
    const reply = await api.rename(created.json.id, { display_name: '  José Álvarez  ' });
    expectOk(reply, 200);
    expectContactShape(reply.json);
    expect(reply.json).toEqual({ ...created.json, display_name: 'José Álvarez' });
    const fetched = await api.get(created.json.id);
    expectOk(fetched, 200);
    expect(fetched.json.display_name).toBe('José Álvarez');
  });

  it('renames a contact with JSON: 200, trimmed, the full contact', async () => {
    const created = await api.create({ username: 'li.wei', phone_number: '+86 10 1234 5678', display_name: 'Wei' });
    expectOk(created, 201);
    const reply = await call(sandbox.contactsUrl, `/v1/contacts/${created.json.id}`, {
      method: 'PUT',
      auth: bearer(sandbox),
      json: { display_name: '\tLi Wei \n' },
    });
    expectOk(reply, 200);
    expect(reply.json).toEqual({ ...created.json, display_name: 'Li Wei' });
  });

  it('resets display_name to null with an empty string, by form and by JSON', async () => {
    const created = await api.create({ username: 'reset.me', phone_number: '+61 2 9876 5432', display_name: 'Resettable' });
    expectOk(created, 201);
    expect(created.json.display_name).toBe('Resettable');

    const byForm = await api.rename(created.json.id, { display_name: '' });
    expectOk(byForm, 200);
    expect(byForm.json).toEqual({ ...created.json, display_name: null });
    expect((await api.get(created.json.id)).json.display_name).toBeNull();

    const again = await api.rename(created.json.id, { display_name: 'Back' });
    expectOk(again, 200);
    expect(again.json.display_name).toBe('Back');

    const byJson = await call(sandbox.contactsUrl, `/v1/contacts/${created.json.id}`, {
      method: 'PUT',
      auth: bearer(sandbox),
      json: { display_name: '' },
    });
    expectOk(byJson, 200);
    expect(byJson.json).toEqual({ ...created.json, display_name: null });
    expect((await api.get(created.json.id)).json.display_name).toBeNull();
  });

  it('deletes a contact and its conversation: 200 {id, deleted:true}, then 404', async () => {
    const created = await api.create({ username: 'to.delete', phone_number: '+44 7700 900123' });
    expectOk(created, 201);
    const { id, conversation_id: conversationId } = created.json as { id: string; conversation_id: string };

    const db = new Database(sandbox.dbPath, { readonly: true, fileMustExist: true });
    try {
      const conversation = db.prepare('SELECT id FROM conversations WHERE id = ?');
      const contact = db.prepare('SELECT id FROM contacts WHERE id = ?');
      expect(conversation.get(conversationId)).toEqual({ id: conversationId });
      expect(contact.get(id)).toEqual({ id });

      const reply = await api.remove(id);
      expectOk(reply, 200);
      expect(reply.json).toEqual({ id, deleted: true });

      expect(conversation.get(conversationId)).toBeUndefined();
      expect(contact.get(id)).toBeUndefined();
    } finally {
      db.close();
    }

    expectError(await api.get(id), 404, 'not_found', /no contact/);
    expectError(await api.remove(id), 404, 'not_found', /no contact/);
    const list = await api.list('?limit=100');
    expectOk(list, 200);
    expect((list.json.data as { id: string }[]).map((c) => c.id)).not.toContain(id);
  });
});

describe('list', () => {
  let sandbox: TestSandbox;
  let api: ReturnType<typeof client>;
  /** In creation order, oldest first. */
  const created: Record<string, unknown>[] = [];

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    api = client(sandbox);
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it('is empty at first', async () => {
    const reply = await api.list();
    expectOk(reply, 200);
    expect(reply.json).toEqual({ has_more: false, data: [] });
  });

  it('holds ten contacts by default, newest first, with has_more', async () => {
    for (let i = 1; i <= 12; i++) {
      const reply = await api.create({
        username: `person${String(i).padStart(2, '0')}`,
        phone_number: `+1202555${String(1000 + i)}`,
      });
      expectOk(reply, 201);
      created.push(reply.json);
    }
    const newestFirst = [...created].reverse();

    const reply = await api.list();
    expectOk(reply, 200);
    expect(Object.keys(reply.json).sort()).toEqual(['data', 'has_more']);
    expect(reply.json.has_more).toBe(true);
    expect(reply.json.data).toHaveLength(10);
    expect(reply.json.data).toEqual(newestFirst.slice(0, 10));
    for (const contact of reply.json.data) expectContactShape(contact);
  });

  it('honours limit, and has_more is false on the last page', async () => {
    const newestFirst = [...created].reverse();
    const three = await api.list('?limit=3');
    expectOk(three, 200);
    expect(three.json).toEqual({ has_more: true, data: newestFirst.slice(0, 3) });

    const exact = await api.list('?limit=12');
    expectOk(exact, 200);
    expect(exact.json).toEqual({ has_more: false, data: newestFirst });

    const max = await api.list('?limit=100');
    expectOk(max, 200);
    expect(max.json).toEqual({ has_more: false, data: newestFirst });

    const one = await api.list('?limit=1');
    expectOk(one, 200);
    expect(one.json).toEqual({ has_more: true, data: newestFirst.slice(0, 1) });
  });

  it('pages with starting_after and back with ending_before, each page newest first', async () => {
    const newestFirst = [...created].reverse();
    const first = await api.list('?limit=5');
    expectOk(first, 200);
    const lastOfFirst = first.json.data[4].id as string;
    const second = await api.list(`?limit=5&starting_after=${lastOfFirst}`);
    expectOk(second, 200);
    expect(second.json).toEqual({ has_more: true, data: newestFirst.slice(5, 10) });
    const third = await api.list(`?limit=5&starting_after=${second.json.data[4].id}`);
    expectOk(third, 200);
    expect(third.json).toEqual({ has_more: false, data: newestFirst.slice(10) });

    const back = await api.list(`?limit=5&ending_before=${second.json.data[0].id}`);
    expectOk(back, 200);
    expect(back.json).toEqual({ has_more: false, data: newestFirst.slice(0, 5) });
  });
});

describe('active filter (demo data)', () => {
  let sandbox: TestSandbox;
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    sandbox = await startTestSandbox({ demoData: true });
    api = client(sandbox);
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  type Contact = { id: string; last_active_at: number | null; created_at: number };
  const ids = (reply: Reply) => (reply.json.data as Contact[]).map((c) => c.id);

  function expectNewestFirst(data: Contact[]): void {
    for (let i = 1; i < data.length; i++) {
      const [a, b] = [data[i - 1]!, data[i]!];
      expect(a.created_at > b.created_at || (a.created_at === b.created_at && a.id > b.id)).toBe(true);
    }
  }

  it('seeded demo contacts: ten by default, newest first', async () => {
    expect(sandbox.seededDemoData).toBe(true);
    const reply = await api.list();
    expectOk(reply, 200);
    expect(reply.json.data).toHaveLength(10);
    expect(reply.json.has_more).toBe(true);
    expectNewestFirst(reply.json.data);
  });

  it('active=true and active=false partition the whole list', async () => {
    const all = await api.list('?limit=100');
    expectOk(all, 200);
    expect(all.json.has_more).toBe(false);
    const everyone = all.json.data as Contact[];
    expect(everyone.length).toBeGreaterThan(10);
    expectNewestFirst(everyone);

    const active = await api.list('?limit=100&active=true');
    const inactive = await api.list('?limit=100&active=false');
    expectOk(active, 200);
    expectOk(inactive, 200);
    expect(active.json.has_more).toBe(false);
    expect(inactive.json.has_more).toBe(false);
    const activeData = active.json.data as Contact[];
    const inactiveData = inactive.json.data as Contact[];

    // Both parts are non-empty, so the filter is really tested.
    expect(activeData.length).toBeGreaterThan(0);
    expect(inactiveData.length).toBeGreaterThan(0);
    for (const contact of activeData) expect(Number.isInteger(contact.last_active_at)).toBe(true);
    for (const contact of inactiveData) expect(contact.last_active_at).toBeNull();
    expectNewestFirst(activeData);
    expectNewestFirst(inactiveData);

    // Each part is exactly the matching subset of the whole list, in list order.
    expect(activeData).toEqual(everyone.filter((c) => c.last_active_at !== null));
    expect(inactiveData).toEqual(everyone.filter((c) => c.last_active_at === null));
    expect(activeData.length + inactiveData.length).toBe(everyone.length);
  });

  it('accepts 1 and 0 as true and false', async () => {
    const [t, one, f, zero] = await Promise.all([
      api.list('?limit=100&active=true'),
      api.list('?limit=100&active=1'),
      api.list('?limit=100&active=false'),
      api.list('?limit=100&active=0'),
    ]);
    for (const reply of [t, one, f, zero]) expectOk(reply, 200);
    expect(ids(one)).toEqual(ids(t));
    expect(ids(zero)).toEqual(ids(f));
    expect(ids(one)).not.toEqual(ids(zero));
  });

  it('applies the default limit and has_more within a filter', async () => {
    const all = await api.list('?limit=100&active=true');
    const page = await api.list('?active=true');
    expectOk(page, 200);
    const expected = (all.json.data as Contact[]).slice(0, 10);
    expect(page.json.data).toEqual(expected);
    expect(page.json.has_more).toBe((all.json.data as Contact[]).length > 10);
  });
});
