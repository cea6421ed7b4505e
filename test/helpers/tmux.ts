// Drives bin/tickbook in a real terminal: tmux sessions, keys, and the screen as a person sees it.
import { removeHome } from './remove-home.js';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach } from 'vitest';

export const BIN = fileURLToPath(new URL('../../bin/tickbook', import.meta.url));

export const hasTmux = (): boolean => spawnSync('tmux', ['-V']).status === 0;

let counter = 0;

export interface TmuxSession {
  name: string;
  /** The screen as text, one string per row. */
  screen(): string;
  /** The screen with its colours and attributes, as SGR sequences. */
  styled(): string;
  /** Sends keys (tmux key names: "j", "Enter", "Escape", "Tab", "C-u"). */
  keys(...keys: string[]): void;
  /** Types text literally. */
  type(text: string): void;
  /**
   * Pastes text as a terminal does: bracketed (`CSI 200~ … CSI 201~`) when the program asked for
   * it, line breaks sent as CR (tmux's paste-buffer).
   */
  paste(text: string): void;
  resize(columns: number, rows: number): void;
  /** Types `text` again every second until `predicate` holds (for keys sent as a field opens). */
  typeUntil(text: string, predicate: (screen: string) => boolean, what: string, timeoutMs?: number): Promise<string>;
  /** Polls the screen until `predicate` holds; fails with the last screen. */
  waitFor(predicate: (screen: string) => boolean, what: string, timeoutMs?: number): Promise<string>;
  /** Whether the program in the pane has ended. */
  exited(): boolean;
  /** Whether the pane's terminal reports the mouse (mode 1000) in SGR form (1006), as tmux keeps them. */
  mouse(): { reporting: boolean; sgr: boolean };
  kill(): void;
}

/**
 * Each test process's sessions on a tmux server of its own: on one server for all, a worker's
 * last session ending took the server down as another worker's new-session reached it ("server
 * exited unexpectedly", once in CI). The server ends with its last session, as tmux's do.
 */
const SOCKET = `tickbook-e2e-${process.pid}`;

/** tmux on this process's server. */
export function tmux(args: readonly string[]): string {
  return execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * A new session; tried again while the server is still going away after this process's last
 * session ended (its new-session then meets a server on its way out).
 */
function newSession(args: readonly string[]): void {
  for (let attempt = 1; ; attempt++) {
    try {
      tmux(['new-session', ...args]);
      return;
    } catch (error) {
      if (attempt >= 20 || !/server exited unexpectedly|lost server/.test(String((error as { stderr?: unknown }).stderr ?? error))) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    }
  }
}

export function startTmux(command: string[], env: Record<string, string>, columns = 120, rows = 40): TmuxSession {
  const name = `tickbook-e2e-${process.pid}-${++counter}`;
  // A UTF-8 terminal unless the test says otherwise: the dashboard draws ASCII in other locales.
  const locale = 'LANG' in env || 'LC_ALL' in env || 'LC_CTYPE' in env ? {} : { LANG: 'C.UTF-8', LC_ALL: '', LC_CTYPE: '' };
  const envArgs = Object.entries({ ...locale, ...env }).map(([k, v]) => `${k}=${v}`);
  // The pane's command ends with a marker line so a test can see the program exit.
  const shell = `env -u CI ${envArgs.map(quote).join(' ')} ${command.map(quote).join(' ')}; echo "[exited $?]"; sleep 600`;
  newSession(['-d', '-s', name, '-x', String(columns), '-y', String(rows), shell]);
  const session: TmuxSession = {
    name,
    screen: () => tmux(['capture-pane', '-p', '-t', name]),
    styled: () => tmux(['capture-pane', '-p', '-e', '-t', name]),
    keys: (...keys) => {
      for (const key of keys) tmux(['send-keys', '-t', name, key]);
    },
    type: (text) => {
      tmux(['send-keys', '-t', name, '-l', text]);
    },
    paste: (text) => {
      tmux(['set-buffer', '-b', name, '--', text]);
      tmux(['paste-buffer', '-p', '-d', '-b', name, '-t', name]);
    },
    resize: (c, r) => {
      tmux(['resize-window', '-t', name, '-x', String(c), '-y', String(r)]);
    },
    async waitFor(predicate, what, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const last = session.screen();
        if (predicate(last)) return last;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the screen was:\n${last}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async typeUntil(text, predicate, what, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        session.type(text);
        try {
          return await session.waitFor(predicate, what, Math.min(1000, Math.max(1, deadline - Date.now())));
        } catch (error) {
          if (Date.now() > deadline) throw error;
        }
      }
    },
    exited: () => /\[exited \d+\]/.test(session.screen()),
    mouse: () => {
      const [standard, sgr] = tmux(['display-message', '-p', '-t', name, '#{mouse_standard_flag} #{mouse_sgr_flag}']).trim().split(' ');
      return { reporting: standard === '1', sgr: sgr === '1' };
    },
    kill: () => {
      spawnSync('tmux', ['-L', SOCKET, 'kill-session', '-t', name]);
    },
  };
  return session;
}

function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/**
 * A fresh home per test (HOME, and the data, config and cache directories inside it) and the session
 * the test starts there, ended and removed after each.
 */
export function setUpE2eHome(prefix = 'tickbook-e2e-') {
  const ctx = { session: undefined } as { home: string; env: Record<string, string>; session: TmuxSession | undefined };
  beforeEach(() => {
    ctx.home = mkdtempSync(join(tmpdir(), prefix));
    // The cache too: a developer's XDG_CACHE_HOME would otherwise be every test's.
    ctx.env = { HOME: ctx.home, XDG_DATA_HOME: join(ctx.home, 'data'), XDG_CONFIG_HOME: join(ctx.home, 'config'), XDG_CACHE_HOME: join(ctx.home, 'cache') };
  });
  afterEach(async () => {
    ctx.session?.kill();
    ctx.session = undefined;
    await removeHome(ctx.home);
  });
  return ctx;
}
