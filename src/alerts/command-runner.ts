// The user's own command for a fired alert (the config's alerts.command), run by the dashboard and
// by `alerts watch`: by /bin/sh, with the firing in TICKBOOK_ALERT_* variables, for mail, a phone
// push or a script. It gets what it needs and no more, and it cannot pile up:
// - tickbook's own credentials (TICKBOOK_TOKEN, TICKBOOK_API_KEY) are taken out of its
//   environment: `env > file` in a command once wrote them down;
// - one runs at a time per alert: a command that hangs was started again at every firing, each
//   copy left running; a firing while one runs is said instead;
// - each is ended after a time limit, and every one still running is ended when tickbook ends.
// It runs in a process group of its own, so what it starts in turn (`sleep 300 &`) ends with it;
// its output goes nowhere, never to the dashboard's screen.
import { type ChildProcess, spawn } from 'node:child_process';
import type { Firing } from '../store/alerts-store.js';

type Env = Readonly<Record<string, string | undefined>>;

/** How long a command may run before it is ended (documented: README, `tickbook alerts`). */
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
  child: ChildProcess;
  exited: Promise<void>;
  /** Why tickbook ended it, when it did: its exit is then no failure of the command's. */
  endedBy?: 'limit' | 'stop';
}

/** Runs alerts.command for firings, one at a time per alert, each within a time limit. */
export class AlertCommands {
  readonly #options: AlertCommandOptions;
  readonly #running = new Map<number, Running>();
  /** A process that exits without stop() (a second Ctrl-C) still ends what it started. */
  readonly #onExit = () => {
    for (const running of this.#running.values()) signalGroup(running.child, 'SIGKILL');
  };

  constructor(options: AlertCommandOptions) {
    this.#options = options;
  }

  /** How many commands are running now. */
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
    const limitMs = this.#options.limitMs ?? ALERT_COMMAND_LIMIT_MS;
    const running: Running = { child, exited: Promise.resolve() };
    const limit = setTimeout(() => void this.#end(running, 'limit'), limitMs);
    limit.unref();
    running.exited = new Promise<void>((resolve) => {
      child.on('error', (error) => {
        this.#options.onProblem(`alerts.command could not start: ${error.message}`);
        resolve();
      });
      child.on('exit', (code, signal) => {
        if (running.endedBy === 'limit') this.#options.onProblem(`alerts.command for alert ${id} ran past ${limitMs / 1000} s and was ended`);
        else if (running.endedBy === undefined && code !== 0) this.#options.onProblem(`alerts.command ${signal ? `was ended by ${signal}` : `exited ${code}`} for alert ${id}`);
        resolve();
      });
    }).finally(() => {
      clearTimeout(limit);
      this.#running.delete(id);
      if (this.#running.size === 0) process.off('exit', this.#onExit);
    });
    if (this.#running.size === 0) process.on('exit', this.#onExit);
    this.#running.set(id, running);
    // The process is not kept alive for it: stop() ends it on the way out.
    child.unref();
  }

  /** Ends every command still running (their groups: SIGTERM, then SIGKILL), and waits for them. */
  async stop(): Promise<void> {
    await Promise.all([...this.#running.values()].map((running) => this.#end(running, 'stop')));
  }

  async #end(running: Running, why: 'limit' | 'stop'): Promise<void> {
    running.endedBy ??= why;
    signalGroup(running.child, 'SIGTERM');
    const kill = setTimeout(() => signalGroup(running.child, 'SIGKILL'), this.#options.graceMs ?? GRACE_MS);
    await running.exited;
    clearTimeout(kill);
    // The shell may be gone while what it started lingers in the group.
    signalGroup(running.child, 'SIGKILL');
  }
}

/** Sends `signal` to the command's process group; one that is gone already is no matter. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // ESRCH: the group has ended.
  }
}
