// Runs a command in a pty of its own (`script`), for what tmux does not show: every byte written
// to the terminal (the recording, escape sequences and all, stderr too) and the exit status
// (`script -e` passes on the command's, 128 + n for one ended by signal n).
import { removeHome } from './remove-home.js';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterEach } from 'vitest';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import xterm from '@xterm/headless';

export const hasScript = (): boolean => spawnSync('script', ['--version']).status === 0;

const ESC = '\u001b';
export const SEQ = {
  enterAltScreen: `${ESC}[?1049h`,
  leaveAltScreen: `${ESC}[?1049l`,
  hideCursor: `${ESC}[?25l`,
  showCursor: `${ESC}[?25h`,
  pasteMarksOn: `${ESC}[?2004h`,
  pasteMarksOff: `${ESC}[?2004l`,
  mouseOn: `${ESC}[?1000h`,
  mouseOff: `${ESC}[?1000l`,
  mouseSgrOff: `${ESC}[?1006l`,
  /** The end of each frame the dashboard draws (synchronized output). */
  endOfFrame: `${ESC}[?2026l`,
} as const;

export interface PtyRun {
  /** Every byte written to the terminal so far, without script's own first and last lines. */
  bytes(): string;
  /** The same as text, escape sequences removed. */
  text(): string;
  /**
   * The screen as a terminal shows it now (the bytes played into a headless xterm of the pty's
   * size), a line each. Unlike text(), a line the dashboard changed only in part reads whole:
   * its writer sends only the cells that changed.
   */
  screen(): Promise<string>;
  /** Polls the screen until `predicate` holds; fails with the screen. */
  untilScreen(predicate: (screen: string) => boolean, what: string, timeoutMs?: number): Promise<void>;
  /** Bytes typed into the terminal. */
  send(keys: string): void;
  /** The command's pid (it execs, so the pid is the program's). */
  pid(): Promise<number>;
  /** The status `script` passes on; null when it had to be killed. */
  readonly exited: Promise<number | null>;
  /** Whether it has ended. */
  ended(): boolean;
  /** Polls the text until `predicate` holds; fails with the text's tail. */
  until(predicate: (text: string) => boolean, what: string, timeoutMs?: number): Promise<void>;
  /**
   * Sends `key` again every 3 s until `shown` matches the text: the first page can be drawn a
   * moment before the keys are listened for on a busy machine. Not sooner: under load a key's
   * frame can take longer than half a second, and a key sent again may act twice.
   */
  pressUntil(key: string, shown: RegExp, what: string, timeoutMs?: number): Promise<void>;
  kill(): void;
}

const quote = (arg: string): string => `'${arg.replace(/'/g, `'\\''`)}'`;

/** Starts `argv` in a 120×40 pty, with `env` over the test's (CI left out), recording into `dir`. */
export function startInPty(argv: readonly string[], env: Record<string, string>, dir: string, limitMs = 60_000): PtyRun {
  const recording = join(dir, 'pty-recording');
  const pidFile = join(dir, 'pty-pid');
  const command = `stty cols 120 rows 40; echo $$ >${quote(pidFile)}; exec ${argv.map(quote).join(' ')}`;
  const childEnv: NodeJS.ProcessEnv = { ...process.env, TERM: 'xterm-256color', ...env };
  delete childEnv.CI;
  // -f: the recording is written as it comes, so it can be read while the program runs.
  const child = spawn('script', ['-q', '-e', '-f', '-c', command, recording], { env: childEnv, stdio: ['pipe', 'ignore', 'ignore'] });
  child.stdin.on('error', () => undefined);
  let done = false;
  const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
  const exited = new Promise<number | null>((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      done = true;
      resolve(code);
    });
  });
  const bytes = (): string => {
    if (!existsSync(recording)) return '';
    let all = readFileSync(recording, 'utf8');
    // script's own lines: "Script started on …" first, "Script done on …" last.
    all = all.slice(all.indexOf('\n') + 1);
    const trailer = all.lastIndexOf('\nScript done on ');
    return trailer >= 0 ? all.slice(0, trailer) : all;
  };
  const text = () => stripVTControlCharacters(bytes());
  // One emulator, fed what has come since it was last asked.
  const emulator = new xterm.Terminal({ cols: 120, rows: 40, allowProposedApi: true });
  let played = 0;
  const screen = async (): Promise<string> => {
    const all = bytes();
    const fresh = all.slice(played);
    played = all.length;
    await new Promise<void>((resolve) => emulator.write(fresh, resolve));
    const buffer = emulator.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < emulator.rows; y++) lines.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? '');
    return lines.join('\n');
  };
  const run: PtyRun = {
    bytes,
    text,
    screen,
    async untilScreen(predicate, what, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const shown = await screen();
        if (predicate(shown)) return;
        if (Date.now() > deadline || done) throw new Error(`${done ? 'ended' : 'timed out'} waiting for ${what}; the screen:\n${shown}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    send: (keys) => {
      if (!done) child.stdin.write(keys);
    },
    async pid() {
      await run.until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', 'the pid');
      return Number(readFileSync(pidFile, 'utf8').trim());
    },
    exited,
    ended: () => done,
    async until(predicate, what, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (predicate(text())) return;
        if (Date.now() > deadline || done) {
          if (predicate(text())) return;
          throw new Error(`${done ? 'ended' : 'timed out'} waiting for ${what}; the terminal's text ended with:\n${text().slice(-3000)}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async pressUntil(key, shown, what, timeoutMs = 30_000) {
      let sentAt = 0;
      await run.until(
        (t) => {
          if (shown.test(t)) return true;
          if (Date.now() - sentAt > 3000) {
            run.send(key);
            sentAt = Date.now();
          }
          return false;
        },
        what,
        timeoutMs,
      );
    },
    kill: () => {
      if (!done) child.kill('SIGKILL');
    },
  };
  return run;
}

/**
 * Where the recording says the terminal was left: after the last frame drawn, the alternate
 * screen was left and the cursor shown, and neither was undone after.
 */
export function terminalRestored(bytes: string): { left: boolean; cursorShown: boolean; pasteMarksOff: boolean; mouseOff: boolean; tail: string } {
  const lastFrame = bytes.lastIndexOf(SEQ.endOfFrame);
  const left = bytes.lastIndexOf(SEQ.leaveAltScreen);
  const shown = bytes.lastIndexOf(SEQ.showCursor);
  const pasteOff = bytes.lastIndexOf(SEQ.pasteMarksOff);
  const mouseOff = Math.min(bytes.lastIndexOf(SEQ.mouseOff), bytes.lastIndexOf(SEQ.mouseSgrOff));
  return {
    left: left > lastFrame && left > bytes.lastIndexOf(SEQ.enterAltScreen),
    cursorShown: shown > lastFrame && shown > bytes.lastIndexOf(SEQ.hideCursor),
    // Left on, the shell would get every paste wrapped in marks.
    pasteMarksOff: bytes.includes(SEQ.pasteMarksOn) && pasteOff > lastFrame && pasteOff > bytes.lastIndexOf(SEQ.pasteMarksOn),
    // Left on, every click in the shell would type a report.
    mouseOff: bytes.includes(SEQ.mouseOn) && mouseOff > lastFrame && mouseOff > bytes.lastIndexOf(SEQ.mouseOn),
    tail: JSON.stringify(bytes.slice(-200)),
  };
}

/**
 * A home of its own for each test of a dashboard in a pty (its config, data and cache dirs, a UTF-8
 * locale), and the run started in it, killed and removed after each test.
 */
export function setUpPtyHome(prefix: string): { home: () => string; env: () => Record<string, string>; start: (argv: readonly string[], limitMs?: number) => PtyRun; run: () => PtyRun } {
  let home: string | undefined;
  let run: PtyRun | undefined;
  const env = (): Record<string, string> => {
    home ??= mkdtempSync(join(tmpdir(), prefix));
    return { HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache'), LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' };
  };
  afterEach(async () => {
    run?.kill();
    await run?.exited;
    run = undefined;
    if (home) await removeHome(home);
    home = undefined;
  });
  return {
    home: () => (env(), home!),
    env,
    start: (argv, limitMs) => (run = startInPty(argv, env(), (env(), home!), limitMs)),
    run: () => run!,
  };
}
