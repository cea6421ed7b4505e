// An alert that fires in the dashboard reaches the terminal as a person's would: the status line
// says what crossed what, the bell rings and an OSC 9 notification is sent, in a real pty; with
// "alerts": {"bell": false, "notify": false} neither is sent.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pollUntil, processRunning, runChild } from '../helpers/child.js';
import { hasScript, type PtyRun, setUpPtyHome } from '../helpers/pty.js';
import { BIN } from '../helpers/sandbox.js';

const ESC = '\u001b';
const BEL = '\u0007';

/** Waits until a command has written `path`. */
const waitForFile = (path: string) => pollUntil(() => existsSync(path) && readFileSync(path, 'utf8').length > 0, `${path} to be written`, 10_000);

describe.skipIf(!hasScript())('an alert firing in the dashboard', () => {
  const pty = setUpPtyHome('tickbook-alert-pty-');
  let run: PtyRun | undefined;

  /** `viaShebang`: bin/tickbook run by its #! line, as a shell runs it, rather than by `node bin/tickbook`. */
  async function start(config: Record<string, unknown> | undefined, viaShebang = false): Promise<{ env: Record<string, string> }> {
    const home = pty.home();
    const env = pty.env();
    if (config) {
      mkdirSync(join(home, 'config', 'tickbook'), { recursive: true });
      writeFileSync(join(home, 'config', 'tickbook', 'config.json'), JSON.stringify(config), { mode: 0o600 });
    }
    // The smallest move either way from the price when set, on a symbol not on the watchlist (its
    // price is asked for all the same): the first price that differs fires it, once.
    const added = await runChild(process.execPath, [BIN, 'alerts', 'add', 'IBM', 'move', '0.0001', '--from', 'set', '--once'], { env: { ...process.env, ...env }, timeoutMs: 20_000 });
    expect(added.stdout).toMatch(/^alert 1: IBM move ±0\.0001% from set/);
    run = pty.start([...(viaShebang ? [] : [process.execPath]), BIN, '--watchlist', 'AAPL', '--interval', '1']);
    return { env };
  }

  it('says what crossed what, rings the bell and sends OSC 9', async () => {
    await start(undefined);
    await run!.until((t) => /alert: IBM at \d+\.\d\d moved [+-]\d+\.\d\d% from the price when set/.test(t), 'the alert in the status line', 30_000);
    const bytes = run!.bytes();
    expect(bytes).toMatch(new RegExp(`${BEL}${ESC}\\]9;tickbook alert: IBM at \\d+\\.\\d\\d moved [+-]\\d+\\.\\d\\d% from the price when set${BEL}`));
    // IBM's price was asked for, not shown: the watchlist is AAPL's alone.
    expect(run!.text()).not.toMatch(/IBM +\d+\.\d\d/);
    run!.send('q');
    expect(await run!.exited).toBe(0);
  }, 60_000);

  it('sends neither with the bell and notifications turned off', async () => {
    await start({ alerts: { bell: false, notify: false } });
    await run!.until((t) => /alert: IBM at /.test(t), 'the alert in the status line', 30_000);
    expect(run!.bytes()).not.toContain(`${ESC}]9;`);
    expect(run!.bytes()).not.toContain(`${BEL}${ESC}]9`);
    run!.send('q');
    expect(await run!.exited).toBe(0);
  }, 60_000);

  it('runs alerts.command for each firing with the details in its environment, writing nothing to the terminal', async () => {
    const out = join(tmpdir(), `tickbook-alert-command-${process.pid}-${Date.now()}.txt`);
    await start(
      { alerts: { bell: false, notify: false, command: `printf '%s|%s|%s|%s' "$TICKBOOK_ALERT_ID" "$TICKBOOK_ALERT_SYMBOL" "$TICKBOOK_ALERT_PRICE" "$TICKBOOK_ALERT_TEXT" > '${out}'; echo noise` } },
      true,
    );
    await run!.until((t) => /alert: IBM at /.test(t), 'the alert in the status line', 30_000);
    await waitForFile(out);
    expect(readFileSync(out, 'utf8')).toMatch(/^1\|IBM\|\d+(\.\d+)?\|IBM at \d+\.\d\d moved [+-]\d+\.\d\d% from the price when set$/);
    expect(run!.text()).not.toContain('noise');
    rmSync(out, { force: true });
    run!.send('q');
    expect(await run!.exited).toBe(0);
  }, 60_000);

  it('ends a command that is still running when the dashboard quits', async () => {
    const pidFile = join(tmpdir(), `tickbook-alert-hang-${process.pid}-${Date.now()}.pid`);
    await start({ alerts: { bell: false, notify: false, command: `echo $$ > '${pidFile}'; exec sleep 300` } });
    await run!.until((t) => /alert: IBM at /.test(t), 'the alert in the status line', 30_000);
    await waitForFile(pidFile);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    rmSync(pidFile, { force: true });
    expect(processRunning(pid)).toBe(true);
    run!.send('q');
    expect(await run!.exited).toBe(0);
    expect(processRunning(pid)).toBe(false);
  }, 60_000);
});
