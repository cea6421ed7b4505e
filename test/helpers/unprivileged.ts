// A directory that is really read-only to tickbook, also when the tests run as root (as CI does),
// whom no permission bit stops: the program runs as nobody, through setpriv (util-linux).
import { spawnSync } from 'node:child_process';
import { BIN } from './tmux.js';

export const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;

/** The command line that runs `command` so that permission bits bind it. */
export function unprivileged(command: readonly string[]): string[] {
  return isRoot ? ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', ...command] : [...command];
}

/**
 * Why permission bits cannot be made to bind here, or undefined when they can: as root, nobody
 * must be able to run bin/tickbook from where the checkout is.
 */
export function cannotDropPrivileges(): string | undefined {
  if (!isRoot) return undefined;
  const [command, ...args] = unprivileged([process.execPath, BIN, '--version']);
  const probe = spawnSync(command!, args, { encoding: 'utf8' });
  return probe.status === 0 ? undefined : `running as nobody failed: ${probe.error?.message ?? probe.stderr.trim()}`;
}
