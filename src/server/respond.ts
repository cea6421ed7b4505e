// Writing answers: every response is JSON and carries X-Request-Id; errors use the market data
// error envelope plus a `code`.
import type { ServerResponse } from 'node:http';
import type { HttpError } from './errors.js';

export function sendJson(
  res: ServerResponse,
  status: number,
  requestId: string,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'x-request-id': requestId,
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

export function sendError(res: ServerResponse, requestId: string, error: HttpError): void {
  sendJson(
    res,
    error.status,
    requestId,
    {
      status: 'error',
      code: error.code,
      message: error.message,
      request_id: requestId,
      request_time: new Date().toISOString(),
    },
    error.headers,
  );
}
