// The manual page is the help: made at build time from the same texts, every command's --help is
// in `man tickbook` line for line, and roff renders it without a warning.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HELP, HELPS } from '../../src/cli/help.js';
import { manual } from '../../src/cli/manual.js';
import { cleanEnv } from '../helpers/child.js';
import { BIN } from '../helpers/sandbox.js';

const root = join(BIN, '..', '..');
const page = join(root, 'dist', 'man', 'tickbook.1');
const has = (tool: string) => spawnSync(tool, ['--version'], { encoding: 'utf8' }).status === 0;

/** The lines of a text as a person reads them: indentation and trailing spaces aside. */
const lines = (text: string) => text.split('\n').map((line) => line.trim()).filter((line) => line !== '');

describe('the manual page', () => {
  it('is built where package.json says, for npm install -g to put where man looks', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { man: string[]; files: string[]; version: string };
    // A list: npm links the pages of a global install only from an array (bin-links' linkMans).
    expect(pkg.man.map((file) => join(root, file))).toEqual([page]);
    expect(pkg.files).toContain('dist');
    expect(readFileSync(page, 'utf8')).toBe(manual(pkg.version));
  });

  it('writes text literally: backslashes, hyphens and a line starting with a dot or a quote', () => {
    const roff = manual('1.2.3');
    expect(roff).toContain('tickbook 1.2.3');
    expect(roff).not.toMatch(/^\.(?!nf|fi|ad|nh|hy|SS|SH|TH|\\")/m);
    expect(roff).toContain('\\-\\-help');
    expect(roff).not.toMatch(/[^\\]--help/);
  });

  it.skipIf(!has('groff'))('renders without a warning, and holds every command\'s --help line for line, in order', () => {
    const rendered = spawnSync('groff', ['-man', '-Tutf8', '-ww', '-rLL=200n', page], { encoding: 'utf8', env: { ...cleanEnv(), LANG: 'C.UTF-8' } });
    expect(rendered.stderr).toBe('');
    // The rendered page, without the bold and underline overstrikes grotty draws.
    const text = rendered.stdout.replace(/.\x08/g, '');
    const shown = lines(text);
    for (const [name, help] of [['', HELP], ...Object.entries(HELPS)] as const) {
      const run = spawnSync(process.execPath, [BIN, ...(name ? [name] : []), '--help'], { encoding: 'utf8', env: cleanEnv() });
      expect(run.stdout, name).toBe(help);
      let at = 0;
      for (const line of lines(help)) {
        const found = shown.indexOf(line, at);
        expect(found, `${name || 'tickbook'} --help: ${JSON.stringify(line)} is in the manual`).toBeGreaterThanOrEqual(0);
        at = found;
      }
    }
  });

  it.skipIf(!has('man'))('man -l shows it', () => {
    const run = spawnSync('man', ['-l', page], { encoding: 'utf8', env: { ...cleanEnv(), MANPAGER: 'cat', MANWIDTH: '120', LANG: 'C.UTF-8' } });
    expect(run.status).toBe(0);
    expect(run.stdout.replace(/.\x08/g, '')).toMatch(/^ +config path\|get\|set\|unset\|list$/m);
    expect(existsSync(page)).toBe(true);
  });
});
