// A signal that ends the dashboard from outside (kill, a supervisor, a closing session), while a
// delete waits out its undo window: the terminal is restored (the alternate screen left, the
// cursor shown), the delete is sent, and the status is 128 + the signal's number, as a shell
// reports it. Before: SIGINT and SIGQUIT left the terminal in the alternate screen with the
// cursor hidden, and SIGTERM exited 0.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/tmux.js';
import { hasScript, type PtyRun, startInPty, terminalRestored } from '../helpers/pty.js';

describe.skipIf(!hasScript())('a signal that ends the dashboard', () => {
  let home: string;
  let env: Record<string, string>;
  let run: PtyRun | undefined;

  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'tickbook-signals-'));
    env = { LANG: 'C.UTF-8', HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config') };
  });
  afterEach(() => {
    run?.kill();
    run = undefined;
    rmSync(home, { recursive: true, force: true });
  });

  const cli = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });

  it.each([
    ['SIGINT', 130],
    ['SIGQUIT', 131],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)('%s: restores the terminal, sends the delete waiting to be undone, exits %i', async (signal, status) => {
    // The newest contact, which the cursor starts on (the same sandbox database as the dashboard's).
    const { data } = JSON.parse(cli('contacts', 'list', '--limit', '1', '--json').stdout);
    const first = data[0] as { id: string; username: string };
    run = startInPty([process.execPath, BIN], env, home);
    // By username: a display name may be an emoji or CJK text, drawn otherwise than sliced here.
    await run.until((t) => /page 1/.test(t) && t.includes(first.username.slice(0, 8)), 'the first page');
    await run.pressUntil('d', /y: delete/, 'the delete prompt');
    await run.pressUntil('y', /u: undo \(\d+s\)/, 'the undo offer');
    process.kill(await run.pid(), signal);
    expect(await run.exited).toBe(status);

    const restored = terminalRestored(run.bytes());
    expect(restored.left, `the alternate screen left after the last frame; the recording ended ${restored.tail}`).toBe(true);
    expect(restored.cursorShown, `the cursor shown after the last frame; the recording ended ${restored.tail}`).toBe(true);
    expect(restored.pasteMarksOff, `bracketed paste on while running and off after the last frame; the recording ended ${restored.tail}`).toBe(true);
    expect(restored.mouseOff, `mouse reporting on while running and off after the last frame; the recording ended ${restored.tail}`).toBe(true);
    // Nothing on stderr: the delete went through.
    expect(run.text()).not.toMatch(/tickbook:/);
    const get = cli('contacts', 'get', first.id);
    expect(get.status).toBe(1);
    expect(get.stderr).toMatch(/no contact with id/);
  }, 60_000);
});
