// alerts.command as it runs: real /bin/sh processes, given the firing and not tickbook's
// credentials, one at a time per alert however often it fires, ended after their time limit
// (SIGTERM, then SIGKILL for one that ignores it), and none left running after stop(), what they
// started in turn included.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { AlertCommands, type AlertCommandOptions } from '../../src/alerts/command-runner.js';
import type { Firing } from '../../src/store/alerts-store.js';
import { pollUntil, processRunning } from '../helpers/child.js';

const dir = mkdtempSync(join(tmpdir(), 'tickbook-alert-commands-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
const fileIn = (name: string): string => join(dir, `${++files}-${name}`);

const firing = (alert: number): Firing => ({
  alert,
  symbol: 'AAPL',
  condition: { kind: 'above', price: 200 },
  at: Date.UTC(2026, 10, 29, 9, 30),
  price: 201.5,
  text: 'AAPL at 201.50 crossed above 200.00',
});

const runners: AlertCommands[] = [];
afterEach(async () => {
  await Promise.all(runners.splice(0).map((runner) => runner.stop()));
});

function runner(command: string, extra: Partial<AlertCommandOptions> = {}) {
  const problems: string[] = [];
  const skipped: string[] = [];
  const commands = new AlertCommands({ command, env: process.env, onProblem: (line) => problems.push(line), onSkipped: (line) => skipped.push(line), ...extra });
  runners.push(commands);
  return { commands, problems, skipped };
}

/** Waits until `ready` holds (polling; a few seconds at most). */
const until = (ready: () => boolean, what: string): Promise<boolean> => pollUntil(ready, what, 5000);

const lines = (path: string): string[] => (existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter((line) => line !== '') : []);

describe('alerts.command', () => {
  it('gets the firing in TICKBOOK_ALERT_*, and the user’s environment without tickbook’s credentials', async () => {
    const out = fileIn('env');
    const env = { PATH: process.env.PATH, HOME: '/home/someone', TICKBOOK_TOKEN: 'tok-secret-1234567890', TICKBOOK_API_KEY: 'key-secret-1234567890', TICKBOOK_BASE_URL: 'https://api.example.com', LANG: 'C.UTF-8' };
    const { commands } = runner(`env > '${out}'`, { env });
    commands.run(firing(3));
    await until(() => commands.running === 0 && lines(out).length > 0, 'the command to end');
    const seen = Object.fromEntries(lines(out).map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
    expect(seen).toMatchObject({
      TICKBOOK_ALERT_ID: '3',
      TICKBOOK_ALERT_SYMBOL: 'AAPL',
      TICKBOOK_ALERT_PRICE: '201.5',
      TICKBOOK_ALERT_TIME: '2026-11-29T09:30:00.000Z',
      TICKBOOK_ALERT_TEXT: 'AAPL at 201.50 crossed above 200.00',
      HOME: '/home/someone',
      TICKBOOK_BASE_URL: 'https://api.example.com',
      LANG: 'C.UTF-8',
    });
    expect(seen).not.toHaveProperty('TICKBOOK_TOKEN');
    expect(seen).not.toHaveProperty('TICKBOOK_API_KEY');
    expect(readFileSync(out, 'utf8')).not.toMatch(/secret/);
  });

  it('runs one at a time per alert: a firing while it runs is said, not started again; another alert’s runs beside it', async () => {
    const pids = fileIn('pids');
    const { commands, skipped } = runner(`echo "$TICKBOOK_ALERT_ID $$" >> '${pids}'; exec sleep 300`);
    commands.run(firing(1));
    await until(() => lines(pids).length === 1, 'the first command');
    commands.run(firing(1));
    commands.run(firing(1));
    commands.run(firing(2));
    await until(() => lines(pids).length === 2, 'the second alert’s command');
    expect(lines(pids).map((line) => line.split(' ')[0])).toEqual(['1', '2']);
    expect(commands.running).toBe(2);
    expect(skipped).toEqual([
      'alerts.command for alert 1 is still running: not started again for this firing',
      'alerts.command for alert 1 is still running: not started again for this firing',
    ]);
    await commands.stop();
    expect(commands.running).toBe(0);
    for (const line of lines(pids)) expect(processRunning(Number(line.split(' ')[1]))).toBe(false);
    // Ended, it may run again at the next firing.
    commands.run(firing(1));
    await until(() => lines(pids).length === 3, 'the command run again');
  });

  it('ends a command that runs past its limit, saying so; one that ignores SIGTERM is killed after the grace', async () => {
    const polite = fileIn('polite');
    const stubborn = fileIn('stubborn');
    const { commands, problems } = runner(
      `if [ "$TICKBOOK_ALERT_ID" = 2 ]; then trap '' TERM; echo $$ > '${stubborn}'; else echo $$ > '${polite}'; fi; while :; do sleep 1; done`,
      { limitMs: 300, graceMs: 300 },
    );
    commands.run(firing(1));
    commands.run(firing(2));
    await until(() => lines(polite).length === 1 && lines(stubborn).length === 1, 'both commands to start');
    await until(() => commands.running === 0, 'both to be ended');
    expect(processRunning(Number(lines(polite)[0]))).toBe(false);
    expect(processRunning(Number(lines(stubborn)[0]))).toBe(false);
    expect(problems.sort()).toEqual(['alerts.command for alert 1 ran past 0.3 s and was ended', 'alerts.command for alert 2 ran past 0.3 s and was ended']);
  });

  it('stop() leaves nothing running, what a command started in the background included', async () => {
    const pids = fileIn('background');
    const { commands, problems } = runner(`sleep 300 & echo $! > '${pids}'; wait`);
    commands.run(firing(1));
    await until(() => lines(pids).length === 1, 'the background sleep');
    const sleeper = Number(lines(pids)[0]);
    expect(processRunning(sleeper)).toBe(true);
    await commands.stop();
    await until(() => !processRunning(sleeper), 'the background sleep to be ended');
    // Ended by tickbook on the way out: no failure of the command's to report.
    expect(problems).toEqual([]);
  });

  it('counts what a command left running after its shell ended: held to one run, ended by its limit and by stop()', async () => {
    const pids = fileIn('left-behind');
    // The shell ends at once; its sleep runs on in the command's process group.
    const { commands, skipped, problems } = runner(`sleep 300 & echo $! >> '${pids}'`, { limitMs: 60_000 });
    commands.run(firing(1));
    await until(() => lines(pids).length === 1, 'the background sleep');
    const first = Number(lines(pids)[0]);
    commands.run(firing(1));
    expect(skipped).toEqual(['alerts.command for alert 1 is still running: not started again for this firing']);
    expect(commands.running).toBe(1);
    await commands.stop();
    expect(processRunning(first)).toBe(false);
    expect(commands.running).toBe(0);
    expect(problems).toEqual([]);

    const limited = runner(`sleep 300 & echo $! >> '${pids}'`, { limitMs: 300, graceMs: 300 });
    limited.commands.run(firing(2));
    await until(() => lines(pids).length === 2, 'the second background sleep');
    await until(() => limited.commands.running === 0, 'the limit to end it');
    expect(processRunning(Number(lines(pids)[1]))).toBe(false);
    expect(limited.problems).toEqual(['alerts.command for alert 2 ran past 0.3 s and was ended']);
  });

  it('says when a command fails', async () => {
    const { commands, problems } = runner('exit 3');
    commands.run(firing(4));
    await until(() => commands.running === 0, 'the command to end');
    expect(problems).toEqual(['alerts.command exited 3 for alert 4']);
  });
});
