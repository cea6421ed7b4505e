// A CSV file's records found in its bytes, a chunk at a time, each kept only up to a limit: where
// csv-parse holds a record however long it grows (one unclosed quote takes in the rest of the
// file), this holds at most `limit` bytes of one, and says where a quote that never closes was
// opened. The rules are csv-parse's, as the import calls it (relax_quotes, skip_empty_lines, bom):
// a quote opens a quoted field only at the field's start, "" inside it is a quote, and any other
// quote closes it; the record delimiter is the first line end found outside quotes (CRLF, LF or
// CR) and only that one after. Each record's text is then read into cells by csv-parse itself.
// Working on bytes is safe for UTF-8: no byte of a multi-byte character is an ASCII one.

import { parse } from 'csv-parse/sync';

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

export interface CsvRecord {
  /** The record's bytes without its line end; undefined when it was larger than the limit. */
  bytes: Buffer | undefined;
  /** Its size in bytes, all of it, also when not kept. */
  size: number;
  /** Its number among the file's records, from 1 (the header's), empty lines not counted. */
  row: number;
  /** Where it ends in the file, in bytes, its line end included. */
  end: number;
}

/** A quote that is still open at the end of the file: the record it opened in, and where. */
export interface UnclosedQuote {
  row: number;
  /** The quote's place in the file, in bytes. */
  offset: number;
}

export type RecordDelimiter = '\r\n' | '\n' | '\r';

export class CsvRecordSplitter {
  readonly #delimiter: number;
  readonly #limit: number;
  readonly #keep: boolean;
  #quoting = false;
  #fieldStart = true;
  #recordDelimiter: RecordDelimiter | undefined;
  /** The current record's bytes from chunks before this one (while within the limit). */
  #parts: Buffer[] = [];
  #size = 0;
  #rows = 0;
  #quoteAt = 0;
  /** Where the current chunk's first byte is in the file. */
  #base = 0;
  /** Bytes of the last chunk left until the next says what they are (a CR, a quote). */
  #held: Buffer | undefined;
  #bomChecked = false;

  /**
   * @param delimiter the field delimiter, one ASCII character (`,`, `;` or a tab)
   * @param limit the largest record kept, in bytes
   * @param keep false when only the records' bounds are wanted (the check before an import)
   */
  constructor(delimiter: string, limit: number, keep = true) {
    this.#delimiter = delimiter.charCodeAt(0);
    this.#limit = limit;
    this.#keep = keep;
  }

  /** The line end the file's records end with, once one is found. */
  get recordDelimiter(): RecordDelimiter | undefined {
    return this.#recordDelimiter;
  }

  /** The records that end in what has come so far. */
  push(chunk: Buffer): CsvRecord[] {
    return this.#scan(chunk, false);
  }

  /** The last record (one without a line end), or the quote never closed. */
  end(): CsvRecord[] | UnclosedQuote {
    const records = this.#scan(Buffer.alloc(0), true);
    if (this.#quoting) return { row: this.#rows + 1, offset: this.#quoteAt };
    return records;
  }

  #scan(chunk: Buffer, final: boolean): CsvRecord[] {
    let buf = chunk;
    if (this.#held) {
      buf = Buffer.concat([this.#held, chunk]);
      this.#base -= this.#held.length;
      this.#held = undefined;
    }
    let i = 0;
    if (!this.#bomChecked) {
      if (buf.length < 3 && !final) {
        this.#held = buf;
        this.#base += buf.length;
        return [];
      }
      this.#bomChecked = true;
      if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) i = 3;
    }
    const records: CsvRecord[] = [];
    let start = i;
    const length = buf.length;
    const finish = (at: number, ending: number) => {
      this.#add(buf, start, at);
      const size = this.#size;
      const kept = this.#keep && size <= this.#limit;
      // An empty line is no record (skip_empty_lines).
      if (size > 0) {
        const bytes = kept ? (this.#parts.length === 1 ? this.#parts[0]! : Buffer.concat(this.#parts, size)) : undefined;
        records.push({ bytes, size, row: ++this.#rows, end: this.#base + at + ending });
      }
      this.#parts = [];
      this.#size = 0;
      this.#fieldStart = true;
      start = at + ending;
    };
    let hold = -1;
    // Not looked for yet.
    let nextDelimiter = -2;
    let nextCr = -2;
    let nextLf = -2;
    while (i < length) {
      if (this.#quoting) {
        const quote = buf.indexOf(QUOTE, i);
        if (quote < 0) break;
        if (quote + 1 === length && !final) {
          hold = quote;
          break;
        }
        if (buf[quote + 1] === QUOTE) {
          i = quote + 2;
          continue;
        }
        this.#quoting = false;
        this.#fieldStart = false;
        i = quote + 1;
        continue;
      }
      if (this.#fieldStart && buf[i] === QUOTE) {
        this.#quoting = true;
        this.#quoteAt = this.#base + i;
        this.#fieldStart = false;
        i++;
        continue;
      }
      // On to the next byte that can mean something outside quotes (a delimiter or a line end),
      // found natively: the bytes between are a field's own.
      // Each looked for again only once passed; -1 is none left in this chunk.
      if (nextDelimiter !== -1 && nextDelimiter < i) nextDelimiter = buf.indexOf(this.#delimiter, i);
      if (nextCr !== -1 && nextCr < i) nextCr = buf.indexOf(CR, i);
      if (nextLf !== -1 && nextLf < i) nextLf = buf.indexOf(LF, i);
      let next = length;
      for (const at of [nextDelimiter, nextCr, nextLf]) if (at >= 0 && at < next) next = at;
      if (next > i) this.#fieldStart = false;
      i = next;
      if (i === length) break;
      const byte = buf[i]!;
      if (byte === CR || byte === LF) {
        if (this.#recordDelimiter === undefined || this.#recordDelimiter === '\r\n') {
          if (byte === CR && i + 1 === length && !final) {
            hold = i;
            break;
          }
          const crlf = byte === CR && buf[i + 1] === LF;
          this.#recordDelimiter ??= crlf ? '\r\n' : byte === CR ? '\r' : '\n';
          if (this.#recordDelimiter === '\r\n' ? crlf : true) {
            finish(i, crlf ? 2 : 1);
            i = start;
            continue;
          }
        } else if (byte === this.#recordDelimiter.charCodeAt(0)) {
          finish(i, 1);
          i = start;
          continue;
        }
        this.#fieldStart = false;
        i++;
        continue;
      }
      // The delimiter: a new field starts after it.
      this.#fieldStart = true;
      i++;
    }
    const end = hold >= 0 ? hold : length;
    if (final && !this.#quoting) {
      if (start < end || this.#size > 0) finish(end, 0);
    } else this.#add(buf, start, end);
    if (hold >= 0) this.#held = Buffer.from(buf.subarray(hold));
    this.#base += length;
    return records;
  }

  /** `buf[from, to)` to the current record, kept while the record is within the limit. */
  #add(buf: Buffer, from: number, to: number): void {
    if (to <= from) return;
    this.#size += to - from;
    if (!this.#keep) return;
    if (this.#size > this.#limit) this.#parts = [];
    // A slice, which keeps its chunk: at most the limit and a chunk are held.
    else this.#parts.push(buf.subarray(from, to));
  }
}

/** csv-parse's reading of whole records: a row's text, its line end not in it. */
const parseRecords = (text: string, delimiter: string, recordDelimiter: RecordDelimiter | undefined): string[][] =>
  parse(text, { delimiter, relax_quotes: true, relax_column_count: true, record_delimiter: recordDelimiter ?? '\n' }) as string[][];

/**
 * The cells of one record's text as csv-parse reads them (relax_quotes, relax_column_count), the
 * file's line end given. Without a quote in it, a record is its text split at the delimiter, as
 * csv-parse would make it, for a fraction of the cost of a parser.
 */
export function cellsOf(text: string, delimiter: string, recordDelimiter: RecordDelimiter | undefined): string[] {
  if (!text.includes('"')) return text.split(delimiter);
  const records = parseRecords(text, delimiter, recordDelimiter);
  // The splitter and csv-parse go by the same rules: one record each time.
  if (records.length > 1) throw new Error(`one row read as ${records.length}`);
  return records[0] ?? [];
}

/**
 * The cells of each of `texts` (records found together, in a chunk), or the error reading one: as
 * cellsOf, but the records with quotes read by one parser, joined by their line end (a parser
 * made for each row costs three times as much). Were the parser to count the records otherwise,
 * each is read alone.
 */
export function cellsOfEach(texts: readonly string[], delimiter: string, recordDelimiter: RecordDelimiter | undefined): (string[] | Error)[] {
  const cells: (string[] | Error)[] = texts.map((text) => (text.includes('"') ? [] : text.split(delimiter)));
  const quoted = texts.flatMap((text, i) => (text.includes('"') ? [i] : []));
  if (quoted.length === 0) return cells;
  let records: string[][] | undefined;
  try {
    if (recordDelimiter !== undefined) records = parseRecords(quoted.map((i) => texts[i]).join(recordDelimiter), delimiter, recordDelimiter);
  } catch {
    // One of them is at fault: each is read alone below, to say which.
  }
  for (const [k, i] of quoted.entries()) {
    if (records?.length === quoted.length) cells[i] = records[k]!;
    else {
      try {
        cells[i] = cellsOf(texts[i]!, delimiter, recordDelimiter);
      } catch (error) {
        cells[i] = error as Error;
      }
    }
  }
  return cells;
}
