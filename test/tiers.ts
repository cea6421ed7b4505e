// Which tier a test file is in, read from what it imports. The unit tier (`npm run test:unit`)
// holds the files that start no process, open no socket and drive no terminal: pure functions,
// reducers, controllers on fakes, files and SQLite databases in temp dirs; under a minute on 2
// cores. The e2e tier (`npm run test:e2e`) holds the rest: the sandbox over loopback HTTP, servers
// that misbehave on purpose, `bin/tickbook` run as a child, tmux and pseudo-terminals. A file
// that starts using one of those moves to e2e by itself.
import { globSync, readFileSync } from 'node:fs';

/** What makes a file an end-to-end one: a process, a socket, a server or a terminal. */
const END_TO_END =
  /helpers\/(sandbox|child|servers|proxy|pty|tmux|ink-terminal|dashboard)\.js|node:child_process|node:net|node:https?'|\btmux\b|bin\/tickbook|startTestSandbox|setUpSandbox/;

export const TEST_FILES = ['test/**/*.test.ts', 'test/**/*.test.tsx'];
export const NOT_TESTS = ['test/bench/**', 'node_modules/**'];

/** The unit tier's files, relative to the project's root. */
export function unitTestFiles(root: string): string[] {
  return globSync(TEST_FILES, { cwd: root, exclude: (name) => name.startsWith('test/bench/') })
    // A name that says it (`*.e2e.test.ts`) is end-to-end whatever it imports.
    .filter((file) => !/\.e2e\.test\.tsx?$/.test(file) && !END_TO_END.test(readFileSync(`${root}/${file}`, 'utf8')))
    .sort();
}
