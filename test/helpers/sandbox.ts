// Test helpers: a real sandbox on port 0 with its own database, and plain HTTP calls to it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { afterAll, beforeAll } from 'vitest';
import { TickbookClient } from '../../src/api/client.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/server/sandbox.js';
import { cleanEnv } from './child.js';

export interface TestSandbox extends Sandbox {
  dir: string;
  logLines: string[];
}

/** The environment of a command-line child that uses `sandbox`, with `home` its own (its config and data). */
export function sandboxEnv(sandbox: Sandbox, home: string): NodeJS.ProcessEnv {
  return {
    ...cleanEnv(),
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: join(home, 'data'),
    TICKBOOK_BASE_URL: sandbox.contactsUrl,
    TICKBOOK_MARKET_DATA_URL: sandbox.marketDataUrl,
    TICKBOOK_TOKEN: sandbox.token,
    TICKBOOK_API_KEY: sandbox.apiKey,
  };
}

export async function startTestSandbox(options: SandboxOptions = {}): Promise<TestSandbox> {
  const dir = mkdtempSync(join(tmpdir(), 'tickbook-test-'));
  const logLines: string[] = [];
  const sandbox = await startSandbox({
    dbPath: join(dir, 'sandbox.db'),
    seed: 7,
    demoData: false,
    log: (line) => logLines.push(line),
    ...options,
  });
  return {
    ...sandbox,
    dir,
    logLines,
    close: async () => {
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary shapes
  json: any;
}

export interface CallOptions {
  method?: string;
  auth?: string | null;
  json?: unknown;
  form?: Record<string, string>;
  body?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
}

const dispatcher = new Agent({ keepAliveTimeout: 1000 });

/** The API client the dashboard and the commands use, for this sandbox's URLs and credentials. */
export function sandboxClient(sb: Sandbox): TickbookClient {
  return new TickbookClient({ contactsUrl: sb.contactsUrl, marketDataUrl: sb.marketDataUrl, token: sb.token, apiKey: sb.apiKey });
}

/**
 * One sandbox (demo contacts unless told otherwise) and two clients for the enclosing describe or
 * file: one for the code under test, one to check the server with. Filled in by beforeAll.
 */
export function setUpSandbox(options: SandboxOptions = { demoData: true }) {
  const ctx = {} as { sb: TestSandbox; client: TickbookClient; checker: TickbookClient };
  beforeAll(async () => {
    ctx.sb = await startTestSandbox(options);
    ctx.client = sandboxClient(ctx.sb);
    ctx.checker = sandboxClient(ctx.sb);
  });
  afterAll(async () => {
    await ctx.client?.close();
    await ctx.checker?.close();
    await ctx.sb?.close();
  });
  return ctx;
}

/**
 * One sandbox for the enclosing describe or file and the raw HTTP calls bound to its
 * credentials (`client` below), for tests of the server itself. Filled in by beforeAll.
 */
export function setUpSandboxCalls(options: SandboxOptions = {}) {
  const ctx = {} as { sb: TestSandbox; api: ReturnType<typeof client> };
  beforeAll(async () => {
    ctx.sb = await startTestSandbox(options);
    ctx.api = client(ctx.sb);
  });
  afterAll(async () => {
    await ctx.sb?.close();
  });
  return ctx;
}

/** One HTTP call; `auth` is the raw Authorization header value. */
export async function call(base: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.auth) headers.authorization = options.auth;
  let body: string | Buffer | undefined = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] = 'application/json';
  } else if (options.form !== undefined) {
    body = new URLSearchParams(options.form).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  if (options.contentType !== undefined) headers['content-type'] = options.contentType;
  const res = await request(`${base}${path}`, {
    method: (options.method ?? (body === undefined ? 'GET' : 'POST')) as 'GET',
    headers,
    body,
    dispatcher,
  });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text, json };
}

/** Calls bound to one sandbox and credential pair. */
export function client(sandbox: Sandbox, token = sandbox.token, apiKey = sandbox.apiKey) {
  const bearer = `Bearer ${token}`;
  return {
    list: (query = '') => call(sandbox.contactsUrl, `/v1/contacts${query}`, { auth: bearer }),
    create: (form: Record<string, string>) => call(sandbox.contactsUrl, '/v1/contacts', { auth: bearer, form }),
    get: (id: string) => call(sandbox.contactsUrl, `/v1/contacts/${encodeURIComponent(id)}`, { auth: bearer }),
    rename: (id: string, form: Record<string, string>) =>
      call(sandbox.contactsUrl, `/v1/contacts/${encodeURIComponent(id)}`, { method: 'PUT', auth: bearer, form }),
    remove: (id: string) =>
      call(sandbox.contactsUrl, `/v1/contacts/${encodeURIComponent(id)}`, { method: 'DELETE', auth: bearer }),
    price: (symbols: unknown) =>
      call(sandbox.marketDataUrl, '/v1/utilities/stock/realtime-pricing', { auth: apiKey, json: { symbols } }),
    symbols: () => call(sandbox.marketDataUrl, '/v1/utilities/stock/symbols', { auth: apiKey }),
  };
}

/** An answer read off a raw socket: a Reply (so expectError applies) plus what only a socket shows. */
export interface RawAnswer extends Reply {
  /** The first line, e.g. `HTTP/1.1 431 Request Header Fields Too Large`. */
  statusLine: string;
  /** Everything after the first answer's head (with `Connection: close`, its whole body). */
  body: string;
  /** The socket was closed by the server after the answer. */
  closed: boolean;
}

/**
 * Writes `bytes` on a fresh TCP connection and reads until the server closes it (or 3 s pass).
 * For requests no HTTP client will send: unknown methods, oversized heads, broken syntax. Given
 * pieces, writes one every `everyMs` (a slow client), while the server keeps the connection open;
 * `unsent` says how many were left when it closed.
 */
export function rawRequest(url: string, bytes: string | Buffer | readonly string[], paced: { everyMs?: number; limitMs?: number } = {}): Promise<RawAnswer & { unsent: number }> {
  const { hostname, port } = new URL(url);
  const pieces = typeof bytes === 'string' || Buffer.isBuffer(bytes) ? [bytes] : [...bytes];
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let closed = false;
    let pacer: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      socket.destroy();
      finish();
    }, paced.limitMs ?? 3000);
    const finish = () => {
      clearTimeout(timer);
      clearInterval(pacer);
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      if (split < 0) {
        reject(new Error(`no HTTP answer: ${JSON.stringify(text)}`));
        return;
      }
      const [statusLine = '', ...headerLines] = text.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const body = text.slice(split + 4);
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      resolve({ status: Number(statusLine.split(' ')[1]), statusLine, headers, text: body, json, body, closed, unsent: pieces.length });
    };
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed = true;
      finish();
    });
    socket.on('connect', () => {
      socket.write(pieces.shift()!);
      if (pieces.length > 0) {
        pacer = setInterval(() => {
          if (!closed && socket.writable) socket.write(pieces.shift()!);
          if (pieces.length === 0) clearInterval(pacer);
        }, paced.everyMs ?? 100);
      }
    });
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Asserts the contract's error envelope; returns the message for further checks. */
export function expectError(reply: Reply, status: number, code: string, messagePattern?: RegExp): string {
  const where = `${status} ${code}, got ${reply.status} ${reply.text.slice(0, 300)}`;
  if (reply.status !== status) throw new Error(`expected ${where}`);
  const body = reply.json as Record<string, unknown> | undefined;
  if (!body || body.status !== 'error' || body.code !== code) throw new Error(`expected ${where}`);
  if (typeof body.message !== 'string' || body.message.length === 0) throw new Error(`no message: ${reply.text}`);
  if (typeof body.request_id !== 'string' || !UUID.test(body.request_id)) throw new Error(`bad request_id: ${reply.text}`);
  if (reply.headers['x-request-id'] !== body.request_id) throw new Error('X-Request-Id differs from request_id');
  if (typeof body.request_time !== 'string' || !ISO_MS.test(body.request_time)) {
    throw new Error(`bad request_time: ${reply.text}`);
  }
  if (messagePattern && !messagePattern.test(body.message)) {
    throw new Error(`message ${JSON.stringify(body.message)} does not match ${messagePattern}`);
  }
  return body.message;
}

export { UUID, ISO_MS };

/** The fields of a contact as the API returns it, sorted. */
export const CONTACT_KEYS = [
  'avatar_url',
  'conversation_id',
  'created_at',
  'display_name',
  'id',
  'last_active_at',
  'phone_number',
  'username',
];


// ---------------------------------------------------------------------------------------------
// The built CLI as a child process (run `node scripts/build-if-needed.mjs` first; `npm test`
// does it in its pretest).

export const BIN = fileURLToPath(new URL('../../bin/tickbook', import.meta.url));

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface TickbookProcess {
  child: ChildProcess;
  /** Everything written so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stdout (or stderr), rejects on exit or timeout. */
  waitFor(pattern: RegExp, stream?: 'stdout' | 'stderr', timeoutMs?: number): Promise<RegExpMatchArray>;
  exited: Promise<Exit>;
}

const running = new Set<ChildProcess>();

/** Starts `tickbook ARGS` (the built bin) with the given environment. */
export function runTickbook(args: readonly string[], env: NodeJS.ProcessEnv = process.env): TickbookProcess {
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  const out = { stdout: '', stderr: '' };
  const listeners = new Set<() => void>();
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    out.stdout += chunk;
    for (const listener of listeners) listener();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    out.stderr += chunk;
    for (const listener of listeners) listener();
  });
  const exited = new Promise<Exit>((resolve) => {
    // 'close' comes after the streams have ended, so the output is complete by then.
    child.on('close', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    });
  });
  let done = false;
  void exited.then(() => {
    done = true;
    for (const listener of listeners) listener();
  });

  return {
    child,
    stdout: () => out.stdout,
    stderr: () => out.stderr,
    exited,
    waitFor(pattern, stream = 'stdout', timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const match = pattern.exec(out[stream]);
          if (match) finish(() => resolve(match));
          else if (done) {
            finish(() =>
              reject(new Error(`tickbook exited before ${pattern} on ${stream}; stdout: ${out.stdout} stderr: ${out.stderr}`)),
            );
          }
        };
        const timer = setTimeout(
          () => finish(() => reject(new Error(`timed out waiting for ${pattern} on ${stream}; stdout: ${out.stdout} stderr: ${out.stderr}`))),
          timeoutMs,
        );
        const finish = (settle: () => void): void => {
          clearTimeout(timer);
          listeners.delete(check);
          settle();
        };
        listeners.add(check);
        check();
      });
    },
  };
}

/** Runs `tickbook ARGS` to its end (killed after `timeoutMs`). */
export async function runTickbookToExit(
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  timeoutMs = 10_000,
): Promise<Exit & { stdout: string; stderr: string }> {
  const proc = runTickbook(args, env);
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), timeoutMs);
  const exit = await proc.exited;
  clearTimeout(timer);
  return { ...exit, stdout: proc.stdout(), stderr: proc.stderr() };
}

export interface ServeProcess extends TickbookProcess {
  /** The origin from the `listening on` line. */
  url: string;
}

/** Starts `tickbook serve ARGS` and waits for its `listening on http://HOST:PORT` line. */
export async function startServe(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<ServeProcess> {
  const proc = runTickbook(['serve', ...args], env);
  const match = await proc.waitFor(/^listening on (http:\/\/\S+:\d+)$/m);
  return { ...proc, url: match[1]! };
}

/** Kills (SIGKILL) every child started by these helpers that is still running, and waits for them. */
export async function killTickbookChildren(): Promise<void> {
  const children = [...running];
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) {
            running.delete(child);
            resolve();
            return;
          }
          child.once('close', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
}
