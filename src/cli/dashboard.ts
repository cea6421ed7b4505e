// `tickbook` with no command: the dashboard, on the embedded sandbox or the configured servers.
import { normaliseSymbols, SYMBOL_PATTERN } from '../api/rules.js';
import { ConfigError, type ConfigRead, configFilePath, readConfigFile, updateConfigFile } from '../config/config-file.js';
import { resolveConnection } from '../config/connection.js';
import { runDashboard } from '../tui/run.js';
import { StatusStore } from '../tui/state/status.js';
import { DEFAULT_WATCHLIST, MAX_INTERVAL_S, MIN_INTERVAL_S } from '../tui/state/ticker.js';
import { CONNECTION_HELP, CONNECTION_OPTIONS, connectionFlags } from './connection-options.js';
import { integerOption, parseCommandLine, symbolList, UsageError } from './usage.js';
import { withClient } from './with-client.js';
import { sanitize } from '../text/sanitize.js';
import { PriceRecorder } from '../store/price-recorder.js';

export const DASHBOARD_HELP = `Usage: tickbook [options]

Opens the dashboard: contacts beside a live watch window. Press ? inside for every key.

Options:
  --watchlist A,B,C         watch these symbols for this run (the saved watchlist is untouched);
                            given more than once, the lists are joined
  --interval N              poll prices every N seconds, 1 to 60, for this run (default: saved, or 2)

${CONNECTION_HELP.replace(/^Output:[\s\S]*?(?=  -h, --help)/m, '')}`;

const OPTIONS = {
  'base-url': CONNECTION_OPTIONS['base-url'],
  'market-data-url': CONNECTION_OPTIONS['market-data-url'],
  token: CONNECTION_OPTIONS.token,
  'token-file': CONNECTION_OPTIONS['token-file'],
  'api-key': CONNECTION_OPTIONS['api-key'],
  'api-key-file': CONNECTION_OPTIONS['api-key-file'],
  'insecure-http': CONNECTION_OPTIONS['insecure-http'],
  'debug-log': CONNECTION_OPTIONS['debug-log'],
  help: CONNECTION_OPTIONS.help,
  watchlist: { type: 'string', multiple: true },
  interval: { type: 'string' },
} as const;

export async function dashboard(args: readonly string[]): Promise<number> {
  const { values } = parseCommandLine(args, OPTIONS, false);
  if (values.help) {
    process.stdout.write(DASHBOARD_HELP);
    return 0;
  }
  // Every --watchlist given counts, in order (a symbol in two of them once).
  const watchlistFlag = values.watchlist && symbolList('option --watchlist', values.watchlist);
  if (watchlistFlag?.length === 0) throw new UsageError('option --watchlist needs at least one symbol');
  const intervalFlag = integerOption('interval', values.interval, MIN_INTERVAL_S, MAX_INTERVAL_S);
  const path = configFilePath();
  let read: ConfigRead;
  // Credential files are read once, here; standard input is the keyboard's.
  const flags = connectionFlags(values, true);
  try {
    read = readConfigFile(path);
    // Settings are checked before anything else, so a bad URL is reported as such everywhere.
    resolveConnection(flags, process.env, read.config, { configPath: path });
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
  const { config, malformed } = read;
  // A saved setting this run needs but cannot read stops it, rather than a default standing in:
  // the first change would save the default over what the user wrote.
  if (malformed.watchlist !== undefined && watchlistFlag === undefined) {
    throw new UsageError(`${path}: ${malformed.watchlist}; correct it, or give --watchlist for this run`);
  }
  if (malformed.interval !== undefined && intervalFlag === undefined) {
    throw new UsageError(`${path}: ${malformed.interval}; correct it, or give --interval for this run`);
  }
  if (!process.stdout.isTTY || !process.stdin.isTTY) {
    throw new UsageError('the dashboard needs a terminal; scripts can use the subcommands instead');
  }
  // A dumb terminal (Emacs shell, some CI consoles) cannot move its cursor: the dashboard would
  // be a scroll of broken frames.
  if (process.env.TERM === 'dumb') {
    throw new UsageError('the dashboard needs cursor movement, which TERM=dumb lacks; use the subcommands, e.g. tickbook contacts list');
  }

  // A hand-edited config may hold "aapl" or a symbol twice: the ticker keys rows by the form
  // the API answers with.
  const saved = config.watchlist && normaliseSymbols(config.watchlist).filter((s) => SYMBOL_PATTERN.test(s));
  const watchlist = watchlistFlag ?? saved ?? DEFAULT_WATCHLIST;
  const intervalS = intervalFlag ?? config.interval ?? 2;
  // What was given for this run stays out of the config file; the rest is saved as it changes.
  // The last save that failed, until one works: said again on stderr once the screen is back.
  let unsaved: string | undefined;
  const persistWatchlist = (list: readonly string[], interval: number) => {
    try {
      updateConfigFile(path, {
        ...(watchlistFlag === undefined && { watchlist: [...list] }),
        ...(intervalFlag === undefined && { interval }),
      });
      unsaved = undefined;
    } catch (error) {
      unsaved = error instanceof Error ? error.message : String(error);
      throw error;
    }
  };
  const status = new StatusStore();
  const code = await withClient(
    values,
    async ({ client, target, sandbox, historySource }) => {
      // Every price is recorded; a history that cannot be kept is said, and the prices go on.
      const history = new PriceRecorder({ source: historySource, onWarning: (warning) => status.notice(`warning: ${warning}`) });
      try {
        return await runDashboard({
          client,
          status,
          target,
          watchlist,
          intervalS,
          persistWatchlist,
          history,
          glyphs: config.glyphs,
          colors: config.colors,
          // The embedded sandbox's database and market (SQLite's addon among them, ~40 ms) are
          // opened once the first frame is on screen, and the price history after them; a
          // sandbox database that will not open ends the dashboard with its error, as it did
          // before the first frame.
          afterFirstFrame: async () => {
            await sandbox?.open();
            await history.open();
          },
        });
      } finally {
        history.close();
      }
    },
    // On stderr a warning would vanish behind the alternate screen: the status line says it. A
    // terminal that goes away is the dashboard's to handle: it sends what is pending first.
    { onRequest: status.request, onWarning: (warning) => status.notice(`warning: ${warning}`), ownsOutput: true, flags, openSandboxLater: true },
  );
  if (unsaved !== undefined) {
    process.stderr.write(`tickbook: the watchlist and interval as you left them were not saved: ${sanitize(unsaved)}\n`);
  }
  return code;
}
