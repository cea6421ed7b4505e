// Where shell completion finds values: the saved watchlists, this server's alert ids, and the
// symbols. The embedded sandbox's symbols are its catalogue, on disk; a server's are cached in
// $XDG_CACHE_HOME/tickbook/symbols.json and refreshed at most daily by a detached
// `tickbook __refresh-symbols`, so Tab never waits for the network: until the first refresh
// lands it offers none. Whatever cannot be read (a history another process holds locked or that
// may not be written, a cache that is not a file) is left out: Tab never fails loudly.
import { spawn } from 'node:child_process';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TickbookClient } from '../api/client.js';
import { SYMBOL_PATTERN } from '../api/rules.js';
import { configFilePath, readConfigFile } from '../config/config-file.js';
import { resolveConnection } from '../config/connection.js';
import { ensureDirectory } from '../config/directories.js';
import { cacheDir } from '../config/paths.js';
import { readRegularFile } from '../config/regular-file.js';
import { writeAtomically } from '../config/write-atomically.js';
import { loadCatalogue } from '../server/catalogue.js';
import { historyPath } from '../store/history-source.js';
import type { Sources } from './complete.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A refresh under way (or failing) is not started again before this. */
const RETRY_MS = 60_000;
/** How long Tab waits for another process's lock on the history before leaving the alert ids out. */
const HISTORY_WAIT_MS = 50;

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

/**
 * A symbol as the contract allows it, and not one a shell would read as an option: the cache holds
 * a server's text, and what completion prints the shell puts on the command line.
 */
const offerable = (symbol: unknown): symbol is string => typeof symbol === 'string' && SYMBOL_PATTERN.test(symbol) && !symbol.startsWith('-');

function readCache(): SymbolsCache | undefined {
  try {
    const cache = JSON.parse(readRegularFile(cachePath()).toString('utf8')) as SymbolsCache;
    if (typeof cache.url !== 'string' || !Array.isArray(cache.symbols)) return undefined;
    return { ...cache, symbols: cache.symbols.filter(offerable) };
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
    ensureDirectory(cacheDir(), 'the symbols cache');
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
  const cache: SymbolsCache = { url, fetchedAt: Date.now(), symbols: listed.map((s) => s.symbol).filter(offerable) };
  // 0700 whatever the umask, as the code caches beside it make it: they are kept only in a
  // directory no one else may write to (src/launch/own-directory.ts).
  ensureDirectory(cacheDir(), 'the symbols cache');
  writeAtomically(cachePath(), JSON.stringify(cache));
}

/** The saved watchlists' names, from the config file; none when it cannot be read. */
function savedWatchlists(): string[] {
  try {
    return (readConfigFile(configFilePath()).config.watchlists ?? []).map((list) => list.name);
  } catch {
    return [];
  }
}

/**
 * This server's alert ids, from the history file read as it is: nothing made, migrated or moved,
 * and none when there is no file yet. SQLite's addon loads only when an alert id is wanted.
 */
async function alertIds(): Promise<string[]> {
  const path = historyPath();
  if (!existsSync(path)) return [];
  const [{ alertIdsOf }, { sourceFor }] = await Promise.all([import('../store/history-use.js'), import('./history.js')]);
  return alertIdsOf(path, sourceFor({}), HISTORY_WAIT_MS).map(String);
}

/** `read`'s values, or none when they cannot be had. */
function leftOut<T>(read: () => T, none: T): () => T {
  return () => {
    try {
      return read();
    } catch {
      return none;
    }
  };
}

export const completionSources = (): Sources => ({
  symbols: leftOut(symbols, []),
  watchlists: savedWatchlists,
  alerts: leftOut(() => alertIds().catch(() => []), Promise.resolve([])),
});
