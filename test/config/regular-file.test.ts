// Files tickbook reads on the user's word are read only when they are regular files: a FIFO, a
// device, a socket or a directory is refused at once by what it is, never waited on. Real special
// files, made here.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, readSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotRegularFileError, openRegularFile, readRegularFile } from '../../src/config/regular-file.js';

let dir: string;
let socketServer: Server;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tickbook-regular-'));
  writeFileSync(join(dir, 'plain.json'), '{"a":1}');
  symlinkSync(join(dir, 'plain.json'), join(dir, 'link.json'));
  mkdirSync(join(dir, 'folder'));
  execFileSync('mkfifo', [join(dir, 'fifo')]);
  symlinkSync(join(dir, 'fifo'), join(dir, 'link-to-fifo'));
  socketServer = createServer();
  await new Promise<void>((resolve) => socketServer.listen(join(dir, 'socket'), resolve));
});

afterAll(async () => {
  await new Promise<void>((resolve) => socketServer.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

/** What readRegularFile throws for `path`, with how long it took. */
function refusal(path: string): { error: unknown; ms: number } {
  const started = performance.now();
  try {
    readRegularFile(path);
  } catch (error) {
    return { error, ms: performance.now() - started };
  }
  throw new Error(`expected ${path} to be refused`);
}

describe('readRegularFile', () => {
  it('reads a regular file, and one reached through a symbolic link', () => {
    expect(readRegularFile(join(dir, 'plain.json')).toString()).toBe('{"a":1}');
    expect(readRegularFile(join(dir, 'link.json')).toString()).toBe('{"a":1}');
  });

  it('refuses a FIFO with no writer at once (it would wait for one for ever), also through a link', () => {
    for (const path of [join(dir, 'fifo'), join(dir, 'link-to-fifo')]) {
      const { error, ms } = refusal(path);
      expect(error).toBeInstanceOf(NotRegularFileError);
      expect((error as Error).message).toBe(`${path} is a FIFO (named pipe), not a regular file`);
      expect(ms).toBeLessThan(1000);
    }
  });

  it('refuses a character device, a directory and a socket by what they are', () => {
    expect((refusal('/dev/zero').error as Error).message).toBe('/dev/zero is a character device, not a regular file');
    expect((refusal(join(dir, 'folder')).error as Error).message).toBe(`${join(dir, 'folder')} is a directory, not a regular file`);
    expect((refusal(join(dir, 'socket')).error as Error).message).toBe(`${join(dir, 'socket')} is a socket, not a regular file`);
  });

  it('passes on the file system’s own error for a file that is not there', () => {
    expect((refusal(join(dir, 'missing')).error as { code?: string }).code).toBe('ENOENT');
  });
});

describe('openRegularFile', () => {
  it('gives a descriptor that reads the file from its start', () => {
    const fd = openRegularFile(join(dir, 'plain.json'));
    try {
      const buffer = Buffer.alloc(16);
      expect(buffer.subarray(0, readSync(fd, buffer)).toString()).toBe('{"a":1}');
    } finally {
      closeSync(fd);
    }
  });
});
