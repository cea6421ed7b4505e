// Request bodies: JSON everywhere, form fields where the route allows them, 64 KiB at most.
import type { IncomingMessage } from 'node:http';
import { HttpError, invalid } from './errors.js';
import type { Fields } from './validate.js';
import { collect } from '../stream/collect.js';

export const BODY_LIMIT = 64 * 1024;

export type BodyKind = 'json' | 'form';

function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

function tooLarge(): HttpError {
  return new HttpError('payload_too_large', `request body must be at most ${BODY_LIMIT / 1024} KiB`, {
    connection: 'close',
  });
}

/** Reads and parses the body as one of the accepted kinds; an empty body is no fields. */
export async function readFields(req: IncomingMessage, accepted: readonly BodyKind[]): Promise<Fields> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > BODY_LIMIT) throw tooLarge();
  const type = mediaType(req);
  const kind: BodyKind | undefined =
    type === 'application/json' ? 'json' : type === 'application/x-www-form-urlencoded' ? 'form' : undefined;

  const body = await readBody(req);
  if (body.length === 0) return {};
  if (kind === undefined || !accepted.includes(kind)) {
    const names = accepted.map((k) => (k === 'json' ? 'application/json' : 'application/x-www-form-urlencoded'));
    throw new HttpError(
      'unsupported_media_type',
      `Content-Type ${type === '' ? '(none)' : JSON.stringify(type)} is not accepted here; send ${names.join(' or ')}`,
    );
  }
  const text = body.toString('utf8');
  return kind === 'json' ? parseJsonObject(text) : parseForm(text);
}

/** The whole body, up to the limit. */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return collect(req, {
    maxBytes: BODY_LIMIT,
    tooLarge,
    // Stop reading; the error answer closes the connection (connection: close).
    overflow: (stream) => stream.pause(),
    // A client that disconnects mid-body must not leave the handler waiting forever.
    cutShort: () => (req.complete ? undefined : Object.assign(new Error('the request was aborted'), { code: 'ECONNRESET' })),
  });
}

function parseJsonObject(text: string): Fields {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid('request body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid('request body must be a JSON object');
  }
  return value as Fields;
}

function parseForm(text: string): Fields {
  // No prototype: a field named "constructor" or "__proto__" is just an (unknown) field.
  const fields: Fields = Object.create(null) as Fields;
  for (const [name, value] of new URLSearchParams(text)) {
    if (Object.hasOwn(fields, name)) throw invalid(`${name} is given more than once`);
    fields[name] = value;
  }
  return fields;
}
