// Making directories (issue 17, item 7): Node's recursive mkdir spins forever under /proc; every
// place tickbook makes a directory now fails at once with one line naming the path and where it
// came from. The /proc cases run in child processes with a kill timer: a hang fails the test.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirectoryError, ensureDirectory } from '../../src/config/directories.js';
import { configDirOrigin, dataDirOrigin } from '../../src/config/paths.js';
import { BIN } from '../helpers/sandbox.js';
import { type ChildRun, runChild, tsxArgs, cleanEnv } from '../helpers/child.js';

/** Well past a CLI's start (under a second) and far short of forever. */
const HANG_MS = 8_000;

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tickbook-directories-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The environment with home and XDG directories in the temp dir, then `extra`. */
function envWith(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const clean = cleanEnv();
  return { ...clean, HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), ...extra };
}

const tickbook = (args: readonly string[], env: NodeJS.ProcessEnv): Promise<ChildRun> =>
  runChild(process.execPath, [BIN, ...args], { env, timeoutMs: HANG_MS });

/** Ended by itself, at once, with one line on stderr and nothing on stdout. */
function expectOneLine(run: ChildRun, status: number): string {
  expect(run.timedOut, `still running after ${HANG_MS} ms: ${run.stderr}`).toBe(false);
  expect(run.code, run.stderr).toBe(status);
  expect(run.stdout).toBe('');
  expect(run.stderr.split('\n').filter(Boolean), run.stderr).toHaveLength(1);
  expect(run.stderr).not.toMatch(/^\s+at |Error:/m);
  return run.stderr;
}

describe('ensureDirectory', () => {
  it('makes every missing component with the mode given and leaves existing ones (a link to one too) as they are', () => {
    const existing = join(dir, 'existing');
    mkdirSync(existing, { mode: 0o755 });
    symlinkSync(existing, join(dir, 'link'));
    const wanted = join(dir, 'link', 'a', 'b');
    ensureDirectory(wanted, 'a test');
    expect(statSync(wanted).isDirectory()).toBe(true);
    expect(statSync(join(existing, 'a')).mode & 0o777).toBe(0o700);
    expect(statSync(existing).mode & 0o777).toBe(0o755);
    ensureDirectory(wanted, 'a test');
  });

  it('a file on the way is named as the component that is not a directory', () => {
    writeFileSync(join(dir, 'plain'), 'x');
    const wanted = join(dir, 'plain', 'tickbook', 'deeper');
    expect(() => ensureDirectory(wanted, 'XDG_DATA_HOME=x')).toThrow(
      new DirectoryError(wanted, 'XDG_DATA_HOME=x', `${join(dir, 'plain')} is not a directory`),
    );
  });

  it('where it came from, in words', () => {
    expect(dataDirOrigin({ XDG_DATA_HOME: '/proc' })).toBe('XDG_DATA_HOME=/proc');
    expect(dataDirOrigin({})).toBe('the default ~/.local/share');
    expect(configDirOrigin({ XDG_CONFIG_HOME: 'relative' })).toBe(
      'the default ~/.config; XDG_CONFIG_HOME is not an absolute path and is ignored',
    );
  });
});

describe('a directory that cannot be made, in every place tickbook makes one', () => {
  it('XDG_DATA_HOME=/proc tickbook contacts list: one line naming the path and XDG_DATA_HOME, exit 1, no hang', async () => {
    const line = expectOneLine(await tickbook(['contacts', 'list'], envWith({ XDG_DATA_HOME: '/proc' })), 1);
    expect(line).toBe(
      'tickbook: cannot open the database /proc/tickbook/sandbox.db: cannot create the directory /proc/tickbook ' +
        '(from XDG_DATA_HOME=/proc): the file system does not allow creating it (ENOENT)\n',
    );
  });

  it('XDG_DATA_HOME=/proc tickbook serve, quote and symbols: the same', async () => {
    const runs = await Promise.all(
      [['serve', '--port', '0'], ['quote', 'AAPL'], ['symbols']].map((args) => tickbook(args, envWith({ XDG_DATA_HOME: '/proc' }))),
    );
    for (const run of runs) expect(expectOneLine(run, 1)).toContain('cannot create the directory /proc/tickbook (from XDG_DATA_HOME=/proc)');
  });

  it('serve --db into a directory under /proc that it would make: exit 2 naming --db; one that does not exist: exit 2 too', async () => {
    const [made, missing] = await Promise.all([
      tickbook(['serve', '--port', '0', '--db', '/proc/tickbook/y.db'], envWith({ XDG_DATA_HOME: '/proc' })),
      tickbook(['serve', '--port', '0', '--db', '/proc/x/y.db'], envWith({})),
    ]);
    expect(expectOneLine(made, 2)).toContain('option --db /proc/tickbook/y.db: cannot create the directory /proc/tickbook (from option --db)');
    expect(expectOneLine(missing, 2)).toContain('option --db /proc/x/y.db');
  });

  it('a data home that is a file: the file is named', async () => {
    const file = join(dir, 'data-file');
    writeFileSync(file, 'x');
    const line = expectOneLine(await tickbook(['contacts', 'list'], envWith({ XDG_DATA_HOME: file })), 1);
    expect(line).toContain(`cannot create the directory ${file}/tickbook (from XDG_DATA_HOME=${file}): ${file} is not a directory`);
  });

  it('saving the config with XDG_CONFIG_HOME=/proc: a ConfigSaveError naming the path and XDG_CONFIG_HOME, no hang', async () => {
    const run = await runChild(
      process.execPath,
      tsxArgs('test/helpers/save-config-child.ts', ['/proc/tickbook/config.json', '{"interval": 3}']),
      { env: envWith({ XDG_CONFIG_HOME: '/proc' }), timeoutMs: HANG_MS + 5_000 },
    );
    expect(run.timedOut, run.stderr).toBe(false);
    expect(JSON.parse(run.stdout)).toEqual({
      error: {
        name: 'ConfigSaveError',
        isConfigError: true,
        message:
          'cannot save /proc/tickbook/config.json: cannot create the directory /proc/tickbook (from XDG_CONFIG_HOME=/proc): ' +
          'the file system does not allow creating it (ENOENT)',
      },
    });
  });

  const scriptPath = spawnSync('sh', ['-c', 'command -v script'], { encoding: 'utf8' }).stdout.trim();
  const hasScript = scriptPath !== '' && spawnSync(scriptPath, ['--version'], { encoding: 'utf8' }).stdout.includes('util-linux');

  it.skipIf(!hasScript)('the dashboard on a terminal with XDG_DATA_HOME=/proc: one line and exit 1, not a blank screen (needs util-linux script)', async () => {
    const command = `'${process.execPath}' '${BIN}'`;
    const run = await runChild(scriptPath, ['-qec', command, '/dev/null'], { env: envWith({ XDG_DATA_HOME: '/proc', TERM: 'xterm-256color' }), timeoutMs: HANG_MS });
    expect(run.timedOut, `still running after ${HANG_MS} ms: ${run.stdout}`).toBe(false);
    expect(run.code, run.stdout).toBe(1);
    expect(run.stdout).toContain('cannot create the directory /proc/tickbook (from XDG_DATA_HOME=/proc)');
  });
});
