// `npm run build` and the check `npm start` and `npm test` run first must agree: after a build,
// the check has nothing to do. Run on a copy of the tree, so the suite's own dist/ (which other
// test files launch) is never rebuilt under them.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const copy = mkdtempSync(join(tmpdir(), 'tickbook-build-'));

afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe('npm run build', () => {
  it('writes the build stamp, so build-if-needed afterwards prints nothing and returns at once', () => {
    for (const entry of ['src', 'scripts', 'patches', 'bin', 'package.json', 'tsconfig.json', 'tsconfig.build.json']) {
      cpSync(join(root, entry), join(copy, entry), { recursive: true });
    }
    symlinkSync(realpathSync(join(root, 'node_modules')), join(copy, 'node_modules'));
    // The compiled tree (with tsc's incremental state) but no stamp: tsc has little to redo,
    // and the stamp, if there is one afterwards, is the build's.
    if (existsSync(join(root, 'dist'))) cpSync(join(root, 'dist'), join(copy, 'dist'), { recursive: true });
    rmSync(join(copy, 'dist', '.build-stamp'), { force: true });

    const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: copy, encoding: 'utf8', timeout: 60_000 });
    expect(build.status, build.stderr).toBe(0);
    expect(existsSync(join(copy, 'dist', 'bundle', 'tickbook.mjs'))).toBe(true);
    expect(existsSync(join(copy, 'dist', '.build-stamp'))).toBe(true);

    const started = performance.now();
    const check = spawnSync(process.execPath, [join(copy, 'scripts', 'build-if-needed.mjs')], { cwd: copy, encoding: 'utf8' });
    const ms = performance.now() - started;
    expect(check.status, check.stderr).toBe(0);
    expect(check.stdout + check.stderr).toBe('');
    expect(ms).toBeLessThan(1000);
  }, 90_000);
});

describe('what a build is made of', () => {
  it('is newer after a change to a source, a build script, a patch, or the installed packages', async () => {
    const { newestInput } = await import('../../scripts/build-inputs.mjs');
    const tree = mkdtempSync(join(tmpdir(), 'tickbook-inputs-'));
    try {
      const files = ['src/cli/main.ts', 'scripts/bundle.mjs', 'patches/ink+8.0.0.patch', 'node_modules/.package-lock.json', 'package.json', 'tsconfig.json'];
      for (const file of files) {
        mkdirSync(dirname(join(tree, file)), { recursive: true });
        writeFileSync(join(tree, file), '');
        utimesSync(join(tree, file), 1000, 1000);
      }
      expect(newestInput(tree)).toBe(1_000_000);
      for (const [i, file] of files.entries()) {
        const at = 2000 + i;
        utimesSync(join(tree, file), at, at);
        expect(newestInput(tree), file).toBe(at * 1000);
      }
      // A tree without patches or an install is still judged by the rest.
      rmSync(join(tree, 'patches'), { recursive: true });
      rmSync(join(tree, 'node_modules'), { recursive: true });
      expect(newestInput(tree)).toBe(2005 * 1000);
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  });
});
