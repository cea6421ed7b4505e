// The sandbox as its own process (the built bin), for benchmarks: the load and the server then
// use separate cores, as they would for a user.
import { spawn } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ServeProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

const root = new URL('../../', import.meta.url).pathname;

export async function startServeProcess(dir: string, dbPath: string, token: string, apiKey: string): Promise<ServeProcess> {
  const logPath = join(dir, 'server.log');
  const out = openSync(logPath, 'w');
  const child = spawn(
    process.execPath,
    [join(root, 'bin/tickbook'), 'serve', '--port', '0', '--db', dbPath, '--no-demo-data', '--seed', '1',
      '--token', token, '--api-key', apiKey],
    { stdio: ['ignore', out, 'inherit'] },
  );
  const deadline = Date.now() + 15_000;
  for (;;) {
    const match = /listening on (http:\/\/\S+)/.exec(readFileSync(logPath, 'utf8'));
    if (match) {
      return {
        url: match[1]!,
        pid: child.pid!,
        stop: () =>
          new Promise((resolve) => {
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      };
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('the server did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
}
