// The dashboard started by a process that waits for it: the launcher run by a shell whose node is
// older than 22 (the machine's Node 20) runs it again on the pinned Node 24; `npm start` runs it
// under npm and sh. Ctrl-Z stops them all together, so the shell gets its prompt back, and fg
// brings the dashboard back; before, only the dashboard stopped, and the shell went on waiting for
// the process it had started.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findOldNode, shellPathFor } from '../helpers/old-node.js';
import { BIN, hasTmux, startTmux, setUpE2eHome } from '../helpers/tmux.js';

const old = findOldNode();

describe.skipIf(!hasTmux())('Ctrl-Z in a dashboard that something started and waits for', () => {
  const ctx = setUpE2eHome('tickbook-suspend-group-');

  /** Types `command` at a job-control shell's prompt (PATH as given), then Ctrl-Z, fg, q. */
  async function suspendAndResume(command: string, path: string) {
    const s = (ctx.session = startTmux(['bash', '--norc', '--noprofile', '-i'], { ...ctx.env, PS1: 'shell$ ', PATH: path }, 120, 40));
    await s.waitFor((t) => /^shell\$ *$/m.test(t), 'the shell prompt');
    s.type(command);
    s.keys('Enter');
    await s.waitFor((t) => /page 1/.test(t), 'the first page', 30_000);
    s.keys('C-z');
    await s.waitFor((t) => /Stopped/.test(t) && /^shell\$ *$/m.test(t), 'the job stopped and the prompt back');
    s.type('fg');
    s.keys('Enter');
    await s.waitFor((t) => /page 1/.test(t), 'the dashboard again after fg');
    s.keys('q');
    await s.waitFor((t) => /^shell\$ *$/m.test(t.split('\n').filter((l) => l.trim() !== '').at(-1) ?? ''), 'the prompt after q');
    s.type('echo "status $?"');
    s.keys('Enter');
    expect(await s.waitFor((t) => /^status \d+/m.test(t), 'the exit status')).toMatch(/^status 0$/m);
  }

  it.skipIf(!old)('the launcher started by an older Node, waiting for itself on the pinned one', async () => {
    await suspendAndResume(BIN, shellPathFor(old!));
  }, 90_000);

  it('npm start', async () => {
    await suspendAndResume(`cd ${join(BIN, '../..')} && npm start --silent`, process.env.PATH ?? '');
  }, 90_000);
});
