// A process's time and peak resident memory (VmHWM), for the benchmarks that run the CLI as a user
// does: read from /proc as it runs, and at its exit by a hook it loads (NODE_OPTIONS), so that a
// short process is measured too and a crash still leaves the polled figure.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface Measured {
  code: number | null;
  ms: number;
  /** Peak RSS, kB. */
  peakKb: number;
  stdout: string;
  stderr: string;
}

/** `measure(command, args, env)`, its hook and figures kept in `dir`. */
export function processMeter(dir: string): (command: string, args: readonly string[], env: NodeJS.ProcessEnv) => Promise<Measured> {
  const hook = join(dir, 'hwm-at-exit.mjs');
  writeFileSync(
    hook,
    `import { readFileSync, writeFileSync } from 'node:fs';
process.on('exit', () => {
  const kb = /VmHWM:\\s*(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
  if (process.env.HWM_FILE && kb) writeFileSync(process.env.HWM_FILE, kb);
});
`,
  );
  let runs = 0;
  return (command, args, env) => {
    const hwmFile = join(dir, `hwm-${++runs}`);
    const started = performance.now();
    const child = spawn(command, args, {
      env: { ...env, HWM_FILE: hwmFile, NODE_OPTIONS: `--import=${pathToFileURL(hook).href}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = { stdout: '', stderr: '' };
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out.stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (out.stderr += c));
    let polled = 0;
    // Read while it runs too: VmHWM only grows, and a hook that did not run (a crash) leaves this.
    const poll = setInterval(() => {
      try {
        const kb = Number(/VmHWM:\s*(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
        polled = Math.max(polled, kb);
      } catch {
        // Gone between the check and the read.
      }
    }, 20);
    return new Promise((resolve) => {
      child.on('close', (code) => {
        clearInterval(poll);
        const atExit = existsSync(hwmFile) ? Number(readFileSync(hwmFile, 'utf8')) : 0;
        resolve({ code, ms: performance.now() - started, peakKb: Math.max(polled, atExit), ...out });
      });
    });
  };
}
