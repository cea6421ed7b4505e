// The detail view (issue 11) in a real terminal: bin/tickbook in tmux on its embedded sandbox.
// Prices are recorded into $XDG_DATA_HOME/tickbook/history.db as they come; Enter on a watchlist
// row opens the symbol with its chart, and the chart outlives the run: a second run in the same
// home draws what the first recorded.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { BIN, hasTmux, startTmux, type TmuxSession, setUpE2eHome } from '../helpers/tmux.js';

const PRICE_ROW = (symbol: string) => new RegExp(`${symbol.replace('.', '\\.')}\\s+(?:\\S.*?\\s+)?(\\d+\\.\\d{2,4})\\s`);
const BRAILLE = /[\u2801-\u28ff]/;
/** A row of an ASCII chart: plot cells with at least one `*`, then (maybe) a price label, inside the border. */
const ASCII_CHART_ROW = /^[|#]\s[ *-]*\*[ *-]*(\s\d+\.\d\d)?\s*[|#]$/;

const two = (n: number) => String(n).padStart(2, '0');
const clock = (t: number) => `${two(new Date(t).getHours())}:${two(new Date(t).getMinutes())}`;

describe.skipIf(!hasTmux())('the detail view in tmux', () => {
  const ctx = setUpE2eHome('tickbook-e2e-detail-');

  /**
   * A new run in the same home. The run before (exited, its pane waiting) is ended only once the
   * new session is up: ending the last session stops the tmux server, and a session started while
   * it stops fails with "server exited unexpectedly".
   */
  function start(args: string[], env: Record<string, string> = {}, columns = 120, rows = 40): TmuxSession {
    const before = ctx.session;
    ctx.session = startTmux([process.execPath, BIN, ...args], { ...ctx.env, ...env }, columns, rows);
    before?.kill();
    return ctx.session;
  }

  /** Waits for prices, focuses the ticker and opens the first row. */
  async function openFirst(s: TmuxSession, focusMarker = /▸ Ticker/): Promise<string> {
    await s.waitFor((t) => PRICE_ROW('AAPL').test(t) && PRICE_ROW('MSFT').test(t), 'the first prices');
    s.keys('Tab');
    await s.waitFor((t) => focusMarker.test(t), 'the ticker focused');
    s.keys('Enter');
    return s.waitFor((t) => /AAPL (·|-) Apple Inc\./.test(t), 'the detail view of AAPL');
  }

  async function quit(s: TmuxSession): Promise<void> {
    s.keys('q');
    await s.waitFor((t) => /\[exited 0\]/.test(t), 'the dashboard to exit', 10_000);
  }

  /** `tickbook history SYMBOL --json` in the same home, as a script would run it. */
  function recorded(symbol: string): { time: string; price: number; volume: number }[] {
    const run = spawnSync(process.execPath, [BIN, 'history', symbol, '--json'], { env: { ...process.env, ...ctx.env }, encoding: 'utf8' });
    // Exit 1: nothing recorded for the span (yet).
    if (run.status === 1) return [];
    expect(run.status, run.stderr).toBe(0);
    return JSON.parse(run.stdout).data;
  }

  /** Waits (while the dashboard runs and records) until `history` lists `count` prices of `symbol`. */
  async function untilRecorded(symbol: string, count: number, timeoutMs = 8_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const prices = recorded(symbol);
      if (prices.length >= count) return prices;
      if (Date.now() > deadline) throw new Error(`${prices.length} prices of ${symbol} recorded, waited for ${count}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  it('records prices, opens AAPL with a chart, and draws that history again after a restart', async () => {
    let s = start(['--watchlist', 'AAPL,MSFT', '--interval', '1']);
    let screen = await openFirst(s);
    expect(screen).toMatch(/AAPL · Apple Inc\. · US listing/);
    expect(screen).toMatch(/ 1h {3}1d {3}5d {3}1m {3}all /);
    s.keys('1');
    // Two prices in the last hour make a line; a poll a second gives them in about 2 s.
    screen = await s.waitFor((t) => BRAILLE.test(t) && /1h/.test(t), 'a 1h chart of braille dots', 8_000);
    expect(screen).toMatch(/\d+\.\d\d {2}([+\-±]\d+\.\d\d \([+\-±]?\d+\.\d\d%\) tick|first price this session)/);
    // Recorded as it runs: the history subcommand reads the file the dashboard writes.
    await untilRecorded('AAPL', 3);
    expect(screen).toMatch(/open \d+\.\d\d {2}high \d+\.\d\d {2}low \d+\.\d\d {2}volume \S+/);
    // The chart's rows end in the price labels; the time axis reads clock times.
    expect(screen).toMatch(/[\u2801-\u28ff][\u2800-\u28ff ]* \d+\.\d\d\s*┃/);
    expect(screen).toMatch(/\d\d:\d\d\s{2,}.*\d\d:\d\d/);
    await quit(s);

    // The history file is there, and the subcommand reads at least three prices from it.
    expect(existsSync(join(ctx.env.XDG_DATA_HOME!, 'tickbook', 'history.db'))).toBe(true);
    const prices = recorded('AAPL');
    expect(prices.length).toBeGreaterThanOrEqual(3);
    for (const p of prices) expect(p.price).toBeGreaterThan(0);
    const firstRecorded = Date.parse(prices[0]!.time);
    const restartAt = Date.now();
    expect(recorded('MSFT').length).toBeGreaterThanOrEqual(3);

    // Again, with a poll a minute: one new price at most, so any line is the first run's history.
    s = start(['--watchlist', 'AAPL,MSFT', '--interval', '60']);
    await openFirst(s);
    // The 1h span at once: the 1d span over a history this young can be drawn from minute buckets
    // (one, here) when the store's clock reads a millisecond after the view's (see the report of
    // test/tui/detail/detail-view.test.tsx's last test), which would make this test flaky.
    s.keys('1');
    screen = await s.waitFor((t) => BRAILLE.test(t) && /\d\d:\d\d {2,}.*\d\d:\d\d/.test(t), 'a chart from the recorded history', 5_000);
    expect(screen).not.toMatch(/fewer than two prices/);
    // The day began, as recorded, with the first run's first poll.
    const since = /open \d+\.\d\d {2}high .* \(since (\d\d:\d\d)\)/.exec(screen);
    expect(since, screen).not.toBeNull();
    // (Unless midnight came between the two runs: then today began with the second.)
    if (new Date(firstRecorded).toDateString() === new Date().toDateString()) expect(since![1]).toBe(clock(firstRecorded));
    expect(firstRecorded).toBeLessThan(restartAt);

    // Esc: the watchlist and the contacts again, the highlight on AAPL.
    s.keys('Escape');
    screen = await s.waitFor((t) => /Contacts/.test(t) && PRICE_ROW('MSFT').test(t), 'the watchlist again');
    expect(screen).not.toMatch(/AAPL · Apple Inc\./);
    // j/k in the view step through the watchlist: MSFT after AAPL, and Esc leaves it highlighted.
    s.keys('Enter');
    await s.waitFor((t) => /AAPL · Apple Inc\./.test(t), 'AAPL open again');
    s.keys('j');
    await s.waitFor((t) => /MSFT · Microsoft/.test(t), 'MSFT after j');
    s.keys('Escape');
    await s.waitFor((t) => !/MSFT · Microsoft/.test(t) && PRICE_ROW('AAPL').test(t), 'the watchlist after MSFT');
    s.keys('Enter');
    await s.waitFor((t) => /MSFT · Microsoft/.test(t), 'Enter opens MSFT, where the highlight went');
    await quit(s);
  }, 30_000);

  it('fits 80x24, and draws the chart in ASCII for TERM=linux and for a non-UTF-8 locale', async () => {
    // 80x24: the view over both (stacked) panes, every line of the screen at most 80 columns.
    let s = start(['--watchlist', 'AAPL,MSFT', '--interval', '1'], {}, 80, 24);
    await openFirst(s);
    s.keys('1');
    let screen = await s.waitFor((t) => BRAILLE.test(t) && /AAPL · Apple Inc\./.test(t), 'a 1h chart at 80x24', 8_000);
    for (const line of screen.split('\n')) expect(stringWidth(line), line).toBeLessThanOrEqual(80);
    expect(screen.split('\n').length).toBeLessThanOrEqual(25);
    await quit(s);

    // The Linux console: ASCII borders and an ASCII chart from the history the run above recorded.
    s = start(['--watchlist', 'AAPL,MSFT', '--interval', '1'], { TERM: 'linux' });
    await openFirst(s, /> Ticker/);
    s.keys('1');
    screen = await s.waitFor((t) => t.split('\n').some((line) => ASCII_CHART_ROW.test(line)), 'an ASCII chart (TERM=linux)', 8_000);
    expect(screen).toMatch(/AAPL - Apple Inc\. - US listing/);
    expect(screen).not.toMatch(BRAILLE);
    expect(screen).not.toMatch(/[^\x20-\x7e\n]/);
    await quit(s);

    // A locale that is not UTF-8.
    s = start(['--watchlist', 'AAPL,MSFT', '--interval', '1'], { LANG: 'C', LC_ALL: 'C', LC_CTYPE: 'C' });
    await openFirst(s, /> Ticker/);
    s.keys('1');
    screen = await s.waitFor((t) => t.split('\n').some((line) => ASCII_CHART_ROW.test(line)), 'an ASCII chart (LANG=C)', 8_000);
    expect(screen).not.toMatch(BRAILLE);
    expect(screen).not.toMatch(/[^\x20-\x7e\n]/);
    await quit(s);
  }, 30_000);
});
