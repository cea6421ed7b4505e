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
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export const configFilePath = (env: Readonly<Record<string, string | undefined>> = process.env): string =>
  join(configDir(env), 'config.json');

const STRING_FIELDS = ['base_url', 'market_data_url', 'token', 'api_key'] as const;

/** Reads the config file; a missing file is an empty config, a malformed one an error naming it. */
export function readConfigFile(path: string): { config: ConfigFile; warnings: string[] } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return { config: {}, warnings: [] };
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
  const raw = value as Record<string, unknown>;
  const config: ConfigFile = {};
  for (const field of STRING_FIELDS) {
    const v = raw[field];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') throw new ConfigError(`${path}: ${field} must be a string`);
    config[field] = v;
  }
  if (raw.watchlist !== undefined) {
    if (!Array.isArray(raw.watchlist) || raw.watchlist.some((s) => typeof s !== 'string')) {
      throw new ConfigError(`${path}: watchlist must be an array of symbols`);
    }
    config.watchlist = raw.watchlist as string[];
  }
  if (raw.interval !== undefined) {
    if (typeof raw.interval !== 'number' || !(raw.interval >= 1 && raw.interval <= 60)) {
      throw new ConfigError(`${path}: interval must be a number of seconds from 1 to 60`);
    }
    config.interval = raw.interval;
  }
  const warnings: string[] = [];
  if ((config.token || config.api_key) && (statSync(path).mode & 0o077) !== 0) {
    warnings.push(`${path} holds credentials and is readable by others: run chmod 600 ${path}`);
  }
  return { config, warnings };
}

/** Writes the whole config atomically, readable by the user alone. */
export function writeConfigFile(path: string, config: ConfigFile): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
}
