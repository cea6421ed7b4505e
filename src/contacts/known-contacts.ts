// The contact list as an import knows it while it runs: read whole before the first create, and
// kept up to date with each contact it creates (and each create that fails), so that a card or row
// is judged against what is there (same-contact.ts) without asking the server again.
import type { HeldContact } from './same-contact.js';

/**
 * What the contact list holds already: each contact by username (any case) with its phone
 * number, the ids, and how many hold each phone number (for the report's note, never a reason
 * not to create).
 */
export class KnownContacts {
  readonly #byUsername = new Map<string, HeldContact>();
  readonly #ids = new Set<string>();
  readonly #phones = new Map<string, number>();
  add(contact: { username: string; phoneNumber: string; displayName?: string | null | undefined; id?: string }): void {
    this.#byUsername.set(contact.username.toLowerCase(), { phoneNumber: contact.phoneNumber, displayName: contact.displayName });
    this.#phones.set(contact.phoneNumber, (this.#phones.get(contact.phoneNumber) ?? 0) + 1);
    if (contact.id !== undefined) this.#ids.add(contact.id);
  }
  remove(contact: { username: string; phoneNumber: string }): void {
    this.#byUsername.delete(contact.username.toLowerCase());
    const holders = this.#phones.get(contact.phoneNumber) ?? 0;
    if (holders > 1) this.#phones.set(contact.phoneNumber, holders - 1);
    else this.#phones.delete(contact.phoneNumber);
  }
  hasId(id: string): boolean {
    return this.#ids.has(id);
  }
  /** Whether another contact holds this phone number. */
  isShared(phone: string): boolean {
    return this.#phones.has(phone);
  }
  held(username: string): HeldContact | undefined {
    return this.#byUsername.get(username.toLowerCase());
  }
  get size(): number {
    return this.#byUsername.size;
  }
}
