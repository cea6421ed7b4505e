// How long the sandbox waits for a request to arrive: its line and headers, and the whole of it,
// body included. Past either, Node's server reports the request timed out (answered 408
// request_timeout by the app) and the connection is closed. Node's own limits were 60 s and 300 s,
// looked at every 30 s: a client sending a header line every 2 s held its connection open as
// long as it liked. The clock starts when the connection opens or a request's first byte comes,
// and stops once the request has arrived: a slow answer is not limited, nor is a kept-alive
// connection waiting for its next request (that is keepAliveTimeout's).

/** The request line and headers must arrive within this. */
export const HEADERS_TIMEOUT_MS = 10_000;
/** The whole request, body included, must arrive within this: 30 s carries the largest body the sandbox reads (64 KiB) over a 20 kbit/s link. */
export const REQUEST_TIMEOUT_MS = 30_000;

export interface RequestDeadlines {
  headersMs: number;
  requestMs: number;
}

/** The deadlines asked for (the defaults where not), checked: whole milliseconds, the headers' within the request's. */
export function requestDeadlines(asked: { headersTimeoutMs?: number | undefined; requestTimeoutMs?: number | undefined }): RequestDeadlines {
  const headersMs = asked.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
  const requestMs = asked.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  for (const [name, ms] of [['headersTimeoutMs', headersMs], ['requestTimeoutMs', requestMs]] as const) {
    if (!Number.isInteger(ms) || ms < 1) throw new RangeError(`${name} must be a whole number of milliseconds from 1, not ${ms}`);
  }
  if (headersMs > requestMs) throw new RangeError(`headersTimeoutMs (${headersMs}) must not be more than requestTimeoutMs (${requestMs})`);
  return { headersMs, requestMs };
}

/**
 * Node's server options for the deadlines. Node looks for connections past them every
 * connectionsCheckingInterval (30 s unless told): a quarter of the headers' deadline, at most a
 * second, so that each bites on time (10 s is 10 to 11 s).
 */
export const deadlineServerOptions = ({ headersMs, requestMs }: RequestDeadlines) => ({
  headersTimeout: headersMs,
  requestTimeout: requestMs,
  connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(headersMs / 4))),
});

/** A deadline in words: `10 s`, `0.3 s`. */
export const seconds = (ms: number): string => `${ms / 1000} s`;
