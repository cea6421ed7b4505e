// bin/tickbook run as a shell runs it (its #! line) and as `npm start` runs it: node starts with
// a 1 MB young generation, which has to be given on node's command line to take effect.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin/tickbook');
const dir = mkdtempSync(join(tmpdir(), 'tickbook-launcher-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `command args --version`'s output, and the node flags of the process that ran it, seen from inside it. */
function flagsOf(command: string, args: readonly string[]): { execArgv: string[]; version: string } {
  const out = join(dir, `seen-${Math.random().toString(36).slice(2)}.json`);
  const probe = join(dir, 'probe.mjs');
  writeFileSync(probe, `import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.execArgv)));\n`);
  const version = execFileSync(command, [...args, '--version'], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: `--import=${probe}` } }).trim();
  return { execArgv: JSON.parse(readFileSync(out, 'utf8')) as string[], version };
}

describe('the launcher', () => {
  it('is executable', () => {
    expect(statSync(bin).mode & 0o111).not.toBe(0);
  });

  it('starts node with a 1 MB young generation when run by its #! line', () => {
    const { execArgv, version } = flagsOf(bin, []);
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(execArgv).toContain('--max-semi-space-size=1');
  });

  it('is started so by npm start too', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const [command, ...args] = pkg.scripts.start!.split(' ');
    expect(command).toBe('node');
    expect(flagsOf(process.execPath, args).execArgv).toContain('--max-semi-space-size=1');
  });
});
