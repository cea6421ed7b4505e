// The built CLI run as a user that file modes bind. As root, chmod 0444 or 0555 stops nothing, so
// the child runs as nobody (setpriv, util-linux); as anyone else, as is. Read-only files and
// directories in tests are then real: the kernel refuses the writes, not a mock.
import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { BIN } from './sandbox.js';
import { unprivileged } from './unprivileged.js';

export { RUNS_AS_NOBODY, traversableTempDir } from './unprivileged.js';

export interface UnprivilegedRun {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stdout; rejects when the child exits first or in 10 s. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running = new Set<ChildProcess>();

/** `tickbook ARGS` (the built bin), as nobody when this process is root. */
export function runTickbookUnprivileged(args: readonly string[], env: NodeJS.ProcessEnv): UnprivilegedRun {
  const [file, rest] = unprivileged(process.execPath, [BIN, ...args]);
  const child = spawn(file, rest, { env, cwd: tmpdir(), stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  const out = { stdout: '', stderr: '' };
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out.stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (out.stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('close', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    });
  });
  return {
    child,
    stdout: () => out.stdout,
    stderr: () => out.stderr,
    exited,
    waitFor(pattern) {
      return new Promise((resolve, reject) => {
        const timer = setInterval(() => {
          const match = pattern.exec(out.stdout);
          if (match) finish(() => resolve(match));
        }, 20);
        const deadline = setTimeout(() => finish(() => reject(new Error(`no ${pattern} within 10 s; stderr: ${out.stderr}`))), 10_000);
        void exited.then(() => {
          const match = pattern.exec(out.stdout);
          finish(() => (match ? resolve(match) : reject(new Error(`exited before ${pattern}; stderr: ${out.stderr}`))));
        });
        function finish(settle: () => void): void {
          clearInterval(timer);
          clearTimeout(deadline);
          settle();
        }
      });
    },
  };
}

/** Runs to the end (SIGKILL after `timeoutMs`). */
export async function runTickbookUnprivilegedToExit(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = 10_000,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  const run = runTickbookUnprivileged(args, env);
  const timer = setTimeout(() => run.child.kill('SIGKILL'), timeoutMs);
  const exit = await run.exited;
  clearTimeout(timer);
  return { ...exit, stdout: run.stdout(), stderr: run.stderr() };
}

/** Kills (SIGKILL) every child started here that still runs, and waits for them. */
export async function killUnprivilegedChildren(): Promise<void> {
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('close', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
}
