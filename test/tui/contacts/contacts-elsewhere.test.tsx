// The contacts pane telling the truth when the server's contacts change under it: a contact
// deleted elsewhere leaves the screen (open view and list) with a word why, and a delete's undo
// names the contact as the screen shows it, also while a rename of it is on its way.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TickbookClient } from '../../../src/api/client.js';
import { contactName, type Contact } from '../../../src/api/types.js';
import { Dashboard } from '../../../src/tui/Dashboard.js';
import { StatusBoard } from '../../../src/tui/state/status.js';
import { drive, renderDashboard, unmountAll } from '../../helpers/dashboard.js';
import { inAct, waitFor } from '../../helpers/ink.js';
import { type Proxy, startProxy } from '../../helpers/proxy.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';
import { KEY } from '../../helpers/keys.js';


let sandbox: TestSandbox;
let proxy: Proxy;
let checker: TickbookClient;
const clients: TickbookClient[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox({ demoData: true });
  proxy = await startProxy(sandbox.url);
  checker = new TickbookClient({ contactsUrl: sandbox.url, marketDataUrl: sandbox.url, token: sandbox.token, apiKey: sandbox.apiKey });
});
afterEach(async () => {
  await unmountAll();
  for (const client of clients.splice(0)) await client.close();
  proxy.rules = {};
});
afterAll(async () => {
  await checker.close();
  await proxy.close();
  await sandbox.close();
});

async function mount() {
  const client = new TickbookClient({ contactsUrl: proxy.url, marketDataUrl: proxy.url, token: sandbox.token, apiKey: sandbox.apiKey, retry: { retries: 0 } });
  clients.push(client);
  const instance = await renderDashboard(
    <Dashboard client={client} status={new StatusBoard()} target="proxy" watchlist={['AAPL']} intervalS={30} size={{ columns: 120, rows: 40 }} undoWindowMs={5000} />,
    120,
  );
  const h = drive(instance);
  await h.until((f) => /on this page/.test(f), 'the first page');
  return h;
}

/** A contact of the first page, by its row (0 is the top). */
async function row(index: number): Promise<Contact> {
  return (await inAct(() => checker.listContacts({ limit: 20 }))).contacts[index]!;
}

/** Whether the list shows the contact's username as a cell. */
const listed = (frame: string, contact: Contact): boolean => frame.includes(` ${contact.username} `);

describe('a contact deleted elsewhere', () => {
  it('open, then r: "no longer exists", back to the list, the row gone', async () => {
    const contact = await row(0);
    const h = await mount();
    await h.press(KEY.enter);
    await h.until((f) => f.includes(contact.conversationId), 'the open contact');
    await inAct(() => checker.deleteContact(contact.id));
    await h.press('r');
    const frame = await h.until((f) => f.includes('no longer exists'), 'the word why');
    expect(frame).toContain(`${contactName(contact)} no longer exists: deleted elsewhere`);
    expect(frame).not.toContain(contact.conversationId);
    expect(frame).toMatch(/NAME\s+USERNAME/);
    expect(listed(frame, contact)).toBe(false);
    expect(frame).not.toMatch(/✗/);
  });

  it('Enter on its row (the list not yet reloaded): back to the list, the row gone', async () => {
    const contact = await row(1);
    const h = await mount();
    expect(listed(h.frame(), contact)).toBe(true);
    await inAct(() => checker.deleteContact(contact.id));
    await h.press('j', KEY.enter);
    const frame = await h.until((f) => f.includes('no longer exists'), 'the word why');
    expect(frame).toMatch(/NAME\s+USERNAME/);
    expect(listed(frame, contact)).toBe(false);
  });

  it('renamed: the rename is dropped with the row, and the status line says why', async () => {
    const contact = await row(2);
    const h = await mount();
    await inAct(() => checker.deleteContact(contact.id));
    await h.press('j', 'j', 'e', KEY.ctrlU);
    await h.type('Too Late');
    await h.press(KEY.enter);
    const frame = await h.until((f) => f.includes('no longer exists'), 'the word why');
    expect(frame).not.toContain('Too Late');
    expect(listed(frame, contact)).toBe(false);
    expect(frame).not.toMatch(/✗/);
  });
});

describe('undoing a delete right after a rename', () => {
  it('names the contact by its new name, while the rename is on its way and after it lands', async () => {
    const contact = await row(3);
    const h = await mount();
    // The rename takes a while to reach the server: the delete is asked and confirmed before it lands.
    proxy.rules = { delayMs: (req) => (req.method === 'PUT' ? 1500 : 0) };
    await h.press('j', 'j', 'j', 'e', KEY.ctrlU);
    await h.type('Ann Newname');
    await h.press(KEY.enter, 'd');
    expect(h.frame()).toContain('Delete Ann Newname');
    await h.press('y');
    expect(h.frame()).toMatch(/deleted Ann Newname · u: undo/);
    expect(h.frame(), 'the rename has not landed yet').not.toContain('renamed to');
    await waitFor(async () => (await checker.getContact(contact.id)).displayName === 'Ann Newname', 5000, 'the rename to land');
    await h.until((f) => /deleted Ann Newname · u: undo/.test(f), 'the undo offer, still the new name');
    await h.press('u');
    const frame = await h.until((f) => f.includes('kept '), 'the undo notice');
    expect(frame).toContain('kept Ann Newname');
    expect(frame).not.toContain(`kept ${contactName(contact)}`);
  }, 15_000);
});
