// What the dashboard draws of a name may leave out what a terminal cannot draw alike (a ZWJ, a
// skin tone, a virama); what it saves never does. Enter on an untouched rename sends nothing,
// and text typed into the create form is stored as typed. Real sandbox, real Ink.
import { afterEach, describe, expect, it } from 'vitest';
import { Dashboard } from '../../../src/tui/Dashboard.js';
import { StatusBoard } from '../../../src/tui/state/status.js';
import { drive, renderDashboard, unmountAll } from '../../helpers/dashboard.js';
import { pause } from '../../helpers/ink.js';
import { setUpSandbox } from '../../helpers/sandbox.js';

const NAMES = [
  'Family \u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}',
  'Thumbs \u{1F44D}\u{1F3FD}',
  '\u0645\u062D\u0645\u062F\u200C\u0631\u0636\u0627',
  '\u0928\u092E\u0938\u094D\u0924\u0947 Devi',
  'Zed\u200B\u200FYZ',
];

describe('names are saved whole', () => {
  const ctx = setUpSandbox({ demoData: false });
  afterEach(unmountAll);

  const patches = () => ctx.sb.logLines.filter((line) => line.includes(' PATCH ')).length;

  async function mount() {
    const element = <Dashboard client={ctx.client} status={new StatusBoard()} target="test" watchlist={['AAPL']} intervalS={30} size={{ columns: 120, rows: 30 }} />;
    const h = drive(await renderDashboard(element, 120));
    await h.until((f) => /on this page/.test(f), 'the first page');
    return h;
  }

  it.each(NAMES)('e then Enter on "%s" sends nothing and changes nothing', async (name) => {
    const created = await ctx.checker.createContact({ username: `u${Math.random().toString(36).slice(2, 10)}`, phoneNumber: '+442079460958', displayName: name });
    const before = patches();
    const h = await mount();
    await h.press('e');
    await h.until((f) => f.includes('Enter save name'), 'the rename field');
    await h.press('\r');
    await h.until((f) => !f.includes('Enter save name'), 'the field to close');
    await pause(100);
    expect(patches()).toBe(before);
    expect((await ctx.checker.getContact(created.id)).displayName).toBe(name);
    await ctx.checker.deleteContact(created.id);
  });

  it('typed into the create form, Hindi, a skin tone and an emoji sequence are stored as typed', async () => {
    const name = '\u0928\u092E\u0938\u094D\u0924\u0947 \u{1F44D}\u{1F3FD} \u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
    const h = await mount();
    await h.press('c');
    await h.type('devi_typed');
    await h.press('\t');
    await h.type('+91 98765 43210');
    await h.press('\t');
    await h.type(name);
    await h.press('\r');
    await h.until((f) => !f.includes('New contact'), 'the contact created');
    const { contacts } = await ctx.checker.listContacts({ limit: 10 });
    expect(contacts.find((c) => c.username === 'devi_typed')?.displayName).toBe(name);
  });

  it('a rename that changes the name keeps the rest of it whole', async () => {
    const created = await ctx.checker.createContact({ username: 'family_rename', phoneNumber: '+442079460959', displayName: NAMES[0]! });
    const h = await mount();
    await h.press('e');
    await h.until((f) => f.includes('Enter save name'), 'the rename field');
    await h.type('!');
    await h.press('\r');
    await h.until((f) => f.includes('renamed to'), 'the rename');
    expect((await ctx.checker.getContact(created.id)).displayName).toBe(`${NAMES[0]}!`);
  });
});
