// The footer's undo offer lasts as long as the undo does, and is made only where `u` would undo:
// not over the alerts view, not in the alert form (where u types a u), not in a field or the help.
// x's undo of a symbol removed runs out like a delete's, on the clock the ledger keeps.
import { afterEach, describe, expect, it } from 'vitest';
import { footerHint } from '../../src/tui/chrome/footer-hint.js';
import type { Scope } from '../../src/tui/keys/keymap.js';
import { Dashboard, type DashboardProps } from '../../src/tui/Dashboard.js';
import { StatusBoard } from '../../src/tui/state/status.js';
import { WriteLedger } from '../../src/tui/contacts/write-ledger.js';
import { drive, renderDashboard, unmountAll, type DashboardHarness } from '../helpers/dashboard.js';
import { KEY } from '../helpers/keys.js';
import { setUpSandbox } from '../helpers/sandbox.js';

afterEach(unmountAll);

const none = { contactsUndo: false, tickerUndo: false, marked: 0 };

describe('footerHint', () => {
  it('offers the ticker undo on the ticker alone', () => {
    const offers = { ...none, tickerUndo: true };
    expect(footerHint(['ticker', 'global'], offers)).toBe('u undo remove');
    for (const scopes of [['alerts', 'global'], ['alerts.form'], ['alerts.confirm'], ['detail', 'global'], ['help'], ['messages'], ['ticker.picker'], ['ticker.columns'], ['holdings'], ['contacts', 'global'], ['hidden']] as Scope[][]) {
      expect(footerHint(scopes, offers), scopes.join(',')).toBeUndefined();
    }
    expect(footerHint(['ticker', 'global'], none)).toBeUndefined();
  });

  it('offers the delete undo in the list and an open contact, not in its fields or the search', () => {
    const offers = { ...none, contactsUndo: true };
    expect(footerHint(['contacts', 'global'], offers)).toBe('u undo delete');
    expect(footerHint(['contacts.detail', 'global'], offers)).toBe('u undo delete');
    for (const scopes of [['contacts.rename'], ['contacts.create'], ['contacts.filter'], ['contacts.search'], ['contacts.confirm'], ['ticker', 'global'], ['help']] as Scope[][]) {
      expect(footerHint(scopes, offers), scopes.join(',')).toBeUndefined();
    }
  });

  it('says what the marks are for in the list only', () => {
    const offers = { ...none, marked: 3 };
    expect(footerHint(['contacts', 'global'], offers)).toBe('3 marked: d deletes them, Esc unmarks');
    for (const scopes of [['contacts.detail', 'global'], ['contacts.search'], ['contacts.confirm'], ['help'], ['ticker', 'global']] as Scope[][]) {
      expect(footerHint(scopes, offers), scopes.join(',')).toBeUndefined();
    }
    // An undo on offer comes first: u is the key of the moment.
    expect(footerHint(['contacts', 'global'], { ...offers, contactsUndo: true })).toBe('u undo delete');
  });
});

const footer = (h: DashboardHarness): string => h.frame().split('\n').filter((line) => line.trim() !== '').at(-1) ?? '';
const tickerSymbols = (h: DashboardHarness): string[] =>
  h.frame().split('\n').flatMap((line) => {
    const m = /[│┃][│┃] ([A-Z]+) /.exec(line);
    return m && m[1] !== 'SYMBOL' ? [m[1]!] : [];
  });

describe('x and u on the ticker', () => {
  const ctx = setUpSandbox();

  async function mount(extra: Partial<DashboardProps>): Promise<DashboardHarness> {
    const props: DashboardProps = {
      client: ctx.client,
      status: new StatusBoard(),
      target: 'sandbox (undo hint test)',
      watchlist: ['AAPL', 'MSFT', 'NVDA'],
      intervalS: 60,
      size: { columns: 120, rows: 40 },
      ...extra,
    };
    const h = drive(await renderDashboard(<Dashboard {...props} />, 120));
    await h.until((f) => /NVDA .*\d+\.\d\d/.test(f), 'the prices');
    return h;
  }

  it('the offer is not made over the alerts view or in the alert form, where u types a u; it ends with the undo, by the same clock', async () => {
    let t = 1_000;
    const ledger = new WriteLedger(() => t);
    const h = await mount({ ledger, undoWindowMs: 5_000 });
    await h.press(KEY.tab, 'j', 'x');
    await h.until((f) => f.includes('removed MSFT'), 'MSFT removed');
    expect(footer(h)).toMatch(/^ u undo remove · /);

    // The alerts view: u is no key there.
    await h.press('A');
    await h.until((f) => /Alerts · /.test(f), 'the alerts view');
    expect(footer(h)).not.toContain('undo');
    await h.press(KEY.esc);
    await h.until((f) => !/Alerts · /.test(f), 'the ticker again');
    expect(footer(h)).toMatch(/^ u undo remove · /);

    // The alert form (a, on the symbol highlighted): u is a letter of the condition.
    await h.press('a');
    await h.until((f) => /New alert/.test(f), 'the alert form');
    expect(footer(h)).not.toContain('undo');
    await h.press('u');
    await h.until((f) => /condition +u/.test(f), 'u typed');
    expect(tickerSymbols(h)).not.toContain('MSFT');
    await h.press(KEY.esc);
    await h.until((f) => !/New alert/.test(f), 'the form closed');
    expect(footer(h)).toMatch(/^ u undo remove · /);

    // A moment short of the window, u still undoes; removed again, the window starts again.
    t += 4_999;
    await h.press('u');
    await h.until((f) => f.includes('MSFT is back'), 'MSFT back');
    expect(footer(h)).not.toContain('undo');
    await h.press('x');
    await h.until((f) => f.includes('removed MSFT'), 'MSFT removed again');
    expect(footer(h)).toMatch(/^ u undo remove · /);
    // The window over: u puts nothing back, and the offer is gone with it.
    t += 5_000;
    await h.press('u');
    await h.until((f) => !/u undo remove/.test(footer({ ...h, frame: () => f })), 'the offer gone');
    expect(tickerSymbols(h)).toEqual(['AAPL', 'NVDA']);
    expect(h.frame()).not.toContain('MSFT is back');
  });

  it('the offer goes by itself when the window ends, with no key pressed', async () => {
    const h = await mount({ undoWindowMs: 300 });
    await h.press(KEY.tab, 'x');
    await h.until((f) => f.includes('removed AAPL'), 'AAPL removed');
    expect(footer(h)).toMatch(/^ u undo remove · /);
    await h.until((f) => !/u undo remove/.test(f), 'the offer gone');
    await h.press('u');
    expect(tickerSymbols(h)).toEqual(['MSFT', 'NVDA']);
    expect(h.frame()).not.toContain('AAPL is back');
  });
});
