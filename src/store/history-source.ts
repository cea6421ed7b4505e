// Where recorded prices are kept and under which name: a module of its own, light enough for
// every command to load (the store itself loads SQLite's addon).
import { join } from 'node:path';
import { dataDir } from '../config/paths.js';

/** The history file: beside the sandbox's database, in the data directory. */
export const historyPath = (env: Readonly<Record<string, string | undefined>> = process.env): string => join(dataDir(env), 'history.db');

/**
 * The name prices are kept under: the market-data URL as requests go to it (no login, query or
 * fragment), or for the embedded sandbox its database, which stays the same from run to run while
 * its port does not.
 */
export function historySource(target: { sandboxDbPath?: string | undefined; marketDataUrl: string }): string {
  if (target.sandboxDbPath !== undefined) return `sandbox:${target.sandboxDbPath}`;
  const url = new URL(target.marketDataUrl);
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  return url.href.replace(/\/+$/, '');
}
