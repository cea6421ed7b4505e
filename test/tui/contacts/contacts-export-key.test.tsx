// x in the contacts pane writes the marked contacts (or, with none marked, every contact) as
// vCard to a file of its own in the export directory (two begun in one second both kept), and
// the status line says where; a directory that cannot be written says so and the app goes on. Through the real Dashboard and a real sandbox.
import { existsSync, lchownSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { localDateTime } from '../../../src/text/time.js';
import { Dashboard, type DashboardProps } from '../../../src/tui/Dashboard.js';
import { StatusBoard } from '../../../src/tui/state/status.js';
import { drive, renderDashboard, unmountAll } from '../../helpers/dashboard.js';
import { waitFor } from '../../helpers/ink.js';
import { setUpSandbox } from '../../helpers/sandbox.js';
import { KEY } from '../../helpers/keys.js';
import { NOBODY } from '../../helpers/unprivileged.js';

const TARGET = 'sandbox (export key test)';

describe('x exports contacts from the dashboard', () => {
  const ctx = setUpSandbox();
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tickbook-export-key-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(unmountAll);

  async function mount(exportDir: string) {
    const props: DashboardProps = { client: ctx.client, status: new StatusBoard(), target: TARGET, watchlist: ['AAPL'], intervalS: 60, size: { columns: 120, rows: 40 }, exportDir };
    const h = drive(await renderDashboard(<Dashboard {...props} />, 120));
    await h.until((f) => /\d+ on this page/.test(f), 'the first page');
    return h;
  }

  const cards = (path: string) => readFileSync(path, 'utf8').match(/^BEGIN:VCARD\r$/gm)?.length ?? 0;

  it('writes every contact with none marked, then only the marked ones, each to a file of its own', async () => {
    const total = (await ctx.checker.listContacts({ limit: 100 })).contacts.length;
    const out = mkdtempSync(join(dir, 'out-'));
    const h = await mount(out);
    await h.press('x');
    const all = await h.until((f) => /exported \d+ contacts to /.test(f), 'the export of all');
    expect(all).toContain(`exported ${total} contacts to ${out}`);
    let files = readdirSync(out);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^tickbook-contacts-\d{8}-\d{6}\.vcf$/);
    expect(cards(join(out, files[0]!))).toBe(total);
    expect(statSync(join(out, files[0]!)).mode & 0o777).toBe(0o600);

    // Two marked: the first two rows.
    const firstTwo = (await ctx.checker.listContacts({ limit: 2 })).contacts;
    await h.press(KEY.space, KEY.space, 'x');
    await h.until((f) => /exported 2 contacts to /.test(f), 'the export of the marked');
    files = readdirSync(out).sort();
    expect(files).toHaveLength(2);
    const marked = files.find((name) => cards(join(out, name)) === 2)!;
    const text = readFileSync(join(out, marked), 'utf8');
    for (const contact of firstTwo) expect(text).toContain(`UID:${contact.id}`);
  });

  it('two exports started in the same second both survive: the second never replaces the first, it takes the next name', async () => {
    const total = (await ctx.checker.listContacts({ limit: 100 })).contacts.length;
    const out = mkdtempSync(join(dir, 'twice-'));
    const h = await mount(out);
    // x twice within one second of the clock: the name is taken from it as the key is pressed.
    const second = Date.UTC(2026, 0, 2, 3, 4, 5);
    const clock = vi.spyOn(Date, 'now').mockReturnValue(second);
    try {
      await h.press('x', 'x');
    } finally {
      clock.mockRestore();
    }
    const base = `tickbook-contacts-${localDateTime(second).replace(/[-:]/g, '').replace(' ', '-')}`;
    // A file appears whole, when its export ends; its temporary is gone then.
    await waitFor(() => readdirSync(out).filter((name) => !name.startsWith('.')).length === 2 && readdirSync(out).length === 2, 5000, 'both exports');
    expect(readdirSync(out).sort()).toEqual([`${base}-2.vcf`, `${base}.vcf`]);
    for (const name of readdirSync(out)) expect(cards(join(out, name)), name).toBe(total);
    await h.until((f) => f.includes(`exported ${total} contacts to ${out}`), 'an export said');
  });

  it.skipIf(process.getuid?.() !== 0)('does not follow an export directory that is a link another account planted; the status line says so', async () => {
    // The export directory named as a link another user owns (as in a shared directory): the
    // directory it points at is the user's own, and nothing is written there.
    const own = mkdtempSync(join(dir, 'own-'));
    const planted = join(dir, `planted-${Date.now()}`);
    symlinkSync(own, planted);
    lchownSync(planted, NOBODY, NOBODY);
    const h = await mount(planted);
    await h.press('x');
    // The reason first: the path may not fit on the line.
    await h.until((f) => f.includes(`export failed: a symbolic link owned by another user (uid ${NOBODY}): not followed: /tmp/`), 'the refusal said');
    expect(readdirSync(own)).toEqual([]);
  });

  it('says the export failed, naming the reason, when the directory is not there; the app goes on', async () => {
    const missing = join(dir, 'not-there');
    const h = await mount(missing);
    await h.press('x');
    await h.until((f) => /export failed: no such file or directory \(ENOENT\): cannot write /.test(f), 'the failure said, its reason first');
    expect(existsSync(missing)).toBe(false);
    await h.press('j');
    await h.until((f) => /\d+ on this page/.test(f), 'the list still there');
  });
});
