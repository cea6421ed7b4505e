// Every help text of the command line in one place: what --help prints, and what the manual
// page (scripts/write-manual.mjs, src/cli/manual.ts) is made from, so the two never disagree.
import { ALERTS_HELP } from './alerts.js';
import { COMPLETION_HELP } from './completion.js';
import { CONFIG_HELP } from './config.js';
import { DOCTOR_HELP } from './doctor.js';
import { CONTACTS_HELP } from './contacts.js';
import { HISTORY_HELP } from './history.js';
import { HOLDINGS_HELP } from './holdings.js';
import { QUOTE_HELP, SYMBOLS_HELP } from './market.js';
import { SERVE_HELP } from './serve.js';

export const HELP = `Usage: tickbook [command] [options]

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
  completion bash|zsh|fish  a script for the shell's Tab to complete commands, options and values
  doctor                    checks Node, the terminal, the config, the local files, the servers
                            and the clock, one line each
  serve                     run the sandbox server of the whole interface

With no base URL configured, the dashboard and the commands run on the embedded sandbox.

Dashboard options (tickbook [options]):
  --watchlist NAME|A,B,C    open the saved list NAME, or watch these symbols for this run
  --interval N              poll prices every N seconds (1 to 60) for this run
  --theme auto|dark|light|mono
                            colours for a dark or light background, or none; auto (the
                            default, or the config's "theme") asks the terminal
  --base-url URL  --market-data-url URL  --token-file FILE  --api-key-file FILE
  --token T  --api-key K  --insecure-http  --debug-log FILE
                            where and as whom to connect (tickbook contacts --help)

Options:
  -h, --help                show this help (tickbook COMMAND --help for a command's options)
  --version                 print the version

Each command lists its own options: tickbook contacts --help, tickbook quote --help,
tickbook symbols --help, tickbook history --help, tickbook alerts --help,
tickbook holdings --help, tickbook config --help, tickbook completion --help,
tickbook doctor --help, tickbook serve --help.

Exit status: 0 success, 1 an API or network error, 2 a usage error.
`;

/** Each command's help, in the order the manual lists them. */
export const HELPS: Readonly<Record<string, string>> = {
  contacts: CONTACTS_HELP,
  quote: QUOTE_HELP,
  symbols: SYMBOLS_HELP,
  history: HISTORY_HELP,
  alerts: ALERTS_HELP,
  holdings: HOLDINGS_HELP,
  config: CONFIG_HELP,
  completion: COMPLETION_HELP,
  doctor: DOCTOR_HELP,
  serve: SERVE_HELP,
};
