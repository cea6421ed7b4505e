// The user's config file: JSON at $XDG_CONFIG_HOME/tickbook/config.json, written with mode 0600
// because it may hold a token and an API key.
import { lstatSync, readlinkSync, type Stats, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DirectoryError, ensureDirectory } from './directories.js';
import { COLOR_VALUES, GLYPH_VALUES, THEME_VALUES } from './display-settings.js';
import { fsReason } from './fs-reason.js';
import { isBlank, JsonSyntaxError, NotAnObject, parseObjectText, removeKeysInText, setKeysInText } from './json-text.js';
import { nearestKey } from './nearest-key.js';
import { NotRegularFileError, readRegularFile } from './regular-file.js';
import { writeAtomically } from './write-atomically.js';
import { FileLockError, withFileLock } from './file-lock.js';
import { statOrUndefined } from './stat-or-undefined.js';
import { configDir, configDirOrigin } from './paths.js';
import { listNameProblem, SORT_ORDERS, type SortOrder } from '../market/watchlists.js';

export interface ConfigFile {
  base_url?: string;
  market_data_url?: string;
  token?: string;
  api_key?: string;
  /** Credentials may travel over plain http to hosts off this machine (a trusted network). */
  insecure_http?: boolean;
  /** The ticker's saved watchlist: an older release's one list, and since, the list shown (a mirror for older releases). */
  watchlist?: string[];
  /** The named watchlists, in order, each with its symbols and sort; wins over `watchlist`. */
  watchlists?: SavedWatchlist[];
  /** The name of the list shown. */
  active_watchlist?: string;
  /** The ticker's polling interval in seconds. */
  interval?: number;
  /** The dashboard's characters: Unicode, ASCII, or chosen from the locale and terminal. */
  glyphs?: (typeof GLYPH_VALUES)[number];
  /** The dashboard's colours: none, the 8 basic ones, all, or chosen from the terminal. */
  colors?: (typeof COLOR_VALUES)[number];
  /** The dashboard's theme: for a dark or a light background, without colour, or asked of the terminal. */
  theme?: (typeof THEME_VALUES)[number];
  /** Changed digits flash on a new price; false keeps the screen still. */
  motion?: boolean;
  /** The holdings' money is hidden in the dashboard (for sharing a screen); $ toggles and saves it. */
  hide_money?: boolean;
  /** The dashboard reads the mouse (clicks, the wheel); false leaves it to the terminal's selection. O toggles and saves it. */
  mouse?: boolean;
  /** Where the dashboard's x writes exported contacts. */
  export_dir?: string;
  /** The dashboard is said for a screen reader, as --screen-reader asks. */
  screen_reader?: boolean;
  /** For a screen reader: the selected price is read every this many seconds when it changed; 0 (the default) only when t asks. */
  read_prices_every?: number;
  /**
   * How a fired alert is told: the bell and a desktop notification, each on unless false, and a
   * command of the user's run for each firing.
   */
  alerts?: { bell?: boolean; notify?: boolean; command?: string };
}

/** A named watchlist as the file keeps it. */
export interface SavedWatchlist {
  name: string;
  symbols: string[];
  sort?: SortOrder;
  descending?: boolean;
  /** Column names in order; unknown ones are left out when read. */
  columns?: string[];
}


export class ConfigError extends Error {
  override readonly name: string = 'ConfigError';
  constructor(
    message: string,
    /** What is wrong with the file, in words, without its path (a save's message adds its own). */
    readonly reason: string = message,
  ) {
    super(message);
  }
}

export const configFilePath = (env: Readonly<Record<string, string | undefined>> = process.env): string =>
  join(configDir(env), 'config.json');

/**
 * Every key the file may hold, the one list: any other is warned about as a likely misspelling.
 * `glyphs` and `colors` are the dashboard's drawing settings.
 */
export const CONFIG_KEYS = [
  'base_url',
  'market_data_url',
  'token',
  'api_key',
  'insecure_http',
  'watchlist',
  'watchlists',
  'active_watchlist',
  'interval',
  'glyphs',
  'colors',
  'theme',
  'motion',
  'hide_money',
  'mouse',
  'export_dir',
  'screen_reader',
  'read_prices_every',
  'alerts',
] as const;

const STRING_FIELDS = ['base_url', 'market_data_url', 'token', 'api_key'] as const;

/** The dashboard's own keys: every other command reads the file without needing them. */
export type DashboardKey =
  | 'watchlist'
  | 'watchlists'
  | 'interval'
  | 'glyphs'
  | 'colors'
  | 'theme'
  | 'motion'
  | 'hide_money'
  | 'mouse'
  | 'export_dir'
  | 'screen_reader'
  | 'read_prices_every'
  | 'alerts';

export interface ConfigRead {
  config: ConfigFile;
  warnings: string[];
  /** Dashboard keys present but malformed, left out of `config`: what is wrong with each. */
  malformed: Partial<Record<DashboardKey, string>>;
}

/**
 * The file's text, undefined when there is no file. Bytes that are not UTF-8 are refused, not
 * replaced; so is anything but a regular file, at once: a FIFO would wait for a writer for ever
 * (every command and Tab hung on one), a device would never end.
 */
function readText(path: string): string | undefined {
  let bytes: Buffer;
  try {
    bytes = readRegularFile(path);
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    if (error instanceof NotRegularFileError) throw new ConfigError(error.message, `it is ${error.kind}, not a regular file`);
    throw new ConfigError(`cannot read ${path}: ${fsReason(error)}`, `cannot read it: ${fsReason(error)}`);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new ConfigError(`${path} is not UTF-8 text`, 'it is not UTF-8 text');
  }
}

/** The text's JSON object, every key kept; blank text (or none) holds no settings. */
function parseText(path: string, text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined || isBlank(text)) return undefined;
  try {
    return parseObjectText(text);
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw new ConfigError(`${path}: ${error.message}`, `it holds ${error.message}`);
    if (error instanceof NotAnObject) throw new ConfigError(`${path}: ${error.message}`, 'it does not hold a JSON object');
    throw error;
  }
}

/** The file's JSON object as written, every key kept; undefined when there is no file or it is blank. */
export const readObject = (path: string): Record<string, unknown> | undefined => parseText(path, readText(path));

/** Unknown keys named one by one, each with the key it probably meant; the rest are counted. */
const NAMED_UNKNOWN_KEYS = 10;

/**
 * A warning for each of the first unknown keys, with the known key it probably meant, and one
 * line counting the rest: a file of 300,000 of them took 28 s a command to warn about each
 * (a "did you mean" search apiece) and buried the output under 300,000 lines.
 */
function unknownKeyWarnings(path: string, raw: Readonly<Record<string, unknown>>): string[] {
  const known: ReadonlySet<string> = new Set(CONFIG_KEYS);
  const unknown = Object.keys(raw).filter((key) => !known.has(key) && !key.startsWith('//'));
  const warnings = unknown.slice(0, NAMED_UNKNOWN_KEYS).map((key) => {
    const near = nearestKey(key, CONFIG_KEYS);
    const name = JSON.stringify(key);
    return near === undefined
      ? `unknown key ${name} in ${path}; tickbook does not use it (known keys: ${CONFIG_KEYS.join(', ')})`
      : `unknown key ${name} in ${path}; did you mean ${JSON.stringify(near)}?`;
  });
  const more = unknown.length - NAMED_UNKNOWN_KEYS;
  if (more > 0) warnings.push(`and ${more.toLocaleString('en-US')} more unknown key${more === 1 ? '' : 's'} in ${path}; tickbook config list names them all`);
  return warnings;
}

/**
 * Reads the config file; a missing file is an empty config. A malformed connection key is an
 * error naming it (every command needs where to connect); a malformed dashboard key is only a
 * warning, so a hand edit of the watchlist cannot stop `contacts list`.
 */
export function readConfigFile(path: string): ConfigRead {
  const raw = readObject(path);
  if (raw === undefined) return { config: {}, warnings: [], malformed: {} };
  const read = configFromObject(path, raw);
  if ((read.config.token || read.config.api_key) && (statSync(path).mode & 0o077) !== 0) {
    read.warnings.push(`${path} holds credentials and is readable by others: run chmod 600 ${path}`);
  }
  return read;
}

/** The file's rules over its JSON object (`path` only names it in messages): what readConfigFile applies, and `config set` before it saves. */
export function configFromObject(path: string, raw: Readonly<Record<string, unknown>>): ConfigRead {
  const config: ConfigFile = {};
  for (const field of STRING_FIELDS) {
    const v = raw[field];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') throw new ConfigError(`${path}: ${field} must be a string`);
    config[field] = v;
  }
  const { insecure_http: insecure } = raw;
  if (insecure !== undefined && insecure !== null) {
    if (typeof insecure !== 'boolean') throw new ConfigError(`${path}: insecure_http must be true or false`);
    config.insecure_http = insecure;
  }
  const malformed: ConfigRead['malformed'] = {};
  const { watchlist, interval } = raw;
  if (watchlist !== undefined && watchlist !== null) {
    if (Array.isArray(watchlist) && watchlist.every((s) => typeof s === 'string')) config.watchlist = watchlist;
    else malformed.watchlist = 'watchlist must be an array of symbols, like ["AAPL", "MSFT"]';
  }
  const { watchlists, active_watchlist: active } = raw;
  if (watchlists !== undefined && watchlists !== null) {
    const problem = watchlistsProblem(watchlists);
    if (problem === undefined) config.watchlists = watchlists as SavedWatchlist[];
    else malformed.watchlists = problem;
  }
  if (typeof active === 'string') config.active_watchlist = active;
  if (interval !== undefined && interval !== null) {
    if (typeof interval === 'number' && interval >= 1 && interval <= 60) config.interval = interval;
    else malformed.interval = 'interval must be a number of seconds from 1 to 60';
  }
  const { glyphs, colors, motion, mouse, alerts, hide_money: hideMoney, export_dir: exportDir } = raw;
  if (exportDir !== undefined && exportDir !== null) {
    if (typeof exportDir === 'string' && exportDir.trim() !== '') config.export_dir = exportDir;
    else malformed.export_dir = 'export_dir must be the path of a directory';
  }
  if (hideMoney !== undefined && hideMoney !== null) {
    if (typeof hideMoney === 'boolean') config.hide_money = hideMoney;
    else malformed.hide_money = 'hide_money must be true or false';
  }
  if (alerts !== undefined && alerts !== null) {
    const { bell, notify, command, ...other } = (typeof alerts === 'object' && !Array.isArray(alerts) ? alerts : { bad: true }) as Record<string, unknown>;
    const wrong =
      Object.keys(other).length > 0 ||
      (bell !== undefined && typeof bell !== 'boolean') ||
      (notify !== undefined && typeof notify !== 'boolean') ||
      (command !== undefined && (typeof command !== 'string' || command.trim() === ''));
    if (wrong) malformed.alerts = 'alerts must be like {"bell": true, "notify": true, "command": "notify-send tickbook \\"$TICKBOOK_ALERT_TEXT\\""}';
    else {
      config.alerts = {
        ...(bell !== undefined && { bell: bell as boolean }),
        ...(notify !== undefined && { notify: notify as boolean }),
        ...(command !== undefined && { command: command as string }),
      };
    }
  }
  if (motion !== undefined && motion !== null) {
    if (typeof motion === 'boolean') config.motion = motion;
    else malformed.motion = 'motion must be true or false';
  }
  if (mouse !== undefined && mouse !== null) {
    if (typeof mouse === 'boolean') config.mouse = mouse;
    else malformed.mouse = 'mouse must be true or false';
  }
  const { screen_reader: screenReader, read_prices_every: readPricesEvery } = raw;
  if (screenReader !== undefined && screenReader !== null) {
    if (typeof screenReader === 'boolean') config.screen_reader = screenReader;
    else malformed.screen_reader = 'screen_reader must be true or false';
  }
  if (readPricesEvery !== undefined && readPricesEvery !== null) {
    if (typeof readPricesEvery === 'number' && Number.isInteger(readPricesEvery) && readPricesEvery >= 0 && readPricesEvery <= 3600) config.read_prices_every = readPricesEvery;
    else malformed.read_prices_every = 'read_prices_every must be a whole number of seconds from 0 (only when asked) to 3600';
  }
  if (glyphs !== undefined && glyphs !== null) {
    if ((GLYPH_VALUES as readonly unknown[]).includes(glyphs)) config.glyphs = glyphs as ConfigFile['glyphs'];
    else malformed.glyphs = 'glyphs must be "auto", "unicode" or "ascii"';
  }
  if (colors !== undefined && colors !== null) {
    if ((COLOR_VALUES as readonly unknown[]).includes(colors)) config.colors = colors as ConfigFile['colors'];
    else malformed.colors = 'colors must be "auto", "none", "16" or "256"';
  }
  const { theme } = raw;
  if (theme !== undefined && theme !== null) {
    if ((THEME_VALUES as readonly unknown[]).includes(theme)) config.theme = theme as ConfigFile['theme'];
    else malformed.theme = 'theme must be "auto", "dark", "light" or "mono"';
  }
  const warnings = [
    ...unknownKeyWarnings(path, raw),
    ...Object.values(malformed).map((problem) => `${path}: ${problem}; left as it is and not used`),
  ];
  return { config, warnings, malformed };
}

/** What is wrong with a `watchlists` value, or undefined when it is a list of named lists. */
function watchlistsProblem(value: unknown): string | undefined {
  const shape = 'watchlists must be an array of lists like {"name": "Tech", "symbols": ["AAPL", "MSFT"]}';
  if (!Array.isArray(value) || value.length === 0) return shape;
  const names = new Set<string>();
  for (const list of value as unknown[]) {
    if (typeof list !== 'object' || list === null || Array.isArray(list)) return shape;
    const { name, symbols, sort, descending, columns } = list as Record<string, unknown>;
    if (typeof name !== 'string' || name.trim() === '') return `${shape}; each needs a name`;
    // The dashboard's own rules for a name: a hand-edited one may not hide controls or escapes.
    const wrong = listNameProblem([], name);
    if (wrong !== undefined) return `watchlists: the list named ${JSON.stringify(name)}: ${wrong}`;
    if (!Array.isArray(symbols) || !symbols.every((s) => typeof s === 'string')) return `${shape}; "${name}" needs its symbols as strings`;
    if (sort !== undefined && !(SORT_ORDERS as readonly unknown[]).includes(sort)) return `watchlists: "${name}" has sort ${JSON.stringify(sort)}; one of ${SORT_ORDERS.join(', ')}`;
    if (descending !== undefined && typeof descending !== 'boolean') return `watchlists: "${name}" has descending that is not true or false`;
    if (columns !== undefined && (!Array.isArray(columns) || !columns.every((c) => typeof c === 'string'))) {
      return `watchlists: "${name}" has columns that are not a list of names like ["price", "change"]`;
    }
    if (names.has(name.trim().toLowerCase())) return `watchlists: two lists are named "${name}"`;
    names.add(name.trim().toLowerCase());
  }
  return undefined;
}

/** A save that failed: the message names the file and says why in words, never a secret. */
export class ConfigSaveError extends ConfigError {
  override readonly name = 'ConfigSaveError';
  constructor(
    message: string,
    reason: string,
    /** The file, and the file a link points to, in words. */
    readonly where: string,
  ) {
    super(message, reason);
  }
}

/**
 * Sets the given keys and keeps everything else in the file exactly as the user left it: keys
 * tickbook does not know, malformed ones it was not asked to replace, spacing and order. A
 * config.json that is a symbolic link (dotfiles) stays one: its target is written. Throws a
 * ConfigSaveError when it cannot save, leaving the file as it was.
 */
export function updateConfigFile(path: string, changes: Partial<ConfigFile>): void {
  if (Object.keys(changes).length === 0) return;
  saveKeys(path, changes);
}

/**
 * Sets the keys `change` makes of the file as it is now (its JSON object, empty when there is
 * none), as updateConfigFile does, with no other save between the read and the write: what two
 * dashboards change at once is each applied to what the other saved. `change` returns undefined
 * for nothing to write, or throws a ConfigError for a file it cannot change. Gives the file's
 * stats as this save left it, for telling a later change by another.
 */
export function changeConfigFile(path: string, change: (raw: Readonly<Record<string, unknown>>) => object | undefined): Stats | undefined {
  return editConfigFile(path, (raw) => {
    const set = change(raw);
    return set === undefined ? undefined : { set };
  });
}

/** What a change of the config file sets and takes out. */
export interface ConfigKeysChange {
  set?: object;
  remove?: readonly string[];
}

/**
 * As changeConfigFile, for a change that may also take keys out: `change` is given the file as it
 * is under the lock, so that a `config set` or `unset` of one alerts.* setting keeps another's
 * made meanwhile by another process (the alerts object is written whole).
 */
export function editConfigFile(path: string, change: (raw: Readonly<Record<string, unknown>>) => ConfigKeysChange | undefined): Stats | undefined {
  return saveText(path, (text, raw) => {
    const keys = change(raw ?? {});
    if (keys === undefined) return undefined;
    let next = text;
    if (keys.remove && keys.remove.length > 0) next = removeKeysInText(next, keys.remove);
    if (keys.set) next = setKeysInText(next, keys.set);
    return next;
  });
}

/** Takes `keys` out of the file, keeping everything else as updateConfigFile does; no file, nothing to do. */
export function removeConfigKeys(path: string, keys: readonly string[]): void {
  const raw = readObject(path);
  if (raw === undefined || !keys.some((key) => Object.hasOwn(raw, key))) return;
  saveText(path, (text) => removeKeysInText(text, keys));
}

function saveKeys(path: string, changes: object): void {
  saveText(path, (text) => setKeysInText(text, changes));
}

/**
 * The file's text changed by `edit` (undefined: left as it is) and written back atomically, or a
 * ConfigSaveError saying why not. Read, changed and written under the file's lock, so that no
 * other save (another dashboard's, `config set`) comes between the read and the write and is
 * written over. Gives the file's stats after, taken under the lock.
 */
function saveText(path: string, edit: (text: string, raw: Record<string, unknown> | undefined) => string | undefined): Stats | undefined {
  let target = path;
  const fail = (reason: string): never => {
    const where = target === path ? path : `${path} (a link to ${target})`;
    throw new ConfigSaveError(`cannot save ${where}: ${reason}`, reason, where);
  };
  try {
    const dir = dirname(path);
    ensureDirectory(dir, dir === configDir() ? configDirOrigin() : 'the config file path');
  } catch (error) {
    if (error instanceof DirectoryError) fail(error.message);
    throw error;
  }
  try {
    target = linkTarget(path);
  } catch (error) {
    fail(fsReason(error));
  }
  try {
    return withFileLock(target, () => {
      let next: string | undefined;
      let text: string | undefined;
      try {
        text = readText(target);
        // The file as it is must be understood before a change is spliced into it.
        next = edit(text ?? '', parseText(target, text));
      } catch (error) {
        if (error instanceof ConfigError) fail(`${error.reason}; correct it first`);
        throw error;
      }
      if (next !== undefined) writeAtomically(target, next);
      return statOrUndefined(target);
    });
  } catch (error) {
    if (error instanceof ConfigSaveError) throw error;
    if (error instanceof FileLockError) fail(error.reason);
    fail(fsReason(error));
  }
  return undefined;
}

/** Where `path` finally points, following symbolic links one by one (the last may not exist yet). */
function linkTarget(path: string): string {
  let at = path;
  for (let hops = 0; hops < 40; hops++) {
    let isLink: boolean;
    try {
      isLink = lstatSync(at).isSymbolicLink();
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') return at;
      throw error;
    }
    if (!isLink) return at;
    at = resolve(dirname(at), readlinkSync(at));
  }
  throw Object.assign(new Error('ELOOP: too many symbolic links'), { code: 'ELOOP' });
}

