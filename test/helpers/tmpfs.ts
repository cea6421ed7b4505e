// A small file system of its own for the tests of a full disk: a tmpfs of a few MB, mounted as
// root (skipped elsewhere), filled to the last block by a real file, so that SQLite meets the
// kernel's own ENOSPC, not a mock of it.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SmallDisk {
  dir: string;
  /** Writes a file until the disk has no room left. */
  fill(): void;
  /** Removes what fill() wrote. */
  free(): void;
  unmount(): void;
}

function mount(sizeKiB: number): SmallDisk {
  const dir = mkdtempSync(join(tmpdir(), 'tickbook-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKiB}k,mode=0755`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const filler = join(dir, 'filler');
  return {
    dir,
    fill() {
      const fd = openSync(filler, 'a');
      const block = Buffer.alloc(4096, 1);
      try {
        for (;;) writeSync(fd, block);
      } catch (error) {
        if ((error as { code?: string }).code !== 'ENOSPC') throw error;
      } finally {
        closeSync(fd);
      }
      // What a block would not fit in, a byte at a time: not a byte left.
      const tail = openSync(filler, 'a');
      try {
        for (;;) writeSync(tail, Buffer.alloc(1, 1));
      } catch (error) {
        if ((error as { code?: string }).code !== 'ENOSPC') throw error;
      } finally {
        closeSync(tail);
      }
    },
    free: () => rmSync(filler, { force: true }),
    unmount() {
      execFileSync('umount', [dir], { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Why a small disk cannot be had here (not root, no mount allowed), or undefined when it can. */
export const NO_SMALL_DISK: string | undefined = (() => {
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root';
  try {
    mount(64).unmount();
    return undefined;
  } catch (error) {
    return `cannot mount a tmpfs: ${(error as Error).message}`;
  }
})();

/** A tmpfs of `sizeKiB`; unmount it after. */
export const smallDisk = (sizeKiB: number): SmallDisk => mount(sizeKiB);
