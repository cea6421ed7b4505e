// Where recorded prices are kept and under which name: a module of its own, light enough for
// every command to load (the store itself loads SQLite's addon).
import { createHash } from 'node:crypto';
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

/**
 * The name a contact list is indexed under: the contacts server as requests go to it (or the
 * embedded sandbox's database), and the user, by a hash of their token (each token is one user's
 * list; the token itself is never written).
 */
export function contactsSource(target: { sandboxDbPath?: string | undefined; contactsUrl: string; token: string | undefined }): string {
  const server = target.sandboxDbPath !== undefined ? `sandbox:${target.sandboxDbPath}` : historySource({ marketDataUrl: target.contactsUrl });
  const user = createHash('sha256').update(target.token ?? '').digest('hex').slice(0, 16);
  return `contacts:${server}#${user}`;
}
