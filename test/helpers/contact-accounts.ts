// Test helpers for imports and exports: contact lists of their own on one test sandbox (a bearer
// token each, a home each), `tickbook` run as each, and contacts compared by the fields a file
// carries.
import { parse } from 'csv-parse/sync';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { unguardCell } from '../../src/contacts/formula-guard.js';
import { cleanEnv } from './child.js';
import { client, runTickbookToExit, startTestSandbox, type TestSandbox } from './sandbox.js';

/** A contact as compared across a round trip. */
export interface Fields {
  username: string;
  display_name: string | null;
  phone_number: string;
  avatar_url: string | null;
}

export const fieldsOf = (c: Fields): Fields => ({ username: c.username, display_name: c.display_name, phone_number: c.phone_number, avatar_url: c.avatar_url });
export const byUsername = <T extends { username: string }>(list: readonly T[]): T[] => [...list].sort((a, b) => (a.username < b.username ? -1 : a.username > b.username ? 1 : 0));
export const contact = (username: string, phone_number: string, display_name: string | null = null, avatar_url: string | null = null): Fields => ({
  username,
  display_name,
  phone_number,
  avatar_url,
});

export type Run = Awaited<ReturnType<typeof runTickbookToExit>>;

export interface Account {
  dir: string;
  env: NodeJS.ProcessEnv;
  token: string;
  /** `tickbook ARGS` as this account, to its end. */
  run(...args: string[]): Promise<Run>;
  /** Every contact the sandbox holds for this account, straight from the API. */
  contacts(): Promise<Fields[]>;
}

/**
 * A home under `root` and the contact list of `token` on `sandbox` (the API at `baseUrl` when
 * given, a proxy or a stand-in server); `timeoutMs` for each run.
 */
export function accountOf(sandbox: TestSandbox, root: string, token: string, apiKey: string, options: { baseUrl?: string | undefined; timeoutMs?: number } = {}): Account {
  const dir = mkdtempSync(join(root, 'home-'));
  const env = {
    ...cleanEnv(),
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_DATA_HOME: join(dir, 'data'),
    TICKBOOK_BASE_URL: options.baseUrl ?? sandbox.url,
    TICKBOOK_TOKEN: token,
    TICKBOOK_API_KEY: apiKey,
  };
  const api = client(sandbox, token);
  return {
    dir,
    env,
    token,
    run: (...args) => runTickbookToExit(args, env, options.timeoutMs ?? 15_000),
    contacts: async () => {
      const all: Fields[] = [];
      let after = '';
      for (;;) {
        const page = await api.list(`?limit=100${after}`);
        expect(page.status).toBe(200);
        all.push(...(page.json.data as Fields[]).map(fieldsOf));
        if (!page.json.has_more) return all;
        after = `&starting_after=${page.json.data.at(-1).id}`;
      }
    },
  };
}

/** The contacts of an exported CSV, read with the test's own parser. */
export function contactsOfCsv(text: string): Fields[] {
  const rows = parse(text, { columns: true }) as Record<string, string>[];
  return rows.map((row) => {
    const cell = (name: string) => unguardCell(row[name]!);
    return contact(cell('username'), cell('phone_number'), cell('display_name') || null, cell('avatar_url') || null);
  });
}

/**
 * People an import must tell apart: a family on one home line (the child without a display name)
 * and two John Smiths (one name for two people).
 */
export const HOUSEHOLD: readonly Fields[] = [
  contact('dad', '+442079460100', 'Dad'),
  contact('mum', '+442079460100', 'Mum'),
  contact('kid', '+442079460100'),
  contact('john.smith', '+12125550101', 'John Smith'),
  contact('john.smith.0102', '+12125550102', 'John Smith'),
];

/**
 * One test sandbox for the enclosing file, every token an empty list of its own, and a temp
 * directory for the homes. `account()` is the next list; `fill` makes contacts in one through
 * the API. Filled in by beforeAll.
 */
export function setUpContactLists(name: string, count = 8) {
  const tokens = Array.from({ length: count }, (_, i) => `tok_${name}_${i}_abcdefghijklmnop`);
  const apiKey = `key_${name}_abcdefghijklmnop`;
  let used = 0;
  const ctx = {
    sandbox: undefined as unknown as TestSandbox,
    root: '',
    tokens,
    apiKey,
    account: (): Account => accountOf(ctx.sandbox, ctx.root, tokens[used++]!, apiKey),
    fill: async (to: Account, people: readonly Fields[]): Promise<void> => {
      const api = client(ctx.sandbox, to.token);
      for (const person of people) {
        const form = Object.fromEntries(Object.entries(person).filter(([, value]) => value !== null)) as Record<string, string>;
        expect((await api.create(form)).status).toBe(201);
      }
    },
  };
  beforeAll(async () => {
    ctx.root = mkdtempSync(join(tmpdir(), `tickbook-${name}-`));
    ctx.sandbox = await startTestSandbox({ tokens, apiKeys: [apiKey] });
  });
  afterAll(async () => {
    await ctx.sandbox?.close();
    if (ctx.root) rmSync(ctx.root, { recursive: true, force: true });
  });
  return ctx;
}
