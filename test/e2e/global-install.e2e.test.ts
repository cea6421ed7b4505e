// What `npm install -g` of the packed tarball puts where a shell and man look: the command on
// PATH, and the manual page in PREFIX/share/man/man1, which man finds from PATH alone. Packed and
// installed for real, into a prefix of its own (the dependencies from npm's cache where it has them).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/sandbox.js';

const root = join(BIN, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'tickbook-global-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const has = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const npm = (args: string[], cwd: string) => spawnSync('npm', args, { cwd, encoding: 'utf8', timeout: 240_000, env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' } });

describe('npm install -g of the packed tarball', () => {
  const prefix = join(work, 'prefix');

  it('puts the command on PATH and the manual where man finds it', { timeout: 300_000 }, () => {
    const packed = npm(['pack', '--pack-destination', work, '--ignore-scripts'], root);
    expect(packed.status, packed.stderr).toBe(0);
    const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'))!;
    const installed = npm(['install', '-g', '--prefix', prefix, '--prefer-offline', '--ignore-scripts', join(work, tarball)], work);
    expect(installed.status, installed.stderr).toBe(0);

    expect(existsSync(join(prefix, 'bin', 'tickbook'))).toBe(true);
    const page = join(prefix, 'share', 'man', 'man1', 'tickbook.1');
    expect(existsSync(page), `${page} after npm install -g`).toBe(true);
    expect(readFileSync(page, 'utf8')).toBe(readFileSync(join(root, 'dist', 'man', 'tickbook.1'), 'utf8'));
    if (has('man')) {
      // man-db looks in PREFIX/share/man for every PREFIX/bin on PATH: nothing else to set.
      const found = spawnSync('man', ['-w', 'tickbook'], { encoding: 'utf8', env: { PATH: `${join(prefix, 'bin')}:/usr/bin:/bin`, HOME: work } });
      expect(found.status, found.stderr).toBe(0);
      expect(realpathSync(found.stdout.trim())).toBe(realpathSync(page));
    }
  });
});
