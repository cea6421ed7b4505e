// `tickbook` with no command, outside a terminal and with bad options: one line, exit status 2,
// and nothing started.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runTickbookToExit } from '../helpers/sandbox.js';
import { BIN, hasTmux, startTmux } from '../helpers/tmux.js';

const home = mkdtempSync(join(tmpdir(), 'tickbook-dash-cli-'));
const env = { ...process.env, HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config') };

afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('tickbook (the dashboard) from the command line', () => {
  it('without a terminal says so in one line, points to the subcommands, and exits 2', async () => {
    const result = await runTickbookToExit([], env);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/dashboard needs a terminal/);
    expect(result.stderr).toMatch(/subcommands/);
  });

  it.each([
    [['--watchlist', 'AAPL,A$B'], /--watchlist.*"A\$B" is not a stock symbol/],
    [['--watchlist', ' , '], /--watchlist needs at least one symbol/],
    [['--interval', '0'], /--interval must be an integer from 1 to 60/],
    [['--interval', '61'], /--interval must be an integer from 1 to 60/],
    [['--interval', '-3'], /option --interval must be an integer from 1 to 60, not "-3"/],
    // Every --watchlist counts: the bad symbol in the first is found though the last is fine.
    [['--watchlist', 'A$B', '--watchlist', 'AAPL'], /--watchlist.*"A\$B" is not a stock symbol/],
    [['--token', 'a', '--token', 'b'], /option --token given twice/],
    [['--base-url', 'ftp://example.com'], /http/],
    [['--frobnicate'], /unknown option --frobnicate/],
  ])('%j is a one-line usage error (exit 2)', async (args, message) => {
    const result = await runTickbookToExit(args, env);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(message);
  });

  it('--help lists the dashboard options', async () => {
    const result = await runTickbookToExit(['--help'], env);
    expect(result.code).toBe(0);
    for (const option of ['--watchlist', '--interval', '--base-url', '--token', '--api-key', '--debug-log']) {
      expect(result.stdout).toContain(option);
    }
  });

  it.skipIf(!hasTmux())('--watchlist given twice watches both lists, in order, each symbol once (in tmux)', async () => {
    const runEnv = { HOME: home, XDG_DATA_HOME: env.XDG_DATA_HOME, XDG_CONFIG_HOME: env.XDG_CONFIG_HOME };
    const s = startTmux([process.execPath, BIN, '--watchlist', 'MSFT', '--watchlist', 'aapl,MSFT'], runEnv, 120, 30);
    try {
      const screen = await s.waitFor((t) => /2 symbols/.test(t) && /AAPL\s+\d/.test(t), 'the ticker with its two rows');
      const rows = screen.split('\n');
      const row = (symbol: string) => rows.findIndex((l) => new RegExp(`│ ${symbol}\\s+\\d`).test(l));
      expect(row('MSFT'), screen).toBeGreaterThan(0);
      expect(row('AAPL'), screen).toBe(row('MSFT') + 1);
      s.keys('q');
      await s.waitFor((t) => /\[exited 0\]/.test(t), 'a clean exit');
    } finally {
      s.kill();
    }
  }, 30_000);
});
