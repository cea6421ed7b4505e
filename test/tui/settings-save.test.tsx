// A watchlist change that cannot be saved says so, in its own words, until a save works: a poll
// that works must not wipe the message, and the change stays in effect for the session. The
// config file is real; it cannot be written because a plain file stands where its directory
// should be (a failure even root meets), and then it can, once that file is gone.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { updateConfigFile } from '../../src/config/config-file.js';
import { Dashboard } from '../../src/tui/Dashboard.js';
import { StatusStore } from '../../src/tui/state/status.js';
import { drive, renderDashboard, unmountAll } from '../helpers/dashboard.js';
import { pause } from '../helpers/ink.js';
import { useSandbox } from '../helpers/sandbox.js';

describe('saving the watchlist', () => {
  const ctx = useSandbox();
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
    const status = new StatusStore();
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
    let frame = await h.until((f) => f.includes('watchlist not saved'), 'the failed save');
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
    frame = await h.until((f) => !f.includes('watchlist not saved'), 'the message to go');
    const saved = JSON.parse(readFileSync(path, 'utf8'));
    expect(saved.watchlist).toEqual(['MSFT', 'IBM', 'AAPL']);
    expect(saved.interval).toBe(1);
  });
});
