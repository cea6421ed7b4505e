// Files tickbook reads on the user's word are read only when they are regular files: a FIFO, a
// device, a socket or a directory is refused at once by what it is, never waited on. Real special
// files, made here.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, mkdirSync, mkdtempSync, openSync, readSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server, Socket } from 'node:net';
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

/** What readRegularFile throws for `path`. */
function refusal(path: string): unknown {
  try {
    readRegularFile(path);
  } catch (error) {
    return error;
  }
  throw new Error(`expected ${path} to be refused`);
}

const isRoot = process.getuid?.() === 0;

describe('readRegularFile', () => {
  it('reads a regular file, and one reached through a symbolic link', () => {
    expect(readRegularFile(join(dir, 'plain.json')).toString()).toBe('{"a":1}');
    expect(readRegularFile(join(dir, 'link.json')).toString()).toBe('{"a":1}');
  });

  it('refuses a FIFO with no writer (it would wait for one for ever), also through a link', () => {
    for (const path of [join(dir, 'fifo'), join(dir, 'link-to-fifo')]) {
      const error = refusal(path);
      expect(error).toBeInstanceOf(NotRegularFileError);
      expect((error as Error).message).toBe(`${path} is a FIFO (named pipe), not a regular file`);
    }
  });

  // The test of a refusal that is not a wait: a FIFO's writer would have given a plain read its
  // text (and one with no writer, above, held it for ever).
  it('refuses a FIFO with a writer waiting to give it JSON; the writer’s text is left for whoever reads the FIFO', async () => {
    const fifo = join(dir, 'fed-fifo');
    execFileSync('mkfifo', [fifo]);
    const writer = spawn('sh', ['-c', `printf '{"from":"the writer"}' > '${fifo}'`], { stdio: 'ignore' });
    try {
      expect((refusal(fifo) as Error).message).toBe(`${fifo} is a FIFO (named pipe), not a regular file`);
      const reader = new Socket({ fd: openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK), readable: true, writable: false });
      const chunks: Buffer[] = [];
      for await (const chunk of reader) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).toString()).toBe('{"from":"the writer"}');
    } finally {
      writer.kill();
    }
  });

  it('refuses a character device, a directory and a socket by what they are', () => {
    expect((refusal('/dev/zero') as Error).message).toBe('/dev/zero is a character device, not a regular file');
    expect((refusal(join(dir, 'folder')) as Error).message).toBe(`${join(dir, 'folder')} is a directory, not a regular file`);
    expect((refusal(join(dir, 'socket')) as Error).message).toBe(`${join(dir, 'socket')} is a socket, not a regular file`);
  });

  // Opening a device has effects of its own (a watchdog armed, a tape rewound, a serial line's
  // DTR raised): one is refused by what the path is, before any open. A device number no driver
  // has shows it: opened, it fails ENXIO, once read as "a socket".
  it.skipIf(!isRoot)('refuses a device without opening it: one no driver answers is a character device, not "a socket"', () => {
    const device = join(dir, 'no-driver');
    execFileSync('mknod', [device, 'c', '240', '0']);
    expect((refusal(device) as Error).message).toBe(`${device} is a character device, not a regular file`);
  });

  it('passes on the file system’s own error for a file that is not there', () => {
    expect((refusal(join(dir, 'missing')) as { code?: string }).code).toBe('ENOENT');
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
