// A vCard file's lines into its cards, each with its bytes exactly as written (for a rejects file),
// before any card is read: so that every card is counted, and one that cannot be read is refused
// alone, with the line it begins on, whatever is wrong inside it (never ended, too large, nested).
import type { Line, LongLine } from './text-lines.js';
import { headOf } from './vcard-lines.js';

/** One card of a file: its bytes as written (none when too large to keep), the line it begins on. */
export interface RawCard {
  raw: Buffer | undefined;
  line: number;
  /** A card never ended: what came instead of its END:VCARD (the next card, or the end of the file). */
  unended?: Unended | undefined;
}

/** What ends a card that has no END:VCARD. */
export type Unended = 'next card' | 'end of file';


/** Whether `bytes` begin with the byte-order mark a UTF-8 file may start with. */
const hasBom = (bytes: Buffer): boolean => bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;

/** Bytes without the byte-order mark a UTF-8 file may start with. */
export const withoutBom = (bytes: Buffer): Buffer => (hasBom(bytes) ? bytes.subarray(3) : bytes);

const CR = 0x0d;

const isSpace = (byte: number | undefined): boolean => byte === 0x20 || byte === 0x09;

/** Where a line's text begins: after the BOM a file may start with, and (`indented`) its spaces and tabs. */
function textStart(raw: Buffer, size: number, indented: boolean): number {
  let from = hasBom(raw) ? 3 : 0;
  if (indented) while (from < size && isSpace(raw[from])) from++;
  return from;
}

/**
 * A BEGIN, END or AGENT line as the card reader reads it (any case, parameters, spaces around the
 * value: `BEGIN: VCARD`), normalised: `BEGIN:VCARD`, `END:VCARD`, `AGENT:BEGIN:VCARD`, `AGENT:`;
 * '' for a line that cannot be one (most lines: told by their first byte, not made into text).
 * `indented`: after spaces or tabs too (a card that begins indented is counted, and refused).
 */
function markOf({ raw, size }: Line, indented = false): string {
  const from = textStart(raw, size, indented);
  // BEGIN, END or AGENT, in any case; all short.
  const first = (raw[from] ?? 0) | 0x20;
  if (size - from > 80 || (first !== 0x62 && first !== 0x65 && first !== 0x61)) return '';
  const head = headOf(raw.subarray(from, size));
  if (head === undefined || (head.name !== 'BEGIN' && head.name !== 'END' && head.name !== 'AGENT')) return '';
  return `${head.name}:${raw.toString('latin1', from + head.valueAt, size).trim().toUpperCase()}`;
}

/**
 * A line of a file of LF (or CRLF) line ends that begins a card of lone-CR line ends (a classic
 * Mac's card after a Unix one: `cat unix.vcf mac.vcf`), split at its CRs, each part after the
 * first on the same line of the file: so that its cards end, and are counted, where they end, and
 * each is read by its own line ends. Any other line is given as it is: a lone CR inside a value of
 * an LF card stays text.
 */
export function crCardLines(line: Line | LongLine): (Line | LongLine)[] {
  if (!('raw' in line)) return [line];
  const { raw, size } = line;
  const from = textStart(raw, size, true);
  // BEGIN:VCARD and a CR right after it: within the first few bytes, told by the first.
  if (((raw[from] ?? 0) | 0x20) !== 0x62) return [line];
  const cr = raw.subarray(0, Math.min(size, from + 80)).indexOf(CR);
  if (cr < 0 || markOf({ raw: raw.subarray(0, cr), size: cr }, true) !== 'BEGIN:VCARD') return [line];
  const parts: Line[] = [];
  let start = 0;
  for (let at = cr; at >= 0 && at < size; at = raw.indexOf(CR, start)) {
    parts.push({ raw: raw.subarray(start, at + 1), size: at - start, ...(start > 0 && { sameLine: true }) });
    start = at + 1;
  }
  parts.push({ raw: raw.subarray(start), size: size - start, sameLine: true });
  return parts;
}

/**
 * The cards of a file's lines, each with its bytes exactly as written (its line ends, a stray CR),
 * in order, as the lines come. Every BEGIN:VCARD outside a card begins one, so that every card is
 * counted: one never ended is given when the next begins (its reader says what is wrong with it),
 * and a card nested in another (2.1's AGENT, `AGENT:` then BEGIN:VCARD) is part of the card that
 * holds it. A card larger than `limit` bytes (or holding a line too long to be kept) is given with
 * no bytes, at the line it began on, and what follows it is passed over until the next BEGIN:VCARD.
 */
export class CardSplitter {
  readonly #limit: number;
  #card: Buffer[] | undefined;
  #size = 0;
  #start = 0;
  #depth = 0;
  #afterAgent = false;
  /** The card began with spaces or tabs before its BEGIN:VCARD: its END:VCARD may have them too. */
  #indented = false;
  /** Lines so far. */
  #n = 0;

  constructor(limit = Number.POSITIVE_INFINITY) {
    this.#limit = limit;
  }

  /** The cards that end in `lines` (with those before them). */
  push(lines: readonly (Line | LongLine)[]): RawCard[] {
    const cards: RawCard[] = [];
    for (const line of lines) this.#line(line, cards);
    return cards;
  }

  /** The last card, when the file ends inside one. */
  end(): RawCard[] {
    const card = this.#card;
    this.#card = undefined;
    return card ? [{ raw: Buffer.concat(card), line: this.#start, unended: 'end of file' }] : [];
  }

  #line(line: Line | LongLine, cards: RawCard[]): void {
    if (!('raw' in line) || !line.sameLine) this.#n++;
    if (!('raw' in line)) {
      if (this.#card) cards.push({ raw: undefined, line: this.#start });
      this.#card = undefined;
      return;
    }
    // Outside a card a BEGIN:VCARD after spaces begins one too (its reader says why it cannot be
    // read); inside, an indented line is a folded one, unless the card itself began so.
    const mark = markOf(line, !this.#card || this.#indented);
    const begins = mark === 'BEGIN:VCARD';
    if (this.#card && begins && !this.#afterAgent) {
      // A card never ended: given as it is, and this one begun.
      cards.push({ raw: Buffer.concat(this.#card), line: this.#start, unended: 'next card' });
      this.#card = undefined;
    }
    if (!this.#card) {
      if (!begins) return;
      // Its bytes from BEGIN, without the BOM a file may start with.
      this.#card = [this.#n === 1 ? withoutBom(line.raw) : line.raw];
      this.#size = line.raw.length;
      this.#start = this.#n;
      this.#depth = 1;
      this.#afterAgent = false;
      this.#indented = isSpace(line.raw[textStart(line.raw, line.size, false)]);
      return;
    }
    this.#card.push(line.raw);
    this.#size += line.raw.length;
    if (begins || mark === 'AGENT:BEGIN:VCARD') this.#depth++;
    else if (mark === 'END:VCARD') this.#depth--;
    this.#afterAgent = mark === 'AGENT:';
    if (this.#size > this.#limit) {
      cards.push({ raw: undefined, line: this.#start });
      this.#card = undefined;
    } else if (this.#depth === 0) {
      cards.push({ raw: Buffer.concat(this.#card), line: this.#start });
      this.#card = undefined;
    }
  }
}
