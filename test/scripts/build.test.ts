// `npm run build` and the check `npm start` and `npm test` run first must agree: after a build,
// the check has nothing to do. Run on a copy of the tree, so the suite's own dist/ (which other
// test files launch) is never rebuilt under them.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const copy = mkdtempSync(join(tmpdir(), 'tickbook-build-'));

afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe('npm run build', () => {
  it('writes the build stamp, so build-if-needed afterwards prints nothing and returns at once', () => {
    for (const entry of ['src', 'scripts', 'bin', 'package.json', 'tsconfig.json', 'tsconfig.build.json']) {
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
