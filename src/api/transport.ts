// HTTP for the client: undici dispatchers (a keep-alive pool per origin, direct or through a
// proxy), timeouts, retries for calls that are safe to repeat, and every failure turned into an
// ApiError that holds nothing of a credential.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { BodyError, readBody } from './body.js';
import { ApiError, kindForStatus } from './errors.js';
import { describeFailure, errorCode, NOT_SENT } from './failures.js';
import { Dispatchers, ProxySettingError, type ProxyEnv, type Route } from './proxy.js';
import { Redactor, WITHHELD_MESSAGE } from './redaction.js';
import { credentialProblem } from './rules.js';

export interface Timeouts {
  connectMs: number;
  /** From request sent to response headers received. */
  headersMs: number;
  /** The longest silence allowed while the body arrives. */
  bodyMs: number;
  /**
   * From request sent to the whole answer read, for each attempt: a server that sends a byte
   * now and then is never silent for bodyMs, yet would keep a poll waiting for ever.
   */
  totalMs: number;
}

export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** No retry starts once this much time has passed since the first attempt. */
  budgetMs: number;
}

export interface RequestLogEntry {
  time: Date;
  method: string;
  /** Without user info; the query holds no secrets. */
  url: string;
  /** 0 when no response arrived. */
  status: number;
  ms: number;
  requestId: string | undefined;
  /** 0 for the first attempt, 1 for the first retry, … */
  retry: number;
  error: string | undefined;
}

export interface TransportOptions {
  timeouts?: Partial<Timeouts>;
  retry?: Partial<RetryPolicy>;
  /** A dispatcher to share (proxyEnv is then not read); when absent the transport makes (and closes) its own. */
  dispatcher?: Dispatcher;
  /**
   * The environment whose HTTPS_PROXY, HTTP_PROXY, ALL_PROXY and NO_PROXY route requests (see
   * proxy.ts); absent, every request goes direct.
   */
  proxyEnv?: ProxyEnv | undefined;
  /** Credentials: no form of them may reach a message, a request id or the log. */
  secrets?: readonly string[];
  onRequest?: (entry: RequestLogEntry) => void;
  /** For jitter; tests may fix it. */
  random?: () => number;
}

export interface Outgoing {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: URL;
  authorization: string;
  /** The credential in `authorization`, in words for a message: "the bearer token for the contacts API". */
  credential?: string;
  body?: { type: 'application/json' | 'application/x-www-form-urlencoded'; text: string };
  /** Whether repeating the call changes nothing, so it may be retried after any failure. */
  safe: boolean;
  signal?: AbortSignal | undefined;
}

export interface Incoming {
  status: number;
  /** The parsed JSON body; undefined when there was none (204). */
  json: unknown;
  requestId: string | undefined;
}

export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 5_000, headersMs: 10_000, bodyMs: 10_000, totalMs: 30_000 };
export const DEFAULT_RETRY: RetryPolicy = { retries: 3, baseDelayMs: 200, maxDelayMs: 3_000, budgetMs: 10_000 };
const MAX_BODY_BYTES = 8 * 1024 * 1024;
const RETRIABLE_KINDS = new Set(['network', 'timeout', 'server', 'rate_limited']);

/** Errors no retry can mend, whatever their kind says: a certificate, a malformed header. */
const FINAL = new WeakSet<ApiError>();

export class Transport {
  /** Made here and closed by close(); undefined when a dispatcher is shared. */
  readonly #dispatchers: Dispatchers | undefined;
  readonly #shared: Dispatcher | undefined;
  readonly #timeouts: Timeouts;
  readonly #retry: RetryPolicy;
  readonly #redactor: Redactor;
  readonly #onRequest: ((entry: RequestLogEntry) => void) | undefined;
  readonly #random: () => number;

  constructor(options: TransportOptions = {}) {
    this.#timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    this.#retry = { ...DEFAULT_RETRY, ...options.retry };
    this.#shared = options.dispatcher;
    this.#dispatchers = options.dispatcher ? undefined : new Dispatchers(options.proxyEnv, this.#timeouts.connectMs);
    this.#redactor = new Redactor(options.secrets ?? []);
    this.#onRequest = options.onRequest;
    this.#random = options.random ?? Math.random;
  }

  async send(out: Outgoing): Promise<Incoming> {
    const started = performance.now();
    for (let retry = 0; ; retry++) {
      // undici would still open a connection for an aborted request; nothing should leave.
      out.signal?.throwIfAborted();
      let error: ApiError;
      try {
        return await this.#attempt(out, retry);
      } catch (caught) {
        if (out.signal?.aborted) throw out.signal.reason;
        if (!(caught instanceof ApiError)) throw caught;
        error = caught;
      }
      const delay = this.#retryDelay(out, error, retry, performance.now() - started);
      if (delay === undefined) throw this.#withRetries(error, retry);
      await sleep(delay, undefined, { signal: out.signal });
    }
  }

  /** Ends the pool at once: whatever is still under way (a look-ahead, a poll) is cut off. */
  async close(): Promise<void> {
    await this.#dispatchers?.destroy();
  }

  /** How long to wait before retrying, or undefined when the error is final. */
  #retryDelay(out: Outgoing, error: ApiError, retry: number, elapsedMs: number): number | undefined {
    if (retry >= this.#retry.retries || !RETRIABLE_KINDS.has(error.kind) || FINAL.has(error)) return undefined;
    const notSent = error.cause !== undefined && NOT_SENT.has(errorCode(error.cause));
    if (!out.safe && !notSent) return undefined;
    let delay: number;
    if (error.retryAfterMs !== undefined) {
      delay = error.retryAfterMs;
    } else {
      const ceiling = Math.min(this.#retry.maxDelayMs, this.#retry.baseDelayMs * 2 ** retry);
      delay = ceiling / 2 + this.#random() * (ceiling / 2);
    }
    // Each attempt ends by totalMs, so the whole call ends by budgetMs + totalMs.
    return elapsedMs + delay <= this.#retry.budgetMs ? delay : undefined;
  }

  #withRetries(error: ApiError, retries: number): ApiError {
    if (retries === 0) return error;
    return new ApiError({
      kind: error.kind,
      message: error.message,
      status: error.status,
      ...(error.code !== undefined && { code: error.code }),
      ...(error.requestId !== undefined && { requestId: error.requestId }),
      ...(error.retryAfterMs !== undefined && { retryAfterMs: error.retryAfterMs }),
      ...(error.retryAfterAskedMs !== undefined && { retryAfterAskedMs: error.retryAfterAskedMs }),
      ...(error.origin !== undefined && { origin: error.origin }),
      retries,
      cause: error.cause,
    });
  }

  async #attempt(out: Outgoing, retry: number): Promise<Incoming> {
    const started = performance.now();
    let status = 0;
    let requestId: string | undefined;
    let route: Route | undefined;
    // One signal for undici: the caller's cancel, or this attempt's deadline.
    const abort = new AbortController();
    let pastDeadline = false;
    let timer: NodeJS.Timeout | undefined;
    const cancel = () => abort.abort(out.signal?.reason);
    out.signal?.addEventListener('abort', cancel, { once: true });
    try {
      this.#checkCredential(out);
      route = await this.#route(out.url);
      // The deadline is the server's: it starts once undici is loaded (the first request loads
      // it, 100 ms or more on a busy machine), or a first answer could time out before it was asked.
      timer = setTimeout(() => {
        pastDeadline = true;
        abort.abort(new Error('deadline'));
      }, this.#timeouts.totalMs);
      // undici would still open a connection for a request aborted while it was being loaded.
      abort.signal.throwIfAborted();
      const headers: Record<string, string> = {
        accept: 'application/json',
        // Compressed answers are read too (body.ts), but none is asked for: nothing to unpack.
        'accept-encoding': 'identity',
        authorization: out.authorization,
      };
      if (out.body) headers['content-type'] = out.body.type;
      const response = await route.dispatcher.request({
        origin: out.url.origin,
        path: `${out.url.pathname}${out.url.search}`,
        method: out.method,
        headers,
        body: out.body?.text,
        signal: abort.signal,
        headersTimeout: this.#timeouts.headersMs,
        bodyTimeout: this.#timeouts.bodyMs,
      });
      status = response.statusCode;
      const headerId = header(response.headers, 'x-request-id');
      requestId = headerId === undefined ? undefined : this.#screenId(headerId);
      const text = await readBody(response.body, header(response.headers, 'content-encoding'), MAX_BODY_BYTES);
      // undici checks an idle keep-alive socket on the next turn of the event loop before reusing
      // it; a call made straight after this one would otherwise find it busy and open another.
      await new Promise((resolve) => setImmediate(resolve));
      if (status >= 200 && status < 300) {
        const json = parseSuccess(text, status, requestId);
        this.#log(out, retry, started, status, requestId, undefined);
        return { status, json, requestId };
      }
      throw this.#errorFromResponse(status, text, response.headers, requestId, out.url);
    } catch (caught) {
      if (out.signal?.aborted) {
        // The user moved on: nothing failed, and the log says so.
        this.#log(out, retry, started, status, requestId, 'cancelled');
        throw caught;
      }
      const error = this.#errorFrom(caught, out.url, route, status, requestId, pastDeadline);
      this.#log(out, retry, started, status, error.requestId ?? requestId, error.message);
      throw error;
    } finally {
      clearTimeout(timer);
      out.signal?.removeEventListener('abort', cancel);
    }
  }

  /** A credential that cannot be a header value fails the same way on every try, before any. */
  #checkCredential(out: Outgoing): void {
    // The credential's own characters are counted, not the header's "Bearer ".
    const problem = credentialProblem(out.authorization.replace(/^Bearer /, ''));
    if (problem === undefined) return;
    // Never the value: it is the credential.
    throw final(new ApiError({ kind: 'auth', message: `${out.credential ?? 'the credential'} has ${problem}, so it cannot be sent in an HTTP header` }));
  }

  async #route(url: URL): Promise<Route> {
    if (this.#shared) return { dispatcher: this.#shared, proxy: undefined };
    try {
      return await this.#dispatchers!.for(url);
    } catch (error) {
      if (!(error instanceof ProxySettingError)) throw error;
      throw final(new ApiError({ kind: 'invalid', message: error.message }));
    }
  }

  #errorFrom(
    caught: unknown,
    url: URL,
    route: Route | undefined,
    status: number,
    requestId: string | undefined,
    pastDeadline: boolean,
  ): ApiError {
    if (caught instanceof ApiError) return caught;
    const origin = url.origin;
    if (pastDeadline) {
      return new ApiError({ kind: 'timeout', message: `${url.host} did not finish its answer within ${this.#timeouts.totalMs / 1000} s`, origin, cause: caught });
    }
    if (caught instanceof BodyError) {
      // The message may quote a header the server chose (its Content-Encoding): screened like any server text.
      const message = this.#redactor.screen(`${url.host} ${caught.message}`, `${url.host} sent an answer tickbook cannot read (${WITHHELD_MESSAGE})`);
      return new ApiError({ kind: 'protocol', status, message, ...(requestId !== undefined && { requestId }) });
    }
    const failure = describeFailure(caught, { url, proxy: route?.proxy, ...this.#timeouts });
    const error = new ApiError({ kind: failure.kind, message: failure.message, origin, cause: caught });
    return failure.final ? final(error) : error;
  }

  #errorFromResponse(
    status: number,
    text: string,
    headers: Record<string, string | string[] | undefined>,
    headerRequestId: string | undefined,
    url: URL,
  ): ApiError {
    let body: Record<string, unknown> | undefined;
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
        body = parsed as Record<string, unknown>;
      }
    } catch {
      body = undefined;
    }
    let message: string;
    if (status >= 300 && status < 400) {
      message = this.#redirectMessage(status, header(headers, 'location'), url);
    } else if (typeof body?.message === 'string' && body.message.trim() !== '') {
      message = this.#redactor.screen(body.message, WITHHELD_MESSAGE);
    } else {
      message = `the server answered HTTP ${status}${text.trim().startsWith('<') ? ' with an HTML page' : ''}`;
    }
    const code = typeof body?.code === 'string' && !this.#redactor.holdsSecret(body.code) ? body.code : undefined;
    const requestId = (typeof body?.request_id === 'string' ? this.#screenId(body.request_id) : undefined) ?? headerRequestId;
    const asked = status === 429 || status === 503 ? parseRetryAfter(header(headers, 'retry-after'), Date.now(), Number.POSITIVE_INFINITY) : undefined;
    const retryAfterMs = asked === undefined ? undefined : Math.min(asked, MAX_RETRY_AFTER_MS);
    return new ApiError({
      kind: kindForStatus(status),
      message,
      status,
      ...(code !== undefined && { code }),
      ...(requestId !== undefined && { requestId }),
      ...(retryAfterMs !== undefined && { retryAfterMs }),
      // More than is obeyed: said as asked by those that do not wait it out (an import stops).
      ...(asked !== undefined && asked > MAX_RETRY_AFTER_MS && { retryAfterAskedMs: asked }),
    });
  }

  /** A redirect, named: following one would send the credential to wherever a server points. */
  #redirectMessage(status: number, location: string | undefined, url: URL): string {
    const unfollowed = `the server answered HTTP ${status}, a redirect, which tickbook does not follow`;
    const target = location === undefined ? undefined : shownLocation(location, url);
    if (target === undefined) return unfollowed;
    if (this.#redactor.holdsSecret(target)) return `${unfollowed} (its location was withheld: it contained a credential)`;
    return `the server answered HTTP ${status}: moved to ${target} (tickbook does not follow redirects: use that as the base URL if you trust it)`;
  }

  /** A request id, or nothing when it holds a credential: an id is only worth showing whole. */
  #screenId(id: string): string | undefined {
    return this.#redactor.holdsSecret(id) ? undefined : id;
  }

  #log(out: Outgoing, retry: number, started: number, status: number, requestId: string | undefined, error: string | undefined): void {
    if (!this.#onRequest) return;
    const url = new URL(out.url);
    url.username = '';
    url.password = '';
    this.#onRequest({
      time: new Date(),
      method: out.method,
      url: url.toString(),
      status,
      ms: performance.now() - started,
      requestId,
      retry,
      error,
    });
  }
}

function final(error: ApiError): ApiError {
  FINAL.add(error);
  return error;
}

/** A Location as it may be shown: absolute, http(s) only, without user info, query or fragment. */
function shownLocation(location: string, base: URL): string | undefined {
  let url: URL;
  try {
    url = new URL(location, base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  return url.href;
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function parseSuccess(text: string, status: number, requestId: string | undefined): unknown {
  if (text.trim() === '') {
    if (status === 204) return undefined;
    throw new ApiError({ kind: 'protocol', status, ...(requestId && { requestId }), message: `the server answered HTTP ${status} with an empty body` });
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError({
      kind: 'protocol',
      status,
      ...(requestId && { requestId }),
      message: `the server answered HTTP ${status} with a body that is not JSON (cut off, or not an API)`,
    });
  }
}

/**
 * The longest wait a Retry-After is obeyed for. A server asking for more (999999 s, a date next
 * year) is most likely wrong, and obeying would leave a dead ticker until the user noticed.
 */
export const MAX_RETRY_AFTER_MS = 5 * 60_000;

/** Retry-After in seconds or as an HTTP date, in milliseconds, at most `capMs`. */
export function parseRetryAfter(value: string | undefined, now = Date.now(), capMs = MAX_RETRY_AFTER_MS): number | undefined {
  if (value === undefined) return undefined;
  let ms: number;
  if (/^\s*\d+\s*$/.test(value)) ms = Number(value) * 1000;
  else {
    const date = Date.parse(value);
    if (Number.isNaN(date)) return undefined;
    ms = Math.max(0, date - now);
  }
  return Math.min(ms, capMs);
}
