// Two dashboards on one home (issue 38, item 1): bin/tickbook twice in tmux at 120x40, each on its
// own embedded sandbox, one config file. A save is what that window changed, merged into the file
// as the other left it: A removes AAPL and B removes MSFT, and the file has neither; A adds NFLX
// and B adds ORCL, and it has both, and a sort in A afterwards keeps both. A window shows the
// merge at once when it saves, and what the other saved at its next poll (r, refresh now, here:
// the polls are a minute apart). A file hand-edited into invalid JSON is not written over: the
// window says so and keeps its change, and saves it, merged, at the first poll after the file is
// right again. Its own tmux server (-L) per test, so no other session is touched.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pollUntil } from '../helpers/child.js';
import { removeHome } from '../helpers/remove-home.js';
import { BIN, hasTmux } from '../helpers/tmux.js';

const quote = (arg: string): string => `'${arg.replace(/'/g, `'\\''`)}'`;
const PRICED = (symbol: string) => new RegExp(`[│┃] ${symbol}\\s+\\d+\\.\\d{2,4}\\s`);
const ROW = (symbol: string) => new RegExp(`[│┃] ${symbol}\\s`);

interface SavedList {
  name: string;
  symbols: string[];
  sort?: string;
}

describe.skipIf(!hasTmux())('two dashboards on one home, in tmux', () => {
  let home: string;
  let env: Record<string, string>;
  let socket: string;
  const tmux = (...args: string[]): string => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
  const screen = (window: string) => tmux('capture-pane', '-p', '-t', window);
  const keys = (window: string, ...sent: string[]) => {
    for (const key of sent) tmux('send-keys', '-t', window, key);
  };
  const type = (window: string, text: string) => tmux('send-keys', '-t', window, '-l', text);
  const configPath = () => join(home, 'config', 'tickbook', 'config.json');
  const tech = (): SavedList | undefined => {
    try {
      const saved = JSON.parse(readFileSync(configPath(), 'utf8')) as { watchlists?: SavedList[] };
      return saved.watchlists?.find((l) => l.name === 'Tech');
    } catch {
      return undefined;
    }
  };

  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'tickbook-e2e-two-'));
    env = { LANG: 'C.UTF-8', HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache') };
    socket = `tickbook-two-${process.pid}-${Math.random().toString(36).slice(2)}`;
  });
  afterEach(async () => {
    spawnSync('tmux', ['-L', socket, 'kill-server']);
    await removeHome(home);
  });

  /** The window's screen once `predicate` holds. */
  const waitFor = (window: string, predicate: (screen: string) => boolean, what: string, timeoutMs = 20_000): Promise<string> =>
    pollUntil(
      () => {
        const s = screen(window);
        return predicate(s) && s;
      },
      `${what} in window ${window}`,
      timeoutMs,
      () => `; the screen was:\n${screen(window)}`,
    );

  function start(window: string): void {
    const envs = Object.entries(env).map(([k, v]) => `${k}=${quote(v)}`).join(' ');
    // The pane's command ends with a marker line, so the test sees the program exit and how.
    const command = `env -u CI ${envs} ${quote(process.execPath)} ${quote(BIN)}; echo "[exited $?]"; sleep 600`;
    tmux('new-session', '-d', '-s', window, '-x', '120', '-y', '40', command);
  }

  /** Adds `symbol` to the list shown through the picker (the ticker focused), and closes it. */
  async function add(window: string, symbol: string): Promise<void> {
    keys(window, '/');
    await waitFor(window, (t) => /Add symbol/.test(t), 'the picker');
    // The field can be drawn a moment before it takes keys: a marker is typed until it shows.
    await pollUntil(
      () => {
        type(window, '#');
        return /Add symbol: #/.test(screen(window));
      },
      'the picker taking keys',
    );
    keys(window, 'C-u');
    await waitFor(window, (t) => /Add symbol:/.test(t) && !/Add symbol: #/.test(t), 'the marker cleared');
    type(window, symbol);
    await waitFor(window, (t) => new RegExp(`❯\\s+${symbol}\\s`).test(t), `${symbol} first in the picker`);
    keys(window, 'Enter');
    await waitFor(window, (t) => new RegExp(`added ${symbol}`).test(t), `${symbol} added`);
    keys(window, 'Escape');
    await waitFor(window, (t) => !/Add symbol/.test(t), 'the picker closed');
  }

  it('A removes AAPL, B removes MSFT: neither; A adds NFLX, B adds ORCL: both, kept by a sort in A; each window shows what the other saved', async () => {
    mkdirSync(join(home, 'config', 'tickbook'), { recursive: true });
    const lists = [
      { name: 'Tech', symbols: ['AAPL', 'MSFT', 'NVDA'] },
      { name: 'Banks', symbols: ['JPM'] },
    ];
    // Polls a minute apart: neither window takes in the other's save on its own before its next
    // change, which is then made on a file it has not read; r (refresh now) is a poll.
    writeFileSync(configPath(), `${JSON.stringify({ watchlists: lists, active_watchlist: 'Tech', interval: 60 }, null, 2)}\n`, { mode: 0o600 });
    start('a');
    start('b');
    for (const w of ['a', 'b']) {
      await waitFor(w, (t) => /Ticker · Tech/.test(t) && ['AAPL', 'MSFT', 'NVDA'].every((s) => PRICED(s).test(t)), 'Tech priced');
      keys(w, 'Tab');
      await waitFor(w, (t) => /▸ Ticker/.test(t), 'the ticker focused');
    }

    // A removes AAPL (the first row); B, still showing it, removes MSFT (the second).
    keys('a', 'x');
    await waitFor('a', (t) => /removed AAPL/.test(t) && !ROW('AAPL').test(t), 'AAPL removed');
    await pollUntil(() => tech()?.symbols.join(',') === 'MSFT,NVDA', "A's removal saved", 10_000, () => `; Tech is ${JSON.stringify(tech())}`);
    keys('b', 'j', 'x');
    await waitFor('b', (t) => /removed MSFT/.test(t), 'MSFT removed');
    await pollUntil(() => tech()?.symbols.join(',') === 'NVDA', 'the file to hold NVDA alone', 10_000, () => `; Tech is ${JSON.stringify(tech())}`);
    // B shows what it saved, A what it reads at its next poll.
    keys('a', 'r');
    for (const w of ['a', 'b']) {
      await waitFor(w, (t) => PRICED('NVDA').test(t) && !ROW('AAPL').test(t) && !ROW('MSFT').test(t) && /1 symbol\b/.test(t), 'neither AAPL nor MSFT');
    }

    // A adds NFLX; B, which has not read the file since, adds ORCL.
    await add('a', 'NFLX');
    await pollUntil(() => tech()?.symbols.join(',') === 'NVDA,NFLX', "A's NFLX saved", 10_000, () => `; Tech is ${JSON.stringify(tech())}`);
    await add('b', 'ORCL');
    await pollUntil(() => tech()?.symbols.includes('ORCL'), "B's ORCL saved", 10_000, () => `; Tech is ${JSON.stringify(tech())}`);
    expect(tech()!.symbols).toEqual(['NVDA', 'NFLX', 'ORCL']);
    keys('a', 'r');
    for (const w of ['a', 'b']) {
      await waitFor(w, (t) => ['NVDA', 'NFLX', 'ORCL'].every((s) => PRICED(s).test(t)) && /3 symbols/.test(t), 'NVDA, NFLX and ORCL');
    }

    // A sorts: the sort is saved, and both symbols stay; B shows it at its next poll.
    keys('a', 's');
    await waitFor('a', (t) => /3 symbols · by symbol/.test(t), 'sorted by symbol');
    await pollUntil(() => tech()?.sort === 'symbol', 'the sort saved', 10_000, () => `; Tech is ${JSON.stringify(tech())}`);
    expect(tech()!.symbols).toEqual(['NVDA', 'NFLX', 'ORCL']);
    keys('b', 'r');
    await waitFor('b', (t) => /3 symbols · by symbol/.test(t), 'the sort taken in');

    // The file hand-edited into invalid JSON: A's change is not written over it, and it says so.
    const good = readFileSync(configPath(), 'utf8');
    const broken = good.replace('"Tech"', '"Tech",,');
    writeFileSync(configPath(), broken);
    keys('a', 'S');
    await waitFor('a', (t) => /by symbol, Z to A/.test(t) && /watchlist not saved: it holds invalid JSON/.test(t), 'the failed save said');
    expect(readFileSync(configPath(), 'utf8')).toBe(broken);
    // Put right, ORCL taken out meanwhile: at A's next poll its change is saved, merged.
    const fixed = JSON.parse(good) as { watchlists: SavedList[] };
    fixed.watchlists[0]!.symbols = ['NVDA', 'NFLX'];
    writeFileSync(configPath(), JSON.stringify(fixed, null, 2));
    keys('a', 'r');
    await pollUntil(() => (tech() as { descending?: boolean } | undefined)?.descending === true, 'the flip saved', 10_000, () => `; Tech is ${JSON.stringify(tech())}`);
    expect(tech()!.symbols).toEqual(['NVDA', 'NFLX']);
    await waitFor('a', (t) => !ROW('ORCL').test(t) && /2 symbols/.test(t) && !/watchlist not saved/.test(t), 'the file as it is now');

    for (const w of ['a', 'b']) {
      keys(w, 'q');
      await waitFor(w, (t) => /\[exited 0\]/.test(t), 'the dashboard to exit', 10_000);
    }
  }, 90_000);
});
