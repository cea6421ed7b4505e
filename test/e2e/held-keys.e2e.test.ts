// In a real terminal, keys at full speed: a burst of j (a held key, a script) runs past the end
// of the page on screen into the next, and lands exactly where that many rows down is.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../src/server/catalogue.js';
import { rankSymbols } from '../../src/tui/ticker/picker-state.js';
import { fillContacts, manyUsername } from '../helpers/many-contacts.js';
import { BIN, hasTmux, startTmux, setUpE2eHome } from '../helpers/tmux.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Listed {
  id: string;
  username: string;
}

describe.skipIf(!hasTmux())('the dashboard in tmux: keys at full speed', () => {
  const ctx = setUpE2eHome('tickbook-e2e-held-');

  const page = (limit: number, after?: string): Listed[] =>
    JSON.parse(
      execFileSync(process.execPath, [BIN, 'contacts', 'list', '--limit', String(limit), ...(after ? ['--after', after] : []), '--json'], {
        env: { ...process.env, ...ctx.env },
        encoding: 'utf8',
      }),
    ).data;

  it('40 j in one burst from the top go past the last row of page 1 to the row 40 down', async () => {
    const s = (ctx.session = startTmux([process.execPath, BIN], ctx.env, 120, 40));
    const screen = await s.waitFor((t) => /page 1/.test(t) && /\d+ on this page/.test(t), 'the first page');
    const rows = Number(/(\d+) on this page/.exec(screen)![1]);
    expect(rows).toBeLessThan(40);
    const first = page(rows);
    const second = page(100, first.at(-1)!.id);
    // Time for the next page to be fetched ahead, as it is while a person reads the first.
    await new Promise((resolve) => setTimeout(resolve, 500));
    s.type('j'.repeat(40));
    await s.waitFor((t) => /page 2/.test(t), 'page 2');
    s.keys('Enter');
    const target = second[40 - rows]!;
    const detail = await s.waitFor((t) => /conversation\s+cv_/.test(t), 'the open contact');
    expect(detail).toContain(target.id);
    // Esc and q apart: sent in one read they are Alt-q.
    s.keys('Escape');
    await s.waitFor((t) => /NAME\s+USERNAME/.test(t), 'the list again');
    s.keys('q');
    await s.waitFor((t) => /\[exited 0\]/.test(t), 'the exit');
  }, 60_000);

  it('in a list of 1,000: Down held at 60 keys/s and 100 Down in one read each land exactly 100 rows on, across pages', async () => {
    // The embedded sandbox's own database, made beforehand with 1,000 contacts in a known order.
    fillContacts(join(ctx.env.XDG_DATA_HOME!, 'tickbook', 'sandbox.db'), 1000, 'demo-token');
    const s = (ctx.session = startTmux([process.execPath, BIN], ctx.env, 120, 40));
    await s.waitFor((t) => /page 1/.test(t) && t.includes(manyUsername(0)), 'the first page');
    const open = async (position: number, what: string) => {
      s.keys('Enter');
      await s.waitFor((t) => /conversation\s+cv_/.test(t) && t.includes(manyUsername(position)), what);
      s.keys('Escape');
      await s.waitFor((t) => /NAME\s+USERNAME/.test(t), 'the list again');
    };
    for (let i = 0; i < 100; i++) {
      s.keys('Down');
      await sleep(16);
    }
    await open(100, 'the contact 100 rows down, after a held Down');
    s.keys(...Array<string>(100).fill('Down'));
    await open(200, 'the contact 200 rows down, after 100 Down in one read');
    s.keys('G');
    await open(999, 'the last contact, after G');
    s.keys('q');
    await s.waitFor((t) => /\[exited 0\]/.test(t), 'the exit');
  }, 90_000);

  it('in the picker: Down held at 60 keys/s and 100 Down in one read land on exactly that match, and Enter adds it', async () => {
    const matches = rankSymbols(loadCatalogue(), 'a');
    expect(matches.length).toBeGreaterThan(140);
    const s = (ctx.session = startTmux([process.execPath, BIN, '--watchlist', 'ZZZZ'], ctx.env, 120, 40));
    await s.waitFor((t) => /page 1/.test(t), 'the dashboard');
    s.keys('Tab');
    await s.waitFor((t) => /▸ Ticker|Ticker.*every/.test(t), 'the ticker focused');
    s.keys('/');
    await s.waitFor((t) => /symbol or company name/.test(t), 'the picker');
    await s.typeUntil('a', (t) => /matches|❯|> /.test(t) && !/symbol or company name/.test(t), 'the query taken');
    for (let i = 0; i < 40; i++) {
      s.keys('Down');
      await sleep(16);
    }
    s.keys(...Array<string>(100).fill('Down'));
    s.keys('Enter');
    const chosen = matches[140]!.symbol;
    // Added, the field empty for the next symbol (issue 38, item 9); closed, match 141 is the
    // watchlist's one symbol beside ZZZZ.
    await s.waitFor((t) => /symbol or company name/.test(t), `${chosen} (match 141) added, the field empty`);
    s.keys('Escape');
    await s.waitFor((t) => !/symbol or company name/.test(t) && new RegExp(`┃\\s+${chosen.replace('.', '\\.')}\\s`).test(t), `${chosen} on the watchlist`);
    s.keys('q');
    await s.waitFor((t) => /\[exited 0\]/.test(t), 'the exit');
  }, 90_000);
});
