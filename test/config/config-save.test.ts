// Saving the config (issue 17, item 3): a save keeps every key and value it does not manage,
// byte for byte; a config.json that is a symbolic link (dotfiles) stays one and its target gets
// the new content, written atomically with mode 0600; a save that fails throws a ConfigSaveError
// naming the path and the reason in words, leaves no temporary and does not touch the file.
// Real symlinks, a real read-only directory (as nobody when root), a real file size limit.
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, ConfigSaveError, readConfigFile, updateConfigFile } from '../../src/config/config-file.js';
import { runChild, tsxArgs } from '../helpers/child.js';
import { traversable, unprivileged } from '../helpers/unprivileged.js';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tickbook-config-save-'));
});

afterEach(() => {
  // A test may leave a directory read-only.
  for (const entry of readdirSync(dir, { recursive: true }) as string[]) {
    try {
      chmodSync(join(dir, entry), 0o755);
    } catch {
      // A dangling link, gone meanwhile: nothing to open up.
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

/** Text a person might have written: unknown keys, a comment key, a number beyond a double, unusual spacing. */
const HAND_WRITTEN = `{
  "//": "my settings, see the dotfiles README",
  "base_url": "https://api.example.com",
  "theme":   { "dark": true, "accent": "\\u00e9" },
  "big": 123456789012345678901234567890,
  "ratio": 1.50,
  "watchlist": ["AAPL"],
  "from_a_newer_release": [1, {"x": null}]
}
`;

/** What updateConfigFile(path, { watchlist: ['MSFT', 'VOD.L'], interval: 5 }) must make of it. */
const HAND_WRITTEN_AFTER = HAND_WRITTEN.replace('["AAPL"]', '["MSFT", "VOD.L"]').replace(
  '"from_a_newer_release": [1, {"x": null}]',
  '"from_a_newer_release": [1, {"x": null}],\n  "interval": 5',
);

const CHANGES = { watchlist: ['MSFT', 'VOD.L'], interval: 5 };

/** Files in `at` whose name marks a temporary. */
const temporaries = (at: string): string[] => readdirSync(at).filter((name) => name.includes('.tmp'));

describe('a save keeps what it does not manage', () => {
  it('every other key and value stays exactly as written: a comment key, nested objects, a number beyond a double, spacing', () => {
    const path = join(dir, 'config.json');
    writeFileSync(path, HAND_WRITTEN, { mode: 0o600 });
    updateConfigFile(path, CHANGES);
    expect(readFileSync(path, 'utf8')).toBe(HAND_WRITTEN_AFTER);
    expect(readConfigFile(path).config).toMatchObject(CHANGES);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(temporaries(dir)).toEqual([]);
  });

  it('a key written twice is set in both places; a byte-order mark stays', () => {
    const path = join(dir, 'config.json');
    writeFileSync(path, '\uFEFF{"interval": 2, "note": "x", "interval": 3}');
    updateConfigFile(path, { interval: 9 });
    expect(readFileSync(path, 'utf8')).toBe('\uFEFF{"interval": 9, "note": "x", "interval": 9}');
  });

  it('a new file, an empty one and a blank one get the keys on their own lines', () => {
    for (const before of [undefined, '', '  \n']) {
      const path = join(dir, `config-${before === undefined ? 'new' : before.length}.json`);
      if (before !== undefined) writeFileSync(path, before);
      updateConfigFile(path, { interval: 4 });
      expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ interval: 4 });
      expect(statSync(path).mode & 0o777).toBe(0o600);
    }
  });

  it('the mode is 0600 whatever the file had (it may hold a token)', () => {
    const path = join(dir, 'config.json');
    writeFileSync(path, '{"token": "t"}', { mode: 0o644 });
    chmodSync(path, 0o644);
    updateConfigFile(path, { interval: 4 });
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });
});

describe('a config.json that is a symbolic link', () => {
  /** dotfiles/tickbook.json with HAND_WRITTEN, and the config directory the links go in. */
  function dotfiles(): { target: string; configDir: string } {
    const target = join(dir, 'dotfiles', 'tickbook.json');
    mkdirSync(join(dir, 'dotfiles'));
    writeFileSync(target, HAND_WRITTEN, { mode: 0o600 });
    const configDir = join(dir, 'xdg', 'tickbook');
    mkdirSync(configDir, { recursive: true });
    return { target, configDir };
  }

  function expectSavedThrough(link: string, target: string, linkText: string): void {
    const inodeBefore = statSync(target).ino;
    updateConfigFile(link, CHANGES);
    // Still a link, still pointing where it pointed; the target holds the change and the rest.
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(linkText);
    expect(readFileSync(target, 'utf8')).toBe(HAND_WRITTEN_AFTER);
    // Renamed into place beside the target, not rewritten in place: a new inode, no temporary.
    expect(statSync(target).ino).not.toBe(inodeBefore);
    expect(statSync(target).mode & 0o777).toBe(0o600);
    expect(temporaries(join(dir, 'dotfiles'))).toEqual([]);
    expect(readdirSync(join(dir, 'xdg', 'tickbook')).filter((n) => n.includes('.tmp'))).toEqual([]);
  }

  it('an absolute link stays a link and its target gets the new content', () => {
    const { target, configDir } = dotfiles();
    const link = join(configDir, 'config.json');
    symlinkSync(target, link);
    expectSavedThrough(link, target, target);
  });

  it('a relative link too', () => {
    const { target, configDir } = dotfiles();
    const link = join(configDir, 'config.json');
    symlinkSync('../../dotfiles/tickbook.json', link);
    expectSavedThrough(link, target, '../../dotfiles/tickbook.json');
  });

  it('a chain of two links, the second relative to the first one\'s directory', () => {
    const { target, configDir } = dotfiles();
    const middle = join(dir, 'dotfiles', 'current.json');
    symlinkSync('tickbook.json', middle);
    const link = join(configDir, 'config.json');
    symlinkSync(middle, link);
    expectSavedThrough(link, target, middle);
    expect(lstatSync(middle).isSymbolicLink()).toBe(true);
    expect(readlinkSync(middle)).toBe('tickbook.json');
  });

  it('a link to a file not made yet creates the target, not a plain file over the link', () => {
    const configDir = join(dir, 'xdg', 'tickbook');
    mkdirSync(configDir, { recursive: true });
    mkdirSync(join(dir, 'dotfiles'));
    const link = join(configDir, 'config.json');
    symlinkSync('../../dotfiles/later.json', link);
    updateConfigFile(link, { interval: 3 });
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'dotfiles', 'later.json'), 'utf8'))).toEqual({ interval: 3 });
  });

  it('a loop of links is a ConfigSaveError, not a hang', () => {
    const link = join(dir, 'config.json');
    symlinkSync('other.json', link);
    symlinkSync('config.json', join(dir, 'other.json'));
    expect(() => updateConfigFile(link, { interval: 3 })).toThrow(ConfigSaveError);
  });
});

describe('a save that fails', () => {
  /** Runs the save in a child (as nobody when root, or with `prlimit`), returns what it threw. */
  async function saveInChild(path: string, changes: object, wrap: (cmd: string, args: string[]) => [string, string[]]) {
    const [command, args] = wrap(process.execPath, tsxArgs('test/helpers/save-config-child.ts', [path, JSON.stringify(changes)]));
    const run = await runChild(command, args, { timeoutMs: 15_000 });
    expect(run.timedOut, run.stderr).toBe(false);
    return JSON.parse(run.stdout) as { ok?: true; error?: { name: string; message: string } };
  }

  it('in a read-only directory: a ConfigSaveError "cannot save PATH: permission denied (EACCES)", the file untouched, no temporary', async () => {
    traversable(dir);
    const configDir = join(dir, 'tickbook');
    mkdirSync(configDir);
    const path = join(configDir, 'config.json');
    writeFileSync(path, '{"token": "secret-token-123", "interval": 2}', { mode: 0o644 });
    chmodSync(configDir, 0o555);
    const result = await saveInChild(path, { interval: 7 }, unprivileged);
    expect(result.error?.name).toBe('ConfigSaveError');
    expect(result.error?.message).toBe(`cannot save ${path}: permission denied (EACCES)`);
    expect(result.error?.message).not.toContain('secret-token-123');
    expect(readFileSync(path, 'utf8')).toBe('{"token": "secret-token-123", "interval": 2}');
    expect(temporaries(configDir)).toEqual([]);
  });

  it('through a link into a read-only directory: the message names the link and its target', async () => {
    traversable(dir);
    mkdirSync(join(dir, 'dotfiles'));
    const target = join(dir, 'dotfiles', 'tickbook.json');
    writeFileSync(target, '{}', { mode: 0o644 });
    const link = join(dir, 'config.json');
    symlinkSync(target, link);
    chmodSync(join(dir, 'dotfiles'), 0o555);
    const result = await saveInChild(link, { interval: 7 }, unprivileged);
    expect(result.error?.message).toBe(`cannot save ${link} (a link to ${target}): permission denied (EACCES)`);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('{}');
  });

  it('a write that fails half way (the file size limit) removes the temporary and leaves the file as it was', async () => {
    const path = join(dir, 'config.json');
    const before = `{"note": "${'x'.repeat(100)}"}`;
    writeFileSync(path, before);
    const result = await saveInChild(path, { watchlist: Array.from({ length: 500 }, (_, i) => `S${i}`) }, (cmd, args) => [
      'prlimit',
      ['--fsize=2000', cmd, ...args],
    ]);
    expect(result.error?.name).toBe('ConfigSaveError');
    expect(result.error?.message).toMatch(new RegExp(`^cannot save ${path}: .*\\(EFBIG\\)$`));
    expect(readFileSync(path, 'utf8')).toBe(before);
    expect(temporaries(dir)).toEqual([]);
  });

  it('a file in the way of the directory, a file that is not JSON: each a ConfigSaveError (a ConfigError) naming the path', () => {
    writeFileSync(join(dir, 'file'), 'x');
    const cases: [string, RegExp][] = [
      [join(dir, 'file', 'tickbook', 'config.json'), /is not a directory/],
    ];
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"interval": 2,}');
    cases.push([bad, /invalid JSON at line 1, column 16.*; correct it first$/]);
    for (const [path, reason] of cases) {
      let caught: unknown;
      try {
        updateConfigFile(path, { interval: 3 });
      } catch (error) {
        caught = error;
      }
      expect(caught, path).toBeInstanceOf(ConfigSaveError);
      expect(caught).toBeInstanceOf(ConfigError);
      expect((caught as Error).message, path).toContain(`cannot save ${path}`);
      expect((caught as Error).message, path).toMatch(reason);
      expect((caught as Error).message).not.toMatch(/\n|^\s+at /m);
    }
    expect(readFileSync(bad, 'utf8')).toBe('{"interval": 2,}');
    expect(existsSync(join(dir, 'file', 'tickbook'))).toBe(false);
  });
});
