// Where shell completion finds values: the saved watchlists, this server's alert ids, and the
// symbols. The embedded sandbox's symbols are its catalogue, on disk; a server's are cached in
// $XDG_CACHE_HOME/tickbook/symbols.json and refreshed at most daily by a detached
// `tickbook __refresh-symbols`, so Tab never waits for the network: until the first refresh
// lands it offers none.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TickbookClient } from '../api/client.js';
import { configFilePath, readConfigFile } from '../config/config-file.js';
import { resolveConnection } from '../config/connection.js';
import { cacheDir } from '../config/paths.js';
import { loadCatalogue } from '../server/catalogue.js';
import type { Sources } from './complete.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A refresh under way (or failing) is not started again before this. */
const RETRY_MS = 60_000;

interface SymbolsCache {
  /** The market data server they came from. */
  url: string;
  fetchedAt: number;
  symbols: string[];
}

const cachePath = (): string => join(cacheDir(), 'symbols.json');
const attemptPath = (): string => join(cacheDir(), 'symbols.refreshing');

/** The market data URL in use, or undefined for the embedded sandbox (or a config that cannot be read). */
function marketUrl(): string | undefined {
  try {
    const connection = resolveConnection({}, process.env, readConfigFile(configFilePath()).config);
    return connection.mode === 'remote' ? connection.marketDataUrl : undefined;
  } catch {
    return undefined;
  }
}

function readCache(): SymbolsCache | undefined {
  try {
    const cache = JSON.parse(readFileSync(cachePath(), 'utf8')) as SymbolsCache;
    return typeof cache.url === 'string' && Array.isArray(cache.symbols) ? cache : undefined;
  } catch {
    return undefined;
  }
}

function symbols(): readonly string[] {
  const url = marketUrl();
  if (url === undefined) return loadCatalogue().map((listing) => listing.symbol);
  const cache = readCache();
  const fresh = cache !== undefined && cache.url === url && Date.now() - cache.fetchedAt < DAY_MS;
  if (!fresh) refreshInBackground();
  return cache?.url === url ? cache.symbols : [];
}

function refreshInBackground(): void {
  try {
    if (Date.now() - statSync(attemptPath()).mtimeMs < RETRY_MS) return;
  } catch {
    // No refresh tried yet.
  }
  try {
    mkdirSync(cacheDir(), { recursive: true });
    writeFileSync(attemptPath(), '');
    spawn(process.execPath, [...process.execArgv, process.argv[1]!, '__refresh-symbols'], { detached: true, stdio: 'ignore' }).unref();
  } catch {
    // Completion goes on without: the symbols are a convenience.
  }
}

/** `tickbook __refresh-symbols`: the catalogue asked for once, written whole into the cache. */
export async function refreshSymbols(client: TickbookClient): Promise<void> {
  const url = marketUrl();
  if (url === undefined) return;
  const listed = await client.listSymbols();
  const cache: SymbolsCache = { url, fetchedAt: Date.now(), symbols: listed.map((s) => s.symbol) };
  mkdirSync(cacheDir(), { recursive: true });
  const temporary = `${cachePath()}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(cache));
  renameSync(temporary, cachePath());
}

/** The saved watchlists' names, from the config file; none when it cannot be read. */
function savedWatchlists(): string[] {
  try {
    return (readConfigFile(configFilePath()).config.watchlists ?? []).map((list) => list.name);
  } catch {
    return [];
  }
}

export const completionSources = (): Sources => ({
  symbols,
  watchlists: savedWatchlists,
  // The alerts' store and SQLite load only when an alert id is wanted.
  alerts: async () => (await import('./alerts.js')).alertIds(),
});
