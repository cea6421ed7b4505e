// bin/tickbook run as a shell runs it (its #! line) and as `npm start` runs it: node starts with
// a 1 MB young generation, which has to be given on node's command line to take effect, and with
// glibc's mmap threshold held (MALLOC_MMAP_THRESHOLD_, read as the process starts), which what
// tickbook starts in turn does not inherit.
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

interface Seen {
  execArgv: string[];
  version: string;
  /** MALLOC_MMAP_THRESHOLD_ as the process started, and as a child started at its end would get it. */
  thresholdAtStart: string | null;
  thresholdAtExit: string | null;
}

/** `command args --version`'s output, and what the process that ran it saw from inside. */
function seenBy(command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Seen {
  const out = join(dir, `seen-${Math.random().toString(36).slice(2)}.json`);
  const probe = join(dir, 'probe.mjs');
  writeFileSync(
    probe,
    `import { writeFileSync } from 'node:fs';\nconst atStart = process.env.MALLOC_MMAP_THRESHOLD_ ?? null;\nprocess.on('exit', () => writeFileSync(${JSON.stringify(out)}, JSON.stringify({ execArgv: process.execArgv, thresholdAtStart: atStart, thresholdAtExit: process.env.MALLOC_MMAP_THRESHOLD_ ?? null })));\n`,
  );
  const base = { ...process.env };
  delete base.MALLOC_MMAP_THRESHOLD_;
  const version = execFileSync(command, [...args, '--version'], { encoding: 'utf8', env: { ...base, ...env, NODE_OPTIONS: `--import=${probe}` } }).trim();
  return { ...(JSON.parse(readFileSync(out, 'utf8')) as Omit<Seen, 'version'>), version };
}

describe('the launcher', () => {
  it('is executable', () => {
    expect(statSync(bin).mode & 0o111).not.toBe(0);
  });

  it('starts node with a 1 MB young generation and the threshold held when run by its #! line', () => {
    const seen = seenBy(bin, []);
    expect(seen.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(seen.execArgv).toContain('--max-semi-space-size=1');
    expect(seen.thresholdAtStart).toBe('131072');
    expect(seen.thresholdAtExit).toBeNull();
  });

  it('is started so by npm start too', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const words = pkg.scripts.start!.split(' ');
    // The shell's leading NAME=value words are the command's environment.
    const assignments = words.findIndex((w) => !/^[A-Z_]+=/.test(w));
    const env = Object.fromEntries(words.slice(0, assignments).map((w) => w.split('=') as [string, string]));
    const [command, ...args] = words.slice(assignments);
    expect(command).toBe('node');
    expect(env).toEqual({ MALLOC_MMAP_THRESHOLD_: '131072' });
    const seen = seenBy(process.execPath, args, env);
    expect(seen.execArgv).toContain('--max-semi-space-size=1');
    expect(seen.thresholdAtStart).toBe('131072');
    expect(seen.thresholdAtExit).toBeNull();
  });

  it("leaves a threshold the user set to a value of their own to what tickbook starts", () => {
    // The #! line sets its own as node starts; only `node bin/tickbook` keeps the user's.
    const seen = seenBy(process.execPath, ['--max-semi-space-size=1', bin], { MALLOC_MMAP_THRESHOLD_: '65536' });
    expect(seen.thresholdAtExit).toBe('65536');
  });
});
