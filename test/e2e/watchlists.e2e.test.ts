// Several named watchlists in a real terminal: bin/tickbook in tmux at 120x40 on its embedded
// sandbox, across three runs in one home. A config of an older release (one "watchlist") opens as
// a list named Watchlist and becomes the named lists at the first save; --watchlist NAME opens a
// saved list (any case) and keeps saving; a run without flags opens the list shown last, each list
// with its own sort.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, hasTmux, startTmux, type TmuxSession, setUpE2eHome } from '../helpers/tmux.js';

const PRICED = (symbol: string) => new RegExp(`[│┃] ${symbol}\\s+\\d+\\.\\d{2,4}\\s`);
const ROW = (symbol: string) => new RegExp(`[│┃] ${symbol}\\s`);

describe.skipIf(!hasTmux())('named watchlists in tmux', () => {
  const ctx = setUpE2eHome('tickbook-e2e-lists-');

  /** A new run in the same home; the run before is ended only once the new session is up. */
  function start(args: string[] = []): TmuxSession {
    const before = ctx.session;
    ctx.session = startTmux([process.execPath, BIN, ...args], ctx.env, 120, 40);
    before?.kill();
    return ctx.session;
  }

  async function quit(s: TmuxSession): Promise<void> {
    s.keys('q');
    await s.waitFor((t) => /\[exited 0\]/.test(t), 'the dashboard to exit', 10_000);
  }

  async function focusTicker(s: TmuxSession): Promise<void> {
    s.keys('Tab');
    await s.waitFor((t) => /▸ Ticker/.test(t), 'the ticker focused');
  }

  const configPath = () => join(ctx.env.XDG_CONFIG_HOME!, 'tickbook', 'config.json');
  const config = () => JSON.parse(readFileSync(configPath(), 'utf8')) as Record<string, unknown>;

  it('an older config opens as "Watchlist"; a list made and a symbol moved are saved; --watchlist tech opens Tech; the next run opens the list shown last with its sort', async () => {
    mkdirSync(join(ctx.env.XDG_CONFIG_HOME!, 'tickbook'), { recursive: true });
    writeFileSync(configPath(), JSON.stringify({ watchlist: ['AAPL', 'MSFT'] }), { mode: 0o600 });

    // Run 1: the older list, as "Watchlist".
    let s = start();
    let screen = await s.waitFor(
      (t) => /Ticker · Watchlist/.test(t) && PRICED('AAPL').test(t) && PRICED('MSFT').test(t),
      'the old list as Watchlist, priced',
    );
    expect(screen).toMatch(/2 symbols · watchlist order/);
    await focusTicker(s);

    s.keys('w');
    await s.waitFor((t) => /Watchlists:/.test(t) && /1 ✓ Watchlist\s+2 symbols/.test(t), 'the lists menu');
    s.keys('c');
    await s.waitFor((t) => /New list:/.test(t), 'the name field');
    // The field can be drawn a moment before it takes keys: a marker is typed until it shows.
    await s.typeUntil('#', (t) => /New list: #/.test(t), 'the field taking keys');
    s.keys('C-u');
    await s.waitFor((t) => /New list:/.test(t) && !/New list: #/.test(t), 'the marker cleared');
    s.type('Tech');
    await s.waitFor((t) => /New list: Tech/.test(t), 'the name typed');
    s.keys('Enter');
    screen = await s.waitFor((t) => /Ticker · Tech/.test(t) && /made the list Tech/.test(t), 'Tech made and shown');
    expect(screen).toMatch(/the watchlist is empty/);

    s.keys('1');
    await s.waitFor((t) => /Ticker · Watchlist/.test(t) && PRICED('AAPL').test(t) && PRICED('MSFT').test(t), 'list 1 again');
    s.keys('j', 'M');
    await s.waitFor((t) => /Move MSFT to:/.test(t), 'the move menu for MSFT');
    s.keys('j', 'Enter');
    screen = await s.waitFor((t) => /moved MSFT to Tech/.test(t) && !ROW('MSFT').test(t), 'MSFT moved to Tech');
    expect(screen).toMatch(/Ticker · Watchlist/);
    expect(screen).toMatch(/1 symbol · watchlist order/);
    await quit(s);

    let saved = config();
    expect(saved.watchlists).toMatchObject([
      { name: 'Watchlist', symbols: ['AAPL'], sort: 'watchlist', descending: false },
      { name: 'Tech', symbols: ['MSFT'], sort: 'watchlist', descending: false },
    ]);
    expect(saved.active_watchlist).toBe('Watchlist');
    // What an older release reads: the list shown.
    expect(saved.watchlist).toEqual(['AAPL']);

    // Run 2: a saved list by name, any case.
    s = start(['--watchlist', 'tech']);
    screen = await s.waitFor((t) => /Ticker · Tech/.test(t) && PRICED('MSFT').test(t), 'Tech with MSFT priced');
    expect(screen).not.toMatch(ROW('AAPL'));
    expect(screen).toMatch(/1 symbol · watchlist order/);
    await focusTicker(s);
    s.keys('s');
    await s.waitFor((t) => /1 symbol · by symbol/.test(t), 'sorted by symbol');
    s.keys('s');
    await s.waitFor((t) => /1 symbol · by price/.test(t), 'sorted by price');
    await quit(s);

    saved = config();
    expect(saved.active_watchlist).toBe('Tech');
    expect(saved.watchlist).toEqual(['MSFT']);
    expect(saved.watchlists).toMatchObject([
      { name: 'Watchlist', symbols: ['AAPL'], sort: 'watchlist', descending: false },
      { name: 'Tech', symbols: ['MSFT'], sort: 'price', descending: false },
    ]);

    // Run 3, no flags: the list shown last, by price; list 1 keeps its own order.
    s = start();
    screen = await s.waitFor((t) => /Ticker · Tech/.test(t) && PRICED('MSFT').test(t), 'Tech, the list shown last');
    expect(screen).toMatch(/1 symbol · by price/);
    expect(screen).toMatch(/PRICE▼/);
    await focusTicker(s);
    s.keys('1');
    screen = await s.waitFor((t) => /Ticker · Watchlist/.test(t) && PRICED('AAPL').test(t), 'list 1');
    expect(screen).toMatch(/1 symbol · watchlist order/);
    s.keys('2');
    screen = await s.waitFor((t) => /Ticker · Tech/.test(t) && PRICED('MSFT').test(t), 'Tech again with 2');
    expect(screen).toMatch(/1 symbol · by price/);
    await quit(s);
    expect(config().active_watchlist).toBe('Tech');
  }, 40_000);

  it('a save keeps what a newer release put in a list: its own keys and columns this one does not know', async () => {
    mkdirSync(join(ctx.env.XDG_CONFIG_HOME!, 'tickbook'), { recursive: true });
    const lists = [{ name: 'Mine', symbols: ['AAPL', 'MSFT'], colour: 'teal', columns: ['price', 'sparkle', 'volume'] }];
    writeFileSync(configPath(), JSON.stringify({ watchlists: lists, active_watchlist: 'Mine' }), { mode: 0o600 });
    const s = start();
    await s.waitFor((t) => /Ticker · Mine/.test(t) && PRICED('AAPL').test(t), 'the list, priced');
    await focusTicker(s);
    s.keys('s');
    await s.waitFor((t) => /by symbol/.test(t), 'the sort changed');
    await quit(s);
    const saved = (config().watchlists as Record<string, unknown>[])[0]!;
    expect(saved).toMatchObject({ name: 'Mine', symbols: ['AAPL', 'MSFT'], colour: 'teal', sort: 'symbol', columns: ['price', 'volume', 'sparkle'] });
  });
});
