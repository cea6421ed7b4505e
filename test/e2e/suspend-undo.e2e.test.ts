// Ctrl-Z inside a delete's undo window, in a shell with job control: time spent stopped does not
// count against the window. Stopped past its end, the contact is still there; after fg the offer
// shows the time it had left and u still keeps the contact. Before: on fg the DELETE went out at
// once, the window having run out on the clock while the process was stopped.
import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, hasTmux, startTmux, setUpE2eHome } from '../helpers/tmux.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!hasTmux())('suspending inside the undo window', () => {
  const ctx = setUpE2eHome('tickbook-suspend-');

  const cli = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { env: { ...process.env, ...ctx.env }, encoding: 'utf8' });

  it('Ctrl-Z, past the 5 s window in the shell, fg: the contact is kept, the offer has its time left, u undoes', async () => {
    const { data } = JSON.parse(execFileSync(process.execPath, [BIN, 'contacts', 'list', '--limit', '1', '--json'], { env: { ...process.env, ...ctx.env }, encoding: 'utf8' }));
    const first = data[0] as { id: string; username: string };
    const s = (ctx.session = startTmux(['bash', '--norc', '--noprofile', '-i'], { ...ctx.env, PS1: 'shell$ ' }, 120, 40));
    await s.waitFor((t) => /^shell\$ *$/m.test(t), 'the shell prompt');
    s.type(`${process.execPath} ${BIN}`);
    s.keys('Enter');
    // By username: a display name may be an emoji or CJK text, drawn otherwise than sliced here.
    await s.waitFor((t) => /page 1/.test(t) && t.includes(first.username.slice(0, 8)), 'the first page', 30_000);
    const pressUntil = async (key: string, shown: (t: string) => boolean, what: string) => {
      const deadline = Date.now() + 30_000;
      for (;;) {
        s.keys(key);
        try {
          return await s.waitFor(shown, what, 500);
        } catch (error) {
          if (Date.now() > deadline) throw error;
        }
      }
    };
    await pressUntil('d', (t) => /y: delete/.test(t), 'the delete prompt');
    await pressUntil('y', (t) => /u: undo \(\d+s\)/.test(t), 'the undo offer');
    await pressUntil('C-z', (t) => /Stopped/.test(t) && /^shell\$ *$/m.test(t), 'the job stopped and the prompt back');

    // Longer in the shell than the whole window.
    await sleep(6500);
    expect(cli('contacts', 'get', first.id).status, 'deleted while stopped').toBe(0);

    s.type('fg');
    s.keys('Enter');
    const screen = await s.waitFor((t) => /page 1/.test(t) && /u: undo \(\d+s\)/.test(t), 'the undo offer again after fg', 30_000);
    const left = Number(/u: undo \((\d+)s\)/.exec(screen)![1]);
    expect(left).toBeGreaterThanOrEqual(1);
    expect(left).toBeLessThanOrEqual(5);
    await pressUntil('u', (t) => /kept /.test(t), 'the undo notice');
    expect(cli('contacts', 'get', first.id).status, 'deleted after fg').toBe(0);
    s.keys('q');
    await s.waitFor((t) => /\[exited 0\]/.test(t) || /^shell\$ *$/m.test(t.split('\n').filter((l) => l.trim() !== '').at(-1) ?? ''), 'the prompt after q');
    expect(cli('contacts', 'get', first.id).status, 'deleted on the way out').toBe(0);
  }, 90_000);
});
