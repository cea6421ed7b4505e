// Boundary checks: a response of the wrong shape becomes an ApiError('protocol') here, never an
// `undefined` deep in a screen. Strict where the interface shows a shape, tolerant where the
// contract allows real servers to differ.
import { ApiError } from './errors.js';
import type { Contact, DeleteResult, Quote, RejectedQuote, SymbolInfo } from './types.js';

type Json = Record<string, unknown>;

export class ShapeError extends Error {}

function object(value: unknown, what: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ShapeError(`${what} is not an object`);
  }
  return value as Json;
}

function string(body: Json, field: string, what: string): string {
  const value = body[field];
  if (typeof value !== 'string' || value === '') throw new ShapeError(`${what}.${field} is not a non-empty string`);
  return value;
}

function nullableString(body: Json, field: string, what: string): string | null {
  const value = body[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new ShapeError(`${what}.${field} is not a string or null`);
  return value;
}

function array(body: Json, field: string, what: string): unknown[] {
  const value = body[field];
  if (!Array.isArray(value)) throw new ShapeError(`${what}.${field} is not an array`);
  return value;
}

/** Epoch seconds; a value of 10^11 or more is read as milliseconds (client tolerance). */
export function timestamp(value: unknown, field: string): Date {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new ShapeError(`contact.${field} is not a timestamp`);
  }
  const date = new Date(value >= 1e11 ? value : value * 1000);
  if (Number.isNaN(date.getTime())) throw new ShapeError(`contact.${field} is out of range`);
  return date;
}

export function parseContact(value: unknown): Contact {
  const body = object(value, 'contact');
  const lastActive = body.last_active_at;
  return {
    id: string(body, 'id', 'contact'),
    username: string(body, 'username', 'contact'),
    phoneNumber: string(body, 'phone_number', 'contact'),
    avatarUrl: nullableString(body, 'avatar_url', 'contact'),
    displayName: nullableString(body, 'display_name', 'contact'),
    conversationId: string(body, 'conversation_id', 'contact'),
    lastActiveAt: lastActive === null || lastActive === undefined ? null : timestamp(lastActive, 'last_active_at'),
    createdAt: timestamp(body.created_at, 'created_at'),
  };
}

export function parseContactList(value: unknown): { contacts: Contact[]; hasMore: boolean } {
  const body = object(value, 'contact list');
  if (typeof body.has_more !== 'boolean') throw new ShapeError('contact list.has_more is not a boolean');
  return { contacts: array(body, 'data', 'contact list').map(parseContact), hasMore: body.has_more };
}

/** 200 with `{id, deleted: true}`, or 204 with no body (client tolerance). */
export function parseDeleted(value: unknown, id: string): DeleteResult {
  if (value === undefined) return { id, deleted: true };
  const body = object(value, 'delete response');
  if (body.deleted !== true) throw new ShapeError('delete response.deleted is not true');
  return { id: typeof body.id === 'string' ? body.id : id, deleted: true };
}

/** A value as a message may quote it: short, whatever the server sent. */
function quoted(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : String(JSON.stringify(value) ?? value);
  return text.length > 24 ? `${text.slice(0, 23)}…` : text;
}

/** A non-negative finite number; the message says which of those it is not. */
function number(value: unknown, what: string): number {
  // Some servers send decimals as strings to keep their precision; accept those too.
  const parsed = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (value === undefined || value === null) throw new ShapeError(`${what} is missing`);
  if (typeof parsed !== 'number' || Number.isNaN(parsed)) throw new ShapeError(`${what} is not a number (${quoted(value)})`);
  if (!Number.isFinite(parsed)) throw new ShapeError(`${what} is out of range (${quoted(value)})`);
  if (parsed < 0) throw new ShapeError(`${what} is negative (${quoted(value)})`);
  return parsed;
}

function successEnvelope(value: unknown, what: string): Json {
  const body = object(value, what);
  if (body.status !== undefined && body.status !== 'success') throw new ShapeError(`${what}.status is not "success"`);
  return body;
}

/** A record the checks below would take as it is: numbers as numbers, finite, not negative. */
function isPlainQuote(item: unknown): item is { symbol: string; price: number; volume: number } {
  if (typeof item !== 'object' || item === null) return false;
  const { symbol, price, volume } = item as Json;
  return (
    typeof symbol === 'string' && symbol !== '' &&
    typeof price === 'number' && Number.isFinite(price) && price >= 0 &&
    typeof volume === 'number' && Number.isFinite(volume) && volume >= 0
  );
}

export function parsePricing(value: unknown): {
  symbols: string[];
  quotes: Quote[];
  rejected: RejectedQuote[];
  requestTime: Date | undefined;
} {
  const body = successEnvelope(value, 'pricing response');
  const symbols = array(body, 'stock_symbols', 'pricing response').map((s, i) => {
    if (typeof s !== 'string') throw new ShapeError(`pricing response.stock_symbols[${i}] is not a string`);
    return s;
  });
  const quotes: Quote[] = [];
  const rejected: RejectedQuote[] = [];
  // One bad record is dropped and named; the others are still prices.
  array(body, 'stock_data', 'pricing response').forEach((item, i) => {
    // Nearly every record is well formed: no message is built for it (bench:client).
    if (isPlainQuote(item)) {
      quotes.push({ symbol: item.symbol.toUpperCase(), price: item.price, volume: Math.floor(item.volume) });
      return;
    }
    const symbol = typeof (item as Json | null)?.symbol === 'string' && (item as Json).symbol !== '' ? ((item as Json).symbol as string).toUpperCase() : undefined;
    try {
      const record = object(item, `stock_data[${i}]`);
      quotes.push({
        symbol: string(record, 'symbol', `stock_data[${i}]`).toUpperCase(),
        price: number(record.price, 'price'),
        volume: Math.floor(number(record.volume, 'volume')),
      });
    } catch (error) {
      if (!(error instanceof ShapeError)) throw error;
      rejected.push({ symbol, reason: error.message });
    }
  });
  const time = typeof body.request_time === 'string' ? new Date(body.request_time) : undefined;
  return { symbols, quotes, rejected, requestTime: time && !Number.isNaN(time.getTime()) ? time : undefined };
}

export function parseSymbols(value: unknown): SymbolInfo[] {
  const body = successEnvelope(value, 'symbols response');
  return array(body, 'stock_symbols', 'symbols response').map((item, i) => {
    const record = object(item, `stock_symbols[${i}]`);
    return { symbol: string(record, 'symbol', `stock_symbols[${i}]`), name: nullableString(record, 'name', `stock_symbols[${i}]`) ?? '' };
  });
}

/** Runs a parser, turning a shape mismatch into a protocol ApiError. */
export function checked<T>(parse: () => T, requestId: string | undefined, status: number): T {
  try {
    return parse();
  } catch (error) {
    if (!(error instanceof ShapeError)) throw error;
    throw new ApiError({
      kind: 'protocol',
      status,
      requestId,
      message: `the server's answer has an unexpected shape: ${error.message}`,
    });
  }
}
