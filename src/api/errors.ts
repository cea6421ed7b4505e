// The one error type every client call throws, with a `kind` a caller can act on without
// parsing messages.

export type ApiErrorKind =
  | 'auth'
  | 'not_found'
  | 'invalid'
  | 'conflict'
  | 'rate_limited'
  | 'server'
  | 'network'
  | 'timeout'
  | 'protocol';

export interface ApiErrorInit {
  kind: ApiErrorKind;
  message: string;
  /** HTTP status; 0 when no response arrived. */
  status?: number;
  /** The server's error code (`not_found`, …), when it sent one. */
  code?: string;
  requestId?: string;
  /** How long the server asked us to wait (429 Retry-After), in milliseconds, at most MAX_RETRY_AFTER_MS. */
  retryAfterMs?: number;
  /** What it asked for when that was more than MAX_RETRY_AFTER_MS (retryAfterMs is then the cap). */
  retryAfterAskedMs?: number;
  /** How many times the call was retried before giving up. */
  retries?: number;
  /** The server that could not be reached (network and timeout errors): "http://host:port". */
  origin?: string;
  cause?: unknown;
}

/** The request fields a server message can name; the first one named is the error's `field`. */
const FIELDS = [
  'username',
  'phone_number',
  'avatar_url',
  'display_name',
  'symbols',
  'limit',
  'active',
  'starting_after',
  'ending_before',
] as const;

export type ApiField = (typeof FIELDS)[number];

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly status: number;
  readonly code: string | undefined;
  readonly requestId: string | undefined;
  readonly retryAfterMs: number | undefined;
  readonly retryAfterAskedMs: number | undefined;
  readonly retries: number;
  readonly origin: string | undefined;

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.status = init.status ?? 0;
    this.code = init.code;
    this.requestId = init.requestId;
    this.retryAfterMs = init.retryAfterMs;
    this.retryAfterAskedMs = init.retryAfterAskedMs;
    this.retries = init.retries ?? 0;
    this.origin = init.origin;
  }

  /** The request field the server's message is about, for showing the error beside it. */
  get field(): ApiField | undefined {
    const found = FIELDS.map((name) => ({ name, at: this.message.search(new RegExp(`\\b${name}\\b`)) }))
      .filter(({ at }) => at >= 0)
      .sort((a, b) => a.at - b.at)[0];
    return found?.name;
  }

  /** One line for a terminal: the message, the status and the request id. */
  describe(): string {
    const parts = [this.status ? `HTTP ${this.status}` : this.kind];
    if (this.requestId) parts.push(`request ${this.requestId}`);
    return `${this.message} (${parts.join(', ')})`;
  }
}

export function kindForStatus(status: number): ApiErrorKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server';
  if (status >= 400) return 'invalid';
  return 'protocol';
}
