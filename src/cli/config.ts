// `tickbook config`: the config file from the command line. Every change goes through the same
// save as the dashboard's (config-file.ts): atomic, mode 0600, a link kept a link, every key and
// byte it was not asked to change kept, and nothing written over a file it cannot read.
import { CONFIG_OPTIONS } from './options.js';
import { readFileSync } from 'node:fs';
import { ConfigError, configFilePath, editConfigFile, readObject, removeConfigKeys } from '../config/config-file.js';
import {
  fileKey,
  maskedValue,
  SECRET_KEYS,
  SETTING_NAMES,
  BOOLEAN_SETTINGS,
  SettingError,
  settingName,
  settingValue,
  shownValue,
  withSetting,
} from '../config/config-values.js';
import { formatOf, renderFields, writeJson } from './output.js';
import { parseCommandLine, UsageError } from './usage.js';

export const CONFIG_HELP = `Usage: tickbook config path
       tickbook config get KEY
       tickbook config set KEY VALUE
       tickbook config unset KEY
       tickbook config list [--json]

The config file, read and changed without opening it.
  path                      where it is ($XDG_CONFIG_HOME/tickbook/config.json, else
                            ~/.config/tickbook/config.json), whether or not it exists yet
  get KEY                   the value: text as it is, anything else as JSON; exit 1 if not set
  set KEY VALUE             checked as the file's reader checks it, then saved; VALUE - reads
                            it from standard input (a token kept out of the shell's history)
  unset KEY                 the key taken out (nothing to do if it is not there)
  list                      every key set, the token and API key masked

Keys: ${SETTING_NAMES.join(', ')}.
Values: true or false for ${BOOLEAN_SETTINGS.join(', ')};
seconds (1 to 60) for interval; AAPL,MSFT (or a JSON array) for watchlist; auto|unicode|ascii
for glyphs; auto|none|16|256 for colors; auto|dark|light|mono for theme; JSON for watchlists
and alerts.

The file is written whole or not at all, stays mode 0600 and a link stays a link; each save
holds .config.json.lock beside it, so that no other (a dashboard's) comes between its read and
its write, and a dashboard running takes in what was set at its next poll. A file that
is not valid JSON, or not a regular file (a FIFO, a device), is not written over: correct it
first (the message says where). set and unset exit 1 on it; get and list, like every command
that reads it, exit 2.
`;


export async function config(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(args, CONFIG_OPTIONS, true);
  if (values.help) {
    process.stdout.write(CONFIG_HELP);
    return 0;
  }
  const [action, ...words] = positionals;
  const path = configFilePath();
  const want = (count: number, usage: string): string[] => {
    if (words.length !== count) throw new UsageError(`config ${action} takes ${usage}`);
    return words;
  };
  if (values.json && action !== 'list') throw new UsageError('option --json is for config list');
  try {
    switch (action) {
      case 'path':
        want(0, 'nothing more');
        process.stdout.write(`${path}\n`);
        return 0;
      case 'get': {
        const [name] = want(1, 'a KEY');
        const value = settingValue(readToShow(path), settingName(name!));
        if (value === undefined || value === null) {
          process.stderr.write(`tickbook: ${name} is not set in ${path}\n`);
          return 1;
        }
        process.stdout.write(`${shownValue(value)}\n`);
        return 0;
      }
      case 'set': {
        const [name, raw] = want(2, 'a KEY and a VALUE');
        settingName(name!);
        const typed = raw === '-' ? readFileSync(0, 'utf8').replace(/\r?\n$/, '') : raw!;
        // Checked against the file first, so that a wrong value or an unreadable file is said as
        // such; then made again of the file as it is under the lock, where another's save since is.
        withSetting(readToChange(path), name!, typed);
        const key = fileKey(name!);
        editConfigFile(path, (raw) => ({ set: { [key]: withSetting(raw, name!, typed)[key] } }));
        return 0;
      }
      case 'unset': {
        const [name] = want(1, 'a KEY');
        const file = readToChange(path);
        if (name!.startsWith('alerts.')) {
          if (settingValue(file, settingName(name!)) === undefined) return 0;
          editConfigFile(path, (raw) => {
            if (settingValue(raw, settingName(name!)) === undefined) return undefined;
            const { [name!.slice('alerts.'.length)]: _gone, ...rest } = raw.alerts as Record<string, unknown>;
            // The last of the three gone, alerts goes too.
            return Object.keys(rest).length === 0 ? { remove: ['alerts'] } : { set: { alerts: rest } };
          });
          return 0;
        }
        // A key the file holds may go even when tickbook does not know it (a misspelling).
        if (!Object.hasOwn(file, name!)) settingName(name!);
        removeConfigKeys(path, [name!]);
        return 0;
      }
      case 'list':
        want(0, 'nothing more');
        return list(path, formatOf(values, false) === 'json');
      case undefined:
        throw new UsageError('config needs an action: path, get, set, unset or list');
      default:
        throw new UsageError(`unknown config action ${JSON.stringify(action)}; one of path, get, set, unset, list`);
    }
  } catch (error) {
    if (error instanceof SettingError) throw new UsageError(error.message);
    throw error;
  }
}

/** The file's object before a change; one tickbook cannot read is refused, never written over. */
function readToChange(path: string): Record<string, unknown> {
  try {
    return readObject(path) ?? {};
  } catch (error) {
    if (error instanceof ConfigError) {
      throw new ConfigError(`${path} is left as it is: ${error.reason}; correct it first (tickbook does not write over a file it cannot read)`);
    }
    throw error;
  }
}

/**
 * The file's object to show; one tickbook cannot read (not JSON, not a regular file) is the usage
 * mistake every command that reads it makes it (exit 2). Only a change it refuses to write is a
 * failure (readToChange, exit 1).
 */
function readToShow(path: string): Record<string, unknown> {
  try {
    return readObject(path) ?? {};
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}

function list(path: string, json: boolean): number {
  const file = readToShow(path);
  const known: readonly string[] = SETTING_NAMES;
  const rows = Object.entries(file)
    .filter(([key]) => !key.startsWith('//'))
    .map(([key, value]) => ({ key, value: SECRET_KEYS.has(key) ? maskedValue(value) : value, known: known.includes(key) }));
  if (json) {
    writeJson(Object.fromEntries(rows.map((row) => [row.key, row.value])));
    return 0;
  }
  if (rows.length === 0) {
    process.stderr.write(`tickbook: nothing is set in ${path}\n`);
    return 0;
  }
  process.stdout.write(renderFields(rows.map((row) => [row.known ? row.key : `${row.key} (unknown: not used)`, shownValue(row.value)])));
  return 0;
}
