// `tickbook serve --port N` on a port another server holds: one line saying the port is in use,
// and nothing created, neither the --db file nor the default data directory.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { killTickbookChildren, runTickbookToExit } from '../helpers/sandbox.js';

let dir: string;
let env: NodeJS.ProcessEnv;
let holder: Server;
let port: number;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tickbook-port-'));
  env = { ...process.env, HOME: join(dir, 'home'), XDG_DATA_HOME: join(dir, 'xdg-data'), XDG_CONFIG_HOME: join(dir, 'xdg-config') };
  // A real server answering on the port, as another program would.
  holder = createServer((_req, res) => res.end('taken'));
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  port = (holder.address() as AddressInfo).port;
});

afterEach(async () => {
  await killTickbookChildren();
  await new Promise((resolve) => holder.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('serve on a port in use creates nothing', () => {
  it('--db in a fresh directory: the file is not created', async () => {
    const db = join(dir, 'fresh.db');
    const result = await runTickbookToExit(['serve', '--port', String(port), '--db', db], env);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toBe(`tickbook: cannot listen on port ${port}: it is already in use\n`);
    expect(result.stdout).toBe('');
    expect(readdirSync(dir).filter((name) => name.startsWith('fresh.db'))).toEqual([]);
  });

  it('the default database: its directory is not created either', async () => {
    const result = await runTickbookToExit(['serve', '--port', String(port)], env);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/already in use/);
    expect(existsSync(join(dir, 'xdg-data'))).toBe(false);
  });
});
