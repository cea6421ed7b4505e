// Every key, at once, in the contacts list: the whole dashboard on a fake terminal, keys through
// the paced input as a terminal sends them (in one read, or in separate reads faster than a
// redraw), on a real sandbox of 2,000 contacts whose order is known, so the exact contact the
// selection ends on is asserted.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TickbookClient } from '../../src/api/client.js';
import { inverseSegments } from '../helpers/ink.js';
import { manyUsername, MANY_API_KEY, MANY_TOKEN, startManyContactsSandbox } from '../helpers/many-contacts.js';
import { mountInkDashboard, type InkDashboard } from '../helpers/ink-terminal.js';
import { startProxy, type Proxy } from '../helpers/proxy.js';
import { sandboxClient, type TestSandbox } from '../helpers/sandbox.js';

const COUNT = 2000;
const DOWN = '\u001b[B';
const UP = '\u001b[A';
const PAGE_UP = '\u001b[5~';

let sb: TestSandbox;
let client: TickbookClient;
const mounted: InkDashboard[] = [];

beforeAll(async () => {
  // Real Ink on a fake terminal, drawing on its own time, as in a terminal: not inside act().
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
  sb = await startManyContactsSandbox(COUNT);
  client = sandboxClient(sb);
});
afterEach(() => {
  for (const m of mounted.splice(0)) m.unmount();
});
afterAll(async () => {
  await client?.close();
  await sb?.close();
});

async function mount(on: TickbookClient = client): Promise<InkDashboard> {
  const m = await mountInkDashboard(on);
  mounted.push(m);
  return m;
}

/** The list position of the selected contact ("Person 00042" is position 42). */
function selected(m: InkDashboard): number {
  const row = inverseSegments(m.raw()).find((segment) => /Person \d{5}/.test(segment));
  return Number(/Person (\d{5})/.exec(row ?? '')?.[1] ?? NaN);
}

const pageShown = (m: InkDashboard): number => Number(/page (\d+)/.exec(m.frame())?.[1] ?? NaN);

/** Rows per page at this size: the rows on the first page. */
const rowsPerPage = (m: InkDashboard): number => (m.frame().match(/Person \d{5}/g) ?? []).length;

/** Waits until the selection is on the contact at `position` (and no page is still coming). */
async function selectionAt(m: InkDashboard, position: number): Promise<void> {
  await m.until(() => selected(m) === position && !/page \d+…/.test(m.frame()), `the selection on ${manyUsername(position)}`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('counted moves in the contacts list', () => {
  it('100 j in one read, and 100 ↓ in one read, end exactly 100 rows down, across pages, in a few frames', async () => {
    const m = await mount();
    const perPage = rowsPerPage(m);
    expect(perPage).toBeGreaterThan(5);
    const before = m.frames();
    await m.keyboard.type('j'.repeat(100));
    await selectionAt(m, 100);
    expect(pageShown(m)).toBe(Math.floor(100 / perPage) + 1);
    // One state change with a count: the pages passed over are never drawn.
    expect(m.frames() - before).toBeLessThan(10);

    const again = m.frames();
    await m.keyboard.type(DOWN.repeat(100));
    await selectionAt(m, 200);
    expect(m.frames() - again).toBeLessThan(10);
    await m.keyboard.type(UP.repeat(150));
    await selectionAt(m, 50);
  });

  it('100 ↓ held (separate reads at 60 keys/s) end exactly 100 rows down: none lost while pages come, none doubled', async () => {
    const m = await mount();
    for (let i = 0; i < 100; i++) {
      m.keyboard.emit('data', Buffer.from(DOWN));
      await sleep(16);
    }
    await selectionAt(m, 100);
    await sleep(200);
    expect(selected(m)).toBe(100);
  });

  it('10 n in separate reads faster than a page comes move exactly 10 pages; 100 n in one read stops at the top of the last page', async () => {
    const m = await mount();
    const perPage = rowsPerPage(m);
    await m.keyboard.type(...Array<string>(10).fill('n'));
    await selectionAt(m, 10 * perPage);
    expect(pageShown(m)).toBe(11);
    await m.keyboard.type('n'.repeat(100));
    const lastPage = Math.ceil(COUNT / perPage);
    await selectionAt(m, (lastPage - 1) * perPage);
    expect(pageShown(m)).toBe(lastPage);
  });

  it('30 PgUp in one read from page 40 go back exactly 30 pages, onto the bottom row of page 10', async () => {
    const m = await mount();
    const perPage = rowsPerPage(m);
    await m.keyboard.type('n'.repeat(39));
    await selectionAt(m, 39 * perPage);
    await m.keyboard.type(PAGE_UP.repeat(30));
    await selectionAt(m, 10 * perPage - 1);
    expect(pageShown(m)).toBe(10);
  });

  it('G goes to the last contact of the whole list and g back to the first', async () => {
    const m = await mount();
    const perPage = rowsPerPage(m);
    await m.keyboard.type('G');
    await selectionAt(m, COUNT - 1);
    expect(pageShown(m)).toBe(Math.ceil(COUNT / perPage));
    await m.keyboard.type('g');
    await selectionAt(m, 0);
    expect(pageShown(m)).toBe(1);
  });
});

describe('keys behind a move act on the page it lands on', () => {
  it('G then Enter, typed faster than the walk, opens the last contact; n then e renames a contact of the next page', async () => {
    const m = await mount();
    const perPage = rowsPerPage(m);
    await m.keyboard.type('G', '\r');
    await m.until((f) => /conversation/.test(f) && f.includes(manyUsername(COUNT - 1)), 'the last contact open');
    await m.keyboard.type('\u001b');
    await m.until((f) => !/conversation/.test(f), 'back on the list');
    await m.keyboard.type('g', 'n', 'e', '\u0015', 'Moved On');
    await m.until((f) => f.includes('Moved On'), 'the rename field with the new text');
    await m.keyboard.type('\r');
    await m.until((f) => /renamed to Moved On/.test(f), 'the rename saved');
    const renamed = (await client.getContact((await client.listContacts({ limit: 1, startingAfter: (await client.listContacts({ limit: perPage })).contacts.at(-1)!.id })).contacts[0]!.id));
    expect(renamed.username).toBe(manyUsername(perPage));
    expect(renamed.displayName).toBe('Moved On');
  });
});

describe('a paste behind a move', () => {
  it('G, then f and a paste, typed faster than the walk: the paste goes into the filter f opens on the last page', async () => {
    const m = await mount();
    await m.keyboard.type('G', 'f', '\u001b[200~many\u001b[201~');
    await m.until((f) => /┃ \/ many /.test(f), 'the pasted text in the filter');
    expect(m.frame()).not.toContain('paste ignored');
  });
});

describe('a long walk over a slow link', () => {
  let proxy: Proxy;
  let slow: TickbookClient;
  beforeAll(async () => {
    proxy = await startProxy(sb.url, { delayMs: (req) => (req.url.includes('limit=100') ? 150 : 0) });
    slow = new TickbookClient({ contactsUrl: proxy.url, marketDataUrl: proxy.url, token: MANY_TOKEN, apiKey: MANY_API_KEY });
  });
  afterAll(async () => {
    await slow?.close();
    await proxy?.close();
  });

  it('shows how far it has come, and Esc stops it where it is: the page on screen stays and says so', async () => {
    const m = await mount(slow);
    await m.keyboard.type('G');
    await m.until((f) => /going to the last page: [\d,]+ contacts on · Esc stops/.test(f), 'the walk saying how far it has come');
    const asked = proxy.count('GET', '/contacts');
    await m.keyboard.type('\u001b');
    await m.until((f) => /stopped: still on page 1/.test(f), 'the walk stopped');
    await sleep(400);
    expect(pageShown(m), m.raw()).toBe(1);
    expect(selected(m)).toBe(0);
    // Nothing more was asked after Esc (one request may have been under way).
    expect(proxy.count('GET', '/contacts')).toBeLessThanOrEqual(asked + 1);
    // And the list still moves.
    await m.keyboard.type('j');
    await selectionAt(m, 1);
  });

  it('Esc stops the walk though keys typed for the page it was going to wait behind it, and those keys go with it', async () => {
    const m = await mount(slow);
    await m.keyboard.type('G');
    await m.until((f) => /going to the last page: [\d,]+ contacts on · Esc stops/.test(f), 'the walk under way');
    // e waits for the last page; Esc, behind it, must not.
    await m.keyboard.type('e');
    await m.keyboard.type('\u001b');
    await m.until((f) => /stopped: still on page 1/.test(f), 'the walk stopped');
    // j comes after anything still queued: had e waited on, the rename field would take the j.
    await m.keyboard.type('j');
    await selectionAt(m, 1);
    expect(pageShown(m)).toBe(1);
    expect(m.frame()).not.toMatch(/renamed|Rename/);
  });
});
