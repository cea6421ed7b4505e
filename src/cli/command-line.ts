// The command line: routes to a subcommand; usage errors exit 2, failures exit 1. Loaded and run
// by main.ts once the open-file limit is known to be enough.
import { ApiError } from '../api/errors.js';
import { sanitize } from '../text/sanitize.js';
import { endByHangUp, HUNG_UP } from '../tui/terminal/hang-up.js';
import { ReaderGone, readerGone, watchOutputs } from './stdio.js';
import { commandLineArguments } from './argv.js';
import { refuseNonTextArgument, UsageError } from './usage.js';


/**
 * Each command's module loads only when it is what runs: the dashboard (Ink, React, the layout
 * engine) and every other. Loaded together, the commands' modules (libphonenumber's metadata,
 * the vCard and CSV libraries) were part of every start.
 */
async function dashboard(args: readonly string[]): Promise<number> {
  return (await import('./dashboard.js')).dashboard(args);
}


/** The version in package.json, found upwards from this module (the tree or the bundle). */
async function version(): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  for (let dir = new URL('./', import.meta.url); ; dir = new URL('../', dir)) {
    try {
      return (JSON.parse(await readFile(new URL('package.json', dir), 'utf8')) as { version: string }).version;
    } catch (error) {
      if (dir.pathname === '/') throw error;
    }
  }
}

async function run(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  // Options are checked where they are parsed (naming the option); the command word here.
  if (!command?.startsWith('-')) refuseNonTextArgument(command);
  switch (command) {
    case undefined:
      return dashboard([]);
    case '-h':
    case '--help':
    case 'help':
      refuseNonTextArgument(rest[0]);
      {
        const { HELP, HELPS } = await import('./help.js');
        process.stdout.write(HELPS[rest[0] ?? ''] ?? HELP);
      }
      return 0;
    case '--version':
      process.stdout.write(`${await version()}\n`);
      return 0;
    case 'serve':
      return (await import('./serve.js')).serve(rest);
    case 'contacts':
      return (await import('./contacts.js')).contacts(rest);
    case 'quote':
      return (await import('./market.js')).quote(rest);
    case 'symbols':
      return (await import('./market.js')).symbols(rest);
    case 'history':
      return (await import('./history.js')).history(rest);
    case 'alerts':
      return (await import('./alerts.js')).alerts(rest);
    case 'holdings':
      return (await import('./holdings.js')).holdings(rest);
    case 'config':
      return (await import('./config.js')).config(rest);
    case 'completion':
      return (await import('./completion.js')).completion(rest);
    case 'doctor':
      return (await import('./doctor.js')).doctor(rest);
    // Hidden: the symbols' cache for shell completion, refreshed behind it (__complete itself is main.ts's).
    case '__refresh-symbols': {
      const [{ withClient }, { refreshSymbols }] = await Promise.all([import('./with-client.js'), import('./completion-sources.js')]);
      return withClient({}, async ({ client }) => {
        await refreshSymbols(client);
        return 0;
      });
    }
    default:
      // Options without a command are the dashboard's (--watchlist, --base-url, …).
      if (command.startsWith('-')) return dashboard(argv);
      throw new UsageError(
        `unknown command ${JSON.stringify(command)}`,
      );
  }
}

/** The one line a failure prints; server text in it is sanitised like everything shown. */
function failureLine(error: unknown): { line: string; status: number } {
  if (error instanceof UsageError) return { line: `${error.message} (see tickbook --help)`, status: 2 };
  // A credential missing or withheld locally: its message says how to give one.
  if (error instanceof ApiError) return { line: error.describe(), status: 1 };
  return { line: (error as Error)?.message ?? String(error), status: 1 };
}

/**
 * Runs the command line to its end: the exit status set, or the process ended as a hang-up ends.
 * A function rather than the module's top level: the dashboard's bundle is a script, which has no
 * top-level await (scripts/bundle.mjs).
 */
export async function runCommandLine(): Promise<void> {
  watchOutputs();
  let hungUp = false;
  try {
    const status = await run(commandLineArguments());
    // The dashboard's terminal went away: everything is sent and closed; end as a hang-up ends
    // (never by process.exit, whose terminal reset aborts on a terminal that is gone).
    hungUp = status === HUNG_UP;
    if (hungUp) endByHangUp();
    else process.exitCode = status;
  } catch (error) {
    if (error instanceof ReaderGone) {
      // `… | head`: the reader had what it wanted; the command was stopped, not failed.
      process.exitCode = 0;
    } else {
      const { line, status } = failureLine(error);
      process.stderr.write(`tickbook: ${sanitize(line)}\n`);
      process.exitCode = status;
    }
  }
  // With the reader gone, whatever the command left under way (a page fetched ahead, a retry's
  // wait) could only write to nobody; its client and sandbox are already closed.
  if (readerGone.aborted && !hungUp) {
    // A terminal that is gone ends the process as a hang-up does (see endByHangUp).
    if ((readerGone.reason as ReaderGone).terminal) endByHangUp();
    else process.exit();
  }
}
