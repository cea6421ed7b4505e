// The user's config file: JSON at $XDG_CONFIG_HOME/tickbook/config.json, written with mode 0600
// because it may hold a token and an API key.
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { configDir } from './paths.js';

export interface ConfigFile {
  base_url?: string;
  market_data_url?: string;
  token?: string;
  api_key?: string;
  /** The ticker's saved watchlist. */
  watchlist?: string[];
  /** The ticker's polling interval in seconds. */
  interval?: number;
  /** The dashboard's characters: Unicode, ASCII, or chosen from the locale and terminal. */
  glyphs?: (typeof GLYPH_VALUES)[number];
  /** The dashboard's colours: none, the 8 basic ones, all, or chosen from the terminal. */
  colors?: (typeof COLOR_VALUES)[number];
}

const GLYPH_VALUES = ['auto', 'unicode', 'ascii'] as const;
const COLOR_VALUES = ['auto', 'none', '16', '256'] as const;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export const configFilePath = (env: Readonly<Record<string, string | undefined>> = process.env): string =>
  join(configDir(env), 'config.json');

const STRING_FIELDS = ['base_url', 'market_data_url', 'token', 'api_key'] as const;

/** The dashboard's own keys: every other command reads the file without needing them. */
export type DashboardKey = 'watchlist' | 'interval' | 'glyphs' | 'colors';

export interface ConfigRead {
  config: ConfigFile;
  warnings: string[];
  /** Dashboard keys present but malformed, left out of `config`: what is wrong with each. */
  malformed: Partial<Record<DashboardKey, string>>;
}

/** The file's JSON object as written, every key kept; undefined when there is no file. */
function readObject(path: string): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    throw new ConfigError(`cannot read ${path}: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ConfigError(`${path} is not valid JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigError(`${path} must hold a JSON object`);
  }
  return value as Record<string, unknown>;
}

/**
 * Reads the config file; a missing file is an empty config. A malformed connection key is an
 * error naming it (every command needs where to connect); a malformed dashboard key is only a
 * warning, so a hand edit of the watchlist cannot stop `contacts list`.
 */
export function readConfigFile(path: string): ConfigRead {
  const raw = readObject(path);
  if (raw === undefined) return { config: {}, warnings: [], malformed: {} };
  const config: ConfigFile = {};
  for (const field of STRING_FIELDS) {
    const v = raw[field];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') throw new ConfigError(`${path}: ${field} must be a string`);
    config[field] = v;
  }
  const malformed: ConfigRead['malformed'] = {};
  const { watchlist, interval } = raw;
  if (watchlist !== undefined && watchlist !== null) {
    if (Array.isArray(watchlist) && watchlist.every((s) => typeof s === 'string')) config.watchlist = watchlist;
    else malformed.watchlist = 'watchlist must be an array of symbols, like ["AAPL", "MSFT"]';
  }
  if (interval !== undefined && interval !== null) {
    if (typeof interval === 'number' && interval >= 1 && interval <= 60) config.interval = interval;
    else malformed.interval = 'interval must be a number of seconds from 1 to 60';
  }
  const { glyphs, colors } = raw;
  if (glyphs !== undefined && glyphs !== null) {
    if ((GLYPH_VALUES as readonly unknown[]).includes(glyphs)) config.glyphs = glyphs as ConfigFile['glyphs'];
    else malformed.glyphs = 'glyphs must be "auto", "unicode" or "ascii"';
  }
  if (colors !== undefined && colors !== null) {
    if ((COLOR_VALUES as readonly unknown[]).includes(colors)) config.colors = colors as ConfigFile['colors'];
    else malformed.colors = 'colors must be "auto", "none", "16" or "256"';
  }
  const warnings = Object.values(malformed).map((problem) => `${path}: ${problem}; left as it is and not used`);
  if ((config.token || config.api_key) && (statSync(path).mode & 0o077) !== 0) {
    warnings.push(`${path} holds credentials and is readable by others: run chmod 600 ${path}`);
  }
  return { config, warnings, malformed };
}

/**
 * Sets the given keys and keeps every other key of the file as the user left it (keys tickbook
 * does not know, and malformed ones it was not asked to replace).
 */
export function updateConfigFile(path: string, changes: Partial<ConfigFile>): void {
  if (Object.keys(changes).length === 0) return;
  writeConfigFile(path, { ...readObject(path), ...changes });
}

/** Writes the whole config atomically, readable by the user alone. */
export function writeConfigFile(path: string, config: ConfigFile | Readonly<Record<string, unknown>>): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
}
