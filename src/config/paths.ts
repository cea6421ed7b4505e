// Where tickbook keeps things, by the XDG base directory rules.
import { homedir } from 'node:os';
import { join } from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

function xdg(env: Env, variable: string, fallback: string[]): string {
  const value = env[variable];
  // The spec says relative values are invalid and must be ignored.
  if (value && value.startsWith('/')) return join(value, 'tickbook');
  return join(homedir(), ...fallback, 'tickbook');
}

/** `$XDG_DATA_HOME/tickbook`, or `~/.local/share/tickbook`. */
export const dataDir = (env: Env = process.env): string => xdg(env, 'XDG_DATA_HOME', ['.local', 'share']);

/** `$XDG_CONFIG_HOME/tickbook`, or `~/.config/tickbook`. */
export const configDir = (env: Env = process.env): string => xdg(env, 'XDG_CONFIG_HOME', ['.config']);

/** `$XDG_CACHE_HOME/tickbook`, or `~/.cache/tickbook`: what may be thrown away (the symbols shell completion offers). */
export const cacheDir = (env: Env = process.env): string => xdg(env, 'XDG_CACHE_HOME', ['.cache']);

/** The sandbox's database when no --db is given. */
export const defaultDatabasePath = (env: Env = process.env): string => join(dataDir(env), 'sandbox.db');

/** Where `dir`'s base came from, in words, for a line saying it cannot be made. */
function origin(env: Env, variable: string, fallback: string[]): string {
  const value = env[variable];
  if (value && value.startsWith('/')) return `${variable}=${value}`;
  return `the default ${join('~', ...fallback)}${value ? `; ${variable} is not an absolute path and is ignored` : ''}`;
}

/** Where dataDir() came from: `XDG_DATA_HOME=/x`, or the default under the home directory. */
export const dataDirOrigin = (env: Env = process.env): string => origin(env, 'XDG_DATA_HOME', ['.local', 'share']);

/** Where configDir() came from: `XDG_CONFIG_HOME=/x`, or the default under the home directory. */
export const configDirOrigin = (env: Env = process.env): string => origin(env, 'XDG_CONFIG_HOME', ['.config']);
