// In a real terminal, keys at full speed: a burst of j (a held key, a script) runs past the end
// of the page on screen into the next, and lands exactly where that many rows down is.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, hasTmux, startTmux, useE2eHome } from '../helpers/tmux.js';

interface Listed {
  id: string;
  username: string;
}

describe.skipIf(!hasTmux())('the dashboard in tmux: keys at full speed', () => {
  const ctx = useE2eHome('tickbook-e2e-held-');

  const page = (limit: number, after?: string): Listed[] =>
    JSON.parse(
      execFileSync(process.execPath, [BIN, 'contacts', 'list', '--limit', String(limit), ...(after ? ['--after', after] : []), '--json'], {
        env: { ...process.env, ...ctx.env },
        encoding: 'utf8',
      }),
    ).data;

  it('40 j in one burst from the top go past the last row of page 1 to the row 40 down', async () => {
    const s = (ctx.session = startTmux([process.execPath, BIN], ctx.env, 120, 40));
    const screen = await s.waitFor((t) => /page 1/.test(t) && /\d+ on this page/.test(t), 'the first page');
    const rows = Number(/(\d+) on this page/.exec(screen)![1]);
    expect(rows).toBeLessThan(40);
    const first = page(rows);
    const second = page(100, first.at(-1)!.id);
    // Time for the next page to be fetched ahead, as it is while a person reads the first.
    await new Promise((resolve) => setTimeout(resolve, 500));
    s.type('j'.repeat(40));
    await s.waitFor((t) => /page 2/.test(t), 'page 2');
    s.keys('Enter');
    const target = second[40 - rows]!;
    const detail = await s.waitFor((t) => /conversation\s+cv_/.test(t), 'the open contact');
    expect(detail).toContain(target.id);
    // Esc and q apart: sent in one read they are Alt-q.
    s.keys('Escape');
    await s.waitFor((t) => /NAME\s+USERNAME/.test(t), 'the list again');
    s.keys('q');
    await s.waitFor((t) => /\[exited 0\]/.test(t), 'the exit');
  }, 60_000);
});
