// Who is calling: bearer tokens name contact owners, API keys open the market. Owners are stored
// as a digest of the token, so the database never holds a secret.
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { HttpError } from './errors.js';

export const DEMO_TOKEN = 'demo-token';
export const DEMO_API_KEY = 'demo-key';
export const DEMO_RESTRICTED_API_KEY = 'demo-restricted-key';

export interface Credentials {
  tokens: readonly string[];
  apiKeys: readonly string[];
  restrictedApiKeys: readonly string[];
  /**
   * The token whose contacts every accepted token opens, when not its own. The sandbox a command
   * starts for itself accepts a fresh token of its own and opens the demo user's contacts with it:
   * the list the user has always had, which `serve` opens with the demo token.
   */
  actsAs?: string | undefined;
}

/**
 * A credential made for one process's sandbox: 256 random bits, never written anywhere. Another
 * account on the machine can find the sandbox's loopback port (`ss -ltnp`), but not this.
 */
export const freshCredential = (kind: 'token' | 'key'): string => `tickbook-${kind}-${randomBytes(32).toString('base64url')}`;

export function ownerOf(token: string): string {
  return createHash('sha256').update(token).digest('hex').slice(0, 32);
}

/** The owner whose contacts an accepted token opens: its own, or the one the credentials act as. */
export const ownerFor = (credentials: Credentials, token: string): string => ownerOf(credentials.actsAs ?? token);

export class Gatekeeper {
  readonly #owners = new Map<string, string>();
  readonly #apiKeys: ReadonlySet<string>;
  readonly #restricted: ReadonlySet<string>;

  constructor(credentials: Credentials) {
    for (const token of credentials.tokens) this.#owners.set(token, ownerFor(credentials, token));
    this.#apiKeys = new Set(credentials.apiKeys);
    this.#restricted = new Set(credentials.restrictedApiKeys);
  }

  /** The owner behind the request's bearer token, or a 401 unauthorized. */
  contactsOwner(req: IncomingMessage): string {
    const header = req.headers.authorization;
    if (!header) throw new HttpError('unauthorized', 'Authorization header with a Bearer token is required');
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
    if (!match) throw new HttpError('unauthorized', 'Authorization header must be "Bearer <token>"');
    const owner = this.#owners.get(match[1]!);
    if (!owner) throw new HttpError('unauthorized', 'the bearer token is not recognised');
    return owner;
  }

  /** The market API key of the request, or a 401 permission_error. */
  marketKey(req: IncomingMessage): string {
    const key = req.headers.authorization?.trim();
    if (!key) throw new HttpError('permission_error', 'Authorization header with an API key is required');
    if (this.#restricted.has(key)) {
      throw new HttpError('permission_error', 'this API key lacks the privileges for market data');
    }
    if (!this.#apiKeys.has(key)) throw new HttpError('permission_error', 'the API key is not recognised');
    return key;
  }
}
