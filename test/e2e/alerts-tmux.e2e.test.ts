// An alert set from the dashboard, in a real terminal: bin/tickbook (the built dist/) in tmux on
// its embedded sandbox, Tab to the ticker, a, "above 99999", Enter. The alert is in the history
// file the moment the status line says so: `tickbook alerts list --json` in the same home, another
// process, reads it while the dashboard still runs; and a change made from the shell (pause) is
// what the dashboard's alerts view shows when next opened. Its own tmux server (-L) per test, so
// no other tmux session is touched and ending it cannot end another test's.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import stringWidth from 'string-width';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, hasTmux } from '../helpers/tmux.js';

const quote = (arg: string): string => `'${arg.replace(/'/g, `'\\''`)}'`;

describe.skipIf(!hasTmux())('setting an alert from the dashboard, in tmux', () => {
  let home: string;
  let env: Record<string, string>;
  let socket: string;
  const tmux = (...args: string[]): string => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
  const screen = () => tmux('capture-pane', '-p', '-t', 'alerts');

  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'tickbook-e2e-alerts-'));
    env = { LANG: 'C.UTF-8', HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config') };
    socket = `tickbook-alerts-${process.pid}-${Math.random().toString(36).slice(2)}`;
  });
  afterEach(() => {
    spawnSync('tmux', ['-L', socket, 'kill-server']);
    rmSync(home, { recursive: true, force: true });
  });

  /** Polls the screen until `predicate` holds; fails with the last screen. */
  async function waitFor(predicate: (screen: string) => boolean, what: string, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const last = screen();
      if (predicate(last)) return last;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the screen was:\n${last}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** `tickbook ARGS` in the same home, as a script would run it. */
  const cli = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });

  it('Tab, a, "above 99999", Enter: the alert is saved, and alerts list --json in another process shows it', async () => {
    const envs = Object.entries(env).map(([k, v]) => `${k}=${quote(v)}`).join(' ');
    // The pane's command ends with a marker line, so the test sees the program exit and how.
    const command = `env -u CI ${envs} ${quote(process.execPath)} ${quote(BIN)} --watchlist AAPL,MSFT --interval 60; echo "[exited $?]"; sleep 600`;
    tmux('new-session', '-d', '-s', 'alerts', '-x', '120', '-y', '40', command);
    await waitFor((s) => /AAPL +\d+\.\d\d/.test(s) && /MSFT +\d+\.\d\d/.test(s), 'the first prices');

    tmux('send-keys', '-t', 'alerts', 'Tab');
    await waitFor((s) => /▸ Ticker/.test(s), 'the ticker focused');
    tmux('send-keys', '-t', 'alerts', 'a');
    let s = await waitFor((t) => /New alert/.test(t), 'the new alert form');
    expect(s).toMatch(/symbol +AAPL/);
    tmux('send-keys', '-t', 'alerts', '-l', 'above 99999');
    await waitFor((t) => /fires on AAPL above 99999\.00: Enter saves/.test(t), 'the condition typed');
    tmux('send-keys', '-t', 'alerts', 'Enter');
    s = await waitFor((t) => /alert 1 set: AAPL above 99999\.00/.test(t), 'the status line');
    // Back on the ticker: the form was opened from it.
    expect(s).toMatch(/▸ Ticker/);
    expect(s).not.toMatch(/New alert/);

    // Another process, while the dashboard runs: the alert is on disk.
    const listed = cli('alerts', 'list', '--json');
    expect(listed.status, listed.stderr).toBe(0);
    const { status, alerts } = JSON.parse(listed.stdout);
    expect(status).toBe('success');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ id: 1, symbol: 'AAPL', condition: 'above 99999.00', state: 'armed', once: false });
    expect(alerts[0].set_price).toBeGreaterThan(0);

    // Paused from the shell: the view, opened afterwards, reads it as it is now.
    const paused = cli('alerts', 'pause', '1');
    expect(paused.status, paused.stderr).toBe(0);
    tmux('send-keys', '-t', 'alerts', 'A');
    s = await waitFor((t) => /Alerts · 1/.test(t) && / 1 +AAPL +above 99999\.00 +paused/.test(t), 'the alert listed, paused');
    for (const line of s.split('\n')) expect(stringWidth(line), line).toBeLessThanOrEqual(120);

    // q closes the view, then quits.
    tmux('send-keys', '-t', 'alerts', 'q');
    await waitFor((t) => /▸ Ticker/.test(t) && !/Alerts · 1/.test(t), 'the view closed');
    tmux('send-keys', '-t', 'alerts', 'q');
    await waitFor((t) => /\[exited 0\]/.test(t), 'the dashboard to exit', 10_000);
  }, 40_000);
});
