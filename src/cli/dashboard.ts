// `tickbook` with no command: the dashboard, on the embedded sandbox or the configured servers.
import { isThemeSetting, THEME_SETTINGS, type ThemeSetting } from '../tui/style/theme.js';
import { DASHBOARD_OPTIONS } from './options.js';
import { ConfigError, type ConfigRead, configFilePath, readConfigFile, updateConfigFile } from '../config/config-file.js';
import { savedLists, savedListsProblem } from '../config/saved-watchlists.js';
import { ConfigReadError, fileStamp, SettingsSync } from '../config/settings-sync.js';
import { findList, FIRST_LIST_NAME, newList, type Watchlists } from '../market/watchlists.js';
import { resolveConnection } from '../config/connection.js';
import { runDashboard } from '../tui/run.js';
import { StatusBoard } from '../tui/state/status.js';
import { dashboardRecording } from '../tui/state/history-reports.js';
import { DEFAULT_WATCHLIST, MAX_INTERVAL_S, MIN_INTERVAL_S } from '../tui/ticker/ticker-state.js';
import { CONNECTION_HELP, connectionFlags } from './connection-options.js';
import { integerOption, parseCommandLine, symbolList, UsageError } from './usage.js';
import { withClient } from './with-client.js';
import { sanitize } from '../text/sanitize.js';
import { screenReaderWanted } from '../text/screen-reader.js';
import { PriceRecorder } from '../store/price-recorder.js';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const DASHBOARD_HELP = `Usage: tickbook [options]

Opens the dashboard: contacts beside a live watch window. Press ? inside for every key.

Options:
  --watchlist NAME          open the saved list NAME (any case)
  --watchlist A,B,C         or watch these symbols for this run (the saved lists are untouched);
                            given more than once, the symbols are joined
  --interval N              poll prices every N seconds, 1 to 60, for this run (default: saved, or 2)
  --screen-reader           said for a screen reader: lines appended, each said once, prices read
                            when asked (t); also TICKBOOK_SCREEN_READER=1 or "screen_reader": true

The lists and the interval are saved as they change: only what this window changed, merged into
the config file as another dashboard on the same home left it; each window takes in what the
other saved at its next poll.

${CONNECTION_HELP.replace(/^Output:[\s\S]*?(?= {2}-h, --help)/m, '')}`;


/** Where x writes exports: the config's export_dir, else ~/Downloads when there is one, else home. */
function exportDirectory(configured: string | undefined): string {
  if (configured !== undefined) return configured.replace(/^~(?=$|\/)/, homedir());
  const downloads = join(homedir(), 'Downloads');
  return existsSync(downloads) ? downloads : homedir();
}

export async function dashboard(args: readonly string[]): Promise<number> {
  const { values } = parseCommandLine(args, DASHBOARD_OPTIONS, false);
  if (values.help) {
    process.stdout.write(DASHBOARD_HELP);
    return 0;
  }
  const watchlistArgs = values.watchlist;
  const intervalFlag = integerOption('interval', values.interval, MIN_INTERVAL_S, MAX_INTERVAL_S);
  if (values.theme !== undefined && !isThemeSetting(values.theme)) {
    throw new UsageError(`option --theme must be one of ${THEME_SETTINGS.join(', ')}, not ${JSON.stringify(values.theme)}`);
  }
  const path = configFilePath();
  // Taken before the file is read: a save by another window meanwhile is then taken in at the first poll.
  const stamp = fileStamp(path);
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
  const saved = savedLists(config);
  // One --watchlist naming a saved list opens it; otherwise they are symbols for this run, every
  // one given counting, in order (a symbol in two of them once).
  const named = watchlistArgs?.length === 1 && saved ? findList(saved.lists, watchlistArgs[0]!) : -1;
  const watchlistFlag = named >= 0 || !watchlistArgs ? undefined : symbolList('option --watchlist', watchlistArgs);
  if (watchlistFlag?.length === 0) throw new UsageError('option --watchlist needs at least one symbol');
  // A saved setting this run needs but cannot read stops it, rather than a default standing in:
  // the first change would save the default over what the user wrote.
  const listsProblem = savedListsProblem(read);
  if (listsProblem !== undefined && watchlistFlag === undefined) {
    throw new UsageError(`${path}: ${listsProblem}; correct it, or give --watchlist for this run`);
  }
  if (malformed.interval !== undefined && intervalFlag === undefined) {
    throw new UsageError(`${path}: ${malformed.interval}; correct it, or give --interval for this run`);
  }
  if (!process.stdout.isTTY || !process.stdin.isTTY) {
    throw new UsageError('the dashboard needs a terminal; scripts can use the subcommands instead');
  }
  // --screen-reader, TICKBOOK_SCREEN_READER=1, INK_SCREEN_READER=true, or the config's screen_reader.
  const screenReader = screenReaderWanted(process.env, values['screen-reader']) || config.screen_reader === true;
  // A dumb terminal (Emacs shell, some CI consoles) cannot move its cursor: the dashboard would
  // be a scroll of broken frames. Said for a screen reader, it is lines, which any terminal shows.
  if (process.env.TERM === 'dumb' && !screenReader) {
    throw new UsageError('the dashboard needs cursor movement, which TERM=dumb lacks; use --screen-reader for lines a terminal appends, or the subcommands, e.g. tickbook contacts list');
  }

  const lists = saved ?? { lists: [newList(FIRST_LIST_NAME, DEFAULT_WATCHLIST)], active: 0 };
  const shown: Watchlists = named >= 0 ? { ...lists, active: named } : lists;
  const watchlist = watchlistFlag ?? shown;
  const intervalS = intervalFlag ?? config.interval ?? 2;
  // What was given for this run stays out of the config file; the rest is saved as it changes, as
  // a change merged into the file as it is then, and what other windows save is taken in.
  const sync = new SettingsSync(path, {
    lists: watchlistFlag === undefined ? shown : undefined,
    intervalS: intervalFlag === undefined ? intervalS : undefined,
    stamp,
  });
  // The last save that failed, until one works: said again on stderr once the screen is back.
  let unsaved: string | undefined;
  const syncSettings = (all: Watchlists, interval: number) => {
    try {
      const synced = sync.sync(all, interval);
      unsaved = undefined;
      return synced;
    } catch (error) {
      // A file that could not be read, with nothing of this window's to save, loses nothing.
      if (!(error instanceof ConfigReadError)) unsaved = error instanceof Error ? error.message : String(error);
      throw error;
    }
  };
  const status = new StatusBoard();
  const code = await withClient(
    values,
    async ({ client, target, sandbox, historySource, contactsSource }) => {
      // Every price is recorded; a history that cannot be kept is said, and the prices go on.
      const history = new PriceRecorder({ source: historySource, ...dashboardRecording(status) });
      try {
        return await runDashboard({
          client,
          status,
          target,
          watchlist,
          intervalS,
          persistWatchlist: syncSettings,
          refreshSettings: syncSettings,
          history,
          glyphs: config.glyphs,
          colors: config.colors,
          theme: values.theme as ThemeSetting | undefined ?? config.theme,
          motion: config.motion ?? true,
          hideMoney: config.hide_money ?? false,
          contactsSource,
          exportDir: exportDirectory(config.export_dir),
          persistHideMoney: (hidden: boolean) => updateConfigFile(path, { hide_money: hidden }),
          mouse: config.mouse,
          persistMouse: (on: boolean) => updateConfigFile(path, { mouse: on }),
          alertChannels: config.alerts,
          screenReader: screenReader ? { readPricesEveryS: config.read_prices_every ?? 0 } : undefined,
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
