// Servers as their own processes, for benchmarks: the load and the server then use separate
// cores, as they would for a user.
import { spawn } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ServeProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

const root = new URL('../../', import.meta.url).pathname;

/**
 * The sandbox, as `tickbook serve` from the built bin (`extra`: more of its options, --rate-limit N,
 * --demo-contacts N in place of the empty list it otherwise starts with, --token T for more lists).
 */
export function startServeProcess(dir: string, dbPath: string, token: string, apiKey: string, extra: readonly string[] = []): Promise<ServeProcess> {
  return startListening(join(dir, `server${extra.length > 0 ? `-${extra.join('-').replace(/\W+/g, '')}` : ''}.log`), [
    join(root, 'bin/tickbook'), 'serve', '--port', '0', '--db', dbPath, ...(extra.includes('--demo-contacts') ? [] : ['--no-demo-data']), '--seed', '1',
    '--token', token, '--api-key', apiKey, ...extra,
  ]);
}

/** A pricing server that does no work for `symbols` in batches, answering after `delayMs`. */
export function startReferencePricingServer(dir: string, delayMs: number, symbols: readonly string[]): Promise<ServeProcess> {
  return startListening(join(dir, `reference-${delayMs}ms.log`), [
    join(root, 'test/bench/reference-pricing-server.mjs'), String(delayMs), ...symbols,
  ]);
}

/** The bare floor (bare-server.mjs): each path answered with a body fixed in advance; /durable/… after an fdatasync of `journalPath`. */
export function startBareServer(dir: string, bodiesPath: string, journalPath?: string): Promise<ServeProcess> {
  return startListening(join(dir, 'bare.log'), [join(root, 'test/bench/bare-server.mjs'), bodiesPath, ...(journalPath ? [journalPath] : [])]);
}

/** Runs Node with `args` and waits for the "listening on URL" line in its output. */
async function startListening(logPath: string, args: string[]): Promise<ServeProcess> {
  const out = openSync(logPath, 'w');
  const child = spawn(process.execPath, args, { stdio: ['ignore', out, 'inherit'] });
  const deadline = Date.now() + 15_000;
  for (;;) {
    const match = /listening on (http:\/\/\S+)/.exec(readFileSync(logPath, 'utf8'));
    if (match) {
      return {
        url: match[1]!,
        pid: child.pid!,
        stop: () =>
          new Promise((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) {
              resolve();
              return;
            }
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      };
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`${args[0]} did not start`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
