// The dashboard as a user drives it: every key of the keymap pressed into the real component
// (ink-testing-library), against a real in-process sandbox over loopback HTTP, asserted through
// the frame it draws and, for effects, through the server itself.
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';

// Selection is drawn inverted, which is only visible in the frame when Ink's colouring is on;
// it is off when stdout is not a terminal. Turned on before Ink (and chalk) load, and put back.
const savedForceColor = vi.hoisted(() => {
  const saved = process.env.FORCE_COLOR;
  process.env.FORCE_COLOR = '1';
  return saved;
});

import { createServer, type AddressInfo } from 'node:net';
import stringWidth from 'string-width';
import { TickbookClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { contactName, type Contact } from '../../src/api/types.js';
import { Dashboard, type DashboardProps } from '../../src/tui/Dashboard.js';
import { StatusBoard } from '../../src/tui/state/status.js';
import { drive, renderDashboard, unmountAll, type DashboardHarness } from '../helpers/dashboard.js';
import { inAct, inverseSegments, pause, plain, waitFor } from '../helpers/ink.js';
import { startProxy } from '../helpers/proxy.js';
import { startTestSandbox, setUpSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { KEY } from '../helpers/keys.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { WriteLedger } from '../../src/tui/contacts/write-ledger.js';


const TARGET = 'sandbox (component test)';
const WATCHLIST = ['AAPL', 'MSFT', 'NOPE1'];
/** At 120×40 the frame is 39 lines, the panes 37, and a page of contacts 37 − 5 = 32 rows. */
const PAGE = 32;

interface Harness extends DashboardHarness {
  /** Every call of persistWatchlist. */
  persisted: { watchlist: string[]; intervalS: number }[];
  suspends(): number;
  /** Draws the dashboard at another terminal size, as a resize does. */
  resize(size: { columns: number; rows: number }): Promise<void>;
}

afterAll(() => {
  if (savedForceColor === undefined) delete process.env.FORCE_COLOR;
  else process.env.FORCE_COLOR = savedForceColor;
});

afterEach(unmountAll);

interface MountOptions {
  watchlist?: string[];
  intervalS?: number;
  size?: { columns: number; rows: number };
  undoWindowMs?: number;
  /** The write ledger, on a clock of the test's (ManualClock) where time must pass without a sleep. */
  ledger?: WriteLedger;
  /** Wait for the first page of contacts and the first prices (default true). */
  ready?: boolean;
}

const READY = (frame: string): boolean =>
  /on this page/.test(frame) && /AAPL\b.* \d+\.\d\d /.test(frame) && /NOPE1 +unknown symbol/.test(frame);

async function mount(client: TickbookClient, options: MountOptions = {}): Promise<Harness> {
  const size = options.size ?? { columns: 120, rows: 40 };
  const persisted: Harness['persisted'] = [];
  let suspends = 0;
  const props: DashboardProps = {
    client,
    status: new StatusBoard(),
    target: TARGET,
    watchlist: options.watchlist ?? WATCHLIST,
    intervalS: options.intervalS ?? 2,
    persistWatchlist: (lists, intervalS) => {
      persisted.push({ watchlist: [...lists.lists[lists.active]!.symbols], intervalS });
    },
    onSuspend: () => {
      suspends += 1;
    },
    size,
    undoWindowMs: options.undoWindowMs ?? 300,
    ...(options.ledger && { ledger: options.ledger }),
  };
  const instance = await renderDashboard(<Dashboard {...props} />, size.columns);
  const harness: Harness = {
    ...drive(instance),
    persisted,
    suspends: () => suspends,
    async resize(next) {
      Object.defineProperty(instance.stdout, 'columns', { value: next.columns, configurable: true });
      await inAct(() => instance.rerender(<Dashboard {...props} size={next} />));
    },
  };
  if (options.ready !== false) await harness.until(READY, 'the first page and the first prices');
  return harness;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The username as the list's USERNAME column shows it (15 columns, cut with …). */
const usernameCell = (username: string): string => (username.length > 15 ? `${username.slice(0, 14)}…` : username);

/** Whether the list shows a row for this contact (its username cell, as a whole word). */
function listsUser(frame: string, contact: Contact): boolean {
  return new RegExp(`(^|\\s)${escapeRegExp(usernameCell(contact.username))}(\\s|$)`, 'm').test(frame);
}

/** The first few characters of the name the list shows (display name, else username). */
const namePrefix = (contact: Contact): string => [...contactName(contact)].slice(0, 8).join('');

/** The selected contact row: the first inverted text (the status line's target comes last). */
function selectedRow(h: Harness): string {
  return (inverseSegments(h.raw())[0] ?? '').trim();
}

/** The line of the frame that contains `text`. */
function lineWith(frame: string, text: string): string | undefined {
  return frame.split('\n').find((line) => line.includes(text));
}

function countLog(sb: TestSandbox, method: string, path: string): number {
  return sb.logLines.filter((line) => line.includes(` ${method} ${path}`)).length;
}

async function notFound(client: TickbookClient, id: string): Promise<boolean> {
  try {
    await client.getContact(id);
    return false;
  } catch (error) {
    return error instanceof ApiError && error.kind === 'not_found';
  }
}


// ---------------------------------------------------------------------------------------------

describe('startup and browsing the contacts', () => {
  const ctx = setUpSandbox();

  it('starts with the contacts pane focused, page 1 shown, prices for the watchlist and the target', async () => {
    const page1 = (await ctx.checker.listContacts({ limit: PAGE })).contacts;
    expect(page1).toHaveLength(PAGE);
    const h = await mount(ctx.client);
    const frame = h.frame();

    expect(frame).toContain('▸ Contacts');
    expect(frame).not.toContain('▸ Ticker');
    expect(frame).toMatch(/all · page 1 · more →/);
    expect(frame).toContain(`${PAGE} on this page`);
    for (const contact of page1) {
      expect(listsUser(frame, contact), `row of ${contact.username}`).toBe(true);
      expect(frame, `name of ${contact.username}`).toContain(namePrefix(contact));
    }
    // A contact without a display name shows its username in the NAME column too.
    const unnamed = page1.find((c) => c.displayName === null && c.username.length <= 15);
    expect(unnamed).toBeDefined();
    expect(frame).toMatch(new RegExp(`[┃│] ${escapeRegExp(unnamed!.username)} +${escapeRegExp(unnamed!.username)} `));
    // The first row is selected.
    expect(selectedRow(h).startsWith(namePrefix(page1[0]!))).toBe(true);

    expect(frame).toMatch(/AAPL +\d+\.\d\d/);
    expect(frame).toMatch(/MSFT +\d+\.\d\d/);
    expect(frame).toMatch(/NOPE1 +unknown symbol/);
    expect(frame).toContain('3 symbols · watchlist order');
    expect(frame).toContain('every 2s');

    expect(frame).toContain(TARGET);
    // Every key of the list does not fit at 120 columns in full words: each says itself briefly.
    expect(frame).toContain('n/p pages · Enter open · e rename');
  });

  it('j/k, ↓/↑, g/G and Home/End move the selection, g/G to the ends of the whole list; Enter opens the selected contact', async () => {
    const page1 = (await ctx.checker.listContacts({ limit: PAGE })).contacts;
    const all: Contact[] = [];
    for await (const contact of ctx.checker.allContacts({ limit: 100 })) all.push(contact);
    const lastPage = Math.ceil(all.length / PAGE);
    expect(lastPage).toBeGreaterThan(1);
    const h = await mount(ctx.client);
    const row = (i: number) => namePrefix(page1[i]!);
    const expectSelected = (i: number) =>
      expect(selectedRow(h).startsWith(row(i)), `expected row ${i} (${row(i)}) selected, got "${selectedRow(h)}"`).toBe(true);

    expectSelected(0);
    await h.press('j');
    expectSelected(1);
    await h.press(KEY.down);
    expectSelected(2);
    await h.press('k');
    expectSelected(1);
    await h.press(KEY.up);
    expectSelected(0);
    await h.press('k'); // already at the top
    expectSelected(0);
    const onLast = (f: string) => f.includes(`page ${lastPage} `) && selectedRow(h).startsWith(namePrefix(all.at(-1)!));
    const onFirst = (f: string) => f.includes('page 1 ') && selectedRow(h).startsWith(row(0));
    await h.press('G');
    await h.until(onLast, 'the last contact, on the last page');
    await h.press('g');
    await h.until(onFirst, 'the first contact, on page 1');
    await h.press(KEY.end);
    await h.until(onLast, 'the last contact again');
    await h.press(KEY.home);
    await h.until(onFirst, 'the first contact again');

    await h.press('j', 'j', KEY.enter);
    const detail = await h.until((f) => f.includes('conversation'), 'the detail view');
    expect(detail).toContain(page1[2]!.id);
  });

  it('j on the last row goes on to the first row of page 2, k on its first row back to the last of page 1', async () => {
    const page1 = (await ctx.checker.listContacts({ limit: PAGE })).contacts;
    const page2 = (await ctx.checker.listContacts({ limit: PAGE, startingAfter: page1.at(-1)!.id })).contacts;
    const h = await mount(ctx.client);
    const selected = (contact: Contact) => selectedRow(h).startsWith(namePrefix(contact));
    await h.press(...Array<string>(PAGE - 1).fill('j'));
    expect(selected(page1.at(-1)!)).toBe(true);
    await h.press('j');
    await h.until((f) => f.includes('page 2') && selected(page2[0]!), 'the first row of page 2');
    await h.press('j');
    expect(selected(page2[1]!)).toBe(true);
    await h.press('k', 'k');
    await h.until((f) => f.includes('page 1') && selected(page1.at(-1)!), 'the last row of page 1');
    // The ends of the whole list stay ends.
    await h.press('g', 'k');
    expect(h.frame()).toContain('page 1');
    expect(selected(page1[0]!)).toBe(true);
  });

  it('n/PageDown go to page 2 and p/PageUp back to page 1; the ends say so', async () => {
    const page1 = (await ctx.checker.listContacts({ limit: PAGE })).contacts;
    const page2 = (await ctx.checker.listContacts({ limit: PAGE, startingAfter: page1.at(-1)!.id })).contacts;
    expect(page2.length).toBeGreaterThan(0);
    const h = await mount(ctx.client);

    const onPage2 = (f: string) => f.includes('page 2') && page2.every((c) => listsUser(f, c)) && !listsUser(f, page1[0]!);
    const onPage1 = (f: string) => f.includes('page 1') && page1.every((c) => listsUser(f, c)) && !listsUser(f, page2[0]!);

    await h.press('n');
    let frame = await h.until(onPage2, 'page 2 after n');
    expect(frame).toContain(`${page2.length} on this page`);
    expect(frame).toMatch(/page 2 · end/);
    await h.press('n');
    await h.until((f) => f.includes('this is the last page'), 'the last-page notice');

    await h.press('p');
    await h.until(onPage1, 'page 1 after p');
    await h.press(KEY.pageDown);
    await h.until(onPage2, 'page 2 after PageDown');
    await h.press(KEY.pageUp);
    await h.until(onPage1, 'page 1 after PageUp');
    await h.press('p');
    frame = await h.until((f) => f.includes('this is the first page'), 'the first-page notice');
    expect(frame).toContain('page 1');
  });

  it('a toggles active only and back', async () => {
    const all = (await ctx.checker.listContacts({ limit: PAGE })).contacts;
    const active = (await ctx.checker.listContacts({ limit: PAGE, active: true })).contacts;
    const neverActive = all.find((c) => c.lastActiveAt === null)!;
    expect(neverActive).toBeDefined();
    const h = await mount(ctx.client);
    expect(h.frame()).toMatch(/never/);

    await h.press('a');
    const frame = await h.until(
      (f) => f.includes('active only · page 1') && active.every((c) => listsUser(f, c)),
      'the active-only page',
    );
    expect(listsUser(frame, neverActive)).toBe(false);
    expect(frame).not.toMatch(/ never /);

    await h.press('a');
    await h.until((f) => f.includes('all · page 1') && all.every((c) => listsUser(f, c)), 'all contacts again');
  });

  it('Enter opens a contact with its fields; Esc, Backspace and ← go back', async () => {
    const page1 = (await ctx.checker.listContacts({ limit: PAGE })).contacts;
    const contact = page1[1]!;
    const h = await mount(ctx.client);
    await h.press('j', KEY.enter);
    const frame = await h.until((f) => f.includes(contact.conversationId), 'the detail view');
    expect(lineWith(frame, 'username')).toContain(contact.username);
    expect(lineWith(frame, 'phone')).toContain(contact.phoneNumber);
    expect(lineWith(frame, 'conversation')).toContain(contact.conversationId);
    expect(lineWith(frame, 'id ')).toContain(contact.id);
    expect(frame).toMatch(/created +\d{4}-\d\d-\d\d/);
    expect(frame).toContain('display name');
    expect(frame).toContain('last active');
    expect(frame).toContain('Esc back to the list');
    expect(frame).not.toContain('NAME ');

    for (const back of [KEY.esc, KEY.backspace, KEY.left]) {
      await h.press(back);
      await h.until((f) => f.includes('NAME ') && f.includes('USERNAME') && !f.includes(contact.conversationId), 'the list again');
      expect(selectedRow(h).startsWith(namePrefix(contact))).toBe(true);
      await h.press(KEY.enter);
      await h.until((f) => f.includes(contact.conversationId), 'the detail view again');
    }
  });

  it('r reloads the list and the open contact', async () => {
    const first = (await ctx.checker.listContacts({ limit: PAGE })).contacts[0]!;
    const h = await mount(ctx.client);
    try {
      await inAct(() => ctx.checker.updateContact(first.id, 'Renamed Elsewhere'));
      // Not shown until asked for: the list is not polled.
      expect(h.frame()).not.toContain('Renamed Elsewhere');
      await h.press('r');
      await h.until((f) => f.includes('Renamed Elsewhere'), 'the reloaded list');
      expect(selectedRow(h)).toMatch(/^Renamed Elsewhere/);

      await h.press(KEY.enter);
      await h.until((f) => f.includes(first.conversationId), 'the detail view');
      await inAct(() => ctx.checker.updateContact(first.id, 'Renamed Again'));
      await h.press('r');
      const frame = await h.until((f) => f.includes('Renamed Again'), 'the reloaded contact');
      expect(frame).toContain(first.conversationId);
    } finally {
      await inAct(() => ctx.checker.updateContact(first.id, first.displayName));
    }
  });
});

// ---------------------------------------------------------------------------------------------

describe('renaming', () => {
  const ctx = setUpSandbox();

  it('e prefills the name, Ctrl-U clears, Enter shows the new name at once and the server has it', async () => {
    const contact = (await ctx.checker.listContacts({ limit: PAGE })).contacts[0]!;
    expect(contact.displayName).not.toBeNull();
    const h = await mount(ctx.client);

    await h.press('e');
    let frame = h.frame();
    expect(frame).toContain(`✎ ${contactName(contact)}`);
    expect(frame).toContain('Enter save name');

    await h.press(KEY.ctrlU);
    frame = h.frame();
    expect(frame).not.toContain(contactName(contact));
    expect(frame).toContain(`✎ ${contact.username}`); // the placeholder: what an empty name shows

    await h.type('Renamed Person');
    expect(h.frame()).toContain('✎ Renamed Person');
    await h.press(KEY.enter);
    frame = h.frame();
    expect(frame).not.toContain('✎');
    expect(selectedRow(h)).toMatch(/^Renamed Person/);

    await waitFor(async () => (await ctx.checker.getContact(contact.id)).displayName === 'Renamed Person', 5000, 'the server to have the new name');
    await h.until((f) => f.includes('renamed to Renamed Person'), 'the rename notice');
    expect(selectedRow(h)).toMatch(/^Renamed Person/);
  });

  it('renaming to nothing resets the name to the username', async () => {
    const contact = (await ctx.checker.listContacts({ limit: PAGE })).contacts[0]!;
    expect(contact.displayName).not.toBeNull();
    const h = await mount(ctx.client);
    await h.press('e', KEY.ctrlU, KEY.enter);
    await h.until((f) => new RegExp(`[┃│] ${escapeRegExp(contact.username)} +${escapeRegExp(usernameCell(contact.username))} `).test(f), 'the username as the name');
    await waitFor(async () => (await ctx.checker.getContact(contact.id)).displayName === null, 5000, 'the server to drop the display name');
  });

  it('a refused rename rolls the row back and the status line says why', async () => {
    const contact = (await ctx.checker.listContacts({ limit: PAGE })).contacts[1]!;
    const before = contactName(contact);
    // A server stricter than the contract (the field itself stops at its 64): it refuses the name.
    const proxy = await startProxy(ctx.sb.url, {
      answer: (req) =>
        req.method === 'PUT'
          ? { status: 400, body: JSON.stringify({ status: 'error', code: 'invalid_parameters', message: 'display_name must be at most 20 characters' }) }
          : undefined,
    });
    const client = new TickbookClient({ contactsUrl: proxy.url, marketDataUrl: proxy.url, token: ctx.sb.token, apiKey: ctx.sb.apiKey, retry: { retries: 0 } });
    try {
      const h = await mount(client);
      await h.press('j', 'e', KEY.ctrlU);
      await h.type('x'.repeat(40));
      await h.press(KEY.enter);
      const frame = await h.until((f) => /✗ .*display_name/.test(f), 'the server’s message');
      expect(lineWith(frame, '✗')).toMatch(/display_name must be at most \d+ characters/);
      await h.until((f) => !f.includes('x'.repeat(30)) && f.includes(namePrefix(contact)), 'the row rolled back');
      expect(selectedRow(h).startsWith(namePrefix(contact))).toBe(true);
      expect(contactName(await inAct(() => ctx.checker.getContact(contact.id)))).toBe(before);
    } finally {
      await unmountAll();
      await client.close();
      await proxy.close();
    }
  });

  it('the rename field takes no more than the server’s 64 characters, shows how many it holds, and saves them all', async () => {
    const contact = (await ctx.checker.listContacts({ limit: PAGE })).contacts[3]!;
    const h = await mount(ctx.client);
    await h.press('j', 'j', 'j', 'e', KEY.ctrlU);
    await h.type('y'.repeat(40));
    // Far from the limit, no count; from three quarters of it, the count.
    expect(h.frame()).not.toContain('/64');
    await h.type('y'.repeat(10));
    expect(h.frame()).toContain(' 50/64');
    await h.type('y'.repeat(30));
    expect(h.frame()).toContain(' 64/64');
    await h.press(KEY.enter);
    await h.until((f) => /renamed to y+/.test(f), 'the rename confirmed');
    expect((await inAct(() => ctx.checker.getContact(contact.id))).displayName).toBe('y'.repeat(64));
    // Other tests here find this contact by its name.
    await inAct(() => ctx.checker.updateContact(contact.id, contact.displayName));
  });

  it('q typed in the rename field is typed, not a quit; Esc cancels the rename', async () => {
    const contact = (await ctx.checker.listContacts({ limit: PAGE })).contacts[2]!;
    const h = await mount(ctx.client);
    await h.press('j', 'j', 'e', KEY.ctrlU, 'q');
    expect(h.exited()).toBe(false);
    expect(h.frame()).toContain('✎ q');
    await h.type('uit?');
    expect(h.frame()).toContain('✎ quit?');
    expect(h.frame()).not.toContain('tickbook keys'); // ? typed too, no help
    await h.press(KEY.esc);
    await h.until((f) => !f.includes('✎') && f.includes(namePrefix(contact)), 'the rename cancelled');
    expect(h.exited()).toBe(false);
    expect(contactName(await inAct(() => ctx.checker.getContact(contact.id)))).toBe(contactName(contact));
  });

  it('e on an open contact renames it', async () => {
    const contact = (await ctx.checker.listContacts({ limit: PAGE })).contacts[3]!;
    const h = await mount(ctx.client);
    await h.press('j', 'j', 'j', KEY.enter);
    await h.until((f) => f.includes(contact.conversationId), 'the detail view');
    await h.press('e');
    // The name should be editable, prefilled, as from the list.
    await h.until((f) => f.includes(`✎ ${contactName(contact)}`), 'a rename field prefilled with the name', 1000);
    await h.press(KEY.ctrlU);
    await h.type('Renamed From Detail');
    await h.press(KEY.enter);
    await waitFor(
      async () => (await ctx.checker.getContact(contact.id)).displayName === 'Renamed From Detail',
      3000,
      'the server to have the name typed in the detail view',
    );
  });
});

// ---------------------------------------------------------------------------------------------

describe('deleting', () => {
  const ctx = setUpSandbox();
  afterEach(() => vi.restoreAllMocks());

  /** A ledger whose undo windows pass only when the test moves its clock, and the DELETEs the client is asked for. */
  function heldClock() {
    const clock = new ManualClock();
    const deletes = vi.spyOn(ctx.client, 'deleteContact');
    return { clock, deletes, ledger: new WriteLedger(clock.now, clock.timers) };
  }

  it('d asks, naming the contact and its conversation; n, N, Enter and Esc keep it', async () => {
    const contact = (await ctx.checker.listContacts({ limit: PAGE })).contacts[0]!;
    const { clock, deletes, ledger } = heldClock();
    const h = await mount(ctx.client, { ledger });
    for (const keep of ['n', 'N', KEY.enter, KEY.esc]) {
      await h.press('d');
      const frame = h.frame();
      expect(frame).toContain(`Delete ${contactName(contact)} (${contact.username})?`);
      expect(frame).toContain('The conversation with them is deleted too');
      expect(frame).toContain('y yes, delete');
      await h.press(keep);
      const after = h.frame();
      expect(after, `after ${JSON.stringify(keep)}`).not.toContain('Delete ');
      expect(listsUser(after, contact)).toBe(true);
      expect(selectedRow(h).startsWith(namePrefix(contact))).toBe(true);
    }
    // Any undo window there were would have run out and sent its DELETE by now.
    clock.advance(60_000);
    expect(deletes).not.toHaveBeenCalled();
    expect(countLog(ctx.sb, 'DELETE', '/v1/contacts')).toBe(0);
    expect(await inAct(() => notFound(ctx.checker, contact.id))).toBe(false);
  });

  it('y hides the row and offers undo; u brings it back and nothing is deleted', async () => {
    const contact = (await ctx.checker.listContacts({ limit: PAGE })).contacts[0]!;
    const { clock, deletes, ledger } = heldClock();
    const h = await mount(ctx.client, { ledger });
    await h.press('d', 'y');
    let frame = h.frame();
    expect(listsUser(frame, contact)).toBe(false);
    expect(frame).toContain(`deleted ${contactName(contact)} · u: undo`);
    expect(frame).toMatch(/ u undo delete · /);
    await h.press('u');
    frame = h.frame();
    expect(listsUser(frame, contact)).toBe(true);
    expect(frame).toContain(`kept ${contactName(contact)}`);
    expect(frame).not.toContain('u undo delete');

    clock.advance(60_000); // past the undo window
    expect(deletes).not.toHaveBeenCalled();
    expect(countLog(ctx.sb, 'DELETE', `/v1/contacts/${contact.id}`)).toBe(0);
    expect(await inAct(() => notFound(ctx.checker, contact.id))).toBe(false);
    expect(listsUser(h.frame(), contact)).toBe(true);
  });

  it('Y, once the undo window has passed, sends the DELETE', async () => {
    const contact = (await ctx.checker.listContacts({ limit: PAGE })).contacts[0]!;
    const h = await mount(ctx.client);
    await h.press('d', 'Y');
    expect(listsUser(h.frame(), contact)).toBe(false);
    await waitFor(() => countLog(ctx.sb, 'DELETE', `/v1/contacts/${contact.id}`) === 1, 3000, 'the DELETE');
    expect(await inAct(() => notFound(ctx.checker, contact.id))).toBe(true);
    const frame = await h.until((f) => f.includes(`deleted ${contactName(contact)} and the conversation`), 'the delete notice');
    expect(listsUser(frame, contact)).toBe(false);
    expect(frame).not.toContain('u undo delete');
  });

  it('d on an open contact deletes it; u on another open contact undoes it', async () => {
    const [a, b] = (await ctx.checker.listContacts({ limit: PAGE })).contacts;
    const h = await mount(ctx.client, { undoWindowMs: 3000 });
    await h.press(KEY.enter);
    await h.until((f) => f.includes(a!.conversationId), 'the detail view');
    await h.press('d');
    expect(h.frame()).toContain(`Delete ${contactName(a!)} (${a!.username})?`);
    await h.press('y');
    let frame = h.frame();
    expect(frame).not.toContain(a!.conversationId);
    expect(listsUser(frame, a!)).toBe(false);
    expect(selectedRow(h).startsWith(namePrefix(b!))).toBe(true);

    await h.press(KEY.enter);
    await h.until((f) => f.includes(b!.conversationId), 'the next contact open');
    await h.press('u');
    await h.until((f) => f.includes(`kept ${contactName(a!)}`), 'the undo notice');
    await h.press(KEY.esc);
    frame = h.frame();
    expect(listsUser(frame, a!)).toBe(true);
    expect(countLog(ctx.sb, 'DELETE', `/v1/contacts/${a!.id}`)).toBe(0);
  });

  // While the terminal is too small nothing on screen says what a key would act on.
  it('behind "Terminal too small" d and y delete nothing; the prompt comes back as it was', async () => {
    const contact = (await ctx.checker.listContacts({ limit: PAGE })).contacts[0]!;
    const { clock, deletes, ledger } = heldClock();
    const renames = vi.spyOn(ctx.client, 'updateContact');
    const h = await mount(ctx.client, { undoWindowMs: 300, ledger });
    await h.resize({ columns: 50, rows: 30 });
    await h.until((f) => f.includes('Terminal too small'), 'the too-small screen');
    expect(h.frame()).toContain('q quit · Ctrl-Z suspend');
    await h.press('d', 'y', 'e', 'x', KEY.enter, 'c', 'j', 'n', KEY.tab, 'x', '?');
    // Past any undo window there might be: a key acts as it is read, and nothing was asked.
    clock.advance(60_000);
    expect(deletes).not.toHaveBeenCalled();
    expect(renames).not.toHaveBeenCalled();
    expect(countLog(ctx.sb, 'DELETE', `/v1/contacts/${contact.id}`)).toBe(0);
    expect(countLog(ctx.sb, 'PATCH', `/v1/contacts/${contact.id}`)).toBe(0);
    await h.resize({ columns: 120, rows: 40 });
    let frame = await h.until((f) => f.includes('▸ Contacts'), 'the panes again');
    expect(frame).not.toContain('Delete ');
    expect(selectedRow(h).startsWith(namePrefix(contact))).toBe(true);
    expect(frame).toContain('AAPL');

    // A prompt open when the view hid is there, unchanged, when it comes back.
    await h.press('d');
    expect(h.frame()).toContain(`Delete ${contactName(contact)} (${contact.username})?`);
    await h.resize({ columns: 50, rows: 30 });
    await h.press('y');
    await h.resize({ columns: 120, rows: 40 });
    frame = await h.until((f) => f.includes('▸ Contacts'), 'the panes again');
    expect(frame).toContain(`Delete ${contactName(contact)} (${contact.username})?`);
    expect(countLog(ctx.sb, 'DELETE', `/v1/contacts/${contact.id}`)).toBe(0);
    await h.press('n');
  });

  it('an undo window open when the view hid waits, and is offered again with the time it had left', async () => {
    const contact = (await ctx.checker.listContacts({ limit: PAGE })).contacts[0]!;
    const { clock, deletes, ledger } = heldClock();
    const h = await mount(ctx.client, { undoWindowMs: 1500, ledger });
    await h.press('d', 'y');
    await h.until((f) => f.includes('u: undo'), 'the undo offer');
    clock.advance(500);
    await h.resize({ columns: 50, rows: 30 });
    // Held: the window, a second from its end, waits however long the view is hidden.
    clock.advance(60_000);
    expect(deletes).not.toHaveBeenCalled();
    expect(countLog(ctx.sb, 'DELETE', `/v1/contacts/${contact.id}`)).toBe(0);
    await h.resize({ columns: 120, rows: 40 });
    await h.until((f) => f.includes(`deleted ${contactName(contact)}`) && f.includes('u: undo'), 'the undo offer again');
    await h.press('u');
    await h.until((f) => f.includes(`kept ${contactName(contact)}`), 'the undo notice');
    clock.advance(60_000);
    expect(deletes).not.toHaveBeenCalled();
    expect(countLog(ctx.sb, 'DELETE', `/v1/contacts/${contact.id}`)).toBe(0);
  });

  it('q inside the undo window still sends the DELETE, then the app exits', async () => {
    const contact = (await ctx.checker.listContacts({ limit: PAGE })).contacts[0]!;
    const h = await mount(ctx.client, { undoWindowMs: 60_000 });
    await h.press('d', 'y');
    expect(listsUser(h.frame(), contact)).toBe(false);
    await h.press('q');
    await waitFor(() => h.exited(), 3000, 'the app to exit');
    expect(countLog(ctx.sb, 'DELETE', `/v1/contacts/${contact.id}`)).toBe(1);
    expect(await inAct(() => notFound(ctx.checker, contact.id))).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------

describe('creating and filtering', () => {
  const ctx = setUpSandbox();

  it('c shows the four fields; Tab/Shift-Tab/↓/↑ move between them; Esc cancels', async () => {
    const posts = countLog(ctx.sb, 'POST', '/v1/contacts');
    const h = await mount(ctx.client);
    await h.press('c');
    let frame = h.frame();
    expect(frame).toContain('New contact');
    for (const label of ['username', 'phone', 'display name', 'avatar URL']) expect(frame).toContain(label);
    expect(frame).toContain('› username');
    expect(frame).toContain('Tab/↓ next field');

    const focused = () => h.frame().match(/› (username|phone|display name|avatar URL)/)?.[1];
    await h.press(KEY.tab);
    expect(focused()).toBe('phone');
    await h.press(KEY.tab);
    expect(focused()).toBe('display name');
    await h.press(KEY.shiftTab);
    expect(focused()).toBe('phone');
    await h.press(KEY.down, KEY.down);
    expect(focused()).toBe('avatar URL');
    await h.press(KEY.down); // wraps round
    expect(focused()).toBe('username');
    await h.press(KEY.up);
    expect(focused()).toBe('avatar URL');
    await h.press(KEY.up, KEY.up, KEY.up);
    expect(focused()).toBe('username');

    await h.type('nobody_at_all');
    expect(h.frame()).toContain('nobody_at_all');
    await h.press(KEY.esc);
    frame = h.frame();
    expect(frame).not.toContain('New contact');
    expect(frame).toContain('NAME ');
    await pause(100);
    expect(countLog(ctx.sb, 'POST', '/v1/contacts')).toBe(posts);
  });

  it('Enter with nothing typed says what is required, without a request', async () => {
    const posts = countLog(ctx.sb, 'POST', '/v1/contacts');
    const h = await mount(ctx.client);
    await h.press('c', KEY.enter);
    const frame = h.frame();
    expect(frame).toContain('✗ username is required');
    expect(frame).toContain('✗ phone_number is required');
    expect(countLog(ctx.sb, 'POST', '/v1/contacts')).toBe(posts);
  });

  it('a bad phone shows the rule beside it without a request, keeps what was typed; fixed, the contact is created first in the list', async () => {
    const posts = countLog(ctx.sb, 'POST', '/v1/contacts');
    const h = await mount(ctx.client);
    await h.press('c');
    await h.type('zed_tester');
    await h.press(KEY.tab);
    await h.type('020 7946 0958');
    await h.press(KEY.tab);
    await h.type('Zed Tester');
    await h.press(KEY.tab);
    await h.type('https://avatars.example/zed.png');
    await h.press(KEY.enter);
    let frame = await h.until((f) => /✗ .*phone_number/.test(f), 'the phone error');
    const lines = frame.split('\n');
    const phoneAt = lines.findIndex((l) => /› phone/.test(l));
    expect(phoneAt, 'the phone field has the focus').toBeGreaterThan(0);
    expect(lines[phoneAt]).toContain('020 7946 0958');
    expect(lines[phoneAt + 1]).toMatch(/✗ .*phone_number/);
    // The rule is read whole, wrapped under the field, not cut at the pane's edge.
    /** What is written under the phone field, its lines joined. */
    const errorUnderPhone = (shown: string) => {
      const rows = shown.split('\n');
      const at = rows.findIndex((l) => /› phone/.test(l));
      return rows
        .slice(at + 1, at + 4)
        .map((l) => l.replace(/^[┃│]\s*/, '').replace(/\s*[┃│].*$/, ''))
        .join(' ')
        .replace(/ +/g, ' ');
    };
    expect(errorUnderPhone(frame)).toContain('✗ phone_number must be in E.164 form: "+" then 7 to 15 digits, the first not 0');
    expect(frame).not.toMatch(/phone_number[^\n]*…/);
    expect(lineWith(frame, 'username')).toContain('zed_tester');
    expect(lineWith(frame, 'display name')).toContain('Zed Tester');
    expect(lineWith(frame, 'avatar URL')).toContain('https://avatars.example/zed.png');

    // E.164, but too short for its country code: the rule `contacts create` applies.
    await h.press(KEY.ctrlU);
    await h.type('+1-555-0123');
    await h.press(KEY.enter);
    frame = await h.until((f) => /✗ .*phone_number is too short/.test(f), 'the length error');
    expect(errorUnderPhone(frame)).toContain('✗ phone_number is too short for +1: 7 digits after it, where numbers there have 10');

    await h.press(KEY.ctrlU);
    await h.type('+44 20 7946 0999');
    expect(h.frame()).not.toMatch(/✗ .*phone_number/); // editing the field clears its error
    await h.press(KEY.enter);
    await h.until((f) => !f.includes('New contact') && f.includes('created Zed Tester'), 'the new contact');
    frame = await h.until((f) => selectedRow(h).startsWith('Zed Tester') && f.includes('page 1'), 'the new contact selected');
    const rows = frame.split('\n').filter((l) => /[┃│] \S/.test(l));
    expect(rows[2], 'the first row under the header').toMatch(/Zed Tester +zed_tester/);

    expect(countLog(ctx.sb, 'POST', '/v1/contacts')).toBe(posts + 1); // the form refused the first itself
    const newest = (await inAct(() => ctx.checker.listContacts({ limit: 1 }))).contacts[0]!;
    expect(newest.username).toBe('zed_tester');
    expect(newest.phoneNumber).toBe('+442079460999');
    expect(newest.displayName).toBe('Zed Tester');
    expect(newest.avatarUrl).toBe('https://avatars.example/zed.png');
  });

  it('a phone with a trunk prefix "(0)" is created without it; "(0)" before the country code is refused under the field, no request', async () => {
    const h = await mount(ctx.client);
    await h.press('c');
    await h.type('trunk_prefix');
    await h.press(KEY.tab);
    await h.type('+(0)44 20 7946 0958');
    const posts = countLog(ctx.sb, 'POST', '/v1/contacts');
    await h.press(KEY.enter);
    const frame = await h.until((f) => /✗ phone_number must be in E\.164 form/.test(f), 'the phone error');
    expect(lineWith(frame, '› phone')).toContain('+(0)44 20 7946 0958');
    await pause(100);
    expect(countLog(ctx.sb, 'POST', '/v1/contacts')).toBe(posts);

    await h.press(KEY.ctrlU);
    await h.type('+44 (0) 20 7946 0958');
    await h.press(KEY.enter);
    await h.until((f) => !f.includes('New contact') && f.includes('created trunk_prefix'), 'the new contact');
    const newest = (await inAct(() => ctx.checker.listContacts({ limit: 1 }))).contacts[0]!;
    expect(newest.username).toBe('trunk_prefix');
    expect(newest.phoneNumber).toBe('+442079460958');
  });

  it('f narrows the rows of the page by name, username or phone digits; Esc clears; Enter keeps', async () => {
    const page1 = (await ctx.checker.listContacts({ limit: PAGE })).contacts;
    const byName = page1.find((c) => c.displayName && /^[A-Za-z]+ [A-Za-z]+$/.test(c.displayName))!;
    const surname = byName.displayName!.split(' ')[1]!.toLowerCase();
    const byUser = page1.find((c) => c.displayName && c.displayName !== c.username && !c.displayName.toLowerCase().includes(c.username.slice(0, 5)))!;
    const byPhone = page1.find((c) => page1.filter((o) => o.phoneNumber.includes(c.phoneNumber.slice(-7))).length === 1)!;
    const digits = byPhone.phoneNumber.slice(-7);
    const h = await mount(ctx.client);

    const only = (frame: string, contact: Contact) => listsUser(frame, contact) && page1.filter((c) => listsUser(frame, c)).length === 1;

    await h.press('f');
    expect(h.frame()).toContain('/ name, username or phone');
    expect(h.frame()).toContain('Enter keep filter');
    await h.type(surname);
    let frame = h.frame();
    const matching = page1.filter((c) => contactName(c).toLowerCase().includes(surname) || c.username.includes(surname));
    expect(matching.length).toBeGreaterThan(0);
    for (const c of page1) expect(listsUser(frame, c), c.username).toBe(matching.includes(c));
    await h.press(KEY.esc);
    frame = h.frame();
    expect(page1.every((c) => listsUser(frame, c))).toBe(true);
    expect(frame).toContain(`${PAGE} on this page`);

    await h.press('f');
    await h.type(byUser.username);
    expect(only(h.frame(), byUser), `only ${byUser.username}`).toBe(true);
    await h.press(KEY.esc);

    await h.press('f');
    await h.type(digits);
    frame = h.frame();
    expect(only(frame, byPhone), `only ${byPhone.username} for ${digits}`).toBe(true);
    await h.press(KEY.enter);
    frame = h.frame();
    expect(only(frame, byPhone)).toBe(true);
    expect(frame).toContain(`filter "${digits}" · 1 of ${PAGE}`);
    expect(frame).toContain('n/p pages'); // back to the list's keys
    await h.press(KEY.enter);
    await h.until((f) => f.includes(byPhone.conversationId), 'the filtered contact open');
    await h.press(KEY.esc, 'f', KEY.esc);
    frame = h.frame();
    expect(page1.every((c) => listsUser(frame, c))).toBe(true);
    expect(frame).not.toContain('filter "');
  });
});

// ---------------------------------------------------------------------------------------------

describe('focus, the ticker and the symbol picker', () => {
  const ctx = setUpSandbox();

  /** The symbols of the watchlist table, top to bottom. */
  const tableOrder = (frame: string, symbols: readonly string[]): string[] =>
    frame
      .split('\n')
      .map((line) => symbols.find((s) => new RegExp(`[┃│] ${escapeRegExp(s)} `).test(line)))
      .filter((s): s is string => s !== undefined);

  /** The selected ticker row: the inverted text that starts with a symbol. */
  const selectedSymbol = (h: Harness, symbols: readonly string[]) => {
    const segment = inverseSegments(h.raw()).find((s) => symbols.some((sym) => s.startsWith(`${sym} `)));
    return segment?.split(' ')[0];
  };

  it('Tab and Shift-Tab move the focus; the footer shows the focused pane’s keys', async () => {
    const h = await mount(ctx.client);
    await h.press(KEY.tab);
    let frame = h.frame();
    expect(frame).toContain('▸ Ticker');
    expect(frame).not.toContain('▸ Contacts');
    expect(frame).toContain('Enter chart · / add · x remove · s sort · w lists · Space pause · +/- interval');
    expect(frame).not.toContain('n/p pages');
    expect(selectedSymbol(h, WATCHLIST)).toBe('AAPL');

    await h.press(KEY.shiftTab);
    frame = h.frame();
    expect(frame).toContain('▸ Contacts');
    expect(frame).not.toContain('▸ Ticker');
    expect(frame).toContain('n/p pages');
    expect(selectedSymbol(h, WATCHLIST)).toBeUndefined();
    await h.press(KEY.shiftTab);
    expect(h.frame()).toContain('▸ Ticker');
    await h.press(KEY.tab);
    expect(h.frame()).toContain('▸ Contacts');
  });

  it('j/k, ↓/↑, g/G and Home/End move the ticker selection', async () => {
    const h = await mount(ctx.client);
    await h.press(KEY.tab);
    const expectSel = (s: string) => expect(selectedSymbol(h, WATCHLIST)).toBe(s);
    expectSel('AAPL');
    await h.press('j');
    expectSel('MSFT');
    await h.press(KEY.down);
    expectSel('NOPE1');
    await h.press('j');
    expectSel('NOPE1');
    await h.press('k');
    expectSel('MSFT');
    await h.press(KEY.up);
    expectSel('AAPL');
    await h.press('G');
    expectSel('NOPE1');
    await h.press('g');
    expectSel('AAPL');
    await h.press(KEY.end);
    expectSel('NOPE1');
    await h.press(KEY.home);
    expectSel('AAPL');
  });

  it('s cycles the sort: by symbol, price, tick change, session change, volume, watchlist order; S flips it; each saved with the list', async () => {
    const watchlist = ['MSFT', 'AAPL', 'NOPE1'];
    const h = await mount(ctx.client, { watchlist });
    await h.press(KEY.tab);
    expect(tableOrder(h.frame(), watchlist)).toEqual(['MSFT', 'AAPL', 'NOPE1']);
    await h.press('s');
    expect(h.frame()).toContain('3 symbols · by symbol');
    expect(h.frame()).toMatch(/SYMBOL▲/);
    expect(tableOrder(h.frame(), watchlist)).toEqual(['AAPL', 'MSFT', 'NOPE1']);
    expect(selectedSymbol(h, watchlist)).toBe('MSFT'); // the selection follows its symbol
    await h.press('S');
    expect(h.frame()).toContain('by symbol, Z to A');
    expect(h.frame()).toMatch(/SYMBOL▼/);
    expect(tableOrder(h.frame(), watchlist)).toEqual(['NOPE1', 'MSFT', 'AAPL']);
    await h.press('s');
    expect(h.frame()).toContain('by price');
    expect(h.frame()).toMatch(/PRICE▼/);
    expect(tableOrder(h.frame(), watchlist).at(-1)).toBe('NOPE1'); // no price: last
    await h.press('s');
    expect(h.frame()).toContain('by tick change');
    await h.press('s');
    expect(h.frame()).toContain('by session change');
    expect(tableOrder(h.frame(), watchlist).at(-1)).toBe('NOPE1');
    await h.press('s');
    expect(h.frame()).toContain('by volume');
    expect(tableOrder(h.frame(), watchlist)).toEqual(['AAPL', 'MSFT', 'NOPE1']); // 1.3M before ~570k
    await h.press('S');
    expect(h.frame()).toContain('by volume, lowest first');
    expect(tableOrder(h.frame(), watchlist)).toEqual(['MSFT', 'AAPL', 'NOPE1']);
    await h.press('s');
    expect(h.frame()).toContain('watchlist order');
    expect(tableOrder(h.frame(), watchlist)).toEqual(['MSFT', 'AAPL', 'NOPE1']);
    // The sort is saved with the list; its symbols and their order are untouched.
    expect(h.persisted.length).toBeGreaterThan(0);
    expect(h.persisted.every((p) => p.watchlist.join() === watchlist.join())).toBe(true);
  });

  it('J/K move the selected symbol and save the watchlist; only in watchlist order', async () => {
    const h = await mount(ctx.client);
    await h.press(KEY.tab, 'J');
    expect(tableOrder(h.frame(), WATCHLIST)).toEqual(['MSFT', 'AAPL', 'NOPE1']);
    expect(selectedSymbol(h, WATCHLIST)).toBe('AAPL');
    expect(h.persisted.at(-1)).toEqual({ watchlist: ['MSFT', 'AAPL', 'NOPE1'], intervalS: 2 });
    await h.press('J');
    expect(h.persisted.at(-1)?.watchlist).toEqual(['MSFT', 'NOPE1', 'AAPL']);
    await h.press('K', 'K');
    expect(tableOrder(h.frame(), WATCHLIST)).toEqual(['AAPL', 'MSFT', 'NOPE1']);
    expect(h.persisted.at(-1)?.watchlist).toEqual(['AAPL', 'MSFT', 'NOPE1']);
    expect(h.persisted).toHaveLength(4);

    await h.press('s', 'J');
    expect(h.frame()).toContain('J/K reorder the watchlist in watchlist order');
    // The sort was saved (with the list); the refused J saved nothing.
    expect(h.persisted).toHaveLength(5);
  });

  it('x removes the selected symbol and u puts it back, both saved', async () => {
    const h = await mount(ctx.client);
    await h.press(KEY.tab, 'j', 'x');
    let frame = h.frame();
    expect(tableOrder(frame, WATCHLIST)).toEqual(['AAPL', 'NOPE1']);
    expect(frame).toContain('2 symbols');
    expect(frame).toContain('removed MSFT: u puts it back');
    expect(frame).toMatch(/ u undo remove · /);
    expect(h.persisted.at(-1)).toEqual({ watchlist: ['AAPL', 'NOPE1'], intervalS: 2 });
    await h.press('u');
    frame = h.frame();
    expect(tableOrder(frame, WATCHLIST)).toEqual(['AAPL', 'MSFT', 'NOPE1']);
    expect(frame).toContain('MSFT is back');
    expect(h.persisted.at(-1)).toEqual({ watchlist: ['AAPL', 'MSFT', 'NOPE1'], intervalS: 2 });
    await h.until((f) => /MSFT +\d+\.\d\d/.test(f), 'MSFT’s price again');
  });

  it('Space pauses and resumes; r refreshes even while paused', async () => {
    const h = await mount(ctx.client, { intervalS: 1 });
    await h.press(KEY.tab, KEY.space);
    let frame = h.frame();
    expect(frame).toContain('paused · every 1s');
    expect(frame).toContain('paused: Space resumes');
    expect(frame).toContain('prices paused');
    const polls = () => countLog(ctx.sb, 'POST', '/v1/utilities/stock/realtime-pricing');
    const before = polls();
    // Paused, the prices age instead of being polled.
    await h.until((f) => /AAPL +\d+\.\d\d.* [2-9]s/.test(lineWith(f, 'AAPL ') ?? ''), 'the prices to age', 6000);
    expect(polls()).toBe(before);
    await h.press('r');
    await h.until((f) => / 0s/.test(lineWith(f, 'AAPL ') ?? ''), 'a refreshed price');
    expect(polls()).toBe(before + 1);
    expect(h.frame()).toContain('paused · every 1s');

    await h.press(KEY.space);
    frame = h.frame();
    expect(frame).not.toContain('paused');
    expect(frame).toContain('prices resumed');
    await waitFor(() => polls() >= before + 3, 5000, 'polling to resume');
  });

  it('+/= and -/_ change the interval in the title, clamped to 1..60, and save it', async () => {
    const h = await mount(ctx.client);
    await h.press(KEY.tab, '+');
    expect(h.frame()).toContain('every 3s');
    expect(h.frame()).toContain('prices every 3s');
    expect(h.persisted.at(-1)).toEqual({ watchlist: WATCHLIST, intervalS: 3 });
    await h.press('=');
    expect(h.frame()).toContain('every 4s');
    await h.press('-');
    expect(h.frame()).toContain('every 3s');
    await h.press('_', '-');
    expect(h.frame()).toContain('every 1s');
    const saved = h.persisted.length;
    await h.press('-');
    expect(h.frame()).toContain('every 1s');
    expect(h.persisted).toHaveLength(saved);
    await h.type('+'.repeat(70));
    expect(h.frame()).toContain('every 60s');
    expect(h.frame()).not.toContain('every 61s');
    expect(h.persisted.at(-1)?.intervalS).toBe(60);
  });

  it('/ opens the picker: "sho" lists SHOP.TO first; ↓/↑ and Tab/Shift-Tab move; Enter adds; Esc closes', async () => {
    const h = await mount(ctx.client);
    await h.press(KEY.tab, '/');
    await h.until((f) => f.includes('Add symbol:') && /\d+ matches/.test(f), 'the picker with the catalogue');
    expect(h.frame()).toContain('Enter add symbol');
    // "sho": SHOP.TO by its symbol, then a few company names, so there is somewhere to move to.
    await h.type('sho');
    let frame = h.frame();
    const first = frame.split('\n').find((l) => l.includes('❯'));
    expect(first).toMatch(/❯ +SHOP\.TO +\[TSX\] +Shopify/);
    const second = () => h.frame().split('\n').find((l) => l.includes('❯'));
    await h.press(KEY.down);
    expect(second()).not.toContain('SHOP.TO');
    await h.press(KEY.up);
    expect(second()).toContain('SHOP.TO');
    await h.press(KEY.tab);
    expect(second()).not.toContain('SHOP.TO');
    await h.press(KEY.shiftTab);
    expect(second()).toContain('SHOP.TO');

    await h.press(KEY.enter);
    frame = h.frame();
    expect(frame).toContain('added SHOP.TO');
    // The field is empty for the next symbol.
    expect(frame).not.toContain('Add symbol: sho');
    expect(h.persisted.at(-1)).toEqual({ watchlist: [...WATCHLIST, 'SHOP.TO'], intervalS: 2 });
    await h.type('sho');
    expect(h.frame()).toMatch(/✓ SHOP\.TO/);
    await h.press(KEY.enter);
    expect(h.frame()).toContain('SHOP.TO is already on the watchlist');
    expect(h.persisted).toHaveLength(1);

    await h.press(KEY.esc);
    frame = await h.until((f) => /SHOP\.TO +\d+\.\d\d/.test(f), 'SHOP.TO’s price in the table');
    expect(frame).not.toContain('Add symbol:');
    expect(frame).toContain('4 symbols');
  });

  it('Enter in the picker before anything is typed or chosen adds nothing, and says how to choose', async () => {
    const h = await mount(ctx.client);
    await h.press(KEY.tab, '/');
    await h.until((f) => f.includes('Add symbol:') && /\d+ matches/.test(f), 'the picker with the catalogue');
    await h.press(KEY.enter);
    await h.until((f) => f.includes('type a symbol or company name'), 'the hint');
    expect(h.persisted).toEqual([]);
    expect(h.frame()).not.toMatch(/added /);
    // Browsing with ↓ is a choice: Enter adds the highlighted entry.
    await h.press(KEY.down, KEY.enter);
    await h.until((f) => /added \S+/.test(f), 'the browsed symbol added');
    expect(h.persisted).toHaveLength(1);
    expect(h.persisted[0]!.watchlist).toHaveLength(WATCHLIST.length + 1);
  });

  it('i opens the picker too; typing j and q there types them', async () => {
    const h = await mount(ctx.client);
    await h.press(KEY.tab, 'i');
    await h.until((f) => f.includes('Add symbol:'), 'the picker');
    await h.type('jq');
    expect(h.frame()).toContain('Add symbol: jq');
    expect(h.exited()).toBe(false);
    await h.press(KEY.esc);
    expect(h.frame()).not.toContain('Add symbol:');
    expect(h.frame()).toContain('▸ Ticker');
  });
});

// ---------------------------------------------------------------------------------------------

describe('a server that is not there yet', () => {
  it('the contacts pane says why it is empty, and fills by itself once the server is up', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const url = `http://127.0.0.1:${port}`;
    const client = new TickbookClient({ contactsUrl: url, marketDataUrl: url, token: 'demo-token', apiKey: 'demo-key', retry: { retries: 0 } });
    let sb: TestSandbox | undefined;
    try {
      const h = await mount(client, { size: { columns: 120, rows: 40 }, ready: false });
      // The reason wraps over as many rows as it needs.
      await h.until((f) => /could not load contacts: 127\.0\.0\.1:\d+ refused/.test(f) && /trying again/.test(f), 'the reason in the pane', 8000);
      // Switched to active contacts while the server is away: that is the list tried again.
      await h.press('a');
      await h.until((f) => /active only · page 1/.test(f) && /could not load contacts/.test(f), 'the active list failing too', 8000);
      sb = await startTestSandbox({ port, demoData: true });
      await h.until((f) => /\d+ on this page/.test(f), 'the first page, without a key pressed', 15_000);
      expect(h.frame()).not.toMatch(/could not load contacts/);
      expect(h.frame()).toMatch(/active only · page 1/);
      // Only contacts that have been active: none says "never".
      expect(h.frame()).not.toMatch(/ never /);
    } finally {
      await client.close();
      await sb?.close();
    }
  }, 30_000);
});

describe('help, quitting, suspending', () => {
  const ctx = setUpSandbox();

  it('? opens the help with every key; Esc, ?, q and Enter close it; other keys do nothing there', async () => {
    const h = await mount(ctx.client);
    for (const close of [KEY.esc, '?', 'q', KEY.enter]) {
      await h.press('?');
      const frame = h.frame();
      expect(frame).toContain('tickbook keys · Esc closes');
      for (const text of ['next page', 'rename', 'cycle sort', 'add symbols', 'undo delete', 'suspend', 'yes, delete', 'next field']) {
        expect(frame, text).toContain(text);
      }
      expect(frame).not.toContain('▸ Contacts');
      await h.press('j', 'd');
      expect(h.frame()).toContain('tickbook keys');
      await h.press(close);
      expect(h.frame(), `closed by ${JSON.stringify(close)}`).not.toContain('tickbook keys');
      expect(h.frame()).toContain('▸ Contacts');
      expect(h.exited()).toBe(false);
    }
    expect(h.frame()).not.toContain('Delete ');
  });

  it('? and PgDn read together open the help on its second page: the page count is the help\'s now, not as last drawn', async () => {
    const h = await mount(ctx.client, { size: { columns: 60, rows: 16 }, ready: false });
    await h.until((f) => f.includes('page 1'), 'the first page of contacts');
    await h.type(`?${KEY.pageDown}`);
    await h.until((f) => /page 2\/\d+ · PgDn\/PgUp/.test(f), 'the help on its second page');
  });

  it('on a small terminal the help turns pages with PgDn/PgUp (and j/k), every key on one of them', async () => {
    const h = await mount(ctx.client, { size: { columns: 60, rows: 16 }, ready: false });
    await h.until((f) => f.includes('page 1'), 'the first page of contacts');
    await h.press('?');
    const first = h.frame();
    const pages = Number(/page 1\/(\d+) · PgDn\/PgUp/.exec(first)?.[1]);
    expect(pages).toBeGreaterThan(1);
    const seen = [first];
    for (let page = 2; page <= pages; page++) {
      await h.press(page % 2 === 0 ? KEY.pageDown : 'j');
      expect(h.frame()).toContain(`page ${page}/${pages}`);
      seen.push(h.frame());
    }
    // Past the last page it stays there.
    await h.press(KEY.pageDown);
    expect(h.frame()).toContain(`page ${pages}/${pages}`);
    const all = seen.join('\n');
    for (const text of ['next / previous contact', 'yes, delete', 'save name', 'keep filter', 'cycle sort', 'add symbol', 'close help', 'previous page']) {
      expect(all, text).toContain(text);
    }
    // No entry is cut short: the longest of them shows whole.
    expect(all).toContain('suspend (fg resumes)');
    await h.press(KEY.pageUp, 'k');
    expect(h.frame()).toContain(`page ${pages - 2}/${pages}`);
    // Closing and opening again starts at the first page.
    await h.press(KEY.esc, '?');
    expect(h.frame()).toContain(`page 1/${pages}`);
  });

  it('q quits: Ink unmounts and draws no more frames', async () => {
    const h = await mount(ctx.client);
    await h.press('q');
    await waitFor(() => h.exited(), 3000, 'the app to exit');
    const frames = h.instance.frames.length;
    await h.press('?');
    await pause(1200); // a ticker poll or a clock tick would draw if anything still ran
    expect(h.instance.frames.length).toBe(frames);
  });

  it('Ctrl-C quits from the list; inside a text field it leaves the field, and a second quits', async () => {
    const a = await mount(ctx.client);
    await a.press(KEY.ctrlC);
    await waitFor(() => a.exited(), 3000, 'the app to exit on Ctrl-C');

    const b = await mount(ctx.client);
    await b.press('e');
    expect(b.frame()).toContain('✎');
    await b.press(KEY.ctrlC);
    await b.until((f) => !f.includes('✎'), 'the rename field closed by Ctrl-C');
    expect(b.exited()).toBe(false);
    await b.press(KEY.ctrlC);
    await waitFor(() => b.exited(), 3000, 'the app to exit on the second Ctrl-C');
  });

  it('Ctrl-Z asks to suspend', async () => {
    const h = await mount(ctx.client);
    await h.press(KEY.ctrlZ);
    expect(h.suspends()).toBe(1);
    expect(h.exited()).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------

describe('terminal size', () => {
  const ctx = setUpSandbox();

  for (const size of [
    { columns: 120, rows: 15 },
    { columns: 50, rows: 40 },
    { columns: 59, rows: 16 },
  ]) {
    it(`${size.columns}×${size.rows} is too small: one line says so, one says what keys still work`, async () => {
      const h = await mount(ctx.client, { size, ready: false });
      await pause(100);
      const frame = h.frame();
      expect(frame.split('\n')).toHaveLength(2);
      expect(frame.split('\n')[1]).toBe('q quit · Ctrl-Z suspend');
      expect(frame).toMatch(/needs .*60×16/);
      expect(frame).toContain(`${size.columns}×${size.rows}`);
      for (const line of frame.split('\n')) expect(stringWidth(line)).toBeLessThanOrEqual(size.columns);
      await h.press('?');
      expect(h.frame()).toBe(frame);
    });
  }

  it('40×10 is too small: the line wraps, so the size it needs is never cut off', async () => {
    const size = { columns: 40, rows: 10 };
    const h = await mount(ctx.client, { size, ready: false });
    await pause(100);
    const lines = h.frame().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.length).toBeLessThanOrEqual(9);
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(40);
    expect(lines.join(' ')).toContain('Terminal too small: 40×10, tickbook needs 60×16');
  });

  for (const size of [
    { columns: 120, rows: 40 },
    { columns: 80, rows: 24 },
    { columns: 60, rows: 16 },
  ]) {
    it(`every frame at ${size.columns}×${size.rows} is at most ${size.rows - 1} lines and ${size.columns} columns`, async () => {
      const h = await mount(ctx.client, { size, ready: false });
      const from = h.instance.frames.length; // frames after Ink was told the width
      await h.until((f) => /on this page/.test(f) && /AAPL\b.* \d+\.\d\d /.test(f), 'the first page and prices');
      const visit: string[][] = [[KEY.enter], [KEY.esc], ['?'], [KEY.esc], ['c'], [KEY.esc], ['/'], [KEY.esc], ['d'], ['n'], [KEY.tab], ['/']];
      for (const keys of visit) {
        await h.press(...keys);
        await pause(30);
      }
      await h.type('shop');
      await pause(50);
      const frames = h.instance.frames.slice(from).map(plain);
      expect(frames.length).toBeGreaterThan(10);
      for (const frame of frames) {
        const lines = frame.split('\n');
        expect(lines.length, frame).toBeLessThanOrEqual(size.rows - 1);
        for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(size.columns);
      }
      expect(h.frame().split('\n')).toHaveLength(size.rows - 1);
      expect(h.frame()).toContain('Add symbol: shop');
    });
  }
  it('a pane grown taller is filled with the rows that follow; a shorter one keeps its rows', async () => {
    const all = (await ctx.checker.listContacts({ limit: 100 })).contacts;
    const h = await mount(ctx.client, { size: { columns: 80, rows: 24 }, ready: false });
    await h.until((f) => /\d+ on this page/.test(f), 'the first page');
    const small = Number(/(\d+) on this page/.exec(h.frame())![1]);
    await h.press('n');
    await h.until((f) => /page 2/.test(f) && listsUser(f, all[small]!), 'page 2');
    await h.press('j');
    // Name and username: the other columns depend on the pane's width.
    const who = (): string => selectedRow(h).split(/\s{2,}/).slice(0, 2).join(' | ');
    const selected = who();

    await h.resize({ columns: 120, rows: 40 });
    await h.until((f) => Number(/(\d+) on this page/.exec(f)?.[1]) > small, 'the taller page');
    const frame = h.frame();
    const big = Number(/(\d+) on this page/.exec(frame)![1]);
    expect(frame).toContain('page 2');
    // The same rows on top, then the ones that follow them: nothing of page 1, nothing skipped.
    for (const contact of all.slice(small, small + big)) expect(listsUser(frame, contact), contact.username).toBe(true);
    expect(listsUser(frame, all[small - 1]!)).toBe(false);
    expect(who()).toBe(selected);
    // And the next page starts after the last row now shown.
    await h.press('n');
    await h.until((f) => /page 3 ·/.test(f), 'page 3');
    expect(listsUser(h.frame(), all[small + big]!)).toBe(true);
    expect(listsUser(h.frame(), all[small + big - 1]!)).toBe(false);
    await h.press('p');
    await h.until((f) => /page 2 ·/.test(f) && listsUser(f, all[small]!), 'page 2 again');

    const before = countLog(ctx.sb, 'GET', '/v1/contacts');
    await h.resize({ columns: 80, rows: 24 });
    await pause(500);
    expect(Number(/(\d+) on this page/.exec(h.frame())![1])).toBe(big);
    // No page is fetched for a smaller pane (only the look-ahead of the next page may be).
    expect(countLog(ctx.sb, 'GET', '/v1/contacts') - before).toBeLessThanOrEqual(1);
  });

  it('a pane grown while a contact is open is filled once the list is back', async () => {
    const h = await mount(ctx.client, { size: { columns: 80, rows: 24 }, ready: false });
    await h.until((f) => /\d+ on this page/.test(f), 'the first page');
    const small = Number(/(\d+) on this page/.exec(h.frame())![1]);
    await h.press(KEY.enter);
    await h.until((f) => /display name/.test(f), 'the contact open');
    await h.resize({ columns: 120, rows: 40 });
    await pause(400);
    await h.press(KEY.esc);
    await h.until((f) => Number(/(\d+) on this page/.exec(f)?.[1]) > small, 'the list filled after closing');
  });
});
