// `tickbook contacts …`, `tickbook quote`, `tickbook symbols` as child processes of the built bin
// against a real sandbox started here: tables, --json, --ndjson, paging, the delete confirmation
// on a pseudo-terminal, exit statuses, one-line errors, configuration from flags, environment,
// config file or nothing at all (the embedded sandbox), and the debug log without secrets.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateConfigFile } from '../../src/config/config-file.js';
import { openContactsStore } from '../../src/server/contacts-store.js';
import { ownerOf } from '../../src/server/credentials.js';
import { sanitize } from '../../src/text/sanitize.js';
import { truncate, width } from '../../src/text/width.js';
import { startProxy } from '../helpers/proxy.js';
import {
  BIN,
  client,
  killTickbookChildren,
  runTickbookToExit,
  startTestSandbox,
  type TestSandbox,
  CONTACT_KEYS,
} from '../helpers/sandbox.js';
import { cleanEnv } from '../helpers/child.js';

const TOKEN = 'tok-SECRET-1234567';
const API_KEY = 'key-SECRET-7654321';
const SECRETS = [TOKEN, API_KEY];
const UUID_IN = /[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/;
const LIST_TITLES = ['ID', 'NAME', 'USERNAME', 'PHONE', 'LAST ACTIVE'];
const FIELD_KEYS = ['name', 'display name', 'username', 'phone', 'avatar', 'last active', 'created', 'id', 'conversation'];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON read back from the CLI
type Json = any;

interface Run {
  args: readonly string[];
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

let sandbox: TestSandbox;
let api: ReturnType<typeof client>;
let root: string;
let env: NodeJS.ProcessEnv;
/** Every run of this file, so the last test can check that no secret was ever printed. */
const runs: Run[] = [];
/** Every debug log written, for the same check. */
const debugLogs: string[] = [];
let counter = 0;

/** A fresh directory under this file's temp root. */
function freshDir(name: string): string {
  const dir = join(root, `${name}-${++counter}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** The parent's environment without any TICKBOOK_* variable, with home and XDG dirs in a temp dir. */
function isolatedEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const dir = freshDir('env');
  const clean = cleanEnv();
  return {
    ...clean,
    HOME: join(dir, 'home'),
    XDG_CONFIG_HOME: join(dir, 'xdg-config'),
    XDG_DATA_HOME: join(dir, 'xdg-data'),
    ...extra,
  };
}

const connection = (): string[] => ['--base-url', sandbox.url, '--token', TOKEN, '--api-key', API_KEY];
/** How the "more:" hint repeats connection(): the URL as given, the credentials by their variables. */
const connectionHint = (): string => `--base-url ${sandbox.url} --token "$TICKBOOK_TOKEN" --api-key "$TICKBOOK_API_KEY"`;

/** `tickbook ARGS` with nothing but the given arguments. */
async function runBare(args: readonly string[], runEnv: NodeJS.ProcessEnv = env): Promise<Run> {
  const result = await runTickbookToExit(args, runEnv, 15_000);
  const run = { args, ...result };
  runs.push(run);
  return run;
}

/** `tickbook ARGS --base-url … --token … --api-key …` against this file's sandbox. */
const runCli = (args: readonly string[], runEnv: NodeJS.ProcessEnv = env): Promise<Run> => runBare([...args, ...connection()], runEnv);

function describeRun(run: Run): string {
  return `tickbook ${run.args.join(' ')} → ${run.code}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`;
}

function expectSuccess(run: Run): void {
  expect(run.code, describeRun(run)).toBe(0);
}

function lines(text: string): string[] {
  return text.split('\n').filter((line) => line !== '');
}

/** Exit 1, nothing on stdout, one line on stderr and no stack trace. */
function expectFailureLine(run: Run): string {
  expect(run.code, describeRun(run)).toBe(1);
  expect(run.stdout, describeRun(run)).toBe('');
  const errorLines = lines(run.stderr);
  expect(errorLines, describeRun(run)).toHaveLength(1);
  expect(run.stderr).toMatch(/^tickbook: .+\n$/);
  expect(run.stderr).not.toMatch(/^\s+at /m);
  expect(run.stderr).not.toMatch(/Error:|node:internal|\.js:\d+/);
  return errorLines[0]!;
}

/** Exit 2, nothing on stdout, one line on stderr. */
function expectUsageError(run: Run): string {
  expect(run.code, describeRun(run)).toBe(2);
  expect(run.stdout, describeRun(run)).toBe('');
  expect(lines(run.stderr), describeRun(run)).toHaveLength(1);
  expect(run.stderr).toMatch(/^tickbook: .+\n$/);
  expect(run.stderr).not.toMatch(/^\s+at /m);
  return run.stderr.trim();
}

function parseJson(run: Run): Json {
  expectSuccess(run);
  // One JSON document: the whole of stdout parses.
  return JSON.parse(run.stdout);
}

function parseNdjson(run: Run): Json[] {
  expectSuccess(run);
  expect(run.stdout.endsWith('\n') || run.stdout === '').toBe(true);
  return run.stdout
    .split('\n')
    .slice(0, -1)
    .map((line) => {
      expect(line.trim(), 'no blank or pretty-printed lines').toBe(line);
      const value = JSON.parse(line);
      expect(typeof value === 'object' && value !== null && !Array.isArray(value), line).toBe(true);
      return value;
    });
}

interface Cell {
  text: string;
  /** Terminal columns, as a terminal draws them. */
  start: number;
  end: number;
}

/** Cells of a table line: text runs separated by two or more spaces. */
function cellsOf(line: string): Cell[] {
  const cells: Cell[] = [];
  for (const match of line.matchAll(/\S+(?: \S+)*/g)) {
    const start = width(line.slice(0, match.index));
    cells.push({ text: match[0], start, end: start + width(match[0]) });
  }
  return cells;
}

/**
 * An aligned table: the header's titles, then rows whose every cell starts (left-aligned) or
 * ends (right-aligned) in the header title's column. Returns the rows' cell texts.
 */
function parseTable(stdout: string, titles: readonly string[], rightAligned: readonly string[] = []): string[][] {
  expect(stdout.endsWith('\n'), stdout).toBe(true);
  const [header, ...rows] = stdout.slice(0, -1).split('\n');
  const head = cellsOf(header!);
  expect(head.map((c) => c.text), header).toEqual(titles);
  expect(head[0]!.start).toBe(0);
  return rows.map((line) => {
    expect(line, 'no trailing spaces').toBe(line.trimEnd());
    const cells = cellsOf(line);
    expect(cells.map((c) => c.text), line).toHaveLength(titles.length);
    cells.forEach((cell, i) => {
      const title = head[i]!;
      if (rightAligned.includes(title.text)) expect(cell.end, `${title.text} in ${line}`).toBe(title.end);
      else expect(cell.start, `${title.text} in ${line}`).toBe(title.start);
    });
    return cells.map((c) => c.text);
  });
}

/** Key–value lines with every value starting in the same column. */
function parseFields(stdout: string): Map<string, string> {
  const fields = new Map<string, string>();
  const starts = new Set<number>();
  for (const line of lines(stdout)) {
    const match = /^(\S+(?: \S+)*) {2,}(\S.*)$/.exec(line);
    expect(match, line).not.toBeNull();
    fields.set(match![1]!, match![2]!);
    starts.add(width(line.slice(0, line.length - match![2]!.length)));
  }
  expect([...starts], `values aligned in one column:\n${stdout}`).toHaveLength(1);
  expect([...fields.keys()]).toEqual(FIELD_KEYS);
  return fields;
}

/** The whole contact list as the API has it now, newest first. */
async function allContacts(query = ''): Promise<Json[]> {
  const reply = await api.list(`?limit=100${query}`);
  expect(reply.status).toBe(200);
  expect(reply.json.has_more, 'the test sandbox holds at most 100 contacts').toBe(false);
  return reply.json.data;
}

const nameOf = (contact: Json): string => contact.display_name ?? contact.username;

function uniqueUsername(prefix: string): string {
  return `${prefix}.${Date.now().toString(36)}${++counter}`;
}

async function createContact(prefix: string, displayName?: string): Promise<Json> {
  const form: Record<string, string> = { username: uniqueUsername(prefix), phone_number: '+1 (415) 555-0100' };
  if (displayName !== undefined) form.display_name = displayName;
  const reply = await api.create(form);
  expect(reply.status, reply.text).toBe(201);
  return reply.json;
}

/** Debug-log lines: time method URL status ms request-id retry=N [error]. */
const LOG_LINE = /^(\d{4}-\d{2}-\d{2}T\S+Z) (GET|POST|PUT|DELETE) (\S+) (\d{3}|-) (\d+(?:\.\d+)?)ms (\S+) retry=(\d+)(?: (.*))?$/;

function readDebugLog(path: string): RegExpExecArray[] {
  const text = readFileSync(path, 'utf8');
  debugLogs.push(text);
  for (const secret of SECRETS) expect(text, path).not.toContain(secret);
  expect(text).not.toMatch(/bearer|authorization/i);
  return lines(text).map((line) => {
    const match = LOG_LINE.exec(line);
    expect(match, line).not.toBeNull();
    return match!;
  });
}

beforeAll(async () => {
  expect(existsSync(join(BIN, '..', '..', 'dist', 'cli', 'main.js')), 'run `node scripts/build-if-needed.mjs` first').toBe(true);
  root = mkdtempSync(join(tmpdir(), 'tickbook-subcommands-'));
  sandbox = await startTestSandbox({ demoData: true, tokens: [TOKEN], apiKeys: [API_KEY] });
  api = client(sandbox);
  env = isolatedEnv();
});

afterAll(async () => {
  await killTickbookChildren();
  await sandbox?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('contacts list', () => {
  it('prints an aligned table: header, then one row per contact, newest first, with a hint for the next page', async () => {
    const [all, first] = await Promise.all([runCli(['contacts', 'list', '--limit', '100']), runCli(['contacts', 'list'])]);
    const contacts = await allContacts();
    expect(contacts.length).toBeGreaterThanOrEqual(50);

    expectSuccess(all);
    const rows = parseTable(all.stdout, LIST_TITLES);
    expect(rows).toHaveLength(contacts.length);
    rows.forEach((row, i) => {
      const contact = contacts[i];
      expect(row[0]).toBe(contact.id);
      // The name column is at most 32 columns wide: long names end with "…". Shown as drawn:
      // invisible characters (the ZWJs of an emoji sequence) left out.
      expect(row[1]).toBe(truncate(sanitize(nameOf(contact)), 32).trimEnd());
      expect(row[2]).toBe(contact.username);
      expect(row[3]).toBe(contact.phone_number);
      expect(row[4]).toMatch(contact.last_active_at === null ? /^never$/ : /^(just now|\d+ (s|min|h|d|mo|y) ago)$/);
    });
    // Names that are not plain ASCII line up too (the table measured them in columns).
    expect(all.stdout).toContain('田中健二');
    expect(all.stdout).toContain('Maximilian Alexander von Hohenb…  ');
    expect(all.stderr).toBe('');

    expectSuccess(first);
    const firstRows = parseTable(first.stdout, LIST_TITLES);
    expect(firstRows.map((r) => r[0])).toEqual(contacts.slice(0, 10).map((c: Json) => c.id));
    expect(first.stderr).toBe(`more: tickbook contacts list --after ${contacts[9].id} ${connectionHint()}\n`);
  });

  it('--json prints one document with the API field names: has_more, data, phone_number, created_at in integer seconds', async () => {
    const [page, everything] = await Promise.all([
      runCli(['contacts', 'list', '--limit', '5', '--json']),
      runCli(['contacts', 'list', '--limit', '100', '--json']),
    ]);
    const contacts = await allContacts();
    const body = parseJson(page);
    expect(Object.keys(body).sort()).toEqual(['data', 'has_more']);
    expect(body.has_more).toBe(true);
    expect(body.data).toHaveLength(5);
    const nowSeconds = Date.now() / 1000;
    for (const contact of body.data) {
      expect(Object.keys(contact).sort()).toEqual(CONTACT_KEYS);
      expect(Number.isInteger(contact.created_at), String(contact.created_at)).toBe(true);
      expect(contact.created_at).toBeGreaterThan(nowSeconds - 400 * 86_400);
      expect(contact.created_at).toBeLessThanOrEqual(nowSeconds + 5);
      if (contact.last_active_at !== null) expect(Number.isInteger(contact.last_active_at)).toBe(true);
      expect(contact.phone_number).toMatch(/^\+[1-9]\d{6,14}$/);
    }
    // Exactly what the API says, field for field.
    expect(body.data).toEqual(contacts.slice(0, 5));
    expect(page.stderr).toBe('');

    const whole = parseJson(everything);
    expect(whole.has_more).toBe(false);
    expect(whole.data).toEqual(contacts);
  });

  it('--ndjson prints one JSON object per line', async () => {
    const run = await runCli(['contacts', 'list', '--limit', '7', '--ndjson']);
    const contacts = await allContacts();
    const records = parseNdjson(run);
    expect(records).toEqual(contacts.slice(0, 7));
    expect(lines(run.stdout)).toHaveLength(7);
  });

  it('--all --limit 7 gets every contact across pages, in table, --json and --ndjson forms', async () => {
    const log = join(freshDir('log'), 'all.log');
    const [table, json, ndjson] = await Promise.all([
      runCli(['contacts', 'list', '--all', '--limit', '7', '--debug-log', log]),
      runCli(['contacts', 'list', '--all', '--limit', '7', '--json']),
      runCli(['contacts', 'list', '--all', '--limit', '7', '--ndjson']),
    ]);
    const contacts = await allContacts();
    const ids = contacts.map((c: Json) => c.id);
    expect(ids.length).toBeGreaterThan(7 * 3);

    expectSuccess(table);
    expect(parseTable(table.stdout, LIST_TITLES).map((row) => row[0])).toEqual(ids);
    expect(table.stderr).toBe('');
    const body = parseJson(json);
    expect(body.has_more).toBe(false);
    expect(body.data).toEqual(contacts);
    expect(parseNdjson(ndjson)).toEqual(contacts);

    // It really paged: one request of limit 7 per page.
    const requests = readDebugLog(log);
    expect(requests).toHaveLength(Math.ceil(ids.length / 7));
    for (const request of requests) {
      expect(request[2]).toBe('GET');
      expect(request[3]).toMatch(/[?&]limit=7(&|$)/);
      expect(request[4]).toBe('200');
    }
    expect(requests[0]![3]).not.toContain('starting_after');
    expect(requests.slice(1).every((r) => /starting_after=ct_/.test(r[3]!))).toBe(true);
  });

  it('--after and --before page through the list, each page in list order', async () => {
    const contacts = await allContacts();
    const ids: string[] = contacts.map((c: Json) => c.id);
    const [after, afterTable, before, beforeFirst, afterLast] = await Promise.all([
      runCli(['contacts', 'list', '--limit', '5', '--after', ids[4]!, '--json']),
      runCli(['contacts', 'list', '--limit', '5', '--after', ids[4]!]),
      runCli(['contacts', 'list', '--limit', '5', '--before', ids[10]!, '--json']),
      runCli(['contacts', 'list', '--limit', '5', '--before', ids[5]!, '--json']),
      runCli(['contacts', 'list', '--limit', '5', '--after', ids.at(-1)!, '--json']),
    ]);
    const afterBody = parseJson(after);
    expect(afterBody.data.map((c: Json) => c.id)).toEqual(ids.slice(5, 10));
    expect(afterBody.has_more).toBe(true);
    expectSuccess(afterTable);
    expect(parseTable(afterTable.stdout, LIST_TITLES).map((r) => r[0])).toEqual(ids.slice(5, 10));
    // The hint repeats the options that shape the page, so following it gives the same kind of page.
    expect(afterTable.stderr).toBe(`more: tickbook contacts list --limit 5 --after ${ids[9]} ${connectionHint()}\n`);

    const beforeBody = parseJson(before);
    expect(beforeBody.data.map((c: Json) => c.id)).toEqual(ids.slice(5, 10));
    expect(beforeBody.has_more).toBe(true);
    const firstPage = parseJson(beforeFirst);
    expect(firstPage.data.map((c: Json) => c.id)).toEqual(ids.slice(0, 5));
    expect(firstPage.has_more).toBe(false);

    const past = parseJson(afterLast);
    expect(past).toEqual({ has_more: false, data: [] });
  });

  it('--active lists only contacts that have been active, --inactive only those never active', async () => {
    const [active, inactive, activeTable] = await Promise.all([
      runCli(['contacts', 'list', '--limit', '100', '--active', '--json']),
      runCli(['contacts', 'list', '--limit', '100', '--inactive', '--json']),
      runCli(['contacts', 'list', '--limit', '100', '--inactive']),
    ]);
    const contacts = await allContacts();
    const activeData: Json[] = parseJson(active).data;
    const inactiveData: Json[] = parseJson(inactive).data;
    expect(activeData.length).toBeGreaterThan(0);
    expect(inactiveData.length).toBeGreaterThan(0);
    expect(activeData.every((c) => c.last_active_at !== null)).toBe(true);
    expect(inactiveData.every((c) => c.last_active_at === null)).toBe(true);
    expect(activeData).toEqual(contacts.filter((c: Json) => c.last_active_at !== null));
    expect(inactiveData).toEqual(contacts.filter((c: Json) => c.last_active_at === null));

    expectSuccess(activeTable);
    const rows = parseTable(activeTable.stdout, LIST_TITLES);
    expect(rows.map((r) => r[0])).toEqual(inactiveData.map((c) => c.id));
    expect(rows.every((r) => r[4] === 'never')).toBe(true);
  });
});

describe('contacts get, create, rename, delete', () => {
  it('create, then get, then rename, then rename "" resets the display name', async () => {
    const username = uniqueUsername('flow');
    const created = parseJson(
      await runCli([
        'contacts',
        'create',
        '--username',
        username,
        '--phone',
        '+44 20 7946-0959',
        '--display-name',
        'Flow Person',
        '--avatar-url',
        'https://example.com/flow.png',
        '--json',
      ]),
    );
    expect(Object.keys(created).sort()).toEqual(CONTACT_KEYS);
    expect(created).toMatchObject({
      username,
      phone_number: '+442079460959',
      display_name: 'Flow Person',
      avatar_url: 'https://example.com/flow.png',
      last_active_at: null,
    });
    expect(created.id).toMatch(/^ct_/);
    expect(created.conversation_id).toMatch(/^cv_/);
    expect(Number.isInteger(created.created_at)).toBe(true);
    expect(Math.abs(created.created_at - Date.now() / 1000)).toBeLessThan(60);

    // Table form of create, get, rename; --json of get.
    const tableUsername = uniqueUsername('table');
    const [createdTable, got, gotJson] = await Promise.all([
      runCli(['contacts', 'create', '--username', tableUsername, '--phone', '+1 212 555 0100']),
      runCli(['contacts', 'get', created.id]),
      runCli(['contacts', 'get', created.id, '--json']),
    ]);
    expectSuccess(createdTable);
    const tableFields = parseFields(createdTable.stdout);
    expect(tableFields.get('name')).toBe(tableUsername);
    expect(tableFields.get('username')).toBe(tableUsername);
    expect(tableFields.get('phone')).toBe('+12125550100');
    expect(tableFields.get('last active')).toBe('never');
    expect(tableFields.get('id')).toMatch(/^ct_/);

    expectSuccess(got);
    const fields = parseFields(got.stdout);
    expect(fields.get('name')).toBe('Flow Person');
    expect(fields.get('display name')).toBe('Flow Person');
    expect(fields.get('username')).toBe(username);
    expect(fields.get('phone')).toBe('+442079460959');
    expect(fields.get('avatar')).toBe('https://example.com/flow.png');
    expect(fields.get('id')).toBe(created.id);
    expect(fields.get('conversation')).toBe(created.conversation_id);
    expect(fields.get('created')).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} [+-]\d{2}:\d{2} \((just now|\d+ s ago)\)$/);
    expect(parseJson(gotJson)).toEqual(created);

    const renamed = await runCli(['contacts', 'rename', created.id, 'Renamed Person']);
    expectSuccess(renamed);
    expect(parseFields(renamed.stdout).get('name')).toBe('Renamed Person');
    expect((await api.get(created.id)).json.display_name).toBe('Renamed Person');

    const renamedJson = parseJson(await runCli(['contacts', 'rename', created.id, 'Named Again', '--json']));
    expect(renamedJson).toEqual({ ...created, display_name: 'Named Again' });

    const reset = parseJson(await runCli(['contacts', 'rename', created.id, '', '--json']));
    expect(reset).toEqual({ ...created, display_name: null });
    const [afterReset, afterResetTable] = await Promise.all([
      runCli(['contacts', 'get', created.id, '--json']),
      runCli(['contacts', 'get', created.id]),
    ]);
    expect(parseJson(afterReset).display_name).toBeNull();
    expectSuccess(afterResetTable);
    // With no display name the username is shown in its place.
    expect(parseFields(afterResetTable.stdout).get('name')).toBe(username);
  });

  it('delete without --yes and stdin not a terminal refuses (exit 2, one line) and keeps the contact', async () => {
    const contact = await createContact('keep');
    const run = await runCli(['contacts', 'delete', contact.id]);
    const message = expectUsageError(run);
    expect(message).toContain('--yes');
    expect((await api.get(contact.id)).status).toBe(200);
  });

  it('delete --yes deletes the contact (table and --json forms), and it is gone', async () => {
    const [one, two] = await Promise.all([createContact('gone'), createContact('gone')]);
    const [table, json] = await Promise.all([
      runCli(['contacts', 'delete', one.id, '--yes']),
      runCli(['contacts', 'delete', two.id, '--yes', '--json']),
    ]);
    expectSuccess(table);
    expect(table.stdout).toContain(one.id);
    expect(table.stdout).toMatch(/deleted/);
    expect(table.stdout).toMatch(/conversation/);
    expect(lines(table.stdout)).toHaveLength(1);
    expect(parseJson(json)).toEqual({ id: two.id, deleted: true });
    const [gone1, gone2] = await Promise.all([api.get(one.id), api.get(two.id)]);
    expect(gone1.status).toBe(404);
    expect(gone2.status).toBe(404);
    expect((await allContacts()).some((c: Json) => c.id === one.id || c.id === two.id)).toBe(false);
  });

  const scriptPath = spawnSync('sh', ['-c', 'command -v script'], { encoding: 'utf8' }).stdout.trim();
  const hasScript = scriptPath !== '' && spawnSync(scriptPath, ['--version'], { encoding: 'utf8' }).stdout.includes('util-linux');

  /** `tickbook contacts delete ID` on a pseudo-terminal: answers the prompt with `reply`, returns what it showed. */
  const answerPrompt = (id: string, reply: string) => {
    const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const command = [process.execPath, BIN, 'contacts', 'delete', id, ...connection()].map(quote).join(' ');
    return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      const child = spawn(scriptPath, ['-qec', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
      let output = '';
      let answered = false;
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`no exit after answering ${JSON.stringify(reply)}; output: ${output}`));
      }, 15_000);
      const onData = (chunk: string) => {
        output += chunk;
        if (!answered && /\[y\/N\]/.test(output)) {
          answered = true;
          child.stdin!.write(reply);
        }
      };
      child.stdout!.setEncoding('utf8').on('data', onData);
      child.stderr!.setEncoding('utf8').on('data', onData);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        runs.push({ args: ['(script)', 'contacts', 'delete', id], code, signal: null, stdout: output, stderr: '' });
        resolve({ code, output });
      });
    });
  };

  it.skipIf(!hasScript)(
    'delete on a terminal asks first, naming the contact and its conversation: "n" keeps it (exit 0, as rm -i), "y" deletes it (needs util-linux script)',
    async () => {
      const contact = await createContact('asked', 'Asked Person');

      const no = await answerPrompt(contact.id, 'n\n');
      expect(no.output).toMatch(/Delete .*Asked Person.*\[y\/N\]/);
      expect(no.output).toContain(contact.username);
      expect(no.output).toMatch(/conversation/);
      expect(no.output).toContain('not deleted');
      // A declined prompt did what was asked: nothing. 1 is kept for API and network errors.
      expect(no.code, no.output).toBe(0);
      expect((await api.get(contact.id)).status).toBe(200);

      const yes = await answerPrompt(contact.id, 'y\n');
      expect(yes.output).toMatch(/Delete .*Asked Person.*conversation.*\[y\/N\]/);
      expect(yes.code, yes.output).toBe(0);
      expect(yes.output).toContain(`deleted ${contact.id}`);
      expect((await api.get(contact.id)).status).toBe(404);
    },
  );

  it.skipIf(!hasScript)(
    'Ctrl-C at the delete prompt exits 130, Ctrl-D (end of input) is a no (exit 0): "not deleted", no error, the contact kept (needs util-linux script)',
    async () => {
      const contact = await createContact('asked', 'Kept Person');
      const [interrupted, ended] = await Promise.all([answerPrompt(contact.id, '\x03'), answerPrompt(contact.id, '\x04')]);
      expect(interrupted.code, interrupted.output).toBe(130);
      expect(ended.code, ended.output).toBe(0);
      for (const { output } of [interrupted, ended]) {
        expect(output).toMatch(/Kept Person.*\[y\/N\]/);
        expect(output).toContain('not deleted');
        expect(output).not.toMatch(/tickbook:|Error|Abort|^\s+at /m);
      }
      expect((await api.get(contact.id)).status).toBe(200);
    },
  );
});

describe('quote and symbols', () => {
  it('quote prints prices and volume in a right-aligned table', async () => {
    const run = await runCli(['quote', 'AAPL', 'msft', 'VOD.L']);
    expectSuccess(run);
    const rows = parseTable(run.stdout, ['SYMBOL', 'PRICE', 'VOLUME'], ['PRICE', 'VOLUME']);
    expect(rows.map((r) => r[0])).toEqual(['AAPL', 'MSFT', 'VOD.L']);
    for (const [, price, volume] of rows) {
      expect(price).toMatch(/^\d+\.\d{2}$|^0\.\d{4}$/);
      expect(volume).toMatch(/^\d{1,3}(,\d{3})*$/);
    }
    expect(run.stderr).toBe('');
  });

  it('quote AAPL nope: the table for AAPL, "unknown: NOPE" on stderr, exit 0', async () => {
    const run = await runCli(['quote', 'AAPL', 'nope']);
    expectSuccess(run);
    const rows = parseTable(run.stdout, ['SYMBOL', 'PRICE', 'VOLUME'], ['PRICE', 'VOLUME']);
    expect(rows.map((r) => r[0])).toEqual(['AAPL']);
    expect(run.stderr).toBe('unknown: NOPE\n');
  });

  it('quote with a bad record from the server: the others printed, the bad one left out and named on stderr, exit 0', async () => {
    const proxy = await startProxy(sandbox.url, {
      rewrite: (req, body) => {
        if (!req.url.includes('realtime-pricing')) return body;
        const json = JSON.parse(body.toString()) as { stock_data: { symbol: string; price: unknown }[] };
        for (const record of json.stock_data) if (record.symbol === 'AAPL') record.price = -5;
        return Buffer.from(JSON.stringify(json));
      },
    });
    try {
      const via = ['--base-url', proxy.url, '--token', TOKEN, '--api-key', API_KEY];
      const [table, json] = await Promise.all([
        runBare(['quote', 'AAPL', 'MSFT', ...via]),
        runBare(['quote', 'AAPL', 'MSFT', '--json', ...via]),
      ]);
      expectSuccess(table);
      expect(parseTable(table.stdout, ['SYMBOL', 'PRICE', 'VOLUME'], ['PRICE', 'VOLUME']).map((r) => r[0])).toEqual(['MSFT']);
      expect(table.stderr).toBe('left out AAPL: price is negative (-5)\n');
      expectSuccess(json);
      const body = parseJson(json);
      expect(body.stock_data.map((q: Json) => q.symbol)).toEqual(['MSFT']);
      expect(body.unknown_symbols).toEqual([]);
      expect(body.left_out).toEqual([{ symbol: 'AAPL', reason: 'price is negative (-5)' }]);
    } finally {
      await proxy.close();
    }
  });

  it('quote nope alone: nothing priced is a failure, exit 1', async () => {
    const run = await runCli(['quote', 'nope']);
    expect(run.code, describeRun(run)).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('NOPE');
    expect(lines(run.stderr)).toHaveLength(1);
  });

  it('quote with only empty symbols is a usage error like quote alone; a symbol that cannot be one is named (exit 2)', async () => {
    const [none, empty, blank, comma, bad, long] = await Promise.all([
      runCli(['quote']),
      runCli(['quote', '']),
      runCli(['quote', ' ']),
      runCli(['quote', ',']),
      runCli(['quote', 'AAPL', 'a$b']),
      runCli(['quote', 'MSFT,ABCDEFGHIJKLMNOP']),
    ]);
    const expected = expectUsageError(none);
    expect(expected).toMatch(/at least one symbol/);
    for (const run of [empty, blank, comma]) expect(expectUsageError(run)).toBe(expected);
    expect(expectUsageError(bad)).toMatch(/^tickbook: quote: "a\$b" is not a stock symbol/);
    expect(expectUsageError(long)).toMatch(/"ABCDEFGHIJKLMNOP" is not a stock symbol/);
  });

  it('quote --json and --ndjson use the API field names', async () => {
    const [json, ndjson] = await Promise.all([
      runCli(['quote', 'AAPL', 'nope', 'SHOP.TO', '--json']),
      runCli(['quote', 'AAPL', 'SHOP.TO', '--ndjson']),
    ]);
    const body = parseJson(json);
    expect(body.status).toBe('success');
    expect(body.stock_symbols).toEqual(['AAPL', 'NOPE', 'SHOP.TO']);
    expect(body.stock_data.map((q: Json) => q.symbol)).toEqual(['AAPL', 'SHOP.TO']);
    for (const quote of body.stock_data) {
      expect(Object.keys(quote).sort()).toEqual(['price', 'symbol', 'volume']);
      expect(typeof quote.price).toBe('number');
      expect(quote.price).toBeGreaterThan(0);
      expect(Number.isInteger(quote.volume)).toBe(true);
    }
    expect(json.stderr).toBe('unknown: NOPE\n');

    const records = parseNdjson(ndjson);
    expect(records.map((q) => q.symbol)).toEqual(['AAPL', 'SHOP.TO']);
    expect(records.every((q) => typeof q.price === 'number' && Number.isInteger(q.volume))).toBe(true);
  });

  it('symbols lists the whole catalogue in a table; --search shop finds SHOP.TO; --json and --ndjson match the API', async () => {
    const [table, search, json, ndjson] = await Promise.all([
      runCli(['symbols']),
      runCli(['symbols', '--search', 'shop']),
      runCli(['symbols', '--json']),
      runCli(['symbols', '--search', 'SHOP', '--ndjson']),
    ]);
    const catalogue: Json[] = (await api.symbols()).json.stock_symbols;
    expect(catalogue.length).toBeGreaterThanOrEqual(400);

    expectSuccess(table);
    const rows = parseTable(table.stdout, ['SYMBOL', 'NAME']);
    expect(rows).toEqual(catalogue.map((s) => [s.symbol, s.name]));
    for (const symbol of ['AAPL', 'MSFT', 'VOD.L', 'SAP.DE', '7203.T']) expect(rows.map((r) => r[0])).toContain(symbol);

    expectSuccess(search);
    const found = parseTable(search.stdout, ['SYMBOL', 'NAME']);
    expect(found).toContainEqual(['SHOP.TO', 'Shopify Inc.']);
    expect(found.every(([symbol, name]) => symbol!.toLowerCase().startsWith('shop') || /shop/i.test(name!))).toBe(true);

    const body = parseJson(json);
    expect(body.status).toBe('success');
    expect(body.stock_symbols).toEqual(catalogue);
    expect(parseNdjson(ndjson)).toContainEqual({ symbol: 'SHOP.TO', name: 'Shopify Inc.' });
  });
});

describe('errors', () => {
  it('an API error exits 1 with one stderr line carrying the request id the server logged', async () => {
    const [get, getJson, rename, badCursor] = await Promise.all([
      runCli(['contacts', 'get', 'ct_doesnotexist']),
      runCli(['contacts', 'get', 'ct_doesnotexist', '--json']),
      runCli(['contacts', 'rename', 'ct_doesnotexist', 'Nobody']),
      runCli(['contacts', 'list', '--after', 'ct_doesnotexist']),
    ]);
    for (const run of [get, getJson, rename, badCursor]) {
      const line = expectFailureLine(run);
      expect(line, describeRun(run)).toMatch(UUID_IN);
    }
    const line = expectFailureLine(get);
    expect(line).toContain('ct_doesnotexist');
    expect(line).toContain('404');
    const requestId = UUID_IN.exec(line)![0];
    expect(sandbox.logLines.some((l) => l.includes('/v1/contacts/ct_doesnotexist') && l.includes(' 404 ') && l.endsWith(requestId))).toBe(
      true,
    );
    expect(expectFailureLine(badCursor)).toContain('400');
  });

  it('wrong credentials exit 1 with one line, and the credential sent is not echoed', async () => {
    // The secrets swapped: each is a wrong credential for the other group.
    const [contacts, quote] = await Promise.all([
      runBare(['contacts', 'list', '--base-url', sandbox.url, '--token', API_KEY]),
      runBare(['quote', 'AAPL', '--base-url', sandbox.url, '--api-key', TOKEN]),
    ]);
    for (const run of [contacts, quote]) {
      const line = expectFailureLine(run);
      expect(line).toMatch(UUID_IN);
      expect(line).toContain('401');
    }
  });

  it('a network error exits 1 with one line and no stack trace', async () => {
    const [contacts, quote] = await Promise.all([
      runBare(['contacts', 'list', '--base-url', 'http://127.0.0.1:1', '--token', TOKEN]),
      runBare(['quote', 'AAPL', '--base-url', 'http://127.0.0.1:1', '--api-key', API_KEY]),
    ]);
    for (const run of [contacts, quote]) expect(expectFailureLine(run)).toContain('127.0.0.1:1');
  });

  it('usage errors exit 2 with one line', async () => {
    const cases: string[][] = [
      ['contacts', 'list', '--limit', '0'],
      ['contacts', 'list', '--limit', '101'],
      ['contacts', 'list', '--limit', 'ten'],
      ['contacts', 'list', '--json', '--ndjson'],
      ['quote', 'AAPL', '--json', '--ndjson'],
      ['contacts', 'list', '--active', '--inactive'],
      ['contacts', 'list', '--after', 'ct_a', '--before', 'ct_b'],
      ['contacts', 'list', '--all', '--after', 'ct_a'],
      ['contacts', 'list', '--frob'],
      ['contacts', 'get'],
      ['contacts', 'get', '--ndjson', 'ct_a'],
      ['contacts', 'create', '--username', 'nophone'],
      ['contacts', 'rename', 'ct_a'],
      ['contacts', 'frob'],
      ['contacts'],
      ['quote'],
      ['frobnicate'],
    ];
    const results = await Promise.all([
      ...cases.map((args) => runCli(args)),
      runBare(['contacts', 'list', '--base-url', 'ftp://x', '--token', TOKEN]),
      runBare(['quote', 'AAPL', '--base-url', 'ftp://x']),
      runBare(['contacts', 'list'], { ...env, TICKBOOK_BASE_URL: 'ftp://from-env.example' }),
    ]);
    for (const run of results) expectUsageError(run);
    const messages = results.map((run) => run.stderr);
    expect(messages[cases.length]).toContain('ftp://x');
    expect(messages[cases.length + 2]).toContain('ftp://from-env.example');
    // The message names what was wrong.
    expect(messages[0]).toContain('--limit');
    expect(messages[3]).toMatch(/--json.*--ndjson/);
    expect(messages[13]).toContain('frob');
  });

  it('a negative number given to an integer option is checked against its range; a value option given twice is refused', async () => {
    const [limit, dashValue, baseTwice, tokenTwice, limitTwice] = await Promise.all([
      runCli(['contacts', 'list', '--limit', '-1']),
      runCli(['contacts', 'create', '--username', '-x', '--phone', '+15550001234']),
      runBare(['contacts', 'list', '--base-url', sandbox.url, '--base-url', 'http://127.0.0.1:1', '--token', TOKEN]),
      runCli(['quote', 'AAPL', '--token', 'second-token-SECRET-99']),
      runCli(['contacts', 'list', '--limit', '2', '--limit', '3']),
    ]);
    expect(expectUsageError(limit)).toBe('tickbook: option --limit must be an integer from 1 to 100, not "-1" (see tickbook --help)');
    // Anything else starting with a dash may be a forgotten value: how to give one is spelled out.
    expect(expectUsageError(dashValue)).toMatch(/option --username needs a value.*--username=-/);
    expect(expectUsageError(baseTwice)).toMatch(/^tickbook: option --base-url given twice/);
    expect(expectUsageError(tokenTwice)).toMatch(/^tickbook: option --token given twice/);
    expect(tokenTwice.stderr).not.toContain('SECRET');
    expect(expectUsageError(limitTwice)).toMatch(/^tickbook: option --limit given twice/);
    // Flags that only switch something on may repeat.
    expectSuccess(await runCli(['contacts', 'list', '--limit', '1', '--json', '--json']));
  });
});

describe('where to connect', () => {
  it('TICKBOOK_BASE_URL, TICKBOOK_TOKEN and TICKBOOK_API_KEY work in place of flags, and flags override them', async () => {
    const fromEnv = { ...env, TICKBOOK_BASE_URL: sandbox.url, TICKBOOK_TOKEN: TOKEN, TICKBOOK_API_KEY: API_KEY };
    const [list, quote, flagUrl, flagToken] = await Promise.all([
      runBare(['contacts', 'list', '--limit', '3', '--json'], fromEnv),
      runBare(['quote', 'AAPL', '--json'], { ...fromEnv, TICKBOOK_BASE_URL: undefined, TICKBOOK_MARKET_DATA_URL: sandbox.url }),
      runBare(['contacts', 'list', '--base-url', 'http://127.0.0.1:1'], fromEnv),
      runBare(['contacts', 'list', '--limit', '1', '--token', TOKEN], { ...fromEnv, TICKBOOK_TOKEN: 'wrong-token-from-env' }),
    ]);
    const contacts = await allContacts();
    expect(parseJson(list).data).toEqual(contacts.slice(0, 3));
    expect(list.stderr).toBe('');
    expect(parseJson(quote).stock_data.map((q: Json) => q.symbol)).toEqual(['AAPL']);
    expect(expectFailureLine(flagUrl)).toContain('127.0.0.1:1');
    expectSuccess(flagToken);
  });

  it('a config file in $XDG_CONFIG_HOME works, below the environment and flags; one readable by others warns', async () => {
    const configEnv = isolatedEnv();
    const path = join(configEnv.XDG_CONFIG_HOME!, 'tickbook', 'config.json');
    updateConfigFile(path, { base_url: sandbox.url, token: TOKEN, api_key: API_KEY });
    expect(readdirSync(join(configEnv.XDG_CONFIG_HOME!, 'tickbook'))).toEqual(['config.json']);

    const [list, symbols, envWins, flagWins] = await Promise.all([
      runBare(['contacts', 'list', '--limit', '2', '--json'], configEnv),
      runBare(['symbols', '--search', 'shop'], configEnv),
      runBare(['contacts', 'list'], { ...configEnv, TICKBOOK_TOKEN: 'wrong-token-from-env' }),
      runBare(['contacts', 'list', '--limit', '1', '--token', TOKEN], { ...configEnv, TICKBOOK_TOKEN: 'wrong-token-from-env' }),
    ]);
    expect(parseJson(list).data).toEqual((await allContacts()).slice(0, 2));
    expect(list.stderr).toBe('');
    expectSuccess(symbols);
    expect(parseTable(symbols.stdout, ['SYMBOL', 'NAME'])).toContainEqual(['SHOP.TO', 'Shopify Inc.']);
    expect(expectFailureLine(envWins)).toContain('401');
    expectSuccess(flagWins);

    chmodSync(path, 0o644);
    const warned = await runBare(['contacts', 'list', '--limit', '1'], configEnv);
    expectSuccess(warned);
    expect(lines(warned.stderr).filter((l) => /warning/.test(l))).toHaveLength(1);
    expect(warned.stderr).toContain('chmod 600');
    expect(warned.stderr).toContain(path);
  });

  it('a malformed config file is a one-line error naming it (exit 2)', async () => {
    const badEnv = isolatedEnv();
    const path = join(badEnv.XDG_CONFIG_HOME!, 'tickbook', 'config.json');
    mkdirSync(join(badEnv.XDG_CONFIG_HOME!, 'tickbook'), { recursive: true });
    writeFileSync(path, '{"base_url": ', { mode: 0o600 });
    const run = await runBare(['contacts', 'list'], badEnv);
    expect(expectUsageError(run)).toContain(path);
  });

  it('a malformed watchlist or interval in the config file is a warning for contacts list and quote, which do not use them; the file is not rewritten', async () => {
    const configs = [
      { watchlist: 'AAPL', interval: 'fast' },
      { watchlist: [1, 2], interval: 0 },
    ];
    const setups = configs.map((dashboardKeys) => {
      const configEnv = isolatedEnv();
      const path = join(configEnv.XDG_CONFIG_HOME!, 'tickbook', 'config.json');
      mkdirSync(join(configEnv.XDG_CONFIG_HOME!, 'tickbook'), { recursive: true });
      const text = JSON.stringify({ base_url: sandbox.url, token: TOKEN, api_key: API_KEY, ...dashboardKeys, '//': 'mine' });
      writeFileSync(path, text, { mode: 0o600 });
      return { configEnv, path, text };
    });
    const runs = await Promise.all(
      setups.flatMap(({ configEnv }) => [
        runBare(['contacts', 'list', '--limit', '1', '--json'], configEnv),
        runBare(['quote', 'AAPL', '--json'], configEnv),
      ]),
    );
    runs.forEach((run, i) => {
      const { path } = setups[Math.floor(i / 2)]!;
      expectSuccess(run);
      JSON.parse(run.stdout);
      const warnings = lines(run.stderr);
      expect(warnings, run.stderr).toHaveLength(2);
      for (const [line, key] of [[warnings[0], 'watchlist'], [warnings[1], 'interval']] as const) {
        expect(line).toMatch(/^tickbook: warning: /);
        expect(line).toContain(path);
        expect(line).toContain(key);
      }
    });
    for (const { path, text } of setups) expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('with no base URL anywhere, contacts list and quote run against the embedded sandbox, its database under XDG_DATA_HOME', async () => {
    const bareEnv = isolatedEnv();
    const list = await runBare(['contacts', 'list'], bareEnv);
    expectSuccess(list);
    const rows = parseTable(list.stdout, LIST_TITLES);
    // The embedded sandbox's demo contacts.
    expect(rows).toHaveLength(10);
    expect(list.stderr).toMatch(/^more: tickbook contacts list --after ct_\S+\n$/);
    const quote = await runBare(['quote', 'AAPL'], bareEnv);
    expectSuccess(quote);
    expect(parseTable(quote.stdout, ['SYMBOL', 'PRICE', 'VOLUME'], ['PRICE', 'VOLUME']).map((r) => r[0])).toEqual(['AAPL']);
    expect(quote.stderr).toBe('');

    expect(existsSync(join(bareEnv.XDG_DATA_HOME!, 'tickbook', 'sandbox.db'))).toBe(true);
    // Nothing went to the home directory.
    expect(existsSync(bareEnv.HOME!)).toBe(false);

    // The same database next time: what was created is still there.
    const username = uniqueUsername('embedded');
    const created = parseJson(await runBare(['contacts', 'create', '--username', username, '--phone', '+15550001234', '--json'], bareEnv));
    const again = parseJson(await runBare(['contacts', 'get', created.id, '--json'], bareEnv));
    expect(again.username).toBe(username);
  });

  it('several commands started at once on a fresh XDG_DATA_HOME all work, and the demo contacts are seeded once', async () => {
    // A script running `tickbook quote A & tickbook contacts list &` on a first run. Five fresh
    // directories, four commands each, all at once: the race (if any) gets several chances.
    const groups = Array.from({ length: 5 }, () => isolatedEnv());
    const results = await Promise.all(
      groups.flatMap((groupEnv) => [
        runBare(['contacts', 'list', '--limit', '1'], groupEnv),
        runBare(['contacts', 'list', '--limit', '1'], groupEnv),
        runBare(['quote', 'AAPL'], groupEnv),
        runBare(['symbols', '--search', 'shop'], groupEnv),
      ]),
    );
    for (const run of results) expectSuccess(run);
    const counts = await Promise.all(
      groups.map(async (groupEnv) => parseJson(await runBare(['contacts', 'list', '--limit', '100', '--json'], groupEnv)).data.length),
    );
    const seeded = (await allContacts()).filter((c: Json) => !/^(flow|table|keep|gone|asked|logged|embedded)\./.test(c.username));
    expect(counts).toEqual(groups.map(() => seeded.length));
  });

  const externalIp = Object.values(networkInterfaces())
    .flat()
    .find((i) => i !== undefined && i.family === 'IPv4' && !i.internal)?.address;

  it.skipIf(externalIp === undefined)(
    'plain http to a host that is not loopback: no credential is sent unless --insecure-http, and then with a warning naming the host (needs a non-loopback IPv4 address)',
    async () => {
      const remote = await startTestSandbox({ host: externalIp!, tokens: [TOKEN], apiKeys: [API_KEY] });
      try {
        expect(remote.url).toBe(`http://${externalIp}:${new URL(remote.url).port}`);
        const before = remote.logLines.length;
        const [contacts, quote] = await Promise.all([
          runBare(['contacts', 'list', '--base-url', remote.url, '--token', TOKEN, '--json']),
          runBare(['quote', 'AAPL', '--base-url', remote.url, '--api-key', API_KEY, '--json']),
        ]);
        for (const run of [contacts, quote]) {
          expect(run.code, run.stderr).toBe(1);
          expect(lines(run.stderr)).toHaveLength(1);
          expect(run.stderr).toContain(`not sending the`);
          expect(run.stderr).toContain(`http://${externalIp}`);
          expect(run.stderr).toContain('--insecure-http');
          expect(run.stderr).not.toContain(TOKEN);
          expect(run.stderr).not.toContain(API_KEY);
        }
        // Refused before anything left: the server saw no request at all.
        expect(remote.logLines.length).toBe(before);

        const [allowed, allowedQuote] = await Promise.all([
          runBare(['contacts', 'list', '--base-url', remote.url, '--token', TOKEN, '--json', '--insecure-http']),
          runBare(['quote', 'AAPL', '--base-url', remote.url, '--api-key', API_KEY, '--json', '--insecure-http']),
        ]);
        for (const run of [allowed, allowedQuote]) {
          expectSuccess(run);
          const warnings = lines(run.stderr);
          expect(warnings, run.stderr).toHaveLength(1);
          expect(warnings[0]).toMatch(/warning: .* travels unencrypted to /);
          expect(warnings[0]).toContain(externalIp!);
          expect(warnings[0]).toContain('--insecure-http');
        }
        expect(allowed.stderr).toMatch(/token/i);
        expect(allowedQuote.stderr).toMatch(/key/i);
      } finally {
        await remote.close();
      }
    },
  );
});

describe('--debug-log', () => {
  it('writes one line per request: method, URL, status, ms, request id, retry=N; never the token or the API key', async () => {
    const dir = freshDir('debug');
    const at = (name: string) => join(dir, name);
    const contact = await createContact('logged');
    const [list, quote, missing, down] = await Promise.all([
      runCli(['contacts', 'list', '--limit', '2', '--debug-log', at('list.log')]),
      runCli(['quote', 'AAPL', '--debug-log', at('quote.log')]),
      runCli(['contacts', 'get', 'ct_missing', '--debug-log', at('missing.log')]),
      runBare(['contacts', 'list', '--base-url', 'http://127.0.0.1:1', '--token', TOKEN, '--debug-log', at('down.log')]),
    ]);
    // Changes, in order, appended to one file.
    const changes = at('changes.log');
    expectSuccess(await runCli(['contacts', 'rename', contact.id, 'Logged Person', '--debug-log', changes]));
    expectSuccess(await runCli(['contacts', 'delete', contact.id, '--yes', '--debug-log', changes]));

    expectSuccess(list);
    const [listLine, ...moreList] = readDebugLog(at('list.log'));
    expect(moreList).toHaveLength(0);
    expect(listLine![2]).toBe('GET');
    expect(listLine![3]).toBe(`${sandbox.url}/v1/contacts?limit=2`);
    expect(listLine![4]).toBe('200');
    expect(Number(listLine![5])).toBeGreaterThanOrEqual(0);
    expect(listLine![6]).toMatch(new RegExp(`^${UUID_IN.source}$`));
    expect(listLine![7]).toBe('0');
    expect(sandbox.logLines.some((l) => l.endsWith(listLine![6]!))).toBe(true);

    expectSuccess(quote);
    const quoteLines = readDebugLog(at('quote.log'));
    expect(quoteLines).toHaveLength(1);
    expect(quoteLines[0]!.slice(2, 5)).toEqual(['POST', `${sandbox.url}/v1/utilities/stock/realtime-pricing`, '200']);

    const missingLine = expectFailureLine(missing);
    const missingLog = readDebugLog(at('missing.log'));
    expect(missingLog).toHaveLength(1);
    expect(missingLog[0]!.slice(2, 5)).toEqual(['GET', `${sandbox.url}/v1/contacts/ct_missing`, '404']);
    // The request id on the screen is the one in the log.
    expect(missingLine).toContain(missingLog[0]![6]!);
    expect(missingLog[0]![7]).toBe('0');

    expectFailureLine(down);
    const downLog = readDebugLog(at('down.log'));
    // A safe call is retried: every attempt is its own line, numbered.
    expect(downLog.length).toBeGreaterThanOrEqual(2);
    downLog.forEach((line, i) => {
      expect(line[2]).toBe('GET');
      expect(line[3]).toBe('http://127.0.0.1:1/v1/contacts');
      expect(line[4]).toBe('-');
      expect(line[6]).toBe('-');
      expect(line[7]).toBe(String(i));
    });

    const changeLog = readDebugLog(changes);
    expect(changeLog.map((l) => [l[2], l[3], l[4], l[7]])).toEqual([
      ['PUT', `${sandbox.url}/v1/contacts/${contact.id}`, '200', '0'],
      ['DELETE', `${sandbox.url}/v1/contacts/${contact.id}`, '200', '0'],
    ]);
  });
});

describe('--debug-log that cannot be written', () => {
  it('is a usage error naming --debug-log, the path and why, in words; nothing is sent', async () => {
    const dir = freshDir('debug-bad');
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    // Root may write wherever a mode forbids it; sysfs refuses new files even to root (or is
    // mounted read-only).
    const root = process.getuid?.() === 0;
    if (!root) mkdirSync(join(dir, 'locked'), { mode: 0o500 });
    const cases: [string, RegExp][] = [
      [join(dir, 'no', 'such', 'log.txt'), /no such directory/],
      [dir, /is a directory/],
      [join(file, 'log.txt'), /not a directory/],
      root ? ['/sys/tickbook-debug.log', /permission denied|read-only/] : [join(dir, 'locked', 'log.txt'), /permission denied/],
    ];
    const before = sandbox.logLines.length;
    const results = await Promise.all(cases.map(([path]) => runCli(['contacts', 'list', '--debug-log', path])));
    results.forEach((run, i) => {
      const [path, why] = cases[i]!;
      const message = expectUsageError(run);
      expect(message).toMatch(/^tickbook: option --debug-log: cannot write /);
      expect(message).toContain(JSON.stringify(path));
      expect(message).toMatch(why);
      expect(message).not.toMatch(/E[A-Z]{3,}/);
    });
    expect(sandbox.logLines.length).toBe(before);
  });
});

describe('server text on the terminal', () => {
  const hostileToken = 'tok-hostile-0001';
  // The server refuses such names over HTTP, so they go in through the store, as from an old or
  // foreign server.
  const displayName = '\u001b]0;pwned\u0007Eve\u001b[31m Evil\u001b[2J\u009b2J\u202etxt.exe\r\nX';
  const avatarUrl = 'https://x.example/\u001b]8;;https://evil.example\u001b\\a.png';
  // Anything a terminal could act on or that reorders the line; LF is allowed between output lines.
  const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
  let hostile: TestSandbox;
  let flags: string[];
  let id: string;

  beforeAll(async () => {
    hostile = await startTestSandbox({ tokens: [hostileToken], apiKeys: ['key-hostile-0001'] });
    const store = openContactsStore(hostile.dbPath);
    try {
      store.insertMany(ownerOf(hostileToken), [
        { username: 'eve.hostile', phoneNumber: '+15550001111', displayName, avatarUrl, createdAt: 1_790_000_000, lastActiveAt: null },
      ]);
    } finally {
      store.close();
    }
    flags = ['--base-url', hostile.url, '--token', hostileToken];
    id = (await client(hostile, hostileToken).list()).json.data[0].id;
  });

  afterAll(async () => {
    await hostile?.close();
  });

  function expectNothingUnsafe(run: Run): void {
    expectSuccess(run);
    expect(UNSAFE.test(run.stdout), `${describeRun(run)}\n${JSON.stringify(run.stdout)}`).toBe(false);
    expect(UNSAFE.test(run.stderr), JSON.stringify(run.stderr)).toBe(false);
  }

  it('tables show the visible text of a contact with escape sequences and controls, and nothing a terminal would obey', async () => {
    const [table, get] = await Promise.all([runBare(['contacts', 'list', ...flags]), runBare(['contacts', 'get', id, ...flags])]);
    for (const run of [table, get]) expectNothingUnsafe(run);
    expect(table.stdout).toMatch(/Eve.*Evil/);
    expect(lines(table.stdout)).toHaveLength(2);
    expect(get.stdout).toMatch(/Eve.*Evil/);
    expect(lines(get.stdout)).toHaveLength(FIELD_KEYS.length);
  });

  it('--json and --ndjson keep the exact value but print no raw control character (escaped as \\uXXXX)', async () => {
    const [json, ndjson, getJson] = await Promise.all([
      runBare(['contacts', 'list', '--json', ...flags]),
      runBare(['contacts', 'list', '--ndjson', ...flags]),
      runBare(['contacts', 'get', id, '--json', ...flags]),
    ]);
    // The value survives exactly.
    expect(parseJson(json).data[0].display_name).toBe(displayName);
    expect(parseNdjson(ndjson)[0].avatar_url).toBe(avatarUrl);
    expect(parseJson(getJson).display_name).toBe(displayName);
    // And the terminal sees only escapes of it.
    for (const run of [json, ndjson, getJson]) expectNothingUnsafe(run);
  });
});

describe('secrets', () => {
  it('no run of this file printed the token or the API key, nor wrote them to a debug log', () => {
    expect(runs.length).toBeGreaterThan(30);
    expect(debugLogs.length).toBeGreaterThan(3);
    for (const run of runs) {
      for (const secret of SECRETS) {
        expect(run.stdout.includes(secret), describeRun(run)).toBe(false);
        expect(run.stderr.includes(secret), describeRun(run)).toBe(false);
      }
    }
    for (const log of debugLogs) for (const secret of SECRETS) expect(log).not.toContain(secret);
  });
});
