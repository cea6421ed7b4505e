// The mouse in the whole dashboard, reports fed through the paced input as a terminal sends them
// (xterm's SGR form, and the X10 form of terminals without it), on a real sandbox: a click
// focuses a pane and selects the row under it, a double-click opens it, the wheel moves the
// highlight and steps the chart's span, the help's pages; nothing a key could not do now is done;
// O turns it all off and on.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { INVERSE_ON } from '../../../src/tui/style/attributes.js';
import { mountInkDashboard, type InkDashboard } from '../../helpers/ink-terminal.js';
import { setUpSandbox } from '../../helpers/sandbox.js';
import { StatusBoard } from '../../../src/tui/state/status.js';
import { stripVTControlCharacters } from 'node:util';

/** SGR reports, at 0-based cells. */
const press = (column: number, row: number, button = 0) => `\u001b[<${button};${column + 1};${row + 1}M`;
const release = (column: number, row: number, button = 0) => `\u001b[<${button};${column + 1};${row + 1}m`;
const click = (column: number, row: number) => press(column, row) + release(column, row);
const wheelDown = (column: number, row: number) => `\u001b[<65;${column + 1};${row + 1}M`;
const wheelUp = (column: number, row: number) => `\u001b[<64;${column + 1};${row + 1}M`;

// At 120×30 side by side: the contacts pane is columns 0-59, the ticker 60-119; each has its
// border on row 0, its title on row 1, the column headings on row 2, and its first row on row 3.
const CONTACTS_X = 10;
const TICKER_X = 70;
const FIRST_ROW = 3;

/** The highlighted row of a pane's half of the raw frame, plain; undefined when none is. */
function highlighted(raw: string, pane: 'contacts' | 'ticker'): string | undefined {
  for (const line of raw.split('\n')) {
    for (let at = line.indexOf(INVERSE_ON); at >= 0; at = line.indexOf(INVERSE_ON, at + 1)) {
      const before = stripVTControlCharacters(line.slice(0, at));
      // The contacts pane's border is the line's first character; the ticker's starts at column 60.
      if ((pane === 'contacts') === before.length < 60) return stripVTControlCharacters(line.slice(at)).split(/[┃│|]/)[0]!.trim();
    }
  }
  return undefined;
}

const focusedPane = (frame: string): string | undefined => /▸ (Contacts|Ticker)/.exec(frame)?.[1];

describe('the mouse in the dashboard', () => {
  const ctx = setUpSandbox();
  const mounted: InkDashboard[] = [];
  const turned: boolean[] = [];
  let saved: boolean[] = [];
  beforeAll(() => {
    // Real Ink on a fake terminal, drawing on its own time: not inside act().
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
  });
  afterEach(() => {
    for (const m of mounted.splice(0)) m.unmount();
    turned.length = 0;
    saved = [];
  });
  afterAll(() => {
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  });

  async function mount(extra: { persistMouse?: (on: boolean) => void; status?: StatusBoard } = {}): Promise<InkDashboard> {
    const m = await mountInkDashboard(ctx.client, {
      watchlist: ['AAPL', 'MSFT', 'NVDA', 'AMZN'],
      mouse: true,
      onMouse: (on) => turned.push(on),
      persistMouse: extra.persistMouse ?? ((on) => saved.push(on)),
      ...(extra.status && { status: extra.status }),
    });
    mounted.push(m);
    await m.until((f) => /MSFT/.test(f) && /NVDA/.test(f), 'the watchlist');
    return m;
  }

  /** The names of the first contacts, in the order the list shows them. */
  async function firstContacts(n: number): Promise<string[]> {
    const page = await ctx.checker.listContacts({ limit: n });
    return page.contacts.map((c) => c.displayName ?? c.username);
  }

  const startsWithName = (line: string | undefined, name: string) => line !== undefined && line.startsWith(name.slice(0, 12));

  it('a click on a row of the other pane focuses that pane and selects the row', async () => {
    const m = await mount();
    expect(focusedPane(m.frame())).toBe('Contacts');
    await m.keyboard.type(click(TICKER_X, FIRST_ROW + 2));
    await m.until((f) => focusedPane(f) === 'Ticker', 'the ticker focused');
    await m.until(() => highlighted(m.raw(), 'ticker')?.startsWith('NVDA') === true, 'NVDA highlighted');

    const names = await firstContacts(6);
    await m.keyboard.type(click(CONTACTS_X, FIRST_ROW + 4));
    await m.until((f) => focusedPane(f) === 'Contacts', 'the contacts focused');
    await m.until(() => startsWithName(highlighted(m.raw(), 'contacts'), names[4]!), `${names[4]} highlighted`);
  });

  it('a double-click opens the row: a contact, a symbol; the wheel over the chart steps its span', async () => {
    const m = await mount();
    const names = await firstContacts(3);
    await m.keyboard.type(click(CONTACTS_X, FIRST_ROW + 2) + click(CONTACTS_X, FIRST_ROW + 2));
    await m.until((f) => /Esc back to the list/.test(f) && f.includes(names[2]!.slice(0, 12)), `${names[2]} open`);
    await m.keyboard.type('\u001b');
    await m.until((f) => /Enter open ·/.test(f), 'the list again');

    await m.keyboard.type(click(TICKER_X, FIRST_ROW + 1), click(TICKER_X, FIRST_ROW + 1));
    await m.until((f) => /MSFT · /.test(f) && /h\/l or 1-5: span/.test(f), 'the chart of MSFT');
    const span = () => /\u001b\[7m *(1h|1d|5d|1m|all) *\u001b/.exec(m.raw())?.[1];
    const before = span();
    await m.keyboard.type(wheelDown(40, 15));
    await m.until(() => span() !== before, 'a longer span');
    const longer = span();
    await m.keyboard.type(wheelUp(40, 15));
    await m.until(() => span() === before, `the span back to ${before} from ${longer}`);
  });

  it('two clicks far apart in time, or on two rows, are two clicks: nothing opens', async () => {
    const m = await mount();
    const names = await firstContacts(4);
    await m.keyboard.type(click(CONTACTS_X, FIRST_ROW + 1));
    await new Promise((resolve) => setTimeout(resolve, 500));
    await m.keyboard.type(click(CONTACTS_X, FIRST_ROW + 1), click(CONTACTS_X, FIRST_ROW + 3));
    await m.until(() => startsWithName(highlighted(m.raw(), 'contacts'), names[3]!), `${names[3]} highlighted`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(m.frame()).toMatch(/Enter open ·/);
  });

  it('the wheel moves the highlight three rows a step, a run of steps in one read as one move', async () => {
    const m = await mount();
    const names = await firstContacts(10);
    await m.keyboard.type(wheelDown(CONTACTS_X, 10) + wheelDown(CONTACTS_X, 10) + wheelDown(CONTACTS_X, 10));
    await m.until(() => startsWithName(highlighted(m.raw(), 'contacts'), names[9]!), `${names[9]} highlighted (9 rows down)`);
    await m.keyboard.type(wheelUp(CONTACTS_X, 10));
    await m.until(() => startsWithName(highlighted(m.raw(), 'contacts'), names[6]!), `${names[6]} highlighted (3 rows up)`);
    // Over the ticker, it is the ticker's highlight that moves, the ticker focused.
    await m.keyboard.type(wheelDown(TICKER_X, 5));
    await m.until((f) => focusedPane(f) === 'Ticker' && highlighted(m.raw(), 'ticker')?.startsWith('AMZN') === true, 'AMZN highlighted (3 down)');
  });

  it('in the symbol picker a double-click adds the match, even the first one, which a key must move to', async () => {
    const m = await mount();
    await m.keyboard.type('\t', '/');
    await m.until((f) => /matches · /.test(f), 'the picker with the catalogue');
    // The highlighted match, and the one under it, on the picker's rows.
    const lines = m.frame().split('\n');
    const row = lines.findIndex((line) => /❯ +[A-Z0-9]/.test(line));
    expect(row, m.frame()).toBeGreaterThan(0);
    const symbol = /❯ +([A-Z0-9.]+)/.exec(lines[row]!)![1]!;
    const next = /[┃│] +([A-Z0-9.]+) +\[/.exec(lines[row + 1]!.slice(lines[row + 1]!.lastIndexOf('┃', lines[row + 1]!.length - 2)))![1]!;
    const listed = (f: string, s: string) => !/matches · /.test(f) && f.split('\n').some((line) => line.includes(`┃ ${s} `) || line.includes(`│ ${s} `));
    await m.keyboard.type(click(TICKER_X, row + 1) + click(TICKER_X, row + 1));
    await m.keyboard.type('\u001b');
    await m.until((f) => listed(f, next), `${next} on the watchlist`);
    await m.keyboard.type('/');
    await m.until((f) => /matches · /.test(f), 'the picker again');
    // The first match, highlighted but never moved to: the double-click adds it all the same.
    await m.keyboard.type(click(TICKER_X, row) + click(TICKER_X, row));
    await m.keyboard.type('\u001b');
    await m.until((f) => listed(f, symbol), `${symbol} on the watchlist`);
  });

  it('a click refused while a modal is open changes nothing: once it closes, a click on the same row works', async () => {
    const m = await mount();
    const names = await firstContacts(3);
    await m.keyboard.type('\t', '/');
    await m.until((f) => /matches · /.test(f), 'the picker');
    // The picker holds the keys: a click on a contact is no key it has, and does nothing.
    await m.keyboard.type(click(CONTACTS_X, FIRST_ROW + 2));
    await m.keyboard.type('\u001b');
    await m.until((f) => !/matches · /.test(f), 'the picker closed');
    await m.keyboard.type(click(CONTACTS_X, FIRST_ROW + 2));
    await m.until((f) => focusedPane(f) === 'Contacts', 'the contacts focused');
    await m.until(() => startsWithName(highlighted(m.raw(), 'contacts'), names[2]!), `${names[2]} highlighted`);
  });

  it('the wheel turns the help\'s pages', async () => {
    const m = await mount();
    await m.keyboard.type('?');
    await m.until((f) => /page 1\/\d/.test(f), 'the help, page 1');
    await m.keyboard.type(wheelDown(50, 10));
    await m.until((f) => /page 2\/\d/.test(f), 'the help, page 2');
    await m.keyboard.type(wheelUp(50, 10));
    await m.until((f) => /page 1\/\d/.test(f), 'the help, page 1 again');
  });

  it('does nothing a key could not do now: no click moves a list while a delete asks, or focuses another pane', async () => {
    const m = await mount();
    const names = await firstContacts(3);
    const first = (await ctx.checker.listContacts({ limit: 1 })).contacts[0]!;
    await m.keyboard.type('d');
    await m.until((f) => /y: delete/.test(f), 'the delete prompt');
    await m.keyboard.type(click(CONTACTS_X, FIRST_ROW + 2), click(TICKER_X, FIRST_ROW + 1), wheelDown(CONTACTS_X, 8));
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(m.frame()).toMatch(/y: delete/);
    expect(focusedPane(m.frame())).toBe('Contacts');
    expect(startsWithName(highlighted(m.raw(), 'contacts'), names[0]!), m.frame()).toBe(true);
    await m.keyboard.type('n');
    await m.until((f) => !/y: delete/.test(f), 'the prompt gone');
    expect((await ctx.checker.getContact(first.id)).id).toBe(first.id);
  });

  it('a click on a heading, a border or under the last row selects nothing; a right click does nothing', async () => {
    const m = await mount();
    const names = await firstContacts(1);
    await m.keyboard.type(click(CONTACTS_X, 2), click(0, 10), click(TICKER_X, FIRST_ROW + 10), press(CONTACTS_X, FIRST_ROW + 3, 2) + release(CONTACTS_X, FIRST_ROW + 3, 2));
    await new Promise((resolve) => setTimeout(resolve, 150));
    // The click under the ticker's rows focused the ticker: its own highlight stays on the first.
    expect(focusedPane(m.frame())).toBe('Ticker');
    expect(highlighted(m.raw(), 'ticker')).toMatch(/^AAPL/);
    await m.keyboard.type('\t');
    await m.until((f) => focusedPane(f) === 'Contacts', 'the contacts focused');
    expect(startsWithName(highlighted(m.raw(), 'contacts'), names[0]!)).toBe(true);
  });

  it('an X10 report (a terminal without SGR) is a click too, past column 95 as well, and its bytes are never typed as keys', async () => {
    const m = await mount();
    const names = await firstContacts(6);
    const x10 = (button: number, column: number, row: number) => Buffer.from([0x1b, 0x5b, 0x4d, button + 32, column + 33, row + 33]);
    await m.keyboard.type(x10(0, CONTACTS_X, FIRST_ROW + 4));
    await m.until(() => startsWithName(highlighted(m.raw(), 'contacts'), names[4]!), `${names[4]} highlighted`);
    // Column 100 of the ticker (its byte 0x85 is no UTF-8 on its own), a press and a release.
    await m.keyboard.type(Buffer.concat([x10(0, 100, FIRST_ROW + 2), x10(3, 100, FIRST_ROW + 2)]));
    await m.until((f) => focusedPane(f) === 'Ticker' && highlighted(m.raw(), 'ticker')?.startsWith('NVDA') === true, 'NVDA highlighted');
    // 'd' and 'y' as a report's column and row bytes: a delete asked and confirmed, if typed.
    await m.keyboard.type('\t', Buffer.from(`\u001b[M#dy`));
    // Reads are handled in order: once j's move is drawn, the read before it was handled. Had d
    // and y been typed, the contact would be gone with an undo offer, and j would have moved on.
    await m.keyboard.type('j');
    await m.until(() => startsWithName(highlighted(m.raw(), 'contacts'), names[5]!), `${names[5]} highlighted`);
    expect(m.frame()).not.toMatch(/y: delete|deleted/);
  });

  it('O turns the mouse off (reports dropped) and on again, and saves the choice; a save that fails says so', async () => {
    const status = new StatusBoard();
    const m = await mount({ status });
    await m.keyboard.type('O');
    await m.until((f) => /mouse off: the terminal selects text again/.test(f), 'the notice');
    expect(turned).toEqual([false]);
    expect(saved).toEqual([false]);
    await m.keyboard.type(click(TICKER_X, FIRST_ROW + 1));
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(focusedPane(m.frame())).toBe('Contacts');
    await m.keyboard.type('O');
    await m.until((f) => /mouse on: click, double-click and the wheel/.test(f), 'the notice');
    expect(turned).toEqual([false, true]);
    await m.keyboard.type(click(TICKER_X, FIRST_ROW + 1));
    await m.until((f) => focusedPane(f) === 'Ticker', 'the ticker focused');
  });

  it('a save of O that fails says so, and the mouse is off for the session all the same', async () => {
    const m = await mount({
      persistMouse: () => {
        throw new Error('cannot save /home/x/.config/tickbook/config.json: read-only file system (EROFS)');
      },
    });
    await m.keyboard.type('O');
    await m.until((f) => /mouse off: .*not saved: cannot save/.test(f.replace(/\s+/g, ' ')), 'the notice of the failed save');
    expect(turned).toEqual([false]);
  });
});
