// THE client: every screen and every subcommand talks to the interface through this, and only this.
import { ApiError } from './errors.js';
import { normaliseSymbols, parseBaseUrl, parsePhoneNumber, SYMBOL_PATTERN } from './rules.js';
import { Redactor } from './redaction.js';
import { checked, parseContact, parseContactList, parseDeleted, parsePricing, parseSymbols } from './parse.js';
import { Transport, type Incoming, type Outgoing, type TransportOptions } from './transport.js';
import type {
  Contact,
  ContactPage,
  DeleteResult,
  NewContact,
  PageQuery,
  PricingResult,
  Quote,
  RejectedQuote,
  SymbolInfo,
} from './types.js';

/** Why a credential that is absent is not sent, in a line saying how to give one. */
export interface Withheld {
  token?: string;
  apiKey?: string;
}

export interface ClientOptions extends Omit<TransportOptions, 'secrets'> {
  /** `{base_url}` of the contact operations. */
  contactsUrl: string;
  /** `{market_data_url}` of the market data operations. */
  marketDataUrl: string;
  /** Bearer token for contacts. */
  token?: string | undefined;
  /** API key for market data (sent as is, never with "Bearer"). */
  apiKey?: string | undefined;
  /**
   * Why a credential that is absent is not sent, in a line saying how to give one: the error a
   * call needing it fails with (the other group's calls go on).
   */
  withheld?: Withheld | undefined;
  /** Symbols per pricing request (the contract's maximum is 100). */
  pricingBatchSize?: number;
  /** Pricing requests in flight at once for a long watchlist. */
  pricingConcurrency?: number;
}

export interface CallOptions {
  signal?: AbortSignal | undefined;
}

export { normaliseSymbols } from './rules.js';

export class TickbookClient {
  readonly #transport: Transport;
  readonly #contactsBase: URL;
  readonly #marketBase: URL;
  readonly #token: string | undefined;
  readonly #apiKey: string | undefined;
  readonly #withheld: Withheld;
  readonly #batchSize: number;
  readonly #concurrency: number;
  /** For what the parsers quote of an answer; the transport screens the rest. */
  readonly #redactor: Redactor;
  /**
   * For contacts, the user's own data: only secrets long enough that no name, number or id holds
   * one by chance (a one-letter test token is in every other name).
   */
  readonly #echoes: Redactor;

  constructor(options: ClientOptions) {
    this.#contactsBase = baseUrl(options.contactsUrl, 'contacts URL');
    this.#marketBase = baseUrl(options.marketDataUrl, 'market data URL');
    this.#token = options.token || undefined;
    this.#apiKey = options.apiKey || undefined;
    this.#withheld = options.withheld ?? {};
    this.#batchSize = Math.min(100, Math.max(1, options.pricingBatchSize ?? 100));
    this.#concurrency = Math.max(1, options.pricingConcurrency ?? 5);
    const secrets = [this.#token, this.#apiKey].filter((s): s is string => s !== undefined);
    this.#redactor = new Redactor(secrets);
    this.#echoes = new Redactor(secrets.filter((secret) => secret.length >= 8));
    this.#transport = new Transport({ ...options, secrets });
  }

  /** Host names only, for a status line: never a credential. */
  get hosts(): { contacts: string; marketData: string } {
    return { contacts: this.#contactsBase.host, marketData: this.#marketBase.host };
  }

  async listContacts(query: PageQuery = {}, options: CallOptions = {}): Promise<ContactPage> {
    const url = this.#contactsUrl('/v1/contacts');
    if (query.limit !== undefined) url.searchParams.set('limit', String(query.limit));
    if (query.active !== undefined) url.searchParams.set('active', String(query.active));
    if (query.startingAfter !== undefined) url.searchParams.set('starting_after', query.startingAfter);
    if (query.endingBefore !== undefined) url.searchParams.set('ending_before', query.endingBefore);
    const reply = await this.#send({ method: 'GET', url, ...this.#bearer(), safe: true, signal: options.signal });
    const { contacts, hasMore } = this.#checked(() => parseContactList(reply.json), reply);
    contacts.forEach((contact) => this.#refuseEcho(contact, reply));
    return { contacts, hasMore, ...cursors(query, contacts, hasMore) };
  }

  /** Every contact, newest first, fetched a page at a time as the caller iterates. */
  async *allContacts(query: Pick<PageQuery, 'limit' | 'active'> = {}, options: CallOptions = {}): AsyncGenerator<Contact> {
    let next: PageQuery | undefined = { ...query };
    const seen = new Set<string>();
    while (next) {
      const page: ContactPage = await this.listContacts(next, options);
      // No last contact means no cursor to go on from: stopping here would pass a part for the whole.
      if (page.hasMore && page.contacts.length === 0) {
        throw new ApiError({
          kind: 'protocol',
          message: `the server sent an empty page saying more contacts follow (has_more: true); the list is incomplete after ${seen.size}`,
        });
      }
      for (const contact of page.contacts) {
        // A server that ignores the cursor would otherwise send this loop round forever.
        if (seen.has(contact.id)) {
          const message = `the server sent contact ${contact.id} twice while paging`;
          throw new ApiError({ kind: 'protocol', message: this.#redactor.screen(message, 'the server sent one contact twice while paging') });
        }
        seen.add(contact.id);
      }
      yield* page.contacts;
      next = page.next;
    }
  }

  /**
   * Creates a contact. The phone number is checked and sent in E.164 form, so that a server that
   * does not read a trunk prefix "(0)" as the contract does still stores a number that dials.
   */
  async createContact(contact: NewContact, options: CallOptions = {}): Promise<Contact> {
    const phone = parsePhoneNumber(contact.phoneNumber, 'phone_number');
    if (typeof phone !== 'string') throw new ApiError({ kind: 'invalid', message: phone.problem });
    const form = new URLSearchParams({ username: contact.username, phone_number: phone });
    if (contact.displayName !== undefined) form.set('display_name', contact.displayName);
    if (contact.avatarUrl !== undefined) form.set('avatar_url', contact.avatarUrl);
    return this.#contactCall('POST', this.#contactsUrl('/v1/contacts'), form, options);
  }

  async getContact(id: string, options: CallOptions = {}): Promise<Contact> {
    return this.#contactCall('GET', this.#contactUrl(id), undefined, options);
  }

  /** Renames a contact; null or an empty name resets it to none (shown as the username). */
  async updateContact(id: string, displayName: string | null, options: CallOptions = {}): Promise<Contact> {
    const form = new URLSearchParams({ display_name: displayName ?? '' });
    return this.#contactCall('PUT', this.#contactUrl(id), form, options);
  }

  async deleteContact(id: string, options: CallOptions = {}): Promise<DeleteResult> {
    const reply = await this.#send({
      method: 'DELETE',
      url: this.#contactUrl(id),
      ...this.#bearer(),
      safe: false,
      signal: options.signal,
    });
    return this.#checked(() => parseDeleted(reply.json, id), reply);
  }

  /**
   * Prices a watchlist of any length: split into batches the server accepts, a few in flight at
   * once, merged back in watchlist order. Symbols the server does not know, or that are not
   * symbols at all, come back in `unknown` instead of failing the rest.
   */
  async realtimePricing(symbols: readonly string[], options: CallOptions = {}): Promise<PricingResult> {
    options.signal?.throwIfAborted();
    const watchlist = normaliseSymbols(symbols);
    const sendable = watchlist.filter((s) => SYMBOL_PATTERN.test(s));
    const batches: string[][] = [];
    for (let i = 0; i < sendable.length; i += this.#batchSize) batches.push(sendable.slice(i, i + this.#batchSize));

    const quotes = new Map<string, Quote>();
    const rejected: RejectedQuote[] = [];
    let requestTime: Date | undefined;
    // One batch failing fails the call: the others are cancelled, not left running behind it.
    const batchAbort = new AbortController();
    const onAbort = () => batchAbort.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      await runLimited(batches, this.#concurrency, batchAbort, async (batch) => {
      const reply = await this.#send({
        method: 'POST',
        url: this.#marketUrl('/v1/utilities/stock/realtime-pricing'),
        ...this.#key(),
        body: { type: 'application/json', text: JSON.stringify({ symbols: batch }) },
        // Pricing changes nothing on the server: safe to retry.
        safe: true,
        signal: batchAbort.signal,
      });
      const result = this.#checked(() => parsePricing(reply.json), reply);
      for (const quote of result.quotes) quotes.set(quote.symbol, quote);
      rejected.push(...result.rejected.map((r) => this.#screenRejected(r)));
      if (result.requestTime && (!requestTime || result.requestTime > requestTime)) requestTime = result.requestTime;
      });
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
    }
    options.signal?.throwIfAborted();

    const known: Quote[] = [];
    const unknown: string[] = [];
    // A symbol whose record was bad is known to the server; it is not priced this time.
    const bad = new Set(rejected.map((r) => r.symbol));
    for (const symbol of watchlist) {
      const quote = quotes.get(symbol);
      if (quote) known.push(quote);
      else if (!bad.has(symbol)) unknown.push(symbol);
    }
    return { symbols: watchlist, quotes: known, unknown, rejected, requestTime: requestTime ?? new Date(), serverTime: requestTime !== undefined };
  }

  async listSymbols(options: CallOptions = {}): Promise<SymbolInfo[]> {
    const reply = await this.#send({
      method: 'GET',
      url: this.#marketUrl('/v1/utilities/stock/symbols'),
      ...this.#key(),
      safe: true,
      signal: options.signal,
    });
    return this.#checked(() => parseSymbols(reply.json), reply);
  }

  close(): Promise<void> {
    return this.#transport.close();
  }

  #send(out: Outgoing) {
    return this.#transport.send(out);
  }

  /** A contact operation answered with one contact; only the read is safe to retry. */
  async #contactCall(
    method: 'GET' | 'POST' | 'PUT',
    url: URL,
    form: URLSearchParams | undefined,
    options: CallOptions,
  ): Promise<Contact> {
    const reply = await this.#send({
      method,
      url,
      ...this.#bearer(),
      ...(form && { body: { type: 'application/x-www-form-urlencoded' as const, text: form.toString() } }),
      safe: method === 'GET',
      signal: options.signal,
    });
    return this.#refuseEcho(this.#checked(() => parseContact(reply.json), reply), reply);
  }

  #bearer(): Pick<Outgoing, 'authorization' | 'credential'> {
    if (!this.#token) {
      throw new ApiError({ kind: 'auth', message: this.#withheld.token ?? 'no bearer token is configured for the contacts API' });
    }
    return { authorization: `Bearer ${this.#token}`, credential: 'the bearer token for the contacts API' };
  }

  #key(): Pick<Outgoing, 'authorization' | 'credential'> {
    if (!this.#apiKey) {
      throw new ApiError({ kind: 'auth', message: this.#withheld.apiKey ?? 'no API key is configured for the market data API' });
    }
    return { authorization: this.#apiKey, credential: 'the API key for the market data API' };
  }

  /** checked(), with a message that quotes a credential the server sent back withheld. */
  /**
   * A contact whose text holds a credential is the server echoing it back (a contact can hold no
   * such thing of ours): it would be printed, logged as a cursor or put in a "more:" hint.
   */
  #refuseEcho(contact: Contact, reply: Incoming): Contact {
    const texts = [contact.id, contact.username, contact.phoneNumber, contact.avatarUrl ?? '', contact.displayName ?? '', contact.conversationId];
    if (!texts.some((text) => this.#echoes.holdsSecret(text))) return contact;
    throw new ApiError({
      kind: 'protocol',
      status: reply.status,
      ...(reply.requestId !== undefined && { requestId: reply.requestId }),
      message: 'the server sent a contact holding a credential of this request; it was withheld',
    });
  }

  #checked<T>(parse: () => T, reply: Incoming): T {
    try {
      return checked(parse, reply.requestId, reply.status);
    } catch (error) {
      if (!(error instanceof ApiError) || !this.#redactor.holdsSecret(error.message)) throw error;
      throw new ApiError({
        kind: error.kind,
        status: error.status,
        ...(error.requestId !== undefined && { requestId: error.requestId }),
        message: "the server's answer has an unexpected shape (the details were withheld: they contained a credential)",
      });
    }
  }

  #screenRejected(rejected: RejectedQuote): RejectedQuote {
    const symbol = rejected.symbol !== undefined && this.#redactor.holdsSecret(rejected.symbol) ? undefined : rejected.symbol;
    return { symbol, reason: this.#redactor.screen(rejected.reason, 'a record the server sent was withheld: it contained a credential') };
  }

  #contactsUrl(path: string): URL {
    return joinUrl(this.#contactsBase, path);
  }

  #contactUrl(id: string): URL {
    if (id.trim() === '') throw new ApiError({ kind: 'invalid', message: 'a contact id is required' });
    return this.#contactsUrl(`/v1/contacts/${encodeURIComponent(id)}`);
  }

  #marketUrl(path: string): URL {
    return joinUrl(this.#marketBase, path);
  }
}

function baseUrl(raw: string, what: string): URL {
  const parsed = parseBaseUrl(raw, `the ${what}`);
  if (parsed instanceof URL) return parsed;
  throw new ApiError({ kind: 'invalid', message: parsed.problem });
}

/** Appends an API path to a base URL that may itself carry a path prefix. */
function joinUrl(base: URL, path: string): URL {
  const url = new URL(base);
  url.pathname = `${base.pathname.replace(/\/+$/, '')}${path}`;
  url.search = '';
  url.hash = '';
  return url;
}

/** The queries for the pages on either side of a page just fetched with `query`. */
function cursors(
  query: PageQuery,
  contacts: readonly Contact[],
  hasMore: boolean,
): Pick<ContactPage, 'next' | 'previous'> {
  const first = contacts[0];
  const last = contacts.at(-1);
  const keep: PageQuery = {};
  if (query.limit !== undefined) keep.limit = query.limit;
  if (query.active !== undefined) keep.active = query.active;
  const backwards = query.endingBefore !== undefined;
  // Moving forward, has_more speaks of older pages; moving back, of newer ones. The other side
  // exists whenever we arrived through a cursor (we came from there).
  const olderExists = backwards ? last !== undefined : hasMore;
  const newerExists = backwards ? hasMore : query.startingAfter !== undefined && first !== undefined;
  return {
    next: olderExists && last ? { ...keep, startingAfter: last.id } : undefined,
    previous: newerExists && first ? { ...keep, endingBefore: first.id } : undefined,
  };
}

/**
 * Runs `work` over `items`, at most `limit` at once. The first failure rejects the whole and
 * aborts `abort`, so work under way stops and nothing more starts.
 */
async function runLimited<T>(
  items: readonly T[],
  limit: number,
  abort: AbortController,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let index = 0;
  let failure: unknown;
  const worker = async (): Promise<void> => {
    try {
      while (index < items.length && !abort.signal.aborted) await work(items[index++]!);
    } catch (error) {
      failure ??= error;
      abort.abort(error);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure !== undefined) throw failure;
}
