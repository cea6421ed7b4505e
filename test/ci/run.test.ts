// .ci/run's closing line and exit status, with npm standing in (a real `npm ci` and whole suite
// take minutes): a type error, and an install that compiled something, each count as a failure
// beside vitest's, and fail the run.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const run = fileURLToPath(new URL('../../.ci/run', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'tickbook-ci-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Runs a copy of .ci/run in a checkout of its own, with an `npm` whose typecheck exits
 * `typecheckCode` and whose test run reports `passed` and `failed` as vitest's JSON reporter does.
 */
function ci(typecheckCode: number, passed: number, failed: number, installOutput = 'added 182 packages in 17s') {
  const root = mkdtempSync(join(dir, 'checkout-'));
  mkdirSync(join(root, '.ci'));
  copyFileSync(run, join(root, '.ci/run'));
  const bin = join(root, 'stub-bin');
  mkdirSync(bin);
  const report = JSON.stringify({ numPassedTests: passed, numFailedTests: failed, numPendingTests: 0, numTodoTests: 0, testResults: [] });
  const npm = `#!/bin/sh
case "$1" in
  ci) printf '%s\n' '${installOutput}'; exit 0 ;;
  exec) echo v24.0.0 ;;
  run) echo "tsc ran" >&2; exit ${typecheckCode} ;;
  test) for arg in "$@"; do case "$arg" in --outputFile.json=*) printf '%s' '${report}' > "\${arg#--outputFile.json=}" ;; esac; done; exit ${failed ? 1 : 0} ;;
esac
exit 99
`;
  for (const [name, text] of [['npm', npm], ['abook', '#!/bin/sh\n'], ['khard', '#!/bin/sh\n']] as const) {
    writeFileSync(join(bin, name), text);
    chmodSync(join(bin, name), 0o755);
  }
  const result = spawnSync('bash', [join(root, '.ci/run')], { encoding: 'utf8', env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } });
  return { status: result.status, last: result.stdout.trim().split('\n').at(-1), stdout: result.stdout };
}

describe('.ci/run', () => {
  it('passes with the type-check clean and every test passed', () => {
    expect(ci(0, 3, 0)).toMatchObject({ status: 0, last: '3 passed, 0 failed' });
  });

  it('fails on a type error, counted as one failure, with every test passed', () => {
    const result = ci(2, 3, 0);
    expect(result).toMatchObject({ status: 1, last: '3 passed, 1 failed' });
    expect(result.stdout).toContain('typecheck failed (tsc --noEmit)');
  });

  it('counts a type error beside failing tests', () => {
    expect(ci(2, 3, 2)).toMatchObject({ status: 1, last: '3 passed, 3 failed' });
  });

  it('fails when npm ci compiled something (node-gyp or prebuild-install), counted as one failure', () => {
    for (const output of ['> better-sqlite3@13.2.0 install\n> node-gyp rebuild', 'gyp info it worked if it ends with ok', '> prebuild-install || node-gyp rebuild --release']) {
      const result = ci(0, 3, 0, output);
      expect(result, output).toMatchObject({ status: 1, last: '3 passed, 1 failed' });
      expect(result.stdout).toContain('npm ci built a native addon (node-gyp or prebuild-install): nothing should be compiled');
    }
    expect(ci(2, 3, 0, 'gyp info ok')).toMatchObject({ status: 1, last: '3 passed, 2 failed' });
  });

  it("says which Node ran npm ci and which runs npm's scripts", () => {
    expect(ci(0, 1, 0).stdout).toMatch(/^npm ci ran on node v\d+\.\d+\.\d+; npm's scripts run on node v24\.0\.0$/m);
  });
});
