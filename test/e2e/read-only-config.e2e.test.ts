// Settings that cannot be saved, in a real terminal: the config directory is really read-only
// (bits that bind: the program runs as nobody when the tests run as root). Every failed save says
// so in the status line, the change stays for the session, and after quitting, with the terminal
// restored, stderr says what was not saved. The file is untouched.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, hasTmux, startTmux, type TmuxSession } from '../helpers/tmux.js';
import { cannotDropPrivileges, unprivileged } from '../helpers/unprivileged.js';

const why = hasTmux() ? cannotDropPrivileges() : 'no tmux';

describe.skipIf(why !== undefined)(`a read-only config directory${why ? ` (skipped: ${why})` : ''}`, () => {
  let home: string | undefined;
  let session: TmuxSession | undefined;
  afterEach(() => {
    session?.kill();
    session = undefined;
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('says every failed save, keeps the change for the session, and reports it on stderr after quitting', async () => {
    home = mkdtempSync(join(tmpdir(), 'tickbook-ro-'));
    chmodSync(home, 0o755);
    const configDir = join(home, 'config', 'tickbook');
    mkdirSync(configDir, { recursive: true });
    const file = join(configDir, 'config.json');
    const original = `${JSON.stringify({ watchlist: ['AAPL', 'MSFT', 'IBM'], interval: 2 }, null, 2)}\n`;
    writeFileSync(file, original);
    chmodSync(file, 0o444);
    chmodSync(configDir, 0o555);
    chmodSync(join(home, 'config'), 0o755);
    const data = join(home, 'data');
    mkdirSync(data, { mode: 0o777 });
    chmodSync(data, 0o777);
    const env = { HOME: home, XDG_DATA_HOME: data, XDG_CONFIG_HOME: join(home, 'config') };

    const s = (session = startTmux(unprivileged(process.execPath, [BIN]).flat(), env, 120, 40));
    await s.waitFor((t) => /IBM\s+\d/.test(t), 'prices');
    s.keys('Tab', 'J');
    let screen = await s.waitFor((t) => /watchlist not saved/.test(t), 'the failed save in the status line');
    expect(screen).toMatch(/MSFT[\s\S]*AAPL/);
    // Removing, undoing, slowing: each fails the same way, and the line keeps saying it.
    s.keys('x', 'u', '+');
    await s.waitFor((t) => /every 3s/.test(t), 'the interval slowed');
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(s.screen()).toMatch(/watchlist not saved/);

    s.keys('q');
    screen = await s.waitFor((t) => /\[exited \d+\]/.test(t), 'the exit');
    expect(screen).toMatch(/tickbook: the watchlist and interval as you left them were not saved: [\s\S]*config\.json/);
    expect(screen).toContain('[exited 0]');
    expect(readFileSync(file, 'utf8')).toBe(original);
  });
});
