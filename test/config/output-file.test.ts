// The output-file rule (src/config/output-file.ts), on real files, links, FIFOs, devices and
// sockets: a file is written beside and renamed over (0600, the old one kept on a failure), a link
// of the user's (or root's) is followed and stays a link, one of another account's is refused, a
// FIFO or a device is a stream, and anything else is refused by what it is.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, lchownSync, lstatSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, closeSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync, constants } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOutputFile, OutputFileError, put } from '../../src/config/output-file.js';
import { NOBODY } from '../helpers/unprivileged.js';

let dir: string;
let socketServer: Server;
const at = (name: string) => join(dir, name);
const isRoot = process.getuid?.() === 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tickbook-output-'));
  socketServer = createServer();
  await new Promise<void>((resolve) => socketServer.listen(at('socket'), resolve));
});
afterAll(async () => {
  await new Promise<void>((resolve) => socketServer.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

/** What openOutputFile throws for `path`. */
async function refusal(path: string, options: { dash?: boolean } = {}): Promise<OutputFileError> {
  try {
    const file = await openOutputFile(path, options);
    file.abandon();
  } catch (error) {
    expect(error).toBeInstanceOf(OutputFileError);
    return error as OutputFileError;
  }
  throw new Error(`expected ${path} to be refused`);
}

async function write(path: string, text: string): Promise<void> {
  const file = await openOutputFile(path);
  await put(file.stream, text);
  await file.finish();
}

const temporaries = (inDir: string) => readdirSync(inDir).filter((name) => name.endsWith('.tmp'));

describe('openOutputFile: files', () => {
  it('a new file, and an older 0644 one, are written whole and 0600, no temporary left', async () => {
    await write(at('new.txt'), 'new\n');
    writeFileSync(at('old.txt'), 'old text, readable by all\n', { mode: 0o644 });
    chmodSync(at('old.txt'), 0o644);
    await write(at('old.txt'), 'replaced\n');
    for (const [name, text] of [['new.txt', 'new\n'], ['old.txt', 'replaced\n']]) {
      expect(readFileSync(at(name!), 'utf8')).toBe(text);
      expect(statSync(at(name!)).mode & 0o777).toBe(0o600);
    }
    expect(temporaries(dir)).toEqual([]);
  });

  it('abandoned part way, the old file is as it was and no temporary is left', async () => {
    writeFileSync(at('kept.txt'), 'the old export\n');
    const file = await openOutputFile(at('kept.txt'));
    await put(file.stream, 'half of a new one');
    expect(temporaries(dir)).toHaveLength(1);
    file.abandon();
    expect(readFileSync(at('kept.txt'), 'utf8')).toBe('the old export\n');
    expect(temporaries(dir)).toEqual([]);
  });

  it('a link of the user’s own (a dotfiles link, relative, through a linked directory) stays a link; its target is replaced', async () => {
    mkdirSync(at('dotfiles/exports'), { recursive: true });
    writeFileSync(at('dotfiles/exports/contacts.vcf'), 'old\n', { mode: 0o644 });
    symlinkSync('dotfiles/exports/contacts.vcf', at('contacts.vcf'));
    symlinkSync(at('dotfiles/exports'), at('exports-link'));
    symlinkSync('../contacts.vcf', at('dotfiles/chain.vcf'));
    await write(at('contacts.vcf'), 'first\n');
    await write(join(at('exports-link'), 'contacts.vcf'), 'second\n');
    await write(at('dotfiles/chain.vcf'), 'third\n');
    for (const link of ['contacts.vcf', 'exports-link', 'dotfiles/chain.vcf']) expect(lstatSync(at(link)).isSymbolicLink(), link).toBe(true);
    expect(readFileSync(at('dotfiles/exports/contacts.vcf'), 'utf8')).toBe('third\n');
    expect(statSync(at('dotfiles/exports/contacts.vcf')).mode & 0o777).toBe(0o600);
    expect(temporaries(at('dotfiles/exports'))).toEqual([]);
    // A dangling link of the user's: the file it names is made.
    symlinkSync(at('dotfiles/exports/later.vcf'), at('later.vcf'));
    await write(at('later.vcf'), 'made\n');
    expect(readFileSync(at('dotfiles/exports/later.vcf'), 'utf8')).toBe('made\n');
  });

  it.skipIf(!isRoot)('a link another account owns is not followed, as the last part of the path or a directory on the way', async () => {
    mkdirSync(at('victim'));
    writeFileSync(at('victim/own.txt'), 'the user’s own file\n', { mode: 0o600 });
    symlinkSync(at('victim/own.txt'), at('planted.txt'));
    lchownSync(at('planted.txt'), NOBODY, NOBODY);
    symlinkSync(at('victim'), at('planted-dir'));
    lchownSync(at('planted-dir'), NOBODY, NOBODY);
    // The user's own link to the planted one: the planted hop is refused all the same.
    symlinkSync(at('planted.txt'), at('mine-to-planted.txt'));
    for (const [path, link] of [
      [at('planted.txt'), at('planted.txt')],
      [join(at('planted-dir'), 'own.txt'), at('planted-dir')],
      [at('mine-to-planted.txt'), at('planted.txt')],
    ] as const) {
      const error = await refusal(path);
      expect(error.message).toBe(`${link} is a symbolic link owned by another user (uid ${NOBODY}): not followed`);
      expect(error.opening).toBe(true);
    }
    expect(readFileSync(at('victim/own.txt'), 'utf8')).toBe('the user’s own file\n');
    expect(lstatSync(at('planted.txt')).isSymbolicLink()).toBe(true);
    expect(temporaries(at('victim'))).toEqual([]);
  });

  it('a directory, a socket and a missing directory are refused before anything is written', async () => {
    mkdirSync(at('folder'));
    expect((await refusal(at('folder'))).message).toBe(`${at('folder')} is a directory: not written`);
    expect((await refusal(at('socket'))).message).toBe(`${at('socket')} is a socket: not written`);
    expect((await refusal(at('nowhere/out.csv'))).message).toBe(`cannot write ${at('nowhere/out.csv')}: no such file or directory (ENOENT)`);
    expect(lstatSync(at('socket')).isSocket()).toBe(true);
  });
});

describe('openOutputFile: streams', () => {
  it('a FIFO nobody reads is refused at once; one with a reader is written to and stays a FIFO', async () => {
    execFileSync('mkfifo', [at('fifo')]);
    // Refused, not waited on: an open that waited for a reader (as before issue 36) never returned.
    expect((await refusal(at('fifo'))).message).toBe(`${at('fifo')} is a FIFO (named pipe) that nothing is reading: not written`);
    // A reader (opened without waiting for a writer), then more than a pipe holds: a full pipe is
    // waited on, not an error.
    const reader = openSync(at('fifo'), constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const file = await openOutputFile(at('fifo'));
      const text = 'x'.repeat(100_000);
      const done = (async () => {
        await put(file.stream, text);
        await file.finish();
      })();
      let got = 0;
      const buffer = Buffer.alloc(65_536);
      while (got < text.length) {
        try {
          got += readSync(reader, buffer);
        } catch (error) {
          if ((error as { code?: string }).code !== 'EAGAIN') throw error;
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
      await done;
      expect(got).toBe(text.length);
    } finally {
      closeSync(reader);
    }
    expect(lstatSync(at('fifo')).isFIFO()).toBe(true);
  });

  it('/dev/null is a stream and stays a device; /dev/full fails on writing, naming the reason', async () => {
    await write('/dev/null', 'nothing\n');
    expect(lstatSync('/dev/null').isCharacterDevice()).toBe(true);
    const full = await openOutputFile('/dev/full');
    const failure = (async () => {
      await put(full.stream, 'x'.repeat(100_000));
      await full.finish();
    })();
    await expect(failure).rejects.toMatchObject({ code: 'ENOSPC' });
    full.abandon();
    // A write small enough to be taken at once fails later: finish says so.
    const small = await openOutputFile('/dev/full');
    await put(small.stream, 'x');
    await expect(small.finish()).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(existsSync('/dev/full')).toBe(true);
  });

  it('-, /dev/stdout and /proc/self/fd/1 are this process’s stdout, /dev/stderr its stderr; - is a file name without dash', async () => {
    expect((await openOutputFile('-', { dash: true })).stream).toBe(process.stdout);
    expect((await openOutputFile('/dev/stdout')).stream).toBe(process.stdout);
    expect((await openOutputFile('/proc/self/fd/1')).stream).toBe(process.stdout);
    expect((await openOutputFile('/dev/fd/1')).stream).toBe(process.stdout);
    expect((await openOutputFile(`/proc/${process.pid}/fd/1`)).stream).toBe(process.stdout);
    expect((await openOutputFile('/dev/stderr')).stream).toBe(process.stderr);
    // A link of the user's to /dev/stdout (root's link to /proc/self/fd/1): followed.
    symlinkSync('/dev/stdout', at('to-stdout'));
    expect((await openOutputFile(at('to-stdout'))).stream).toBe(process.stdout);
    expect(lstatSync(at('to-stdout')).isSymbolicLink()).toBe(true);
  });
});

describe('openOutputFile: special files and files of other accounts', () => {
  /** A directory shared by all, as /tmp is: anyone writes in it, only an entry's owner removes it. */
  function sharedDir(name: string): string {
    const shared = at(name);
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    return shared;
  }

  // A FIFO in a shared directory can be anyone's: the one who made it reads what is written.
  it.skipIf(!isRoot)('a FIFO or a character device another account owns is refused, naming it and its owner, before it is opened', async () => {
    const shared = sharedDir('shared-special');
    const fifo = join(shared, 'contacts.vcf');
    execFileSync('mkfifo', ['-m', '666', fifo]);
    chownSync(fifo, NOBODY, NOBODY);
    // nobody's reader, waiting.
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const device = join(shared, 'null');
    execFileSync('mknod', ['-m', '666', device, 'c', '1', '3']);
    chownSync(device, NOBODY, NOBODY);
    try {
      for (const [path, kind] of [
        [fifo, 'a FIFO (named pipe)'],
        [device, 'a character device'],
      ] as const) {
        const error = await refusal(path);
        expect(error.message).toBe(`${path} is ${kind} owned by another user (uid ${NOBODY}): not written`);
        expect(error.opening).toBe(true);
      }
      // Nothing written, and no writer ever came (a read then finds the end).
      expect(readSync(reader, Buffer.alloc(16))).toBe(0);
    } finally {
      closeSync(reader);
    }
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  // Written beside and renamed over, a file of another account's is never written into: the rule
  // is about whose directory entry it is. In a shared (sticky) directory it is theirs, and only
  // root could replace it: refused, root too. Elsewhere (root writing into a user's directory)
  // it is replaced, the new file the writer's own, 0600.
  it.skipIf(!isRoot)('a file of another account in a sticky shared directory is refused; one of the user’s own there, or another’s elsewhere, is replaced', async () => {
    const shared = sharedDir('shared-files');
    const theirs = join(shared, 'theirs.vcf');
    writeFileSync(theirs, 'nobody’s own file\n', { mode: 0o644 });
    chownSync(theirs, NOBODY, NOBODY);
    const error = await refusal(theirs);
    expect(error.message).toBe(`${theirs} is a file owned by another user (uid ${NOBODY}) in a shared directory (sticky, as /tmp is): not replaced`);
    expect(readFileSync(theirs, 'utf8')).toBe('nobody’s own file\n');
    expect(statSync(theirs).uid).toBe(NOBODY);
    writeFileSync(join(shared, 'mine.vcf'), 'old\n');
    await write(join(shared, 'mine.vcf'), 'new\n');
    expect(readFileSync(join(shared, 'mine.vcf'), 'utf8')).toBe('new\n');

    const home = at('their-home');
    mkdirSync(home);
    chownSync(home, NOBODY, NOBODY);
    writeFileSync(join(home, 'contacts.vcf'), 'old\n', { mode: 0o644 });
    chownSync(join(home, 'contacts.vcf'), NOBODY, NOBODY);
    await write(join(home, 'contacts.vcf'), 'new\n');
    expect(readFileSync(join(home, 'contacts.vcf'), 'utf8')).toBe('new\n');
    expect(statSync(join(home, 'contacts.vcf'))).toMatchObject({ uid: 0, mode: expect.any(Number) });
    expect(statSync(join(home, 'contacts.vcf')).mode & 0o777).toBe(0o600);
    expect(temporaries(shared)).toEqual([]);
  });
});

describe('openOutputFile: /proc, and the directory held while it is written', () => {
  it('a path through /proc/self/root or /proc/self/cwd is the file it leads to: replaced whole and 0600, or made, not appended to', async () => {
    mkdirSync(at('proc'));
    writeFileSync(at('proc/old.txt'), 'an older export\n', { mode: 0o644 });
    chmodSync(at('proc/old.txt'), 0o644);
    await write(`/proc/self/root${at('proc/old.txt')}`, 'replaced\n');
    await write(`/proc/thread-self/root${at('proc/new.txt')}`, 'made\n');
    const cwd = process.cwd();
    process.chdir(at('proc'));
    try {
      await write('/proc/self/cwd/cwd.txt', 'made here\n');
    } finally {
      process.chdir(cwd);
    }
    for (const [name, text] of [['old.txt', 'replaced\n'], ['new.txt', 'made\n'], ['cwd.txt', 'made here\n']]) {
      expect(readFileSync(at(`proc/${name}`), 'utf8'), name).toBe(text);
      expect(statSync(at(`proc/${name}`)).mode & 0o777, name).toBe(0o600);
    }
    expect(temporaries(at('proc'))).toEqual([]);
  });

  it.skipIf(!isRoot)('a link another account planted is refused also when the path goes through /proc', async () => {
    mkdirSync(at('proc-victim'));
    writeFileSync(at('proc-victim/own.txt'), 'the user’s own file\n', { mode: 0o600 });
    symlinkSync(at('proc-victim/own.txt'), at('proc-planted.txt'));
    lchownSync(at('proc-planted.txt'), NOBODY, NOBODY);
    for (const path of [`/proc/self/root${at('proc-planted.txt')}`, `/proc/${process.pid}/root${at('proc-planted.txt')}`]) {
      expect((await refusal(path)).message).toBe(`${at('proc-planted.txt')} is a symbolic link owned by another user (uid ${NOBODY}): not followed`);
    }
    expect(readFileSync(at('proc-victim/own.txt'), 'utf8')).toBe('the user’s own file\n');
  });

  it('the directory checked is the one written in: a directory on the path swapped for a link meanwhile takes nothing', async () => {
    mkdirSync(at('held'));
    mkdirSync(at('elsewhere'));
    const file = await openOutputFile(at('held/out.txt'));
    await put(file.stream, 'written\n');
    // As another account with the right to would: the directory renamed, a link in its place.
    renameSync(at('held'), at('held-moved'));
    symlinkSync(at('elsewhere'), at('held'));
    await file.finish();
    expect(readFileSync(at('held-moved/out.txt'), 'utf8')).toBe('written\n');
    expect(readdirSync(at('elsewhere'))).toEqual([]);
    expect(temporaries(at('held-moved'))).toEqual([]);
  });
});

describe('openOutputFile: fresh, a new file that never replaces another', () => {
  it('two opened for one name both survive, the later-finished under the next free name; whatever holds a name is passed over, untouched', async () => {
    mkdirSync(at('fresh'));
    // The second name is taken already, by a FIFO.
    execFileSync('mkfifo', [at('fresh/export-2.vcf')]);
    const first = await openOutputFile(at('fresh/export.vcf'), { fresh: true });
    const second = await openOutputFile(at('fresh/export.vcf'), { fresh: true });
    await put(first.stream, 'the first export\n');
    await put(second.stream, 'the second export\n');
    expect(await second.finish()).toBe(at('fresh/export.vcf'));
    expect(await first.finish()).toBe(at('fresh/export-3.vcf'));
    expect(readFileSync(at('fresh/export.vcf'), 'utf8')).toBe('the second export\n');
    expect(readFileSync(at('fresh/export-3.vcf'), 'utf8')).toBe('the first export\n');
    expect(lstatSync(at('fresh/export-2.vcf')).isFIFO()).toBe(true);
    expect(statSync(at('fresh/export-3.vcf')).mode & 0o777).toBe(0o600);
    expect(readdirSync(at('fresh')).sort()).toEqual(['export-2.vcf', 'export-3.vcf', 'export.vcf']);
  });
});
