// Finding anyone among every contact by a few letters: display name, username and phone number,
// without regard to case or accents, fuzzy (uFuzzy) with the best matches first, and where each
// match is in the text, for highlighting. A phone number matches by its digits, however the
// query spaces them or writes its "+". "name:", "user:" and "phone:" narrow a query to a field.
import uFuzzy from '@leeoniya/ufuzzy';

/** What the search needs of a contact. */
export interface Searchable {
  id: string;
  username: string;
  displayName: string | null;
  phoneNumber: string;
}

export type SearchField = 'name' | 'username' | 'phone';

export interface SearchHit<C extends Searchable = Searchable> {
  contact: C;
  /** The field that matched best. */
  field: SearchField;
  /** [start, end) code-unit ranges of the matched characters in that field as shown. */
  ranges: [number, number][];
}

/**
 * Text folded for matching without changing its length, so that a match's ranges are the same
 * in the text as shown: each character lower-cased and without its accent where that keeps it one
 * UTF-16 unit ("É" → "e"); others as they are.
 */
/** Letters that are letters of their own, not a letter and an accent, read as their base letter. */
const OWN_LETTERS: Readonly<Record<string, string>> = { ł: 'l', Ł: 'l', ø: 'o', Ø: 'o', đ: 'd', Đ: 'd', ħ: 'h', Ħ: 'h', ı: 'i', ŧ: 't', Ŧ: 't' };

export function foldForSearch(text: string): string {
  // Most names are ASCII: lower case is all there is to do.
  if (/^[\x00-\x7f]*$/.test(text)) return text.toLowerCase();
  let folded = '';
  for (const char of text) {
    const own = OWN_LETTERS[char];
    if (own !== undefined) {
      folded += own;
      continue;
    }
    const plain = char.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    folded += plain.length === char.length ? plain : char.toLowerCase().length === char.length ? char.toLowerCase() : char;
  }
  return folded;
}

const SCOPES: Readonly<Record<string, SearchField>> = { name: 'name', user: 'username', username: 'username', phone: 'phone', tel: 'phone' };

/** A query's field scope ("user:jo" → username) and what is searched for. */
export function parseQuery(query: string): { field: SearchField | undefined; text: string } {
  const match = /^\s*([a-z]+):\s*(.*)$/i.exec(query);
  const field = match ? SCOPES[match[1]!.toLowerCase()] : undefined;
  return field ? { field, text: match![2]!.trim() } : { field: undefined, text: query.trim() };
}

/** How many matches are ranked by uFuzzy's measures; past that the first found are (a letter or two). */
const RANKED = 1000;
/** The field a tie goes to, and what counts when a contact matches in several. */
const FIELD_ORDER: readonly SearchField[] = ['name', 'username', 'phone'];

export class ContactSearch<C extends Searchable = Searchable> {
  readonly contacts: readonly C[];
  readonly #haystacks: Record<Exclude<SearchField, 'phone'>, string[]>;
  readonly #digits: string[];
  // Latin letters only, as folded: uFuzzy's Unicode setup (\p{L} in every pattern) cost 25-50 ms
  // a first-typed keystroke over 10,000 names, this 1-3 ms. Other scripts are matched as they are
  // written, by substring (#substring).
  readonly #fuzzy = new uFuzzy({ intraMode: 0, intraIns: 1 });

  constructor(contacts: readonly C[]) {
    this.contacts = contacts;
    this.#haystacks = {
      // The name as the list shows it: the username where there is no display name.
      name: contacts.map((c) => foldForSearch(c.displayName ?? c.username)),
      username: contacts.map((c) => foldForSearch(c.username)),
    };
    this.#digits = contacts.map((c) => c.phoneNumber.replace(/\D/g, ''));
  }

  /** The contacts matching `query`, best first, at most `limit`. An empty query matches none. */
  search(query: string, limit = 200): SearchHit<C>[] {
    const { field, text } = parseQuery(query);
    if (text === '') return [];
    // Rank per contact: the best place it reached in any field, then the field's order.
    const best = new Map<number, { rank: number; field: SearchField; ranges: [number, number][] }>();
    const offer = (i: number, rank: number, f: SearchField, ranges: [number, number][]) => {
      const had = best.get(i);
      if (!had || rank < had.rank || (rank === had.rank && FIELD_ORDER.indexOf(f) < FIELD_ORDER.indexOf(had.field))) best.set(i, { rank, field: f, ranges });
    };
    const needle = foldForSearch(text);
    // Digits as typed, spaces, dashes, dots and "+" aside, anywhere in the number.
    const digits = text.replace(/[\s+\-.()]/g, '');
    // A number typed ("+44 20", "7946"): no name is fuzzily like it, and a username holds it as it is.
    const numberTyped = /^\d+$/.test(digits) && /^[\d\s+\-.()]+$/.test(text);
    for (const f of ['name', 'username'] as const) {
      if (field !== undefined && field !== f) continue;
      if (numberTyped) this.#substring(this.#haystacks[f], needle, (i, rank, ranges) => offer(i, rank + RANKED, f, ranges));
      else this.#fuzzyField(this.#haystacks[f], needle, (i, rank, ranges) => offer(i, rank, f, ranges));
    }
    if ((field === undefined || field === 'phone') && /^\d+$/.test(digits)) {
      for (let i = 0; i < this.#digits.length; i++) {
        const at = this.#digits[i]!.indexOf(digits);
        if (at < 0) continue;
        // Shown with its "+": the digit at `at` is one unit further on. A number that starts with
        // the digits ranks first, as a prefix of a name would.
        offer(i, at === 0 ? 0 : RANKED, 'phone', [[at + 1, at + 1 + digits.length]]);
      }
    }
    return [...best]
      .sort((a, b) => a[1].rank - b[1].rank || FIELD_ORDER.indexOf(a[1].field) - FIELD_ORDER.indexOf(b[1].field) || a[0] - b[0])
      .slice(0, limit)
      .map(([i, hit]) => ({ contact: this.contacts[i]!, field: hit.field, ranges: hit.ranges }));
  }

  /** uFuzzy over one field: each match's place in its order (a prefix first) and its ranges. */
  #fuzzyField(haystack: string[], needle: string, found: (i: number, rank: number, ranges: [number, number][]) => void): void {
    // 李伟, Γιώργος: written in a script of their own, matched where they stand.
    if (!/^[\x00-\x7f]*$/.test(needle)) return this.#substring(haystack, needle, found);
    const [idxs, info, order] = this.#fuzzy.search(haystack, needle, 0, RANKED);
    if (!idxs) return;
    if (info && order) {
      order.forEach((o, rank) => {
        const i = info.idx[o]!;
        // A field that starts with what was typed comes before one that only holds it.
        const prefix = haystack[i]!.startsWith(needle) ? 0 : 1;
        found(i, prefix * RANKED + rank, pairs(info.ranges[o]!));
      });
      return;
    }
    // Too many to rank (one letter over thousands): the first found, each with its ranges.
    const first = idxs.slice(0, RANKED);
    const some = this.#fuzzy.info(first, haystack, needle);
    first.forEach((i, k) => found(i, 2 * RANKED + k, pairs(some.ranges[k]!)));
  }

  /** Where the text stands in each field, a field starting with it first. */
  #substring(haystack: string[], needle: string, found: (i: number, rank: number, ranges: [number, number][]) => void): void {
    for (let i = 0; i < haystack.length; i++) {
      const at = haystack[i]!.indexOf(needle);
      if (at >= 0) found(i, at === 0 ? 0 : RANKED, [[at, at + needle.length]]);
    }
  }
}

/** uFuzzy's flat [start0, end0, start1, end1, …] as pairs. */
function pairs(flat: readonly number[]): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push([flat[i]!, flat[i + 1]!]);
  return out;
}
