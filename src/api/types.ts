// What the client hands its callers: checked, typed, with times as Dates.

export interface Contact {
  id: string;
  username: string;
  phoneNumber: string;
  avatarUrl: string | null;
  /** Null when the contact has none: show `contactName(contact)` instead. */
  displayName: string | null;
  conversationId: string;
  lastActiveAt: Date | null;
  createdAt: Date;
}

/** Where a page starts: after a contact, before one, or (neither) at the newest. */
export interface PageQuery {
  limit?: number;
  /** true: only contacts that have been active; false: only never active; absent: all. */
  active?: boolean;
  startingAfter?: string;
  endingBefore?: string;
}

export interface ContactPage {
  contacts: Contact[];
  /** More contacts exist beyond this page in the direction it was fetched. */
  hasMore: boolean;
  /** The query for the page after this one (older contacts), if there is one. */
  next: PageQuery | undefined;
  /** The query for the page before this one (newer contacts), if there is one. */
  previous: PageQuery | undefined;
}

export interface NewContact {
  username: string;
  phoneNumber: string;
  displayName?: string;
  avatarUrl?: string;
}

export interface Quote {
  symbol: string;
  price: number;
  volume: number;
}

export interface PricingResult {
  /** The watchlist as sent (trimmed, upper-cased, de-duplicated), in its own order. */
  symbols: string[];
  /** Prices of the known symbols, in watchlist order. */
  quotes: Quote[];
  /** Symbols the server does not know (or that are not symbols at all), in watchlist order. */
  unknown: string[];
  /** Records the server sent that are not prices (a negative price, no volume): left out, named. */
  rejected: RejectedQuote[];
  /** When the (last) server answered: its request_time, or this machine's clock when it sent none. */
  requestTime: Date;
  /** Whether requestTime is the server's own (request_time) rather than this machine's; not said, not known. */
  serverTime?: boolean;
}

/** A price record that was left out, and why. */
export interface RejectedQuote {
  /** The record's symbol, when it had one. */
  symbol: string | undefined;
  /** "price is negative (-5)", "volume is missing", "stock_data[3].symbol is not a non-empty string". */
  reason: string;
}

/** One line for a left-out record: "AAPL: price is negative (-5)". */
export const describeRejected = (rejected: RejectedQuote): string =>
  rejected.symbol === undefined ? rejected.reason : `${rejected.symbol}: ${rejected.reason}`;

export interface SymbolInfo {
  symbol: string;
  name: string;
}

export interface DeleteResult {
  id: string;
  deleted: true;
}

/** The name to show for a contact: its display name, or its username when it has none. */
export function contactName(contact: Pick<Contact, 'displayName' | 'username'>): string {
  return contact.displayName ?? contact.username;
}
