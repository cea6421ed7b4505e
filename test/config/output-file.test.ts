// The output-file rule (src/config/output-file.ts), on real files, links, FIFOs, devices and
// sockets: a file is written beside and renamed over (0600, the old one kept on a failure), a link
// of the user's (or root's) is followed and stays a link, one of another account's is refused, a
// FIFO or a device is a stream, and anything else is refused by what it is.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, lchownSync, lstatSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, closeSync, rmSync, statSync, symlinkSync, writeFileSync, constants } from 'node:fs';
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
    const started = performance.now();
    expect((await refusal(at('fifo'))).message).toBe(`${at('fifo')} is a FIFO (named pipe) that nothing is reading: not written`);
    expect(performance.now() - started).toBeLessThan(1000);
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
