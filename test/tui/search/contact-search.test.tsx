// The dashboard's whole-list search as a user drives it: `/` on the contacts pane, typing, ↓/↑,
// Enter to show the match where it is in the list, Esc. Through the real Dashboard at 120x40, a
// real PriceRecorder on a temp history file (where the index is kept) and a real in-process
// sandbox holding 320 contacts, ten pages of the list, so that a match on a later page proves the
// search covers every contact and not the page on screen (which is what f filters). The index
// must keep up with what the dashboard itself creates, renames and deletes, or a search right
// after an edit shows the list as it was; and it must outlive the dashboard, or every start
// searches nothing until a walk of the whole list has come back.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

// The highlight (underline) and the selected row (inverse) are in the frame only with Ink's
// colours on, which are off when stdout is not a terminal. On before Ink (and chalk) load.
const savedForceColor = vi.hoisted(() => {
  const saved = process.env.FORCE_COLOR;
  process.env.FORCE_COLOR = '1';
  return saved;
});

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { request } from 'undici';
import { TickbookClient } from '../../../src/api/client.js';
import { ApiError } from '../../../src/api/errors.js';
import type { Contact } from '../../../src/api/types.js';
import { openContactsStore, type SeedContact } from '../../../src/server/contacts-store.js';
import { ownerOf } from '../../../src/server/credentials.js';
import { contactsSource } from '../../../src/store/history-source.js';
import { Dashboard, type DashboardProps } from '../../../src/tui/Dashboard.js';
import { StatusBoard } from '../../../src/tui/state/status.js';
import { drive, expectFramesFit, renderDashboard, unmountAll, type DashboardHarness } from '../../helpers/dashboard.js';
import { inAct, inverseSegments, waitFor } from '../../helpers/ink.js';
import { KEY } from '../../helpers/keys.js';
import { setUpRecorder } from '../../helpers/recorder.js';
import { startTestSandbox, type TestSandbox } from '../../helpers/sandbox.js';
import { closeAllServers, httpServer } from '../../helpers/servers.js';

const SIZE = { columns: 120, rows: 40 };
const TARGET = 'sandbox (contact search test)';
const TOKEN = 'contact-search-token-0123456789';
const API_KEY = 'contact-search-key-0123456789';
/** At 120x40 a page of the contacts list is 32 rows (see dashboard.test.tsx). */
const PAGE = 32;
const COUNT = 320;

/**
 * People to find among the fillers ("Person 00123", user_00123), at known places in the list
 * (newest first, from 0): every one but Delia past the first page.
 */
const PEOPLE: Record<number, Omit<SeedContact, 'createdAt' | 'lastActiveAt' | 'avatarUrl'>> = {
  1: { username: 'dvanterpool', displayName: 'Delia Vanterpool', phoneNumber: '+442079460101' },
  170: { username: 'zangstrom', displayName: 'Zoë Ångström', phoneNumber: '+442079460555' },
  171: { username: 'bo.after', displayName: 'Bartholomew After', phoneNumber: '+442079460556' },
  230: { username: 'pq_77', displayName: 'Priya Quillfeather', phoneNumber: '+61293744000' },
  260: { username: 'quill.fan', displayName: 'Tomasz Nowak', phoneNumber: '+48221234567' },
  300: { username: 'li.wei', displayName: '李伟 🏄', phoneNumber: '+8613800138000' },
};

const filler = (i: number) => ({ username: `user_${String(i).padStart(5, '0')}`, displayName: `Person ${String(i).padStart(5, '0')}`, phoneNumber: `+1555${String(1_000_000 + i)}` });

let root: string;
let sb: TestSandbox;
/** For checking (and putting back) the server behind the dashboard's back. */
let checker: TickbookClient;
let nowS: number;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'tickbook-contact-search-'));
  const dbPath = join(root, 'sandbox.db');
  nowS = Math.floor(Date.now() / 1000);
  const store = openContactsStore(dbPath);
  try {
    store.insertMany(ownerOf(TOKEN), Array.from({ length: COUNT }, (_, i) => seed(i)));
  } finally {
    store.close();
  }
  sb = await startTestSandbox({ dbPath, tokens: [TOKEN], apiKeys: [API_KEY], demoData: false });
  checker = client(sb.url);
});
afterAll(async () => {
  await checker?.close();
  await sb?.close();
  rmSync(root, { recursive: true, force: true });
  if (savedForceColor === undefined) delete process.env.FORCE_COLOR;
  else process.env.FORCE_COLOR = savedForceColor;
});

/** Contact `i` of the list, newest first: the people active, every other filler never. */
function seed(i: number): SeedContact {
  const person = PEOPLE[i];
  return { avatarUrl: null, ...(person ?? filler(i)), createdAt: nowS - 10 * i, lastActiveAt: person || i % 2 === 0 ? nowS - 10 * i : null };
}

/** Puts a contact the test deleted back where it was, straight into the sandbox's store. */
function putBack(position: number): void {
  const store = openContactsStore(sb.dbPath);
  try {
    store.insertMany(ownerOf(TOKEN), [seed(position)]);
  } finally {
    store.close();
  }
}

function client(url: string): TickbookClient {
  return new TickbookClient({ contactsUrl: url, marketDataUrl: url, token: TOKEN, apiKey: API_KEY });
}

/** The name the index keeps this list under, as the command line makes it. */
const SOURCE = () => contactsSource({ contactsUrl: sb.contactsUrl, token: TOKEN });

/** The page of the list (1 for the first) a contact at `position` is on, paging from the first. */
const pageOf = (position: number): number => Math.floor(position / PAGE) + 1;

/** The name in the contacts list's first row (the row under its header). */
function firstRow(frame: string): string {
  const lines = frame.split('\n');
  const header = lines.findIndex((l) => /[┃│] NAME +USERNAME/.test(l));
  return (lines[header + 1] ?? '').replace(/^[┃│] /, '').split(/ {2,}/)[0]!;
}

/** The texts drawn underlined (the matched characters), plain, in frame order. Ink writes SGR 4 … 24. */
function underlined(raw: string): string[] {
  return [...raw.matchAll(/\u001b\[4m([\s\S]*?)\u001b\[24m/g)].map((m) => stripVTControlCharacters(m[1]!));
}

/** The lines of the search's result list: those between the query line and the count line. */
function resultLines(frame: string): string[] {
  const lines = frame.split('\n');
  const query = lines.findIndex((l) => /[┃│] \/ /.test(l));
  const count = lines.findIndex((l, i) => i > query && /(matches|match|no contact matches|contacts indexed|indexed \d)/.test(l));
  return lines.slice(query + 1, count).map((l) => l.replace(/^[┃│] ?/, '').replace(/ *[┃│].*$/, '')).filter((l) => l.trim() !== '');
}

/** A gate in front of the sandbox: passes every request on, except the walk's later pages (limit=100 after a cursor), held until opened. */
async function startGate(target: string): Promise<{ url: string; held: () => number; open: () => void; close: () => Promise<void> }> {
  let opened = false;
  const waiting: (() => void)[] = [];
  let held = 0;
  const server = createServer(async (req, res) => {
    const url = req.url ?? '/';
    if (/[?&]limit=100\b/.test(url) && /starting_after=/.test(url) && !opened) {
      held++;
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
    try {
      const upstream = await request(`${target}${url}`, { method: req.method as 'GET', headers: req.headers as Record<string, string>, body: req.method === 'GET' ? undefined : req });
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(upstream.headers)) if (typeof v === 'string' && k !== 'transfer-encoding') headers[k] = v;
      const body = Buffer.from(await upstream.body.arrayBuffer());
      res.writeHead(upstream.statusCode, headers);
      res.end(body);
    } catch {
      res.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held: () => held,
    open: () => {
      opened = true;
      for (const go of waiting.splice(0)) go();
    },
    close: () =>
      new Promise<void>((resolve) => {
        opened = true;
        for (const go of waiting.splice(0)) go();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The walk's requests that reached the sandbox: its pages are the only list requests of 100. */
const walkRequests = (): number => sb.logLines.filter((line) => / GET \/v1\/contacts\?limit=100\b/.test(line)).length;

/** The contact the server lists under `username`. */
async function usernamed(username: string): Promise<Contact | undefined> {
  for await (const c of checker.allContacts({ limit: 100 })) if (c.username === username) return c;
  return undefined;
}

async function gone(id: string): Promise<boolean> {
  try {
    await checker.getContact(id);
    return false;
  } catch (error) {
    return error instanceof ApiError && error.kind === 'not_found';
  }
}

describe('searching every contact', () => {
  const files = setUpRecorder('contact-search-test', 'tickbook-contact-search-');
  const clients: TickbookClient[] = [];
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    // The dashboards first (they use the clients), then what they talked to.
    await unmountAll();
    for (const close of closers.splice(0)) await close();
    await closeAllServers();
    for (const c of clients.splice(0)) await c.close();
  });

  async function mount(props: Partial<DashboardProps> = {}, url = sb.url): Promise<DashboardHarness> {
    const dashboardClient = client(url);
    clients.push(dashboardClient);
    const full: DashboardProps = {
      client: dashboardClient,
      status: new StatusBoard(),
      target: TARGET,
      size: SIZE,
      undoWindowMs: 300,
      watchlist: ['AAPL'],
      // A poll a minute: none comes unbidden during a test.
      intervalS: 60,
      history: files.recorder,
      contactsSource: SOURCE(),
      ...props,
    };
    return drive(await renderDashboard(<Dashboard {...full} />, SIZE.columns));
  }

  /** Mounted with the first page on screen. */
  async function mountReady(props: Partial<DashboardProps> = {}): Promise<DashboardHarness> {
    const h = await mount(props);
    await h.until((f) => /32 on this page/.test(f) && /Person 00000/.test(f), 'the first page of contacts');
    return h;
  }

  /** / then `query`, typed; the frame once no walk is under way ("N contacts indexed") and `shows` holds. */
  async function search(h: DashboardHarness, query: string, shows: (frame: string) => boolean, what: string): Promise<string> {
    await h.press('/');
    await h.until((f) => /searching every contact/.test(f), 'the search open');
    await h.type(query);
    return h.until((f) => f.includes(`/ ${query}`) && /\d+ contacts indexed/.test(f) && shows(f), what, 8000);
  }

  /**
   * The selected row: the first inverted text longer than a character or two (the query field's
   * cursor is drawn inverted too, as one cell).
   */
  const selected = (h: DashboardHarness): string => (inverseSegments(h.raw()).find((s) => s.trim().length > 2) ?? '').trim();

  it('/ and a few letters find a contact on a later page of the list, its matched characters underlined, "N contacts indexed" below', async () => {
    const h = await mountReady();
    // Not on the page on screen: only a search of every contact finds her.
    expect(h.frame()).not.toContain('Zoë');
    const frame = await search(h, 'angst', (f) => /Zoë Ångström +zangstrom +\+442079460555/.test(f), 'Zoë found');
    expect(frame).toMatch(/1 match · 320 contacts indexed/);
    expect(resultLines(frame)).toHaveLength(1);
    // The letters typed, shown where they are in the name as drawn: Å, not A.
    expect(underlined(h.raw())).toEqual(['Ångst']);
    // The one match is the one the cursor is on.
    expect(selected(h)).toMatch(/^Zoë Ångström +zangstrom/);
    // Whatever a CJK name and an emoji take, the row is drawn inside the pane.
    await h.press(KEY.ctrlU);
    await h.type('伟');
    await h.until((f) => /李伟 🏄 +li\.wei +\+8613800138000/.test(f), '李伟 found');
    expect(underlined(h.raw())).toEqual(['伟']);
    expectFramesFit(h.instance, SIZE.columns, SIZE.rows);
  });

  it('searching while the walk is on its way: what is indexed answers, said so, and a match on a later page comes in as it is read', async () => {
    const gate = await startGate(sb.url);
    closers.push(gate.close);
    const h = await mount({}, gate.url);
    await h.press('/');
    await h.type('angst');
    // The walk's first page (positions 0-99) is in; the second (with Zoë at 170) is held.
    let frame = await h.until((f) => /indexed 100: searching what is indexed/.test(f), 'the first walk page indexed');
    // The page drawn may come before the next page's request reaches the gate.
    await waitFor(() => gate.held() === 1, 5000, 'the second page held at the gate');
    expect(frame).toContain('no contact matches "angst"');
    gate.open();
    frame = await h.until((f) => /Zoë Ångström/.test(f) && /320 contacts indexed/.test(f), 'Zoë found as the walk reads on, without typing again');
    expect(frame).toMatch(/1 match · /);
    expectFramesFit(h.instance, SIZE.columns, SIZE.rows);
  });

  it('a phone number is found by its digits however they are spaced, the digits underlined', async () => {
    const h = await mountReady();
    await search(h, '20 7946 0555', (f) => /Zoë Ångström/.test(f), 'Zoë found by her number');
    expect(resultLines(h.frame())).toHaveLength(1);
    expect(underlined(h.raw())).toEqual(['2079460555']);
    await h.press(KEY.ctrlU);
    await h.type('+61 2 9374');
    await h.until((f) => /Priya Quillfeather/.test(f) && /1 match ·/.test(f), 'Priya found by her number with its +');
    expect(underlined(h.raw())).toEqual(['6129374']);
    expectFramesFit(h.instance, SIZE.columns, SIZE.rows);
  });

  it('name: and user: look in one field; without a scope both are searched, ↓/↑ move the cursor over the matches', async () => {
    const h = await mountReady();
    let frame = await search(h, 'quill', (f) => /2 matches/.test(f), 'both quills');
    let rows = resultLines(frame);
    // The username that starts with the text first, then the name that only holds it.
    expect(rows[0]).toMatch(/^Tomasz Nowak +quill\.fan /);
    expect(rows[1]).toMatch(/^Priya Quillfeather +pq_77 /);
    expect(underlined(h.raw())).toEqual(['quill', 'Quill']);
    expect(selected(h)).toMatch(/^Tomasz Nowak/);
    await h.press(KEY.down);
    expect(selected(h)).toMatch(/^Priya Quillfeather/);
    // Past the last match the cursor stays on it.
    await h.press(KEY.down);
    expect(selected(h)).toMatch(/^Priya Quillfeather/);
    await h.press(KEY.up);
    expect(selected(h)).toMatch(/^Tomasz Nowak/);

    await h.press(KEY.ctrlU);
    await h.type('name:quill');
    frame = await h.until((f) => f.includes('/ name:quill') && /1 match ·/.test(f), 'name:quill');
    rows = resultLines(frame);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(/^Priya Quillfeather/);
    expect(underlined(h.raw())).toEqual(['Quill']);

    await h.press(KEY.ctrlU);
    await h.type('user:quill');
    frame = await h.until((f) => f.includes('/ user:quill') && /1 match ·/.test(f), 'user:quill');
    rows = resultLines(frame);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(/^Tomasz Nowak +quill\.fan/);
    expect(underlined(h.raw())).toEqual(['quill']);
    expectFramesFit(h.instance, SIZE.columns, SIZE.rows);
  });

  it('Enter shows the match where it is in the list, the cursor on it, and the list keys work at once; Esc closes without moving', async () => {
    const h = await mountReady();
    // Esc first: the list as it was, the cursor where it was.
    await h.press('j');
    await h.until(() => selected(h).startsWith('Delia Vanterpool'), 'the cursor on the second row');
    await search(h, 'angst', (f) => /Zoë Ångström/.test(f), 'Zoë found');
    await h.press(KEY.esc);
    let frame = await h.until((f) => !/searching every contact/.test(f) && /32 on this page/.test(f), 'the list back');
    expect(frame).toMatch(/page 1\b/);
    expect(selected(h)).toMatch(/^Delia Vanterpool/);

    // Zoë is at place 170: on page 6 of 32-row pages, places 160 to 191, the cursor on her.
    await search(h, 'angst', (f) => /Zoë Ångström/.test(f), 'Zoë found again');
    await h.press(KEY.enter);
    frame = await h.until(
      (f) => !/searching every contact/.test(f) && new RegExp(`page ${pageOf(170)}\\b`).test(f) && selected(h).startsWith('Zoë Ångström'),
      'Zoë shown in the list',
    );
    expect(pageOf(170)).toBe(6);
    expect(firstRow(frame)).toBe('Person 00160');
    expect(frame).not.toContain('Person 00000');
    // No Esc needed: j moves the list's cursor to the contact after her.
    await h.press('j');
    await h.until(() => selected(h).startsWith('Bartholomew After'), 'the cursor on the next contact');
    await h.press('k');
    await h.until(() => selected(h).startsWith('Zoë Ångström'), 'back on Zoë');

    // The second of two matches, chosen with ↓: Priya at place 230, page 8 (224 to 255).
    await search(h, 'quill', (f) => /2 matches/.test(f), 'both quills');
    await h.press(KEY.down, KEY.enter);
    frame = await h.until((f) => new RegExp(`page ${pageOf(230)}\\b`).test(f) && selected(h).startsWith('Priya Quillfeather'), 'Priya shown in the list');
    expect(firstRow(frame)).toBe('Person 00224');
    // The pages before and after it are the pages of those numbers.
    await h.press('p');
    frame = await h.until((f) => /page 7 ·/.test(f), 'page 7');
    expect(firstRow(frame)).toBe('Person 00192');
    await h.press('n', 'n');
    frame = await h.until((f) => /page 9 ·/.test(f), 'page 9');
    expect(firstRow(frame)).toBe('Person 00256');
    expectFramesFit(h.instance, SIZE.columns, SIZE.rows);
  });

  it('Enter on a match among the first page\'s rows shows page 1, from the first contact, the cursor on the match', async () => {
    const h = await mountReady();
    await h.press('G');
    await h.until((f) => /page 10\b/.test(f), 'the last page');
    // Delia is at place 1: the second row of page 1.
    await search(h, 'vanter', (f) => /Delia Vanterpool/.test(f), 'Delia found');
    await h.press(KEY.enter);
    const frame = await h.until((f) => !/searching every contact/.test(f) && selected(h).startsWith('Delia Vanterpool'), 'Delia shown in the list');
    expect(frame).toMatch(/page 1\b/);
    expect(firstRow(frame)).toBe('Person 00000');
    await h.press('k');
    await h.until(() => selected(h).startsWith('Person 00000'), 'the first contact above her');
  });

  it('Enter with "active only" on shows an active match among the active contacts (the one before it in the whole list never active)', async () => {
    const h = await mountReady();
    await h.press('a');
    await h.until((f) => /active only/.test(f) && /32 on this page/.test(f), 'the active contacts');
    // Zoë (170) is active; the filler before her (169) never was: the page is from 168, the active one before her.
    await search(h, 'angst', (f) => /Zoë Ångström/.test(f), 'Zoë found');
    await h.press(KEY.enter);
    await h.until((f) => /active only/.test(f) && selected(h).startsWith('Zoë Ångström'), 'Zoë shown among the active');
    expect(h.frame()).not.toMatch(/back to page 1/);
  });

  it('Enter passes over a contact before the match that the server no longer has (the index behind it)', async () => {
    const h = await mountReady();
    await search(h, 'angst', (f) => /Zoë Ångström/.test(f), 'Zoë found');
    // The last contact before her page (place 159), deleted behind the dashboard's back, after
    // the index read it.
    let before: string | undefined;
    for await (const contact of checker.allContacts({ limit: 100 })) if (contact.username === 'user_00159') before = contact.id;
    await inAct(() => checker.deleteContact(before!));
    try {
      await h.press(KEY.enter);
      const frame = await h.until((f) => !/searching every contact/.test(f) && selected(h).startsWith('Zoë Ångström'), 'Zoë shown all the same');
      expect(frame).not.toMatch(/back to page 1/);
      expect(frame).toMatch(/page 6 ·/);
      expect(firstRow(frame)).toBe('Person 00160');
    } finally {
      putBack(159);
    }
  });

  it('a contact made with the create form is found at once, with no walk of the list', async () => {
    const h = await mountReady();
    await search(h, 'ottoline', (f) => /no contact matches/.test(f), 'nobody by that name yet');
    await h.press(KEY.esc);
    const walked = walkRequests();
    await h.press('c');
    await h.until((f) => /New contact/.test(f), 'the create form');
    await h.type('ottoline_f');
    await h.press(KEY.tab);
    await h.type('+44 20 7946 0777');
    await h.press(KEY.tab);
    await h.type('Ottoline Freshly');
    await h.press(KEY.enter);
    await h.until((f) => !/New contact/.test(f) && /created Ottoline Freshly/.test(f), 'created');
    const created = (await inAct(() => checker.listContacts({ limit: 1 }))).contacts[0]!;
    expect(created.username).toBe('ottoline_f');
    try {
      await h.press('/');
      await h.type('ottoline');
      const frame = await h.until((f) => /Ottoline Freshly +ottoline_f +\+442079460777/.test(f), 'the new contact found');
      expect(frame).toMatch(/1 match · 321 contacts indexed/);
      expect(walkRequests()).toBe(walked);
      expectFramesFit(h.instance, SIZE.columns, SIZE.rows);
    } finally {
      await inAct(() => checker.deleteContact(created.id));
    }
  });

  it('a contact renamed in the dashboard is found by its new name, and no longer by its old one', async () => {
    const h = await mountReady();
    await search(h, 'Person 00000', (f) => /Person 00000 +user_00000/.test(f), 'the old name found');
    await h.press(KEY.esc);
    await h.until(() => selected(h).startsWith('Person 00000'), 'the list back, the first row selected');
    const id = (await inAct(() => checker.listContacts({ limit: 1 }))).contacts[0]!.id;
    try {
      await h.press('e', KEY.ctrlU);
      await h.type('Quentin Renamed');
      await h.press(KEY.enter);
      await h.until((f) => /renamed to Quentin Renamed/.test(f), 'the rename confirmed');
      await h.press('/');
      await h.type('quentin');
      await h.until((f) => /Quentin Renamed +user_00000/.test(f) && /1 match ·/.test(f), 'found by the new name');
      expect(underlined(h.raw())).toEqual(['Quentin']);
      await h.press(KEY.ctrlU);
      await h.type('Person 00000');
      const frame = await h.until((f) => f.includes('/ Person 00000') && /match/.test(f), 'the old name searched');
      expect(resultLines(frame).join('\n')).not.toMatch(/user_00000|Quentin/);
      expectFramesFit(h.instance, SIZE.columns, SIZE.rows);
    } finally {
      await inAct(() => checker.updateContact(id, 'Person 00000'));
    }
  });

  it('a contact deleted in the dashboard (d, y, the undo window out) is no longer found', async () => {
    const h = await mountReady();
    await search(h, 'vanterpool', (f) => /Delia Vanterpool/.test(f), 'Delia found before');
    await h.press(KEY.esc);
    await h.press('j');
    await h.until(() => selected(h).startsWith('Delia Vanterpool'), 'the cursor on Delia');
    const delia = (await inAct(() => checker.listContacts({ limit: 2 }))).contacts[1]!;
    expect(delia.username).toBe('dvanterpool');
    try {
      await h.press('d', 'y');
      await h.until((f) => /deleted Delia Vanterpool and the conversation/.test(f), 'the delete sent, past the undo window');
      await waitFor(() => gone(delia.id), 5000, 'the server to have deleted her');
      await h.press('/');
      await h.type('vanterpool');
      const frame = await h.until((f) => /no contact matches "vanterpool"/.test(f), 'Delia no longer found');
      expect(frame).toMatch(/319 contacts indexed/);
      expectFramesFit(h.instance, SIZE.columns, SIZE.rows);
    } finally {
      if (await gone(delia.id)) putBack(1);
    }
  });

  it('r walks the list again: a contact deleted elsewhere is forgotten, and said', async () => {
    const h = await mountReady();
    await search(h, 'bartholomew', (f) => /Bartholomew After/.test(f), 'found before');
    await h.press(KEY.esc);
    const victim = (await inAct(() => usernamed('bo.after')))!;
    await inAct(() => checker.deleteContact(victim.id));
    try {
      // Deleted behind the dashboard's back: the index still has him until a walk.
      await search(h, 'bartholomew', (f) => /Bartholomew After/.test(f), 'still found from the index');
      await h.press(KEY.esc);
      const walked = walkRequests();
      await h.press('r');
      await h.until((f) => /search index: 1 contact gone since the last walk, forgotten/.test(f), 'the walk done, saying so');
      expect(walkRequests()).toBe(walked + 4);
      await h.press('/');
      await h.type('bartholomew');
      const frame = await h.until((f) => /no contact matches "bartholomew"/.test(f), 'no longer found');
      expect(frame).toMatch(/319 contacts indexed/);
      expectFramesFit(h.instance, SIZE.columns, SIZE.rows);
    } finally {
      putBack(171);
    }
  });

  it('the index outlives the dashboard: mounted again with the server not answering, the search answers from it at once', async () => {
    const first = await mountReady();
    await search(first, 'angst', (f) => /Zoë Ångström/.test(f) && /320 contacts indexed/.test(f), 'the whole list indexed');
    expectFramesFit(first.instance, SIZE.columns, SIZE.rows);
    await unmountAll();

    // A server that takes every request and answers none: the list and the walk never come.
    const silent = await httpServer(() => undefined);
    const h = await mount({}, silent.url);
    await waitFor(() => silent.requests.some((r) => /[?&]limit=100\b/.test(r.url)), 5000, 'the walk to have asked for its first page');
    await h.press('/');
    await h.type('angst');
    const frame = h.frame();
    expect(frame).toMatch(/Zoë Ångström +zangstrom +\+442079460555/);
    // The walk is on its way (held by the server): the index as last kept answers.
    expect(frame).toMatch(/1 match · indexed 320 of ~320: searching what is indexed/);
    expect(underlined(h.raw())).toEqual(['Ångst']);
    expectFramesFit(h.instance, SIZE.columns, SIZE.rows);
  });
});
