// Bulk delete in the contacts pane, as a user drives it: Space, * and Esc mark and unmark rows of
// the real Dashboard (ink-testing-library, 120×40), d asks once for the marked contacts, u brings
// them back within the undo window, and once it has passed they are deleted two at a time with a
// progress bar. Against a real in-process sandbox over loopback HTTP (40 contacts, so page 1 is
// full and more follow), checked through the frame and through the server itself; a proxy in
// front of it refuses one DELETE and is slow on purpose where a test needs to see the progress.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

// The selected row is drawn inverted, seen in the frame only with Ink's colouring on (off when
// stdout is not a terminal). Turned on before Ink (and chalk) load, and put back after.
const savedForceColor = vi.hoisted(() => {
  const saved = process.env.FORCE_COLOR;
  process.env.FORCE_COLOR = '1';
  return saved;
});

import { TickbookClient } from '../../../src/api/client.js';
import { ApiError } from '../../../src/api/errors.js';
import { contactName, type Contact } from '../../../src/api/types.js';
import { Dashboard } from '../../../src/tui/Dashboard.js';
import { StatusBoard } from '../../../src/tui/state/status.js';
import { WriteLedger } from '../../../src/tui/contacts/write-ledger.js';
import { drive, expectFramesFit, renderDashboard, unmountAll, type DashboardHarness } from '../../helpers/dashboard.js';
import { inAct, inverseSegments, waitFor } from '../../helpers/ink.js';
import { KEY } from '../../helpers/keys.js';
import { type Proxy, startProxy } from '../../helpers/proxy.js';
import { type TestSandbox, setUpSandbox } from '../../helpers/sandbox.js';

const SIZE = { columns: 120, rows: 40 };
/** At 120×40 a page of contacts is 32 rows (the panes 37 lines, less borders, title, header, bottom line). */
const PAGE = 32;
/** Enough contacts for a full page 1 and a page 2 behind it. */
const CONTACTS = 40;

afterAll(() => {
  if (savedForceColor === undefined) delete process.env.FORCE_COLOR;
  else process.env.FORCE_COLOR = savedForceColor;
});

afterEach(unmountAll);

interface Harness extends DashboardHarness {
  ledger: WriteLedger;
}

/**
 * The Dashboard on `client`, its first page of contacts drawn. The ledger is the test's, as the
 * real run owns it: a test can settle it as every way out does.
 */
async function mount(client: TickbookClient, undoWindowMs: number): Promise<Harness> {
  const ledger = new WriteLedger();
  const instance = await renderDashboard(
    <Dashboard client={client} status={new StatusBoard()} target="bulk delete (component test)" watchlist={['AAPL']} intervalS={30} size={SIZE} undoWindowMs={undoWindowMs} ledger={ledger} />,
    SIZE.columns,
  );
  const h = { ...drive(instance), ledger };
  await h.until((f) => /\d+ on this page/.test(f), 'the first page of contacts');
  return h;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The username as the list's USERNAME column shows it (15 columns at this width, cut with …). */
const usernameCell = (username: string): string => (username.length > 15 ? `${username.slice(0, 14)}…` : username);

/** The contacts pane's row of this contact (found by its username cell), if the list shows it. */
function rowOf(frame: string, contact: Contact): string | undefined {
  const cell = new RegExp(`\\s${escapeRegExp(usernameCell(contact.username))}\\s`);
  return frame.split('\n').find((line) => line.startsWith('┃ ') && cell.test(line));
}

const listed = (frame: string, contact: Contact): boolean => rowOf(frame, contact) !== undefined;

/** Whether the row of this contact is drawn with the mark (✓ before the name). */
const isMarked = (frame: string, contact: Contact): boolean => rowOf(frame, contact)?.startsWith('┃ ✓ ') === true;

/** How many rows of the contacts pane are drawn marked. */
const markedRows = (frame: string): number => frame.split('\n').filter((line) => line.startsWith('┃ ✓ ')).length;

/** The selected contact row, its mark left out: the first inverted text (the status line's target comes later). */
const selectedRow = (h: DashboardHarness): string => (inverseSegments(h.raw())[0] ?? '').trim().replace(/^✓ /, '');

/** The first characters of the name the list shows: what the selected row starts with. */
const namePrefix = (contact: Contact): string => [...contactName(contact)].slice(0, 8).join('');

/** Every contact id on the server, in list order: the whole list, every page. */
async function allIds(checker: TickbookClient): Promise<string[]> {
  return inAct(async () => {
    const ids: string[] = [];
    for await (const contact of checker.allContacts({ limit: 100 })) ids.push(contact.id);
    return ids;
  });
}

/** The DELETEs the sandbox answered, by the path they named. */
const deletesLogged = (sb: TestSandbox): string[] =>
  sb.logLines.filter((line) => line.includes(' DELETE /v1/contacts/')).map((line) => /DELETE (\S+)/.exec(line)![1]!);

async function exists(checker: TickbookClient, id: string): Promise<boolean> {
  try {
    await checker.getContact(id);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.kind === 'not_found') return false;
    throw error;
  }
}

async function firstPage(checker: TickbookClient): Promise<Contact[]> {
  const page = await inAct(() => checker.listContacts({ limit: PAGE }));
  expect(page.contacts).toHaveLength(PAGE);
  return page.contacts;
}

// ---------------------------------------------------------------------------------------------

describe('marking contacts', () => {
  const ctx = setUpSandbox({ demoData: true, demoContacts: CONTACTS });

  it('Space marks the selected contact and moves down a row: three presses mark the first three, the cursor on the fourth', async () => {
    const rows = await firstPage(ctx.checker);
    const h = await mount(ctx.client, 300);
    expect(selectedRow(h).startsWith(namePrefix(rows[0]!))).toBe(true);
    await h.press(KEY.space, KEY.space, KEY.space);
    const frame = h.frame();
    for (const marked of rows.slice(0, 3)) expect(isMarked(frame, marked), marked.username).toBe(true);
    // Only those: the row under the cursor now, and every one after it, is not marked.
    for (const other of rows.slice(3)) {
      expect(listed(frame, other), other.username).toBe(true);
      expect(isMarked(frame, other), other.username).toBe(false);
    }
    expect(markedRows(frame)).toBe(3);
    expect(selectedRow(h).startsWith(namePrefix(rows[3]!)), selectedRow(h)).toBe(true);
    expect(frame).toContain('3 marked: d deletes them, Esc unmarks');
    expect(frame).toContain(`${PAGE} on this page · 3 marked`);

    // Space on a marked row unmarks it (and moves on all the same).
    await h.press('k', KEY.space);
    expect(isMarked(h.frame(), rows[2]!)).toBe(false);
    expect(isMarked(h.frame(), rows[1]!)).toBe(true);
    expect(selectedRow(h).startsWith(namePrefix(rows[3]!)), selectedRow(h)).toBe(true);
    expect(h.frame()).toContain('2 marked: d deletes them, Esc unmarks');
    expectFramesFit(h.instance, SIZE.columns, SIZE.rows - 1);
  });

  it('* marks every contact shown, and with all of them marked unmarks them; Esc unmarks everything', async () => {
    const rows = await firstPage(ctx.checker);
    const h = await mount(ctx.client, 300);
    await h.press('*');
    let frame = h.frame();
    expect(markedRows(frame)).toBe(PAGE);
    for (const row of rows) expect(isMarked(frame, row), row.username).toBe(true);
    expect(frame).toContain(`${PAGE} marked: d deletes them, Esc unmarks`);
    // The cursor does not move.
    expect(selectedRow(h).startsWith(namePrefix(rows[0]!))).toBe(true);

    await h.press('*');
    frame = h.frame();
    expect(markedRows(frame)).toBe(0);
    expect(frame).not.toContain('marked');

    // With only some marked, * marks the rest (it does not flip each row).
    await h.press(KEY.space, '*');
    expect(markedRows(h.frame())).toBe(PAGE);

    await h.press(KEY.esc);
    frame = h.frame();
    expect(markedRows(frame)).toBe(0);
    expect(frame).not.toContain('marked');
    // Nothing marked: d asks about the selected contact alone, as before marks existed.
    await h.press('d');
    expect(h.frame()).toContain(`Delete ${contactName(rows[1]!)} (${rows[1]!.username})?`);
    expect(h.frame()).not.toContain('marked contacts');
    await h.press('n');
  });

  it('d asks once, naming how many are marked; n (and Esc, there) keeps them all, still marked, and sends nothing', async () => {
    const rows = await firstPage(ctx.checker);
    const deletesBefore = deletesLogged(ctx.sb).length;
    const h = await mount(ctx.client, 300);
    await h.press(KEY.space, KEY.space, KEY.space, 'd');
    let frame = h.frame();
    expect(frame).toContain('Delete the 3 marked contacts?');
    expect(frame).toContain('y: delete 3');
    expect(frame).toContain('y yes, delete');
    for (const keep of ['n', KEY.esc]) {
      if (keep !== 'n') await h.press('d');
      await h.press(keep);
      frame = h.frame();
      expect(frame, `after ${JSON.stringify(keep)}`).not.toContain('Delete the');
      // The Esc that closes the question is not the Esc that unmarks.
      for (const row of rows) expect(isMarked(frame, row), `${row.username} after ${JSON.stringify(keep)}`).toBe(rows.indexOf(row) < 3);
      expect(frame).toContain('3 marked: d deletes them');
    }
    expect(deletesLogged(ctx.sb).length).toBe(deletesBefore);
    // Whatever the ledger holds would be sent by settling it: there must be nothing.
    await inAct(() => h.ledger.settle());
    expect(deletesLogged(ctx.sb).length).toBe(deletesBefore);
  });
});

// ---------------------------------------------------------------------------------------------

describe('deleting the marked contacts', () => {
  const ctx = setUpSandbox({ demoData: true, demoContacts: CONTACTS });
  let proxy: Proxy;
  let proxied: TickbookClient;

  beforeAll(async () => {
    proxy = await startProxy(ctx.sb.url);
    // One try per call: a refusal is the answer, not something to wait out.
    proxied = new TickbookClient({ contactsUrl: proxy.url, marketDataUrl: proxy.url, token: ctx.sb.token, apiKey: ctx.sb.apiKey, retry: { retries: 0 } });
  });
  afterEach(() => {
    proxy.rules = {};
  });
  afterAll(async () => {
    await proxied?.close();
    await proxy?.close();
  });

  it('d y hides exactly the marked three and offers undo; u brings them back, still marked, and nothing is deleted', async () => {
    const rows = await firstPage(ctx.checker);
    const before = await allIds(ctx.checker);
    const deletesBefore = deletesLogged(ctx.sb).length;
    // A long window: u comes well inside it.
    const h = await mount(ctx.client, 10_000);
    await h.press(KEY.space, KEY.space, KEY.space, 'd', 'y');
    let frame = h.frame();
    const three = rows.slice(0, 3);
    for (const gone of three) expect(listed(frame, gone), gone.username).toBe(false);
    for (const kept of rows.slice(3)) expect(listed(frame, kept), kept.username).toBe(true);
    expect(markedRows(frame)).toBe(0);
    const offer = /deleted 3 contacts · u: undo \((\d+)s\)/.exec(frame);
    expect(offer, frame).not.toBeNull();
    expect(Number(offer![1])).toBeGreaterThanOrEqual(1);
    expect(Number(offer![1])).toBeLessThanOrEqual(10);
    expect(frame).toMatch(/ u undo delete · /);

    await h.press('u');
    frame = h.frame();
    for (const back of three) expect(isMarked(frame, back), back.username).toBe(true);
    expect(markedRows(frame)).toBe(3);
    expect(frame).toContain('kept the 3 contacts (still marked)');
    expect(frame).toContain('3 marked: d deletes them, Esc unmarks');
    expect(frame).not.toContain('u: undo');

    // Settling the ledger sends whatever it still holds, as quitting would: the batch undone
    // must not be among it.
    await inAct(() => h.ledger.settle());
    expect(deletesLogged(ctx.sb).length).toBe(deletesBefore);
    expect(await allIds(ctx.checker)).toEqual(before);
  });

  it('once the window has passed, exactly the three are deleted, two at a time with a progress bar, and nothing else', async () => {
    const rows = await firstPage(ctx.checker);
    const before = await allIds(ctx.checker);
    const deletesBefore = deletesLogged(ctx.sb).length;
    // Each DELETE held a while, so the progress is on screen long enough to be seen, and when
    // each one arrived tells how many were under way at once.
    const arrivals: number[] = [];
    proxy.rules = {
      delayMs: (req) => {
        if (req.method !== 'DELETE') return 0;
        arrivals.push(performance.now());
        return 250;
      },
    };
    const h = await mount(proxied, 300);
    const three = rows.slice(0, 3);
    await h.press(KEY.space, KEY.space, KEY.space, 'd', 'y');
    expect(h.frame()).toContain('deleted 3 contacts · u: undo');

    const progress = await h.until((f) => f.includes('deleting '), 'the progress bar', 5000);
    expect(progress).toMatch(/▕█* *▏ deleting [0-3] of 3/);
    const frame = await h.until((f) => f.includes('deleted 3 contacts and their conversations'), 'the final notice', 5000);
    expect(frame).not.toContain('deleting ');
    for (const gone of three) expect(listed(frame, gone), gone.username).toBe(false);
    expect(markedRows(frame)).toBe(0);
    // The bar counted up to all three on the way.
    const drawn = h.instance.frames.join('\n');
    expect(drawn).toMatch(/deleting 2 of 3/);

    // Two at a time: the third went only once one of the first two was answered.
    expect(arrivals).toHaveLength(3);
    expect(arrivals[1]! - arrivals[0]!).toBeLessThan(150);
    expect(arrivals[2]! - arrivals[0]!).toBeGreaterThanOrEqual(200);

    // The server: those three gone, every other contact there, each DELETE sent once.
    const ids = three.map((c) => c.id);
    expect(await allIds(ctx.checker)).toEqual(before.filter((id) => !ids.includes(id)));
    expect(deletesLogged(ctx.sb).slice(deletesBefore).sort()).toEqual(ids.map((id) => `/v1/contacts/${id}`).sort());
    expectFramesFit(h.instance, SIZE.columns, SIZE.rows - 1);
  });

  it('a DELETE refused (500) comes back marked, its reason in the log (m); one already gone (404) counts as done', async () => {
    const rows = await firstPage(ctx.checker);
    const [deleted, refused, alreadyGone] = rows.slice(0, 3) as [Contact, Contact, Contact];
    proxy.rules = {
      answer: (req) =>
        req.method === 'DELETE' && req.url.split('?')[0] === `/v1/contacts/${refused.id}`
          ? { status: 500, body: JSON.stringify({ status: 'error', code: 'internal_error', message: 'the database is locked' }) }
          : undefined,
    };
    const h = await mount(proxied, 300);
    await h.press(KEY.space, KEY.space, KEY.space);
    // Deleted elsewhere after the page was drawn: the sandbox itself answers its DELETE with 404.
    await inAct(() => ctx.checker.deleteContact(alreadyGone.id));
    const before = await allIds(ctx.checker);
    await h.press('d', 'y');
    let frame = await h.until((f) => f.includes('deleted 2 of 3'), 'the report', 5000);
    expect(frame).toContain('deleted 2 of 3; 1 not deleted, marked again (m lists why)');
    expect(isMarked(frame, refused)).toBe(true);
    expect(listed(frame, deleted)).toBe(false);
    expect(listed(frame, alreadyGone)).toBe(false);
    expect(markedRows(frame)).toBe(1);
    expect(frame).toContain('1 marked: d deletes them, Esc unmarks');

    expect(await inAct(() => exists(ctx.checker, deleted.id))).toBe(false);
    expect(await inAct(() => exists(ctx.checker, refused.id))).toBe(true);
    expect(await allIds(ctx.checker)).toEqual(before.filter((id) => id !== deleted.id));
    expect(proxy.count('DELETE', `/v1/contacts/${alreadyGone.id}`)).toBe(1);

    await h.press('m');
    frame = await h.until((f) => f.includes('Messages, newest first'), 'the message log');
    expect(frame).toContain(`not deleted: ${contactName(refused)}: the database is locked`);
    // Only the refusal is a "not deleted": the 404 is not reported as one.
    expect(frame.match(/not deleted: /g)).toHaveLength(1);
    await h.press(KEY.esc);
  });

  it('a DELETE refused while the user is leaving is reported on the way out, as a single one is', async () => {
    const rows = await firstPage(ctx.checker);
    const refused = rows[0]!;
    proxy.rules = {
      answer: (req) =>
        req.method === 'DELETE' && req.url.split('?')[0] === `/v1/contacts/${refused.id}`
          ? { status: 500, body: JSON.stringify({ status: 'error', code: 'internal_error', message: 'the database is locked' }) }
          : undefined,
    };
    const h = await mount(proxied, 60_000);
    await h.press(KEY.space, 'd', 'y');
    await h.press('q');
    await waitFor(() => h.exited(), 5000, 'the app to exit');
    expect(h.ledger.unfinished()).toEqual([expect.objectContaining({ what: `delete ${contactName(refused)}`, failed: true })]);
  });

  it('with contacts marked, d in an open contact asks about that contact alone; u keeps marks made during the window', async () => {
    const rows = await firstPage(ctx.checker);
    const h = await mount(ctx.client, 60_000);
    // Rows 0 and 1 marked; the cursor on row 2, opened.
    await h.press(KEY.space, KEY.space, KEY.enter);
    await h.until((f) => f.includes(rows[2]!.conversationId), 'the third contact open');
    await h.press('d');
    const asked = await h.until((f) => /Delete /.test(f) && /y: delete/.test(f), 'the question');
    expect(asked).not.toContain('marked contacts?');
    expect(asked).not.toContain('marked: d deletes them');
    await h.press('n', KEY.esc);
    await h.until((f) => /2 marked/.test(f), 'back on the list, two marked');
    // The batch in its window, then a third contact marked, then undo: all three marked.
    await h.press('d', 'y');
    await h.until((f) => f.includes('deleted 2 contacts · u: undo'), 'the batch in its window');
    await h.press(KEY.space, 'u');
    await h.until((f) => /3 marked/.test(f), 'the two back and the one marked meanwhile, all marked');
  });
});

// ---------------------------------------------------------------------------------------------

describe('leaving with a batch in its undo window', () => {
  const ctx = setUpSandbox({ demoData: true, demoContacts: CONTACTS });

  it('q sends the batch still in its window, then the app exits', async () => {
    const rows = await firstPage(ctx.checker);
    const before = await allIds(ctx.checker);
    // A window the test would never see end: only leaving can send it.
    const h = await mount(ctx.client, 60_000);
    const three = rows.slice(0, 3);
    await h.press(KEY.space, KEY.space, KEY.space, 'd', 'y');
    expect(h.frame()).toContain('deleted 3 contacts · u: undo');
    expect(deletesLogged(ctx.sb)).toEqual([]);
    await h.press('q');
    await waitFor(() => h.exited(), 5000, 'the app to exit');
    const ids = three.map((c) => c.id);
    expect(deletesLogged(ctx.sb).sort()).toEqual(ids.map((id) => `/v1/contacts/${id}`).sort());
    expect(await allIds(ctx.checker)).toEqual(before.filter((id) => !ids.includes(id)));
    expect(h.ledger.unfinished()).toEqual([]);
  });

  it('the owner settling the ledger (a signal, the terminal gone) sends the batch still in its window', async () => {
    const rows = await firstPage(ctx.checker);
    const before = await allIds(ctx.checker);
    const deletesBefore = deletesLogged(ctx.sb).length;
    const h = await mount(ctx.client, 60_000);
    const three = rows.slice(0, 3);
    await h.press(KEY.space, KEY.space, KEY.space, 'd', 'y');
    expect(h.frame()).toContain('deleted 3 contacts · u: undo');
    // What runDashboard does on every way out, React's state aside.
    await inAct(() => h.ledger.settle());
    const ids = three.map((c) => c.id);
    expect(deletesLogged(ctx.sb).slice(deletesBefore).sort()).toEqual(ids.map((id) => `/v1/contacts/${id}`).sort());
    expect(await allIds(ctx.checker)).toEqual(before.filter((id) => !ids.includes(id)));
    expect(h.ledger.unfinished()).toEqual([]);
  });
});
