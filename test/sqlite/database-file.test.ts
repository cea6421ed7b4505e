// Both of tickbook's SQLite files (the sandbox's database and the price history) are made by one
// rule when there is none yet, through their stores' real open paths on real files: made 0600
// whatever the umask, through a link only where the user (or root) put the link, and nothing made,
// opened or replaced where the path is anything but a regular file.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, lchownSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openContactsStore } from '../../src/server/contacts-store.js';
import { openHistoryStore } from '../../src/store/history-store.js';
import { runChild, tsxArgs } from '../helpers/child.js';
import { cannotDropPrivileges, NOBODY, RUNS_AS_NOBODY, traversable, unprivileged } from '../helpers/unprivileged.js';

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
const AS_ROOT = process.getuid?.() === 0;
/** An account that is neither root nor nobody, to own a link nobody did not make. */
const OTHER = 1001;

const STORES = [
  { kind: 'contacts', open: (path: string) => openContactsStore(path), says: (path: string) => `cannot open the database ${path}: ` },
  { kind: 'history', open: (path: string) => openHistoryStore(path), says: (path: string) => `cannot record price history in ${path}: ` },
] as const;

let dir: string;
let umask: number;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tickbook-db-file-'));
  umask = process.umask(0o022);
});
afterEach(() => {
  process.umask(umask);
  rmSync(dir, { recursive: true, force: true });
});

/** Opens and closes the store at `path`: undefined, or the error's message. */
function opening(open: (path: string) => { close(): void }, path: string): string | undefined {
  try {
    open(path).close();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe.each(STORES)('the $kind store, on a path with no file yet', ({ kind, open, says }) => {
  it('a link of yours to nothing is followed: the file is made where it points, 0600 under a umask of 022, with its -wal beside it 0600', () => {
    const target = join(dir, 'elsewhere.db');
    const link = join(dir, `${kind}.db`);
    symlinkSync(target, link);
    const store = open(link);
    try {
      expect(mode(target)).toBe('600');
      expect(existsSync(`${target}-wal`)).toBe(true);
      expect(mode(`${target}-wal`)).toBe('600');
    } finally {
      store.close();
    }
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(opening(open, link)).toBeUndefined();
    expect(mode(target)).toBe('600');
  });

  it('through links of yours to a link of yours to nothing (a relative one too): made 0600 at the end', () => {
    mkdirSync(join(dir, 'sub'));
    symlinkSync('end.db', join(dir, 'sub', 'middle.db'));
    const link = join(dir, `${kind}.db`);
    symlinkSync(join('sub', 'middle.db'), link);
    expect(opening(open, link)).toBeUndefined();
    expect(mode(join(dir, 'sub', 'end.db'))).toBe('600');
  });

  it('a link to nothing in a directory that does not exist: refused in one line naming the link, where it points and why; nothing is made', () => {
    const target = join(dir, 'nowhere', 'x.db');
    const link = join(dir, `${kind}.db`);
    symlinkSync(target, link);
    expect(opening(open, link)).toBe(`${says(link)}it is a symbolic link to ${target}, and the directory ${join(dir, 'nowhere')} does not exist`);
    expect(readdirSync(dir)).toEqual([`${kind}.db`]);
  });

  it.skipIf(!AS_ROOT)('a link to nothing another user owns is not followed: refused naming it and its owner, and nothing is made where it points', () => {
    const target = join(dir, 'planted.db');
    const link = join(dir, `${kind}.db`);
    symlinkSync(target, link);
    lchownSync(link, NOBODY, NOBODY);
    expect(opening(open, link)).toBe(`${says(link)}${link} is a symbolic link owned by another user (uid ${NOBODY}): not followed`);
    expect(existsSync(target)).toBe(false);
    expect(readdirSync(dir)).toEqual([`${kind}.db`]);
  });

  it.skipIf(!AS_ROOT)('a link of yours to a link another user owns: refused naming that link; nothing is made', () => {
    const planted = join(dir, 'planted');
    symlinkSync(join(dir, 'target.db'), planted);
    lchownSync(planted, NOBODY, NOBODY);
    const link = join(dir, `${kind}.db`);
    symlinkSync(planted, link);
    expect(opening(open, link)).toBe(`${says(link)}${planted} is a symbolic link owned by another user (uid ${NOBODY}): not followed`);
    expect(readdirSync(dir).sort()).toEqual([`${kind}.db`, 'planted']);
  });
});

describe.each(STORES)('the $kind store, on a path where something is', ({ kind, open, says }) => {
  it('a link to a directory: refused as a directory, and nothing is made in it', () => {
    const folder = join(dir, 'folder');
    mkdirSync(folder);
    const link = join(dir, `${kind}.db`);
    symlinkSync(folder, link);
    expect(opening(open, link)).toBe(`${says(link)}it is a directory, not a database file`);
    expect(readdirSync(folder)).toEqual([]);
  });

  it('a FIFO, or a link to one: refused at once as a FIFO, never opened, and nothing made beside it', () => {
    const fifo = join(dir, `${kind}.db`);
    execFileSync('mkfifo', [fifo]);
    const link = join(dir, 'link.db');
    symlinkSync(fifo, link);
    for (const path of [fifo, link]) expect(opening(open, path)).toBe(`${says(path)}it is a FIFO (named pipe), not a database file`);
    expect(statSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(dir).sort()).toEqual([`${kind}.db`, 'link.db']);
  });

  it.skipIf(!AS_ROOT)('a link another user owns to an existing database: not followed either, and the database is left as it was', () => {
    const path = join(dir, 'kept.db');
    open(path).close();
    const before = readFileSync(path);
    const link = join(dir, `${kind}.db`);
    symlinkSync(path, link);
    lchownSync(link, NOBODY, NOBODY);
    expect(opening(open, link)).toBe(`${says(link)}${link} is a symbolic link owned by another user (uid ${NOBODY}): not followed`);
    expect(readFileSync(path)).toEqual(before);
  });

  it('an existing database of mode 0644 keeps its mode (it is the user\'s file), opened by its path or through a link', () => {
    const path = join(dir, `${kind}.db`);
    open(path).close();
    chmodSync(path, 0o644);
    const link = join(dir, 'link.db');
    symlinkSync(path, link);
    for (const at of [path, link]) {
      expect(opening(open, at)).toBeUndefined();
      expect(mode(path)).toBe('644');
    }
  });
});

// The rule depends on who runs it: a link is followed when its owner is the user or root. As
// root every link but another user's is root's own, so the user's side is run as nobody.
describe.skipIf(!RUNS_AS_NOBODY || cannotDropPrivileges() !== undefined)('as a user other than root (nobody)', () => {
  let home: string;
  beforeEach(() => {
    home = join(dir, 'home');
    mkdirSync(home);
    chownSync(home, NOBODY, NOBODY);
    traversable(dir);
  });

  const openAsNobody = async (kind: string, path: string) => {
    const [command, args] = unprivileged(process.execPath, tsxArgs('test/helpers/open-database-child.ts', [kind, path]));
    const run = await runChild(command, args, { env: { PATH: process.env.PATH }, timeoutMs: 15_000 });
    expect(run.stderr).toBe('');
    return run.stdout;
  };

  it.each(STORES)('$kind: through its own link or root\'s, the file is made 0600 and its own; through another user\'s, nothing', async ({ kind, says }) => {
    const own = join(home, 'own.db');
    symlinkSync(join(home, 'own-target.db'), own);
    lchownSync(own, NOBODY, NOBODY);
    const roots = join(home, 'roots.db');
    symlinkSync(join(home, 'roots-target.db'), roots);
    const others = join(home, 'others.db');
    symlinkSync(join(home, 'others-target.db'), others);
    lchownSync(others, OTHER, OTHER);

    expect(await openAsNobody(kind, own)).toBe('opened\n');
    expect(await openAsNobody(kind, roots)).toBe('opened\n');
    for (const made of ['own-target.db', 'roots-target.db']) {
      const stats = statSync(join(home, made));
      expect([(stats.mode & 0o777).toString(8), stats.uid], made).toEqual(['600', NOBODY]);
    }
    expect(await openAsNobody(kind, others)).toBe(`${says(others)}${others} is a symbolic link owned by another user (uid ${OTHER}): not followed\n`);
    expect(existsSync(join(home, 'others-target.db'))).toBe(false);
  });
});
