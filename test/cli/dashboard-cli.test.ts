// `tickbook` with no command, outside a terminal and with bad options: one line, exit status 2,
// and nothing started.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

  it('a malformed saved watchlist or interval stops the dashboard (exit 2, naming the file and the key) unless this run gives its own', async () => {
    const configDir = join(home, 'bad-config');
    const path = join(configDir, 'tickbook', 'config.json');
    mkdirSync(join(configDir, 'tickbook'), { recursive: true });
    const text = JSON.stringify({ watchlist: 'AAPL', interval: 'fast', theme: 'mine' });
    writeFileSync(path, text, { mode: 0o600 });
    const badEnv = { ...env, XDG_CONFIG_HOME: configDir };
    const [bare, watchlistOnly, both] = await Promise.all([
      runTickbookToExit([], badEnv),
      runTickbookToExit(['--watchlist', 'MSFT'], badEnv),
      runTickbookToExit(['--watchlist', 'MSFT', '--interval', '5'], badEnv),
    ]);
    for (const [result, key, option] of [[bare, 'watchlist', '--watchlist'], [watchlistOnly, 'interval', '--interval']] as const) {
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr.trim().split('\n'), result.stderr).toHaveLength(1);
      expect(result.stderr).toContain(path);
      expect(result.stderr).toContain(key);
      expect(result.stderr).toContain(option);
    }
    // Given both for this run, the saved ones are not needed: on to the terminal check.
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/dashboard needs a terminal/);
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('--help lists the dashboard options', async () => {
    const result = await runTickbookToExit(['--help'], env);
    expect(result.code).toBe(0);
    for (const option of ['--watchlist', '--interval', '--base-url', '--token', '--api-key', '--debug-log']) {
      expect(result.stdout).toContain(option);
    }
  });

  it.skipIf(!hasTmux())(
    '--watchlist given twice watches both lists, in order, each symbol once; saving the interval keeps every other key of the config file (in tmux)',
    async () => {
      const configDir = join(home, 'tmux-config');
      const path = join(configDir, 'tickbook', 'config.json');
      mkdirSync(join(configDir, 'tickbook'), { recursive: true });
      // The saved watchlist is malformed, but this run gives its own; the file keeps it as it is.
      writeFileSync(path, JSON.stringify({ theme: 'mine', watchlist: 'AAPL', interval: 3 }), { mode: 0o600 });
      const runEnv = { HOME: home, XDG_DATA_HOME: env.XDG_DATA_HOME, XDG_CONFIG_HOME: configDir };
      const s = startTmux([process.execPath, BIN, '--watchlist', 'MSFT', '--watchlist', 'aapl,MSFT'], runEnv, 120, 30);
      try {
        const screen = await s.waitFor((t) => /2 symbols/.test(t) && /AAPL\s+\d/.test(t), 'the ticker with its two rows');
        const rows = screen.split('\n');
        const row = (symbol: string) => rows.findIndex((l) => new RegExp(`│ ${symbol}\\s+\\d`).test(l));
        expect(row('MSFT'), screen).toBeGreaterThan(0);
        expect(row('AAPL'), screen).toBe(row('MSFT') + 1);
        expect(screen).toMatch(/every 3s/);
        s.keys('Tab', '+');
        await s.waitFor((t) => /every 4s/.test(t), 'the interval raised to 4 s');
        s.keys('q');
        await s.waitFor((t) => /\[exited 0\]/.test(t), 'a clean exit');
      } finally {
        s.kill();
      }
      // Only the interval's value changed in the text; the rest is byte for byte what was written.
      expect(readFileSync(path, 'utf8')).toBe(JSON.stringify({ theme: 'mine', watchlist: 'AAPL', interval: 4 }));
    },
    30_000,
  );
});
