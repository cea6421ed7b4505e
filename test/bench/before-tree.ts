// The code before a change, for the dashboard benchmark to run beside this tree's (BENCH_BEFORE):
// another checkout of tickbook with its own node_modules and built dist. Its contacts are seeded
// by its own code where they cannot be shared: both trees' stores open a database in a temp
// directory, and the schemas they make (user_version and every table's and index's SQL) are
// compared. The same schema at the same path (the env's data directory) is one file for both;
// otherwise the older code gets a data directory of its own, seeded by its own store.
import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { defaultDatabasePath } from '../../src/config/paths.js';
import { openContactsStore, type SeedContact } from '../../src/server/contacts-store.js';
import { DEMO_TOKEN, ownerOf } from '../../src/server/credentials.js';

/** What seeding needs of a tree's code: this tree's from src/, another's from its dist/. */
export interface StoreCode {
  openContactsStore: typeof openContactsStore;
  defaultDatabasePath: typeof defaultDatabasePath;
  ownerOf: typeof ownerOf;
  DEMO_TOKEN: string;
}

export const thisTree: StoreCode = { openContactsStore, defaultDatabasePath, ownerOf, DEMO_TOKEN };

export interface BeforeTree {
  root: string;
  bin: string;
  /** Its commit and its ink, for the report's first lines. */
  label: string;
  code: StoreCode;
}

/** The tree BENCH_BEFORE names, checked to be a built tickbook; throws a one-line reason if not. */
export async function beforeTree(path: string): Promise<BeforeTree> {
  const root = resolve(path);
  const bin = join(root, 'bin/tickbook');
  if (!existsSync(bin)) throw new Error(`BENCH_BEFORE=${path}: no bin/tickbook there`);
  if (!existsSync(join(root, 'dist/bundle/dashboard.cjs'))) {
    throw new Error(`BENCH_BEFORE=${path}: not built (no dist/bundle/dashboard.cjs); run \`npm run build\` in it`);
  }
  const version = (name: string): string => {
    try {
      return JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version;
    } catch {
      return '?';
    }
  };
  let commit = 'not a git checkout';
  try {
    commit = execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    // Left as said.
  }
  const load = async (file: string) => import(pathToFileURL(join(root, 'dist', file)).href);
  const [store, paths, credentials] = await Promise.all([load('server/contacts-store.js'), load('config/paths.js'), load('server/credentials.js')]);
  return {
    root,
    bin,
    label: `${root} (${commit}; ink ${version('ink')}, react ${version('react')})`,
    code: {
      openContactsStore: store.openContactsStore,
      defaultDatabasePath: paths.defaultDatabasePath,
      ownerOf: credentials.ownerOf,
      DEMO_TOKEN: credentials.DEMO_TOKEN,
    },
  };
}

const pad = (i: number): string => String(i).padStart(5, '0');

/** `count` contacts, newest first "Bench 00000" …, in the database `code`'s sandbox opens under `env`. */
export function seedContacts(code: StoreCode, env: NodeJS.ProcessEnv, count: number): string {
  const path = code.defaultDatabasePath(env);
  const store = code.openContactsStore(path, {
    createDirectory: true,
    market: { seed: 1, fresh: () => ({ seed: 1, epochMs: Date.now() }) },
  });
  const now = Math.floor(Date.now() / 1000);
  const contacts: SeedContact[] = Array.from({ length: count }, (_, i) => ({
    username: `bench_${pad(i)}`,
    phoneNumber: `+1555${1_000_000 + i}`,
    displayName: `Bench ${pad(i)}`,
    avatarUrl: null,
    createdAt: now - 3600 - i * 60,
    lastActiveAt: null,
  }));
  store.insertMany(code.ownerOf(code.DEMO_TOKEN), contacts);
  store.close();
  return path;
}

/** The schema `code`'s store makes in a new database (in a directory of its own in `scratch`): its version and every object's SQL. */
function schemaOf(code: StoreCode, scratch: string): string {
  const dir = mkdtempSync(join(scratch, 'schema-'));
  try {
    const file = join(dir, 'contacts.db');
    code.openContactsStore(file).close();
    const db = new Database(file, { readonly: true });
    try {
      const version = db.pragma('user_version', { simple: true });
      const objects = db.prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name").all();
      return JSON.stringify({ version, objects });
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The env the before tree runs with, its contacts seeded: `env` itself when its sandbox opens the
 * database this tree seeded there with the same schema, else `env` with a data directory of its
 * own (`dataDir`), seeded by its own code. `how` says which, for the report.
 */
export function seedBefore(
  before: BeforeTree,
  env: NodeJS.ProcessEnv,
  seeded: string,
  scratch: string,
  dataDir: string,
  count: number,
): { env: NodeJS.ProcessEnv; how: string } {
  const sameSchema = schemaOf(thisTree, scratch) === schemaOf(before.code, scratch);
  if (sameSchema && before.code.defaultDatabasePath(env) === seeded) return { env, how: `the same schema: it opens the same database, ${seeded}` };
  const own = sameSchema ? env : { ...env, XDG_DATA_HOME: dataDir };
  const path = seedContacts(before.code, own, count);
  return { env: own, how: `${sameSchema ? 'another database path' : 'another schema'}: its own database, ${path}, seeded by its code` };
}
