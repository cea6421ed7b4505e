// Regression tests for the dashboard's review fixes: the screen writer passes only SGR, the open
// contact is held by id (undo and a failed delete do not swap it), every field of the open
// contact fits an 80×24 terminal, and quitting waits for writes only (a hanging read does not
// hold it, a second Ctrl-C leaves at once). Dashboard mounts run against a real sandbox, through
// a small real proxy where a request has to be slow or never answered.
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TickbookClient } from '../../src/api/client.js';
import type { Contact, ContactPage } from '../../src/api/types.js';
import {
  type ContactsAction,
  type ContactsState,
  initialContactsState,
  selectedContact,
  visibleContacts,
} from '../../src/tui/contacts/contacts-state.js';
import { contactsReducer } from '../../src/tui/contacts/contacts-reducer.js';
import { Dashboard, type DashboardProps } from '../../src/tui/Dashboard.js';
import { onlyStyles, Screen } from '../../src/tui/terminal/screen.js';
import { StatusBoard } from '../../src/tui/state/status.js';
import { drive, renderDashboard, unmountAll, type DashboardHarness } from '../helpers/dashboard.js';
import { FakeTerminal } from '../helpers/fake-terminal.js';
import { inAct, waitFor } from '../helpers/ink.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { KEY } from '../helpers/keys.js';

// ---------------------------------------------------------------------------------------------
// The screen writer

const SGR = /\u001b\[[0-9;:]*m/g;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Whether `text` holds nothing but printable text and SGR sequences. */
function onlyTextAndSgr(text: string): boolean {
  return !CONTROL.test(text.replace(SGR, ''));
}

const HOSTILE: [string, string, string][] = [
  // [what, input, what must be left]
  ['an OSC title ended by BEL', 'a\u001b]0;PWNED\u0007b', 'ab'],
  ['an OSC title ended by ST', 'a\u001b]2;PWNED\u001b\\b', 'ab'],
  ['an OSC 8 hyperlink', '\u001b]8;;https://evil.example/\u001b\\link\u001b]8;;\u001b\\', 'link'],
  ['erase display and cursor home', '\u001b[2J\u001b[Hx', 'x'],
  ['a cursor move', 'a\u001b[10;20Hb\u001b[5Ac', 'abc'],
  ['erase line', 'a\u001b[2Kb\u001b[Kc', 'abc'],
  ['a private mode (leave the alternate screen)', 'a\u001b[?1049lb', 'ab'],
  ['scroll region', 'a\u001b[1;5rb', 'ab'],
  ['reset (ESC c) and save cursor (ESC 7)', 'a\u001bcb\u001b7c', 'abc'],
  ['BEL alone', 'a\u0007b', 'ab'],
  ['backspace, carriage return, vertical tab, form feed', 'a\bb\rc\u000bd\u000ce', 'abcde'],
  ['NUL and DEL', 'a\u0000b\u007fc', 'abc'],
  ['a lone ESC at the end', 'abc\u001b', 'abc'],
];

describe('onlyStyles', () => {
  it('keeps SGR colours and styles as they are', () => {
    for (const line of [
      '\u001b[31mred\u001b[39m',
      '\u001b[1;4;38;5;208mbold\u001b[0m',
      '\u001b[38:2::255:0:0mtrue colour\u001b[m',
      '\u001b[7m inverse \u001b[27m plain',
      'no escapes at all: ✓ 山田 👩‍💻',
    ]) {
      expect(onlyStyles(line)).toBe(line);
    }
  });

  for (const [what, input, left] of HOSTILE) {
    it(`removes ${what}`, () => {
      const out = onlyStyles(input);
      expect(out).toBe(left);
    });
  }

  it('removes 8-bit CSI, OSC, DCS and ST and every other C1 control', () => {
    const out = onlyStyles('a\u009b2Jb\u009d0;t\u009cc\u0090q\u009cd\u0085e\u0084f\u008dg\u009fh');
    expect(out).not.toMatch(/[\u0080-\u009f]/);
    expect(out).toMatch(/^a.*b.*c.*d.*e.*f.*g.*h$/);
  });

  it('keeps SGR and drops the rest when they are mixed', () => {
    const out = onlyStyles('\u001b[32mok\u001b]0;x\u0007\u001b[2J\u009b31m\u001b[39m\u0007');
    expect(out.startsWith('\u001b[32mok')).toBe(true);
    expect(out.endsWith('\u001b[39m')).toBe(true);
    expect(onlyTextAndSgr(out)).toBe(true);
  });
});

describe('Screen.flush', () => {
  /** The lines a flush wrote, each after the writer's own "move to row; erase line". */
  function flushedLines(out: string): Map<number, string> {
    expect(out.startsWith('\u001b[?2026h')).toBe(true);
    expect(out.endsWith('\u001b[?2026l')).toBe(true);
    const body = out.slice('\u001b[?2026h'.length, -'\u001b[?2026l'.length);
    const lines = new Map<number, string>();
    const parts = body.split(/\u001b\[(\d+);1H\u001b\[2K/);
    // split with a capture: ['', row, text, row, text, …]; nothing may come before the first move.
    expect(parts[0]).toBe('');
    for (let i = 1; i < parts.length; i += 2) lines.set(Number(parts[i]) - 1, parts[i + 1]!);
    return lines;
  }

  it('what reaches the terminal holds SGR and text only, besides the writer’s own positioning', () => {
    const terminal = new FakeTerminal();
    const screen = new Screen(terminal);
    screen.enter();
    terminal.take();
    const frame = [
      '\u001b[1mTitle\u001b[22m plain',
      ...HOSTILE.map(([, input]) => `\u001b[33m${input}`),
      'tail \u009b2J\u009d0;title\u0007 \u0085 end',
    ];
    screen.frame(frame.join('\n'));
    screen.flush();
    const out = terminal.take();
    const lines = flushedLines(out);
    expect(lines.size).toBe(frame.length);
    for (const [row, text] of lines) {
      expect(onlyTextAndSgr(text), `row ${row}: ${JSON.stringify(text)}`).toBe(true);
    }
    expect(lines.get(0)).toBe('\u001b[1mTitle\u001b[22m plain');
    HOSTILE.forEach(([what, , left], i) => {
      expect(lines.get(i + 1), what).toBe(`\u001b[33m${left}`);
    });
    // Nothing of an OSC, a BEL or an 8-bit introducer anywhere in the output.
    expect(out).not.toMatch(/\u001b\]|\u0007|[\u0080-\u009f]/);
    expect(out).not.toContain('\u001b[2J');
    expect(out).not.toContain('\u001b[H');
    expect(out).not.toContain('\u001b[?1049l');
    expect(out).not.toContain('PWNED');
  });

  it('a changed line is filtered too, and an unchanged hostile line is not rewritten', () => {
    const terminal = new FakeTerminal();
    const screen = new Screen(terminal);
    screen.enter();
    screen.frame('one\ntwo \u001b]0;T\u0007');
    screen.flush();
    terminal.take();
    screen.frame('one\u001b[2J\ntwo \u001b]0;T\u0007');
    screen.flush();
    const out = terminal.take();
    // "one" + an erase filtered to "one" equals what is on screen: nothing to write at all.
    expect(out).toBe('');
    screen.frame('one \u001b[5mblink\u001b[25m \u0007\ntwo');
    screen.flush();
    const lines = flushedLines(terminal.take());
    expect(lines.get(0)).toBe('one \u001b[5mblink\u001b[25m ');
    expect(lines.get(1)).toBe('two');
  });
});

// ---------------------------------------------------------------------------------------------
// The contacts reducer: the open contact is held by id

function contact(id: string): Contact {
  return {
    id,
    username: `user_${id}`,
    phoneNumber: '+15550001111',
    avatarUrl: null,
    displayName: `Name ${id}`,
    conversationId: `conv_${id}`,
    lastActiveAt: null,
    createdAt: new Date('2024-05-01T12:00:00Z'),
  };
}

const A = contact('A');
const B = contact('B');
const C = contact('C');
const PAGE_ABC: ContactPage = { contacts: [A, B, C], hasMore: false, next: undefined, previous: undefined };

const run = (state: ContactsState, ...actions: ContactsAction[]): ContactsState => actions.reduce(contactsReducer, state);

function loaded(): ContactsState {
  const requested = contactsReducer(initialContactsState(10), { type: 'page-requested', query: { limit: 10 }, pageNumber: 1 });
  return contactsReducer(requested, { type: 'page-loaded', request: requested.request, page: PAGE_ABC });
}

/** The cursor moved onto `id` among the rows on screen. */
function cursorTo(state: ContactsState, id: string): ContactsState {
  const at = visibleContacts(state).findIndex((c) => c.id === id);
  expect(at, `${id} is on screen`).toBeGreaterThanOrEqual(0);
  return contactsReducer(state, { type: 'cursor-moved', by: at - state.cursor });
}

const underCursor = (state: ContactsState): string | undefined => visibleContacts(state)[state.cursor]?.id;

describe('the open contact is held by id', () => {
  it('delete A, open B, undo: B is still the open contact and the view is still the detail', () => {
    let state = loaded();
    expect(underCursor(state)).toBe('A');
    state = run(state, { type: 'delete-asked' }, { type: 'delete-confirmed', now: 0, windowMs: 5000 });
    expect(state.pendingDelete?.contact.id).toBe('A');
    state = cursorTo(state, 'B');
    state = run(state, { type: 'opened' });
    expect(state.view).toBe('detail');
    expect(selectedContact(state)?.id).toBe('B');

    state = run(state, { type: 'delete-undone' });
    expect(state.pendingDelete).toBeUndefined();
    expect(visibleContacts(state).map((c) => c.id)).toEqual(['A', 'B', 'C']);
    expect(state.view).toBe('detail');
    expect(selectedContact(state)?.id).toBe('B');
    // And back on the list, the cursor is on B.
    state = run(state, { type: 'closed' });
    expect(state.view).toBe('list');
    expect(underCursor(state)).toBe('B');
    expect(selectedContact(state)?.id).toBe('B');
  });

  it('delete A sent, open B, the delete fails: B is still the open contact', () => {
    let state = loaded();
    state = run(state, { type: 'delete-asked' }, { type: 'delete-confirmed', now: 0, windowMs: 5000 }, { type: 'delete-sent', id: 'A' });
    expect(state.deleted.has('A')).toBe(true);
    state = cursorTo(state, 'B');
    state = run(state, { type: 'opened' });
    expect(selectedContact(state)?.id).toBe('B');

    state = run(state, { type: 'delete-failed', contact: A });
    expect(visibleContacts(state).map((c) => c.id)).toEqual(['A', 'B', 'C']);
    expect(state.view).toBe('detail');
    expect(selectedContact(state)?.id).toBe('B');
    state = run(state, { type: 'closed' });
    expect(underCursor(state)).toBe('B');
  });

  it('delete A with B open in the same window: opened after delete-sent, failed while open', () => {
    let state = loaded();
    state = run(state, { type: 'delete-asked' }, { type: 'delete-confirmed', now: 0, windowMs: 5000 });
    state = cursorTo(state, 'C');
    state = run(state, { type: 'opened' }, { type: 'delete-sent', id: 'A' });
    expect(selectedContact(state)?.id).toBe('C');
    state = run(state, { type: 'delete-failed', contact: A });
    expect(selectedContact(state)?.id).toBe('C');
    expect(state.view).toBe('detail');
  });

  it('in the list view, after undo the cursor stays on the contact it was on', () => {
    for (const target of ['B', 'C']) {
      let state = loaded();
      state = run(state, { type: 'delete-asked' }, { type: 'delete-confirmed', now: 0, windowMs: 5000 });
      state = cursorTo(state, target);
      expect(underCursor(state)).toBe(target);
      state = run(state, { type: 'delete-undone' });
      expect(state.view).toBe('list');
      expect(underCursor(state), `undo with the cursor on ${target}`).toBe(target);
      expect(selectedContact(state)?.id).toBe(target);
    }
  });

  it('in the list view, after a failed delete the cursor stays on the contact it was on', () => {
    let state = loaded();
    state = run(state, { type: 'delete-asked' }, { type: 'delete-confirmed', now: 0, windowMs: 5000 }, { type: 'delete-sent', id: 'A' });
    state = cursorTo(state, 'C');
    state = run(state, { type: 'delete-failed', contact: A });
    expect(underCursor(state)).toBe('C');
  });

  it('closing the detail view puts the cursor on the contact that was open', () => {
    let state = loaded();
    state = cursorTo(state, 'C');
    state = run(state, { type: 'opened' });
    // However the cursor got elsewhere while the contact was open, closing goes back to it.
    state = { ...state, cursor: 0 };
    expect(selectedContact(state)?.id).toBe('C');
    state = run(state, { type: 'closed' });
    expect(state.view).toBe('list');
    expect(state.openId).toBeUndefined();
    expect(underCursor(state)).toBe('C');
  });

  it('a contact deleted while open (d, y from the detail view) closes the view; undo brings back the list with it selected', () => {
    let state = loaded();
    state = cursorTo(state, 'B');
    state = run(state, { type: 'opened' }, { type: 'delete-asked' }, { type: 'delete-confirmed', now: 0, windowMs: 5000 });
    expect(state.view).toBe('list');
    expect(visibleContacts(state).map((c) => c.id)).toEqual(['A', 'C']);
    state = run(state, { type: 'delete-undone' });
    expect(visibleContacts(state).map((c) => c.id)).toEqual(['A', 'B', 'C']);
    expect(selectedContact(state)).toBeDefined();
  });
});

// ---------------------------------------------------------------------------------------------
// Dashboard mounts


const clients: TickbookClient[] = [];

afterEach(async () => {
  await unmountAll();
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function newClient(contactsUrl: string, sb: TestSandbox): TickbookClient {
  const client = new TickbookClient({ contactsUrl, marketDataUrl: sb.marketDataUrl, token: sb.token, apiKey: sb.apiKey });
  clients.push(client);
  return client;
}

async function mount(client: TickbookClient, size = { columns: 120, rows: 40 }): Promise<DashboardHarness> {
  const props: DashboardProps = {
    client,
    status: new StatusBoard(),
    target: 'sandbox (hardening test)',
    watchlist: ['AAPL', 'MSFT'],
    intervalS: 2,
    size,
    undoWindowMs: 300,
  };
  const instance = await renderDashboard(<Dashboard {...props} />, size.columns);
  const h = drive(instance);
  await h.until((f) => /\d+ on this page/.test(f), 'the first page of contacts');
  return h;
}

/** The line of the frame that contains `text`. */
const lineWith = (frame: string, text: string): string | undefined => frame.split('\n').find((line) => line.includes(text));

describe('the open contact in small terminals', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startTestSandbox({ demoData: true });
  });
  afterAll(async () => {
    await sb?.close();
  });

  it('every field label is visible, with absolute and relative times', async () => {
    const checker = newClient(sb.contactsUrl, sb);
    const first = (await checker.listContacts({ limit: 5 })).contacts;
    // A contact with every field filled: a display name, an avatar, and a last-active time.
    const index = first.findIndex((c) => c.lastActiveAt !== null && c.displayName !== null && c.avatarUrl !== null);
    const at = index >= 0 ? index : first.findIndex((c) => c.lastActiveAt !== null);
    expect(at, 'a contact that has been active among the first five').toBeGreaterThanOrEqual(0);
    const target = first[at]!;

    const h = await mount(newClient(sb.contactsUrl, sb), { columns: 80, rows: 24 });
    for (let i = 0; i < at; i++) await h.press('j');
    await h.press(KEY.enter);
    const frame = await h.until((f) => f.includes('conversation') && f.includes('created'), 'the detail view');
    const lines = frame.split('\n');
    expect(lines.length).toBeLessThanOrEqual(23);

    for (const label of ['display name', 'username', 'phone', 'avatar', 'last active', 'created', 'id', 'conversation']) {
      expect(frame, `the label "${label}" in:\n${frame}`).toMatch(new RegExp(`(^|[\\s│┃])${label} `, 'm'));
    }
    for (const label of ['last active', 'created']) {
      const line = lineWith(frame, label) ?? '';
      expect(line, `${label}: an absolute date`).toMatch(/\d{4}-\d\d-\d\d/);
      expect(line, `${label}: a relative time`).toMatch(/\(.*(ago|just now|in \d+).*\)|ago|just now/);
    }
    expect(lineWith(frame, 'username')).toContain(target.username);
    expect(lineWith(frame, 'phone')).toContain(target.phoneNumber);
    // The created date is the contact's own.
    expect(lineWith(frame, 'created')).toContain(target.createdAt.toISOString().slice(0, 10));
    // The pane keeps its title and its bottom line: nothing overflowed over them.
    expect(frame).toContain('▸ Contacts');
    expect(lineWith(frame, 'on this page')).toMatch(/[┃│] \d+ on this page +[┃│]$/);
  });

  // The smallest sizes the dashboard supports (60×16 is its minimum): the open contact may have
  // to leave fields out there, but it must not push the pane's title out or draw over its bottom
  // line.
  for (const size of [
    { columns: 60, rows: 16 },
    { columns: 70, rows: 17 },
  ]) {
    it(`at ${size.columns}×${size.rows} the delete prompt keeps its keys whole`, async () => {
      const h = await mount(newClient(sb.contactsUrl, sb), size);
      await h.press('d');
      const frame = await h.until((f) => f.includes('Delete '), 'the delete prompt');
      const keys = lineWith(frame, 'y: delete');
      expect(keys).toMatch(/[┃│] y: delete · N: keep +[┃│]$/);
      expect(keys).not.toContain('…');
      await h.press('n');
    });

    it(`at ${size.columns}×${size.rows} the open contact does not overflow its pane`, async () => {
      const h = await mount(newClient(sb.contactsUrl, sb), size);
      await h.press(KEY.enter);
      const frame = await h.until((f) => f.includes('Esc back'), 'the detail view');
      expect(frame.split('\n').length).toBeLessThanOrEqual(size.rows - 1);
      expect(frame, 'the pane title').toContain('▸ Contacts');
      expect(lineWith(frame, 'on this page'), 'the bottom line, not drawn over').toMatch(/[┃│] \d+ on this page +[┃│]$/);
    });
  }
});

// ---------------------------------------------------------------------------------------------
// Quitting against a proxy that can hold requests

interface Proxy {
  url: string;
  /** Requests the proxy is holding (never answered, or answered late). */
  held: { method: string; path: string }[];
  close(): Promise<void>;
}

/**
 * Forwards everything to the sandbox, except what `hold` picks: those wait `hold` ms (Infinity:
 * never answered) before being forwarded.
 */
async function startProxy(target: string, hold: (method: string, path: string) => number): Promise<Proxy> {
  const held: Proxy['held'] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const forward = (req: IncomingMessage, body: Buffer, res: ServerResponse): void => {
    const out = httpRequest(
      `${target}${req.url ?? '/'}`,
      { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
      (upstream) => {
        res.writeHead(upstream.statusCode ?? 502, upstream.headers);
        upstream.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    out.end(body);
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const method = req.method ?? 'GET';
      const delay = hold(method, path);
      const body = Buffer.concat(chunks);
      if (delay <= 0) return forward(req, body, res);
      held.push({ method, path });
      if (delay === Number.POSITIVE_INFINITY) return; // never answered
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!res.destroyed) forward(req, body, res);
      }, delay);
      timers.add(timer);
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const ONE_CONTACT = /^\/v1\/contacts\/[^/]+$/;

describe('quitting waits for writes only', () => {
  let sb: TestSandbox;
  const proxies: Proxy[] = [];
  beforeAll(async () => {
    sb = await startTestSandbox({ demoData: true });
  });
  afterEach(async () => {
    await Promise.all(proxies.splice(0).map((p) => p.close()));
  });
  afterAll(async () => {
    await sb?.close();
  });

  async function proxied(hold: (method: string, path: string) => number): Promise<{ proxy: Proxy; client: TickbookClient }> {
    const proxy = await startProxy(sb.url, hold);
    proxies.push(proxy);
    return { proxy, client: newClient(proxy.url, sb) };
  }

  it('a read that never answers (the open contact’s GET) does not hold q', async () => {
    const { proxy, client } = await proxied((method, path) => (method === 'GET' && ONE_CONTACT.test(path) ? Infinity : 0));
    const h = await mount(client);
    await h.press(KEY.enter);
    await h.until((f) => f.includes('conversation'), 'the detail view (from the page already loaded)');
    await waitFor(() => proxy.held.length === 1, 2000, 'the GET of the open contact to be held');
    const pressed = Date.now();
    await h.press('q');
    await waitFor(() => h.exited(), 1000, 'the app to exit with a read still hanging');
    expect(Date.now() - pressed).toBeLessThan(1000);
  });

  it('a reload of the list that never answers does not hold Ctrl-C', async () => {
    let holdLists = false;
    const { proxy, client } = await proxied((method, path) => (holdLists && method === 'GET' && path === '/v1/contacts' ? Infinity : 0));
    const h = await mount(client);
    holdLists = true;
    await h.press('r');
    await waitFor(() => proxy.held.length >= 1, 2000, 'the reload to be held');
    await h.press(KEY.ctrlC);
    await waitFor(() => h.exited(), 1000, 'the app to exit with a list reload hanging');
  });

  it('a slow write is waited for: q exits only once the rename has reached the server', async () => {
    const { proxy, client } = await proxied((method, path) => (method === 'PUT' && ONE_CONTACT.test(path) ? 800 : 0));
    const checker = newClient(sb.contactsUrl, sb);
    const first = (await checker.listContacts({ limit: 1 })).contacts[0]!;
    const h = await mount(client);
    await h.press('e', KEY.ctrlU);
    await h.type('Slow Rename');
    await h.press(KEY.enter);
    await waitFor(() => proxy.held.length === 1, 2000, 'the PUT to be held');
    await h.press('q');
    // Quitting has begun and is drawn; a quit that did not wait would have ended the app by now.
    await h.until((f) => f.includes('finishing…'), 'quitting under way');
    expect(h.exited(), 'quit waits for the write under way').toBe(false);
    await waitFor(() => h.exited(), 3000, 'the app to exit once the write is done');
    const after = await inAct(() => checker.getContact(first.id));
    expect(after.displayName).toBe('Slow Rename');
    await inAct(() => checker.updateContact(first.id, first.displayName));
  });

  it('a second Ctrl-C while a write hangs exits at once', async () => {
    const { proxy, client } = await proxied((method, path) => (method === 'PUT' && ONE_CONTACT.test(path) ? Infinity : 0));
    const h = await mount(client);
    await h.press('e', KEY.ctrlU);
    await h.type('Never Saved');
    await h.press(KEY.enter);
    await waitFor(() => proxy.held.length === 1, 2000, 'the PUT to be held');
    await h.press(KEY.ctrlC);
    await h.until((f) => f.includes('finishing…'), 'quitting under way');
    expect(h.exited(), 'the first Ctrl-C waits for the write').toBe(false);
    const pressed = Date.now();
    await h.press(KEY.ctrlC);
    await waitFor(() => h.exited(), 500, 'the app to exit on the second Ctrl-C');
    expect(Date.now() - pressed).toBeLessThan(500);
  });

  it('a second Ctrl-C while a delete in its undo window is being sent exits at once', async () => {
    const { proxy, client } = await proxied((method, path) => (method === 'DELETE' && ONE_CONTACT.test(path) ? Infinity : 0));
    const h = await mount(client);
    await h.press('d', 'y');
    await h.until((f) => /u: undo/.test(f), 'the undo offer');
    // Quitting sends the pending delete now, and waits for it.
    await h.press(KEY.ctrlC);
    await waitFor(() => proxy.held.length === 1, 2000, 'the DELETE to be sent and held');
    await h.until((f) => f.includes('finishing…'), 'quitting under way');
    expect(h.exited()).toBe(false);
    await h.press(KEY.ctrlC);
    await waitFor(() => h.exited(), 500, 'the app to exit on the second Ctrl-C');
  });
});
