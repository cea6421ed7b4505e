// The named watchlists in the config file, through the built CLI: a malformed "watchlists" stops
// the dashboard (exit 2, one line naming the file and the key) unless --watchlist gives symbols
// for this run; other commands only warn. The config is read before the terminal is looked at, so
// outside a terminal "the dashboard needs a terminal" means every config check passed. In tmux:
// --watchlist A,B watches symbols for this run and saves nothing about the lists.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runTickbookToExit } from '../helpers/sandbox.js';
import { BIN, hasTmux, startTmux } from '../helpers/tmux.js';

const home = mkdtempSync(join(tmpdir(), 'tickbook-watchlists-cli-'));
const baseEnv: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config') };
delete baseEnv.CI;
let configs = 0;

afterAll(() => rmSync(home, { recursive: true, force: true }));

/** A config directory of its own holding `value` as config.json; its path and the env that uses it. */
function withConfig(value: unknown): { path: string; text: string; env: NodeJS.ProcessEnv } {
  const dir = join(home, `config-${++configs}`);
  mkdirSync(join(dir, 'tickbook'), { recursive: true });
  const path = join(dir, 'tickbook', 'config.json');
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  writeFileSync(path, text, { mode: 0o600 });
  return { path, text, env: { ...baseEnv, XDG_CONFIG_HOME: dir } };
}

const NEEDS_TERMINAL = /dashboard needs a terminal/;

const MALFORMED: [string, unknown, RegExp][] = [
  ['a string', 'Tech', /watchlists must be an array of lists like \{"name": "Tech", "symbols": \["AAPL", "MSFT"\]\}/],
  ['an empty array', [], /watchlists must be an array of lists/],
  ['a list that is an array', [['AAPL']], /watchlists must be an array of lists/],
  ['a list without a name', [{ symbols: ['AAPL'] }], /each needs a name/],
  ['a blank name', [{ name: '  ', symbols: ['AAPL'] }], /each needs a name/],
  ['symbols that are not strings', [{ name: 'Tech', symbols: [1, 2] }], /"Tech" needs its symbols as strings/],
  ['no symbols at all', [{ name: 'Tech' }], /"Tech" needs its symbols as strings/],
  ['an unknown sort', [{ name: 'Tech', symbols: [], sort: 'alphabetical' }], /watchlists: "Tech" has sort "alphabetical"; one of watchlist, symbol, price, change, session, volume/],
  ['descending that is not a boolean', [{ name: 'Tech', symbols: [], descending: 'yes' }], /watchlists: "Tech" has descending that is not true or false/],
  ['two lists named alike in another case', [{ name: 'Tech', symbols: [] }, { name: ' TECH', symbols: [] }], /watchlists: two lists are named " TECH"/],
];

describe('a malformed "watchlists" in the config file', () => {
  it.each(MALFORMED)('%s stops the dashboard: exit 2, one line naming the file, the key and --watchlist; the file is left as it is', async (_, watchlists, message) => {
    const { path, text, env } = withConfig({ watchlists, watchlist: ['AAPL'], active_watchlist: 'Tech' });
    const result = await runTickbookToExit([], env);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n'), result.stderr).toHaveLength(1);
    expect(result.stderr).toContain(path);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toMatch(/correct it, or give --watchlist for this run/);
    expect(result.stderr).not.toMatch(NEEDS_TERMINAL);
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('--watchlist with symbols for this run gets past it (on to the terminal check); the file is untouched', async () => {
    const { path, text, env } = withConfig({ watchlists: 'Tech', interval: 3 });
    const [one, two] = await Promise.all([
      runTickbookToExit(['--watchlist', 'AAPL'], env),
      runTickbookToExit(['--watchlist', 'AAPL,MSFT', '--watchlist', 'IBM'], env),
    ]);
    for (const result of [one, two]) {
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(NEEDS_TERMINAL);
      expect(result.stderr).not.toContain('watchlists must be');
    }
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('--watchlist naming the older one list ("Watchlist") is not symbols for this run: still refused, since the lists would be saved over', async () => {
    const { path, env } = withConfig({ watchlists: [{ name: '' }], watchlist: ['AAPL', 'MSFT'] });
    const result = await runTickbookToExit(['--watchlist', 'watchlist'], env);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(path);
    expect(result.stderr).toMatch(/watchlists must be/);
  });

  it('other commands only warn, naming the file, and run (contacts list on the embedded sandbox)', async () => {
    const { path, text, env } = withConfig({ watchlists: [{ name: 'Tech', symbols: 'AAPL' }], watchlist: ['AAPL'] });
    const result = await runTickbookToExit(['contacts', 'list', '--limit', '2'], env, 20_000);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^ID\s+NAME\s+USERNAME/);
    expect(result.stdout.trim().split('\n')).toHaveLength(3);
    const warnings = result.stderr.split('\n').filter((l) => /warning/.test(l));
    expect(warnings, result.stderr).toHaveLength(1);
    expect(warnings[0]).toBe(`tickbook: warning: ${path}: watchlists must be an array of lists like {"name": "Tech", "symbols": ["AAPL", "MSFT"]}; "Tech" needs its symbols as strings; left as it is and not used`);
    expect(readFileSync(path, 'utf8')).toBe(text);
  });
});

describe('well-formed lists and the older keys beside them', () => {
  it('valid "watchlists" with a malformed older "watchlist": the named lists win, the dashboard is not stopped', async () => {
    const { env } = withConfig({ watchlists: [{ name: 'Tech', symbols: ['MSFT'] }], watchlist: 'AAPL' });
    const result = await runTickbookToExit([], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(NEEDS_TERMINAL);
  });

  it('a malformed older "watchlist" alone still stops the dashboard', async () => {
    const { path, env } = withConfig({ watchlist: { AAPL: true } });
    const result = await runTickbookToExit([], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(path);
    expect(result.stderr).toMatch(/watchlist must be an array of symbols/);
  });

  it('--watchlist NAME (any case, spaces around) and --watchlist SYMBOLS both pass; a name with a space that is no list is a usage error', async () => {
    const { env } = withConfig({
      watchlists: [{ name: 'Watchlist', symbols: ['AAPL'] }, { name: 'Big Tech', symbols: ['MSFT'], sort: 'price', descending: true }],
      active_watchlist: 'Watchlist',
    });
    const [named, symbols, missing] = await Promise.all([
      runTickbookToExit(['--watchlist', ' big TECH '], env),
      runTickbookToExit(['--watchlist', 'IBM,JPM'], env),
      runTickbookToExit(['--watchlist', 'Small Tech'], env),
    ]);
    expect(named.stderr).toMatch(NEEDS_TERMINAL);
    expect(symbols.stderr).toMatch(NEEDS_TERMINAL);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toMatch(/--watchlist.*"SMALL TECH" is not a stock symbol/i);
  });

  it('the help tells both uses of --watchlist apart (tickbook --help, and the dashboard\'s own with an option before --help)', async () => {
    const [general, dashboard] = await Promise.all([runTickbookToExit(['--help'], baseEnv), runTickbookToExit(['--interval', '2', '--help'], baseEnv)]);
    expect(general.code).toBe(0);
    expect(general.stdout).toMatch(/--watchlist NAME\|A,B,C\s+open the saved list NAME, or watch these symbols for this run/);
    const result = dashboard;
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/--watchlist NAME\s+open the saved list NAME \(any case\)/);
    expect(result.stdout).toMatch(/--watchlist A,B,C\s+or watch these symbols for this run \(the saved lists are untouched\)/);
  });
});

describe.skipIf(!hasTmux())('--watchlist with symbols in a terminal (tmux)', () => {
  it('watches the symbols as a list of its own; lists made, sorts and switches are not saved, only the interval', async () => {
    const saved = {
      watchlists: [
        { name: 'Watchlist', symbols: ['AAPL'], sort: 'watchlist', descending: false },
        { name: 'Tech', symbols: ['MSFT', 'NVDA'], sort: 'volume', descending: true },
      ],
      active_watchlist: 'Tech',
      watchlist: ['MSFT', 'NVDA'],
      interval: 3,
    };
    const { path, text, env } = withConfig(saved);
    const runEnv = { HOME: home, XDG_DATA_HOME: baseEnv.XDG_DATA_HOME!, XDG_CONFIG_HOME: env.XDG_CONFIG_HOME! };
    const s = startTmux([process.execPath, BIN, '--watchlist', 'IBM,JPM'], runEnv, 120, 40);
    try {
      await s.waitFor((t) => /Ticker · Watchlist/.test(t) && /IBM\s+\d+\.\d\d/.test(t) && /JPM\s+\d+\.\d\d/.test(t) && /2 symbols/.test(t), 'the symbols of this run');
      s.keys('Tab');
      await s.waitFor((t) => /▸ Ticker/.test(t), 'the ticker focused');
      s.keys('w');
      await s.waitFor((t) => /Watchlists:/.test(t), 'the lists menu');
      s.keys('c');
      await s.waitFor((t) => /New list:/.test(t), 'the name field');
      await s.typeUntil('#', (t) => /New list: #/.test(t), 'the field taking keys');
      s.keys('BSpace');
      await s.waitFor((t) => /New list:/.test(t) && !/New list: #/.test(t), 'the marker gone');
      s.type('Scratch');
      await s.waitFor((t) => /New list: Scratch/.test(t), 'the name typed');
      s.keys('Enter');
      await s.waitFor((t) => /Ticker · Scratch/.test(t) && /made the list Scratch/.test(t), 'Scratch made and shown');
      s.keys('1');
      await s.waitFor((t) => /Ticker · Watchlist/.test(t), 'back on list 1');
      s.keys('s', '+');
      await s.waitFor((t) => /by symbol/.test(t) && /every 4s/.test(t), 'sorted, and the interval raised');
      s.keys('q');
      await s.waitFor((t) => /\[exited 0\]/.test(t), 'a clean exit');
    } finally {
      s.kill();
    }
    // Only the interval changed, in place; the lists are as they were, byte for byte.
    expect(readFileSync(path, 'utf8')).toBe(text.replace('"interval": 3', '"interval": 4'));
  }, 30_000);
});
