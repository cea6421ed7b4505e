// The stacked panes of a small terminal, in a real one: bin/tickbook in tmux on its embedded
// sandbox, a watchlist of 12 with lots held in four currencies (USD, GBP, EUR, JPY) and the
// holdings columns shown. The symbols' rows come first: at 80x24 six of them and the totals of
// every currency on one line; the footer shows several of the pane's keys, not one.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, hasTmux, startTmux, setUpE2eHome } from '../helpers/tmux.js';

const WATCHLIST = ['AAPL', 'MSFT', 'NVDA', 'AMZN', 'GOOGL', 'META', 'TSLA', 'JPM', 'SHEL.L', 'SAP.DE', '7203.T', 'SHOP.TO'];

/** The ticker pane's symbol rows: a watchlist symbol, then its price. */
const symbolRows = (screen: string): string[] =>
  screen.split('\n').flatMap((line) => {
    const m = /^[┃│] ([A-Z0-9.]+) +\d+\.\d\d /.exec(line);
    return m && WATCHLIST.includes(m[1]!) ? [m[1]!] : [];
  });

/** The keys the footer shows for the pane (left of the bar). */
const paneKeys = (screen: string): string[] => {
  const footer = screen.split('\n').filter((line) => line.includes('│ Tab next pane') || line.includes('│ ? help')).at(-1) ?? '';
  return footer.split(' │ ')[0]!.trim().split(' · ').filter(Boolean);
};

describe.skipIf(!hasTmux())('a short ticker pane in tmux', () => {
  const ctx = setUpE2eHome('tickbook-e2e-short-');

  it('at 80x24 six symbols and every currency\'s total stay in view, and four of the ticker\'s keys; at 60x20 four; at 60x16 one', async () => {
    const configDir = join(ctx.env.XDG_CONFIG_HOME!, 'tickbook');
    mkdirSync(configDir, { recursive: true });
    writeFileSync(join(configDir, 'config.json'), JSON.stringify({ watchlists: [{ name: 'Watchlist', symbols: WATCHLIST, columns: ['price', 'change', 'qty', 'value', 'pl'] }] }), { mode: 0o600 });
    for (const lot of [['AAPL', '10', '150'], ['SHEL.L', '100', '2500'], ['SAP.DE', '10', '150'], ['7203.T', '100', '2500']]) {
      const run = spawnSync(process.execPath, [BIN, 'holdings', 'add', lot[0]!, lot[1]!, '--cost', lot[2]!], { env: { ...process.env, ...ctx.env }, encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
    }

    const s = (ctx.session = startTmux([process.execPath, BIN, '--interval', '60'], ctx.env, 80, 24));
    await s.waitFor((t) => symbolRows(t).length > 0 && /Σ /.test(t), 'the prices and the totals');
    s.keys('Tab');
    let screen = await s.waitFor((t) => /▸ Ticker/.test(t), 'the ticker focused');
    expect(symbolRows(screen)).toEqual(WATCHLIST.slice(0, 6));
    // The totals of all four currencies, on one line under the rows.
    const totals = screen.split('\n').find((line) => /Σ /.test(line))!;
    for (const code of ['USD', 'GBP', 'EUR', 'JPY']) expect(totals).toContain(code);
    expect(totals).not.toMatch(/more/);
    // The status line, up on the title row.
    expect(screen).toMatch(/▸ Ticker · Watchlist +12 symbols · /);
    expect(paneKeys(screen).length, screen).toBeGreaterThanOrEqual(4);
    expect(paneKeys(screen)[0]).toBe('Enter chart');
    // The contacts pane keeps rows of its own.
    expect(screen).toMatch(/5 on this page/);

    // j past the sixth row scrolls the rows; the totals stay.
    s.keys('j', 'j', 'j', 'j', 'j', 'j');
    screen = await s.waitFor((t) => symbolRows(t).includes('TSLA'), 'TSLA in view');
    expect(symbolRows(screen)).toHaveLength(6);
    expect(screen).toMatch(/Σ /);

    s.resize(60, 20);
    screen = await s.waitFor((t) => symbolRows(t).length === 4, 'four symbols at 60x20');
    expect(screen).toMatch(/Σ \S+/);
    expect(paneKeys(screen).length, screen).toBeGreaterThanOrEqual(2);

    s.resize(60, 16);
    await s.waitFor((t) => symbolRows(t).length === 1 && /Σ /.test(t), 'a symbol and the totals at 60x16');
  }, 60_000);
});
