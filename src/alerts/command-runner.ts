// The user's own command for a fired alert (the config's alerts.command), run by the dashboard and
// by `alerts watch`: by /bin/sh, with the firing in TICKBOOK_ALERT_* variables, for mail, a phone
// push or a script. It gets what it needs and no more, and it cannot pile up:
// - tickbook's own credentials (TICKBOOK_TOKEN, TICKBOOK_API_KEY) are taken out of its
//   environment: `env > file` in a command once wrote them down;
// - one runs at a time per alert: a command that hangs was started again at every firing, each
//   copy left running; a firing while one runs is said instead;
// - each is ended after a time limit, and every one still running is ended when tickbook ends.
// It runs in a process group of its own, and counts as running until the group is empty, so what
// it starts in turn (`sleep 300 &`, even once its shell has ended) is held to the same rules and
// ends with it; its output goes nowhere, never to the dashboard's screen.
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Firing } from '../store/alerts-store.js';

type Env = Readonly<Record<string, string | undefined>>;

/** How long a command may run before it is ended (documented: docs/commands.md, `tickbook alerts`). */
export const ALERT_COMMAND_LIMIT_MS = 60_000;

/** Between SIGTERM and SIGKILL for a command that is being ended. */
const GRACE_MS = 2000;

/** tickbook's credentials, which a command of the user's has no need of. */
const WITHHELD = ['TICKBOOK_TOKEN', 'TICKBOOK_API_KEY'] as const;

/** The variables the command is given about the firing. */
export function alertEnvironment(firing: Firing): Record<string, string> {
  return {
    TICKBOOK_ALERT_ID: String(firing.alert),
    TICKBOOK_ALERT_SYMBOL: firing.symbol,
    TICKBOOK_ALERT_PRICE: firing.price === undefined ? '' : String(firing.price),
    TICKBOOK_ALERT_TIME: new Date(firing.at).toISOString(),
    TICKBOOK_ALERT_TEXT: firing.text,
  };
}

/** The command's whole environment: the user's, less tickbook's credentials, with the firing's. */
export function commandEnvironment(env: Env, firing: Firing): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined && !(WITHHELD as readonly string[]).includes(key)) out[key] = value;
  return { ...out, ...alertEnvironment(firing) };
}

export interface AlertCommandOptions {
  command: string;
  /** The environment the command starts from (process.env). */
  env: Env;
  /** Told of a command that could not start, failed, or ran past its limit. */
  onProblem: (line: string) => void;
  /** Told of a firing whose command was not started again because one still runs. */
  onSkipped: (line: string) => void;
  limitMs?: number;
  graceMs?: number;
}

interface Running {
  /** The command's process group (the shell's pid): what it starts in turn is in it too. */
  pgid: number;
  /** Settles once nothing of the group runs any more, the shell and what it left behind. */
  done: Promise<void>;
  /** Why tickbook ended it, when it did: its exit is then no failure of the command's. */
  endedBy?: 'limit' | 'stop';
}

/** How often a group whose shell has ended is looked at again, for what it left running. */
const GROUP_POLL_MS = 500;

/** Runs alerts.command for firings, one at a time per alert, each within a time limit. */
export class AlertCommands {
  readonly #options: AlertCommandOptions;
  readonly #running = new Map<number, Running>();
  /** A process that exits without stop() (a second Ctrl-C) still ends what it started. */
  readonly #onExit = () => {
    for (const running of this.#running.values()) signalGroup(running.pgid, 'SIGKILL');
  };

  constructor(options: AlertCommandOptions) {
    this.#options = options;
  }

  /** How many alerts' commands are running now (a shell, or what it left running). */
  get running(): number {
    return this.#running.size;
  }

  run(firing: Firing): void {
    const id = firing.alert;
    if (this.#running.has(id)) {
      this.#options.onSkipped(`alerts.command for alert ${id} is still running: not started again for this firing`);
      return;
    }
    let child: ChildProcess;
    try {
      // detached: a process group of its own, to be ended whole.
      child = spawn('/bin/sh', ['-c', this.#options.command], { env: commandEnvironment(this.#options.env, firing), stdio: 'ignore', detached: true });
    } catch (error) {
      this.#options.onProblem(`alerts.command could not start: ${(error as Error).message}`);
      return;
    }
    // The process is not kept alive for it: stop() ends it on the way out.
    child.unref();
    if (child.pid === undefined) {
      child.on('error', (error) => this.#options.onProblem(`alerts.command could not start: ${error.message}`));
      return;
    }
    const limitMs = this.#options.limitMs ?? ALERT_COMMAND_LIMIT_MS;
    const running: Running = { pgid: child.pid, done: Promise.resolve() };
    const limit = setTimeout(() => {
      this.#options.onProblem(`alerts.command for alert ${id} ran past ${limitMs / 1000} s and was ended`);
      void this.#end(running, 'limit');
    }, limitMs);
    limit.unref();
    running.done = new Promise<void>((resolve) => {
      child.on('error', (error) => {
        this.#options.onProblem(`alerts.command failed: ${error.message}`);
        void groupEnded(running.pgid).then(resolve);
      });
      child.on('exit', (code, signal) => {
        if (running.endedBy === undefined && code !== 0) this.#options.onProblem(`alerts.command ${signal ? `was ended by ${signal}` : `exited ${code}`} for alert ${id}`);
        // A shell that has ended may have left a job running in the background (`long-job &`):
        // the command runs, for its limit and for stop(), until its group is empty.
        void groupEnded(running.pgid).then(resolve);
      });
    }).finally(() => {
      clearTimeout(limit);
      this.#running.delete(id);
      if (this.#running.size === 0) process.off('exit', this.#onExit);
    });
    if (this.#running.size === 0) process.on('exit', this.#onExit);
    this.#running.set(id, running);
  }

  /** Ends every command still running (their groups: SIGTERM, then SIGKILL), and waits for them. */
  async stop(): Promise<void> {
    await Promise.all([...this.#running.values()].map((running) => this.#end(running, 'stop')));
  }

  async #end(running: Running, why: 'limit' | 'stop'): Promise<void> {
    running.endedBy ??= why;
    signalGroup(running.pgid, 'SIGTERM');
    const kill = setTimeout(() => signalGroup(running.pgid, 'SIGKILL'), this.#options.graceMs ?? GRACE_MS);
    await running.done;
    clearTimeout(kill);
  }
}

/** Sends `signal` to a command's process group; one that has ended already is no matter. */
function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  // Only while something of it runs: an empty group's number may be a new process's.
  if (!groupRunning(pgid)) return;
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: it ended in between.
  }
}

/** Settles once nothing of process group `pgid` runs, looked at every GROUP_POLL_MS. */
async function groupEnded(pgid: number): Promise<void> {
  while (groupRunning(pgid)) await sleep(GROUP_POLL_MS, undefined, { ref: false });
}

/**
 * Whether anything of process group `pgid` still runs. kill(-pgid, 0) answers for the group, but
 * counts a member that has ended and waits to be reaped (a background job whose shell ended first
 * waits for init, which in a container may take seconds): where /proc tells, a group of such
 * zombies has ended.
 */
function groupRunning(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    // EPERM: a member that is not ours to signal (a setuid program it ran) still runs.
    return (error as { code?: string }).code !== 'ESRCH';
  }
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // pid (comm) state ppid pgrp …: comm may hold spaces and parentheses, so read after the last ")".
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z') return true;
  }
  return false;
}
