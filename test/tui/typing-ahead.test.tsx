// Keys typed straight after the key that opens a text field, in the same burst ("eBob"), reach
// the field: nothing typed is lost while the field's own input handler is being subscribed.
import { afterEach, describe, expect, it } from 'vitest';
import { contactName } from '../../src/api/types.js';
import { Dashboard } from '../../src/tui/Dashboard.js';
import { StatusBoard } from '../../src/tui/state/status.js';
import { drive, renderDashboard, unmountAll } from '../helpers/dashboard.js';
import { setUpSandbox } from '../helpers/sandbox.js';

describe('typing ahead into a field that is just opening', () => {
  const ctx = setUpSandbox();
  afterEach(unmountAll);

  async function mount() {
    const instance = await renderDashboard(
      <Dashboard client={ctx.client} status={new StatusBoard()} target="test" watchlist={['AAPL']} intervalS={2} size={{ columns: 120, rows: 40 }} />,
      120,
    );
    const h = drive(instance);
    await h.until((f) => /on this page/.test(f) && /AAPL\s+\d+\.\d\d/.test(f), 'the first page and prices');
    return h;
  }

  it('"e" and a name in one burst: the name lands in the rename field', async () => {
    const first = (await ctx.client.listContacts({ limit: 1 })).contacts[0]!;
    const h = await mount();
    await h.type('eXY');
    await h.until((f) => f.includes(`✎ ${contactName(first)}XY`), 'the typed letters after the prefilled name');
  });

  it('"e", Ctrl-U and a name in one burst: the prefilled name is cleared first', async () => {
    const h = await mount();
    await h.type('e\u0015New name');
    await h.until((f) => f.includes('✎ New name'), 'only the new name in the field');
    await h.type('\u007f\u007fme\u0017Bo');
    await h.until((f) => f.includes('✎ New Bo'), 'Backspace and Ctrl-W applied in order');
  });

  it('control characters and bidi overrides typed ahead never reach the field', async () => {
    const h = await mount();
    await h.type('e\u0015ab\u202ecd\u0007ef');
    await h.until((f) => f.includes('✎ abcdef'), 'only the printable letters');
    expect(h.raw()).not.toContain('\u202e');
  });

  it('"c" and a username in one burst: the username lands in the first field of the form', async () => {
    const h = await mount();
    await h.type('cbob_fast');
    const frame = await h.until((f) => /› username\s+bob_fast/.test(f), 'the username typed ahead');
    expect(frame).toContain('New contact');
  });

  it('"/" and a query in one burst, in the ticker: the picker searches for it', async () => {
    const h = await mount();
    await h.press('\t');
    await h.type('/shel');
    await h.until((f) => /Add symbol: shel/.test(f) && /❯\s+SHEL\.L/.test(f), 'the picker searching "shel"');
  });

  it('"f" and text on the contacts pane: the page filter gets it', async () => {
    const h = await mount();
    await h.type('fzzzz');
    await h.until((f) => /\/ zzzz/.test(f) && /no contact on this page matches "zzzz"/.test(f), 'the filter typed ahead');
  });
});
