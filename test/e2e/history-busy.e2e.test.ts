// The dashboard in a real terminal (bin/tickbook in tmux, on its embedded sandbox) while another
// process (a real one) holds the price history locked whole from before the start: the status line
// says the history is busy, naming the file, and stops saying it once the other process lets go
// and the dashboard opens the file by itself.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/child.js';
import { BIN, hasTmux, startTmux, setUpE2eHome } from '../helpers/tmux.js';

describe.skipIf(!hasTmux())('the dashboard with a price history another process holds', () => {
  const ctx = setUpE2eHome('tickbook-history-busy-');
  let holder: ChildProcess | undefined;
  afterEach(() => {
    holder?.kill();
    holder = undefined;
  });

  it('says so in the status line while it lasts, and clears once the history opens', async () => {
    const env = { ...process.env, ...ctx.env };
    // A history file, made as a first `alerts add` makes it.
    execFileSync(process.execPath, [BIN, 'alerts', 'add', 'AAPL', 'above', '100000'], { env });
    const path = join(ctx.env.XDG_DATA_HOME!, 'tickbook', 'history.db');
    holder = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test/helpers/hold-lock-child.ts'), path, 'whole'], { stdio: ['pipe', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => holder!.stdout!.once('data', () => resolve()));

    const s = (ctx.session = startTmux([process.execPath, BIN], ctx.env, 200, 30));
    const screen = await s.waitFor((t) => /price history busy: another process holds /.test(t), 'the trouble in the status line');
    expect(screen).toContain(`price history busy: another process holds ${path}; recording and alerts wait for it`);
    expect(screen).not.toMatch(/not recorded/);

    holder.stdin!.end();
    await s.waitFor((t) => !/price history busy/.test(t) && /AAPL\s+\S/.test(t), 'the trouble gone', 20_000);
  }, 40_000);
});
