// A watchlist change that cannot be saved says so, in its own words, until a save works: a poll
// that works must not wipe the message, and the change stays in effect for the session. The
// config file is real; it cannot be written because a plain file stands where its directory
// should be (a failure even root meets), and then it can, once that file is gone. And what another
// window saves in the same file is taken in at the next poll (issue 38, item 1).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readConfigFile, updateConfigFile } from '../../src/config/config-file.js';
import { savedLists } from '../../src/config/saved-watchlists.js';
import { fileStamp, SettingsSync } from '../../src/config/settings-sync.js';
import type { Watchlists } from '../../src/market/watchlists.js';
import { Dashboard } from '../../src/tui/Dashboard.js';
import { StatusBoard } from '../../src/tui/state/status.js';
import { drive, renderDashboard, unmountAll } from '../helpers/dashboard.js';
import { pause } from '../helpers/ink.js';
import { setUpSandbox } from '../helpers/sandbox.js';
import { KEY } from '../helpers/keys.js';

describe('saving the watchlist', () => {
  const ctx = setUpSandbox();
  let home: string;
  afterEach(async () => {
    await unmountAll();
    rmSync(home, { recursive: true, force: true });
  });

  it('every failed save is said once, stays said while polls work, and the next change that saves clears it', async () => {
    home = mkdtempSync(join(tmpdir(), 'tickbook-save-'));
    const blocker = join(home, 'tickbook');
    writeFileSync(blocker, 'not a directory');
    const path = join(blocker, 'config.json');
    const status = new StatusBoard();
    const element = (
      <Dashboard
        client={ctx.client}
        status={status}
        target="test"
        watchlist={['AAPL', 'MSFT', 'IBM']}
        intervalS={1}
        persistWatchlist={(lists, interval) => updateConfigFile(path, { watchlist: [...lists.lists[lists.active]!.symbols], interval })}
        size={{ columns: 120, rows: 30 }}
      />
    );
    const h = drive(await renderDashboard(element, 120));
    await h.until((f) => /IBM\s+\d/.test(f), 'prices');
    await h.press('\t', 'J');
    const frame = await h.until((f) => f.includes('watchlist not saved'), 'the failed save');
    // The reason comes first, so the line keeps it however long the path: here it names the
    // directory in the way; the whole message, the file included, is in the log (m).
    expect(frame).toContain(`watchlist not saved: cannot create the directory ${blocker}`);
    expect(status.getSnapshot().history.at(-1)?.text).toContain(`(${path}); kept for this session`);
    // Moved all the same: the change is in effect for the session.
    expect(frame.indexOf('MSFT ')).toBeLessThan(frame.indexOf('AAPL '));
    // Polls go on working (every second) and the message stays.
    await pause(2500);
    expect(h.frame()).toContain('watchlist not saved');
    // More changes failing the same way: still one message in the log.
    await h.press('J', 'x', 'u', '+');
    await pause(100);
    const failures = status.getSnapshot().history.filter((m) => m.text.includes('watchlist not saved'));
    expect(failures).toHaveLength(1);

    // The way is clear: the next change saves, and the message goes.
    rmSync(blocker);
    await h.press('-');
    await h.until((f) => !f.includes('watchlist not saved'), 'the message to go');
    const saved = JSON.parse(readFileSync(path, 'utf8'));
    expect(saved.watchlist).toEqual(['MSFT', 'IBM', 'AAPL']);
    expect(saved.interval).toBe(1);
  });

  it('at each poll the dashboard takes in what the other saved: symbols, the interval, its list deleted (said); a file it cannot read is said once and its lists kept', async () => {
    home = mkdtempSync(join(tmpdir(), 'tickbook-other-window-'));
    const path = join(home, 'config.json');
    const file = (settings: object) => writeFileSync(path, JSON.stringify(settings), { mode: 0o600 });
    const tech = { name: 'Tech', symbols: ['AAPL', 'MSFT'] };
    const banks = { name: 'Banks', symbols: ['JPM', 'IBM'] };
    file({ watchlists: [tech, banks], active_watchlist: 'Banks', interval: 2 });
    const stamp = fileStamp(path);
    const lists = savedLists(readConfigFile(path).config)!;
    const sync = new SettingsSync(path, { lists, intervalS: 2, stamp });
    const status = new StatusBoard();
    const save = (l: Watchlists, interval: number) => sync.sync(l, interval);
    const element = (
      <Dashboard client={ctx.client} status={status} target="test" watchlist={lists} intervalS={2} persistWatchlist={save} refreshSettings={save} size={{ columns: 120, rows: 30 }} />
    );
    const h = drive(await renderDashboard(element, 120));
    await h.until((f) => /Ticker · Banks/.test(f) && /IBM\s+\d/.test(f) && /every 2s/.test(f), 'Banks priced');

    // The other window adds ORCL to Banks and makes the polls quicker.
    file({ watchlists: [tech, { ...banks, symbols: ['JPM', 'IBM', 'ORCL'] }], active_watchlist: 'Banks', interval: 1 });
    await h.until((f) => /ORCL\s+\d/.test(f) && /3 symbols/.test(f) && /every 1s/.test(f), 'ORCL taken in and priced, every second');

    // It deletes Banks while the lists menu here has it highlighted: this window shows Tech, says
    // why, and the menu's keys act on a list there is.
    await h.press('\t', 'w');
    await h.until((f) => /Watchlists:/.test(f) && /❯ 2 ✓ Banks/.test(f), 'the lists menu on Banks');
    file({ watchlists: [tech], active_watchlist: 'Tech', interval: 1 });
    await h.until((f) => /the list Banks was deleted in another window; showing Tech/.test(f) && /1 ✓ Tech/.test(f) && !/Banks\s+\d symbols/.test(f), 'Banks gone');
    await h.press('e');
    await h.until((f) => /Rename to: Tech/.test(f), 'Tech to rename');
    await h.press(KEY.esc, KEY.esc);
    await h.until((f) => /Ticker · Tech/.test(f) && /MSFT\s+\d/.test(f) && !/Watchlists:/.test(f), 'Tech shown, the menu closed');

    // Hand-edited into invalid JSON: said, and the lists stay as they were.
    writeFileSync(path, '{"watchlists": [');
    await h.until((f) => f.includes('config not read: it holds invalid JSON'), 'the file not read');
    expect(status.getSnapshot().history.at(-1)?.text).toContain(`(${path}); this window keeps its lists`);
    expect(h.frame()).toMatch(/Ticker · Tech/);
  });
});
