// The holdings panel's lot form in a real terminal: bin/tickbook in tmux at 120x40 on its embedded
// sandbox, three lots of AAPL added from the shell first. `a` opens the new-lot form right under the
// last lot, `e` the edit form right under the lot it edits (the lots after it below the form), where
// the eye is, not at the foot of the pane 25 rows down; and the empty form says what it needs.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, hasTmux, startTmux, setUpE2eHome } from '../helpers/tmux.js';

/** The row of the screen (0 at the top) whose text matches, or -1. */
const rowOf = (screen: string, pattern: RegExp): number => screen.split('\n').findIndex((line) => pattern.test(line));

/** A lot's row in the panel: its number, then its quantity. */
const LOT = (number: number, quantity: number) => new RegExp(`[│┃] +${number} +${quantity} +\\d`);

describe.skipIf(!hasTmux())('the holdings forms in tmux', () => {
  const ctx = setUpE2eHome('tickbook-e2e-holdings-');

  it('at 120x40, a opens the new-lot form right under the last lot, e the edit form right under its lot; empty, it names what it needs', async () => {
    for (const [quantity, cost] of [
      ['10', '100'],
      ['20', '200'],
      ['30', '300'],
    ] as const) {
      const added = spawnSync(process.execPath, [BIN, 'holdings', 'add', 'AAPL', quantity, '--cost', cost], { env: { ...process.env, ...ctx.env }, encoding: 'utf8' });
      expect(added.status, added.stderr).toBe(0);
    }
    const s = (ctx.session = startTmux([process.execPath, BIN, '--watchlist', 'AAPL,MSFT', '--interval', '60'], ctx.env, 120, 40));
    await s.waitFor((t) => /AAPL +\d+\.\d\d/.test(t), 'the first prices');
    s.keys('Tab');
    await s.waitFor((t) => /▸ Ticker/.test(t), 'the ticker focused');
    s.keys('h');
    await s.waitFor((t) => /Holdings of AAPL/.test(t) && LOT(3, 30).test(t), 'the panel with its three lots');

    s.keys('a');
    let screen = await s.waitFor((t) => /New lot of AAPL/.test(t), 'the new-lot form');
    const lastLot = rowOf(screen, LOT(3, 30));
    const quantity = rowOf(screen, /› quantity/);
    // The form's title, then its first field: two rows under the last lot (25 before).
    expect(quantity - lastLot, screen).toBeGreaterThan(0);
    expect(quantity - lastLot, screen).toBeLessThanOrEqual(3);
    expect(screen).toMatch(/needs quantity and cost per share/);
    expect(screen).not.toMatch(/✓ Enter saves/);

    // Esc, then j to lot 2 and e: its form right under it, lot 3 after the form.
    s.keys('Escape');
    await s.waitFor((t) => !/New lot/.test(t) && /a add a lot/.test(t), 'the lots again');
    s.keys('j', 'e');
    screen = await s.waitFor((t) => /Edit lot 2 of AAPL/.test(t), 'the edit form of lot 2');
    const lot2 = rowOf(screen, LOT(2, 20));
    expect(rowOf(screen, /Edit lot 2 of AAPL/), screen).toBe(lot2 + 1);
    expect(rowOf(screen, /› quantity +20/), screen).toBe(lot2 + 2);
    expect(rowOf(screen, LOT(3, 30)), screen).toBeGreaterThan(rowOf(screen, /bought on/));
    // Filled in and right: it can be saved, and says so.
    expect(screen).toMatch(/✓ Enter saves/);
  }, 60_000);
});
