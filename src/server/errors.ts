// Every error the sandbox answers with, named by the contract's code; the status follows the code.

export const ERROR_STATUS = {
  missing_parameters: 400,
  invalid_parameters: 400,
  unauthorized: 401,
  permission_error: 401,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  duplicate_contact: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  headers_too_large: 431,
  rate_limited: 429,
  server_error: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class HttpError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: ErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'HttpError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.headers = headers;
  }
}

export const missing = (field: string): HttpError =>
  new HttpError('missing_parameters', `${field} is required`);

export const invalid = (message: string): HttpError => new HttpError('invalid_parameters', message);
