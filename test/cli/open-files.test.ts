// A low open-file limit is named as such (issue 18, item 8): under `ulimit -n 20` tickbook said
// "unable to open database file", "Cannot find module 'bindings'" or "the connection was dropped".
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NEEDED_OPEN_FILES, openFileLimit, openFileProblem } from '../../src/cli/open-files.js';
import { runChild } from '../helpers/child.js';
import { BIN } from '../helpers/sandbox.js';

const home = mkdtempSync(join(tmpdir(), 'tickbook-open-files-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const env = { PATH: process.env.PATH, HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config') };
const underLimit = (limit: number, args: string[]) =>
  runChild('bash', ['-c', `ulimit -n ${limit} && exec "$@"`, 'bash', process.execPath, BIN, ...args], { env, timeoutMs: 15_000 });

// A limit Node itself starts under: Node 24 opens about 23 files before any script runs (io_uring
// and epoll for each of its event loops), and under that fails in its own words.
const LOW = 32;

describe('the open-file limit', () => {
  for (const args of [['quote', 'AAPL'], ['contacts', 'list'], ['serve', '--port', '0']]) {
    it(`ulimit -n ${LOW}: tickbook ${args.join(' ')} says "too many open files" and how to raise the limit, exit 1`, async () => {
      const run = await underLimit(LOW, args);
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(`tickbook: too many open files would be needed: the limit is ${LOW} (ulimit -n) and tickbook needs ${NEEDED_OPEN_FILES}; raise it with ulimit -n 1024\n`);
    });
  }

  it(`at ${NEEDED_OPEN_FILES} a command runs`, async () => {
    const run = await underLimit(NEEDED_OPEN_FILES, ['quote', 'AAPL']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^AAPL\s/m);
  });

  it('reads the soft limit from /proc/self/limits; unlimited or unreadable means no check', () => {
    const limits = (soft: string) => () =>
      `Limit                     Soft Limit           Hard Limit           Units\nMax open files            ${soft}                 1048576              files\n`;
    expect(openFileLimit(limits('20'))).toBe(20);
    expect(openFileLimit(limits('unlimited'))).toBeUndefined();
    expect(
      openFileLimit(() => {
        throw new Error('no /proc here');
      }),
    ).toBeUndefined();
    expect(openFileProblem(undefined)).toBeUndefined();
    expect(openFileProblem(1024)).toBeUndefined();
    expect(openFileProblem(20)).toMatch(/too many open files/);
  });
});
