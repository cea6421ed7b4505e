// Where the sandbox database is named as a directory, every way in says so in the same words:
// `serve --db`, `serve` on the default place, and the commands' embedded sandbox. A --db ending in
// "/" names a directory even when nothing is there (SQLite would quietly make a file without it).
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hasScript, SEQ, startInPty, terminalRestored } from '../helpers/pty.js';
import { BIN, killTickbookChildren, runTickbookToExit } from '../helpers/sandbox.js';
import { cleanEnv } from '../helpers/child.js';

let dir: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tickbook-dbpath-'));
  env = { ...cleanEnv(), HOME: join(dir, 'home'), XDG_DATA_HOME: join(dir, 'xdg-data'), XDG_CONFIG_HOME: join(dir, 'xdg-config') };
});

afterEach(async () => {
  await killTickbookChildren();
  rmSync(dir, { recursive: true, force: true });
});

async function oneLine(args: string[], status: number): Promise<string> {
  const result = await runTickbookToExit(args, env);
  expect(result.code, result.stderr).toBe(status);
  expect(result.stdout).toBe('');
  const lines = result.stderr.split('\n').filter((line) => line !== '');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).not.toMatch(/SQLITE_|unable to open|\n\s+at /);
  return lines[0]!;
}

describe('a database path that names a directory', () => {
  it('serve --db DIR/ where nothing is: refused naming --db, and no file made without the "/"', async () => {
    const named = join(dir, 'not-there') + '/';
    const line = await oneLine(['serve', '--port', '0', '--db', named], 2);
    expect(line).toBe(`tickbook: option --db ${named}: it ends in "/", so it names a directory, not a database file (see tickbook --help)`);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('serve --db DIR/ on a directory that is there: "it is a directory"', async () => {
    const folder = join(dir, 'folder');
    mkdirSync(folder);
    const line = await oneLine(['serve', '--port', '0', '--db', `${folder}/`], 2);
    expect(line).toBe(`tickbook: option --db ${folder}/: it is a directory, not a database file (see tickbook --help)`);
  });

  it('the default place a directory: serve and contacts list say it in the same words', async () => {
    const db = join(dir, 'xdg-data', 'tickbook', 'sandbox.db');
    mkdirSync(db, { recursive: true });
    const words = `tickbook: cannot open the database ${db}: it is a directory, not a database file`;
    expect(await oneLine(['serve', '--port', '0'], 1)).toBe(words);
    expect(await oneLine(['contacts', 'list'], 1)).toBe(words);
    expect(existsSync(join(db, 'sandbox.db'))).toBe(false);
  });

  it('the default place a FIFO or a socket: serve, contacts list and doctor say what it is, at once, and leave it', async () => {
    const db = join(dir, 'xdg-data', 'tickbook', 'sandbox.db');
    mkdirSync(join(db, '..'), { recursive: true });
    // No writer ever comes: SQLite would wait on its first read of it.
    execFileSync('mkfifo', [db]);
    const words = (kind: string) => `tickbook: cannot open the database ${db}: it is ${kind}, not a database file`;
    expect(await oneLine(['contacts', 'list'], 1)).toBe(words('a FIFO (named pipe)'));
    expect(await oneLine(['serve', '--port', '0'], 1)).toBe(words('a FIFO (named pipe)'));
    const doctor = await runTickbookToExit(['doctor'], env, 5000);
    expect(doctor.stdout).toMatch(new RegExp(`sandbox +${db}: it is a FIFO \\(named pipe\\), not a database file\n`));
    expect(statSync(db).isFIFO()).toBe(true);
    rmSync(db);
    const server = createServer().listen(db);
    await once(server, 'listening');
    try {
      expect(await oneLine(['contacts', 'list'], 1)).toBe(words('a socket'));
    } finally {
      server.close();
    }
  });

  // The dashboard opens the embedded sandbox's database after its first frame: failing then, it
  // still ends with the same line, once the terminal is the shell's again.
  it.skipIf(!hasScript())('the default place a directory: the dashboard says it in the same words after restoring the terminal, exit 1', async () => {
    const db = join(dir, 'xdg-data', 'tickbook', 'sandbox.db');
    mkdirSync(db, { recursive: true });
    const run = startInPty([process.execPath, BIN], { LANG: 'C.UTF-8', HOME: env.HOME!, XDG_DATA_HOME: env.XDG_DATA_HOME!, XDG_CONFIG_HOME: env.XDG_CONFIG_HOME! }, dir);
    try {
      expect(await run.exited).toBe(1);
      const bytes = run.bytes();
      const restored = terminalRestored(bytes);
      expect(restored.left, restored.tail).toBe(true);
      expect(restored.cursorShown, restored.tail).toBe(true);
      // A crash after the first frame turns the mouse's reports off as it leaves the screen.
      expect(restored.mouseOff, restored.tail).toBe(true);
      const after = bytes.slice(bytes.lastIndexOf(SEQ.leaveAltScreen) + SEQ.leaveAltScreen.length);
      expect(after.replace(/\r/g, '').trim()).toBe(`tickbook: cannot open the database ${db}: it is a directory, not a database file`);
    } finally {
      run.kill();
    }
  }, 30_000);
});
