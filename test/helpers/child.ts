// Child processes for the config and command-line tests, with a kill timer: a test of a hang
// must end either way. (Run one as nobody with unprivileged.ts, where permissions are tested.)
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ChildRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Killed by the timer: it hung. */
  timedOut: boolean;
  ms: number;
}

/** Runs a child to its end, killed (SIGKILL) after `timeoutMs`. */
export function runChild(
  command: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number; cwd?: string; /** Written to stdin, then closed. */ input?: string } = {},
): Promise<ChildRun> {
  const started = performance.now();
  const stdin = options.input === undefined ? 'ignore' : 'pipe';
  const child = spawn(command, args, { env: options.env ?? process.env, cwd: options.cwd ?? ROOT, stdio: [stdin, 'pipe', 'pipe'] });
  if (options.input !== undefined) child.stdin!.end(options.input);
  let stdout = '';
  let stderr = '';
  let timedOut = false;
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, options.timeoutMs ?? 10_000);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut, ms: performance.now() - started });
    });
  });
}

/** A TypeScript module of this repository run by node through tsx, with `args`. */
export function tsxArgs(module: string, args: readonly string[]): string[] {
  return ['--import', 'tsx', `${ROOT}${module}`, ...args];
}

/** The test's environment without any TICKBOOK_* variable: a child starts as a new user's would. */
export function cleanEnv(): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('TICKBOOK_')) clean[key] = value;
  return clean;
}

/**
 * Whether process `pid` still runs. A zombie does not: one whose parent ended first waits to be
 * reaped by init, which in a container may take its time, and `kill(pid, 0)` still finds it.
 */
export function processRunning(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/**
 * Polls `probe` every 50 ms until it gives a value (not undefined or false), and gives that; fails
 * after `timeoutMs` naming `what` (and what `seen` says of the state then). For what a test waits
 * on outside its own process: a file a child writes, a process ending.
 */
export async function pollUntil<T>(probe: () => T | undefined | false, what: string, timeoutMs = 30_000, seen: () => string = () => ''): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${seen()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
