// Writing answers: every response is JSON and carries X-Request-Id; errors use the market data
// error envelope plus a `code`.
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { HttpError } from './errors.js';

/** `body`: bytes or text of JSON as they are, or anything else made JSON. */
export function sendJson(
  res: ServerResponse,
  status: number,
  requestId: string,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  // Bytes once, measured and sent as they are (a kept list page is bytes already).
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': bytes.length,
    'x-request-id': requestId,
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(bytes);
}

function errorBody(requestId: string, error: HttpError) {
  return {
    status: 'error',
    code: error.code,
    message: error.message,
    request_id: requestId,
    request_time: new Date().toISOString(),
  };
}

export function sendError(res: ServerResponse, requestId: string, error: HttpError): void {
  sendJson(res, error.status, requestId, errorBody(requestId, error), error.headers);
}

/** How long a connection refused by the parser may stay open for the client to read its answer. */
const RAW_LINGER_MS = 2000;

/**
 * An answer for a request Node could not even parse (no ServerResponse exists): the same JSON
 * envelope and X-Request-Id (and the error's headers, Allow for a 405), then the connection is
 * closed. Closing waits for the client: a socket closed with unread input (the rest of an
 * oversized head) resets the connection, and the client may lose the answer with it.
 */
export function sendRawError(socket: Duplex, requestId: string, error: HttpError): void {
  const body = JSON.stringify(errorBody(requestId, error));
  let extra = '';
  for (const [name, value] of Object.entries(error.headers)) extra += `${name}: ${value}\r\n`;
  socket.end(
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nx-request-id: ${requestId}\r\ncache-control: no-store\r\n${extra}` +
      `connection: close\r\n\r\n${body}`,
  );
  const linger = setTimeout(() => socket.destroy(), RAW_LINGER_MS);
  linger.unref();
  socket.once('close', () => clearTimeout(linger));
}
