// In a real terminal: keys pressed while the window is too small to show the panes act on
// nothing, and text typed in one burst that looks like the tail of an escape sequence is text.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, hasTmux, startTmux, setUpE2eHome } from '../helpers/tmux.js';

describe.skipIf(!hasTmux())('the dashboard in tmux: a hidden screen, a fast burst', () => {
  const ctx = setUpE2eHome();

  const usernames = (): string[] =>
    JSON.parse(
      execFileSync(process.execPath, [BIN, 'contacts', 'list', '--all', '--limit', '100', '--json'], { env: { ...process.env, ...ctx.env }, encoding: 'utf8' }),
    ).data.map((c: { username: string }) => c.username);

  it('d and y behind "Terminal too small" delete nothing; "f" then "Ol" in one burst filters by Ol', async () => {
    const s = (ctx.session = startTmux([process.execPath, BIN], ctx.env, 120, 30));
    await s.waitFor((t) => /page 1/.test(t), 'the first page');
    const before = usernames();

    s.resize(50, 30);
    let screen = await s.waitFor((t) => /Terminal too small/.test(t), 'the too-small screen');
    expect(screen).toMatch(/q quit · Ctrl-Z suspend/);
    s.keys('d', 'y');
    // Time for the keys to be read while the screen is small (they are, in milliseconds).
    await new Promise((resolve) => setTimeout(resolve, 1000));
    s.resize(120, 30);
    screen = await s.waitFor((t) => /▸ Contacts/.test(t), 'the panes again');
    // No prompt, no undo offer: a delete confirmed unseen would show one, and q would send it.
    expect(screen).not.toMatch(/y: delete|deleted /);

    s.keys('f');
    await s.waitFor((t) => /Enter keep filter/.test(t), 'the filter field');
    s.type('Ol');
    screen = await s.waitFor((t) => /│ \/ Ol |┃ \/ Ol /.test(t), 'Ol in the filter');
    // Filtered: only rows whose name or username holds "ol" are left.
    const rows = screen
      .split('\n')
      .slice(3)
      .map((line) => line.split('┃')[1] ?? '')
      .filter((row) => row.trim() !== '' && !row.includes('/ Ol'));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.toLowerCase()).toContain('ol');
    // Esc and q apart: sent in one read they are Alt-q.
    s.keys('Escape');
    await s.waitFor((t) => !/Enter keep filter/.test(t), 'the filter closed');
    s.keys('q');
    await s.waitFor((t) => /\[exited 0\]/.test(t), 'the exit');
    expect(usernames()).toEqual(before);
  });
});
