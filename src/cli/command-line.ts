// The command line: routes to a subcommand; usage errors exit 2, failures exit 1. Loaded by
// main.ts once the open-file limit is known to be enough.
import { ApiError } from '../api/errors.js';
import { sanitize } from '../text/sanitize.js';
import { endByHangUp, HUNG_UP } from '../tui/hang-up.js';
import { config, CONFIG_HELP } from './config.js';
import { contacts, CONTACTS_HELP } from './contacts.js';
import { alerts, ALERTS_HELP } from './alerts.js';
import { history, HISTORY_HELP } from './history.js';
import { holdings, HOLDINGS_HELP } from './holdings.js';
import { quote, QUOTE_HELP, symbols, SYMBOLS_HELP } from './market.js';
import { serve, SERVE_HELP } from './serve.js';
import { ReaderGone, readerGone, watchOutputs } from './stdio.js';
import { commandLineArguments } from './argv.js';
import { refuseNonTextArgument, UsageError } from './usage.js';

const HELP = `Usage: tickbook [command] [options]

A keyboard-driven terminal dashboard: your contacts beside a live stock watch window.

Commands:
  (none)                    open the dashboard (tickbook --watchlist A,B --interval N)
  contacts list|get|create|rename|delete
                            the contact operations
  contacts search|export|import|duplicates
                            every contact searched, written out as vCard or CSV, read in
                            from vCard and CSV files, or checked for people listed twice
  quote SYMBOL... [--watch] real-time prices and volume; --watch prints a line per tick
  history SYMBOL            prices recorded on this machine (ticks, minute or day bars)
  alerts add|list|log|rm|pause|resume|watch
                            price alerts, set and watched from the shell
  holdings [add|rm]         your positions at the latest prices, totals per currency
  symbols [--search TEXT]   the symbols catalogue
  config path|get|set|unset|list
                            the config file, read and changed from the shell
  serve                     run the sandbox server of the whole interface

With no base URL configured, the dashboard and the commands run on the embedded sandbox.

Dashboard options (tickbook [options]):
  --watchlist NAME|A,B,C    open the saved list NAME, or watch these symbols for this run
  --interval N              poll prices every N seconds (1 to 60) for this run
  --base-url URL  --market-data-url URL  --token-file FILE  --api-key-file FILE
  --token T  --api-key K  --insecure-http  --debug-log FILE
                            where and as whom to connect (tickbook contacts --help)

Options:
  -h, --help                show this help (tickbook COMMAND --help for a command's options)
  --version                 print the version

Each command lists its own options: tickbook contacts --help, tickbook quote --help,
tickbook symbols --help, tickbook history --help, tickbook alerts --help,
tickbook holdings --help, tickbook config --help, tickbook serve --help.

Exit status: 0 success, 1 an API or network error, 2 a usage error.
`;

/** The dashboard (Ink, React, the layout engine) loads only when it is what runs. */
async function dashboard(args: readonly string[]): Promise<number> {
  return (await import('./dashboard.js')).dashboard(args);
}

const HELPS: Record<string, string> = {
  serve: SERVE_HELP,
  contacts: CONTACTS_HELP,
  quote: QUOTE_HELP,
  history: HISTORY_HELP,
  alerts: ALERTS_HELP,
  holdings: HOLDINGS_HELP,
  symbols: SYMBOLS_HELP,
  config: CONFIG_HELP,
};

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
      process.stdout.write(HELPS[rest[0] ?? ''] ?? HELP);
      return 0;
    case '--version':
      process.stdout.write(`${await version()}\n`);
      return 0;
    case 'serve':
      return serve(rest);
    case 'contacts':
      return contacts(rest);
    case 'quote':
      return quote(rest);
    case 'symbols':
      return symbols(rest);
    case 'history':
      return history(rest);
    case 'alerts':
      return alerts(rest);
    case 'holdings':
      return holdings(rest);
    case 'config':
      return config(rest);
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
