// Permission bits that bind, also when the tests run as root (as CI does), whom no chmod stops:
// the child runs as nobody through setpriv (util-linux). Read-only files and directories in
// tests are then real: the kernel refuses the writes, not a mock.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const NOBODY = 65534;
export const RUNS_AS_NOBODY = process.getuid?.() === 0;

/** `command args` as nobody when this process is root, as they are otherwise. */
export function unprivileged(command: string, args: readonly string[] = []): [string, string[]] {
  return RUNS_AS_NOBODY
    ? ['setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', command, ...args]]
    : [command, [...args]];
}

/** Makes `dir` and its parents under /tmp traversable by anyone (mkdtemp makes 0700). */
export function traversable(dir: string): void {
  for (let at = dir; at !== dirname(at); at = dirname(at)) {
    if (at.startsWith(`${tmpdir()}/`)) chmodSync(at, 0o755);
  }
}

/** A new temp directory an unprivileged child can enter and read. */
export function traversableTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  traversable(dir);
  return dir;
}

/**
 * Why permission bits cannot be made to bind here, or undefined when they can: as root, nobody
 * must be able to run bin/tickbook from where the checkout is.
 */
export function cannotDropPrivileges(): string | undefined {
  if (!RUNS_AS_NOBODY) return undefined;
  const bin = fileURLToPath(new URL('../../bin/tickbook', import.meta.url));
  const [command, args] = unprivileged(process.execPath, [bin, '--version']);
  const probe = spawnSync(command, args, { encoding: 'utf8' });
  return probe.status === 0 ? undefined : `running as nobody failed: ${probe.error?.message ?? probe.stderr.trim()}`;
}
