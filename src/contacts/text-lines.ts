// A file's lines from its bytes, a chunk at a time, each with its line end as written (so that a
// card refused can be written back byte for byte), never holding more than `limit` bytes of one:
// a longer line is given as its length alone (and its first bad byte, since its bytes are not
// kept to be checked later). The line ends are those address books write: LF, CRLF, CR CR LF
// (iPhone) and, in a file whose first line ends so, a lone CR (classic Mac OS). Elsewhere a lone
// CR is text (a stray one in a value), not a line end.
import { type TextFault, TextBytesCheck } from '../text/text-bytes.js';

const CR = 0x0d;
const LF = 0x0a;

/** One line: its bytes with its line end, and how many of them come before the line end. */
export interface Line {
  raw: Buffer;
  size: number;
  /**
   * Split from the line before it at a lone CR (a card of lone-CR line ends in a file of LF ones:
   * see crCardLines): on the same line of the file, not counted as another.
   */
  sameLine?: boolean | undefined;
}

/** A line longer than the limit, in place of its bytes. */
export interface LongLine {
  /** Its length in bytes, without its line end. */
  long: number;
  /** Its first byte that is not UTF-8 text (or a NUL), where in the whole. */
  fault?: TextFault | undefined;
}

/** The bytes of a line before its line end. */
export const contentOf = (line: Line): Buffer => line.raw.subarray(0, line.size);

export class LineSplitter {
  readonly #limit: number;
  #parts: Buffer[] = [];
  #size = 0;
  /** The line being read is longer than the limit: its bytes are checked as they pass, not kept. */
  #long: TextBytesCheck | undefined;
  #longFault: TextFault | undefined;
  /** CRs at the end of the last chunk: a line end or not, by what comes next. */
  #pendingCrs = 0;
  /** How a lone CR is read: decided by the file's first line end. */
  #mode: 'lf' | 'cr' | undefined;
  /** Bytes before the current chunk's first. */
  #offset = 0;
  #lineEnd = 0;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Bytes read up to the end of the last line given out. */
  get offset(): number {
    return this.#lineEnd;
  }

  /** The lines that end in `chunk` (with what came before it). */
  push(chunk: Buffer): (Line | LongLine)[] {
    const lines: (Line | LongLine)[] = [];
    let start = 0;
    if (this.#pendingCrs > 0) start = this.#afterPendingCrs(chunk, lines);
    if (start >= 0) this.#scan(chunk, start, lines);
    this.#offset += chunk.length;
    return lines;
  }

  /** The last line, when the file does not end with a line end. */
  end(): (Line | LongLine)[] {
    const lines: (Line | LongLine)[] = [];
    const crs = this.#pendingCrs;
    this.#pendingCrs = 0;
    const none = Buffer.alloc(0);
    if (crs > 0) {
      // CRs at the very end: the line's end (each one a line end, in a file of lone CRs).
      const first = this.#mode === 'cr' ? 1 : crs;
      lines.push(this.#line(none, 0, 0, 0, first, this.#offset - crs + first));
      for (let i = first; i < crs; i++) lines.push({ raw: Buffer.from([CR]), size: 0 });
    } else if (this.#size > 0) lines.push(this.#line(none, 0, 0, 0, 0, this.#offset));
    this.#lineEnd = this.#offset;
    return lines;
  }

  /**
   * The CRs left over from the last chunk, now that `chunk` says what they are: the index in
   * `chunk` where scanning goes on, or -1 when the chunk was all CRs (still pending).
   */
  #afterPendingCrs(chunk: Buffer, lines: (Line | LongLine)[]): number {
    let more = 0;
    while (more < chunk.length && chunk[more] === CR) more++;
    if (more === chunk.length) {
      this.#pendingCrs += more;
      return -1;
    }
    const before = this.#pendingCrs;
    this.#pendingCrs = 0;
    if (chunk[more] === LF) {
      this.#mode ??= 'lf';
      lines.push(this.#line(chunk, 0, 0, more + 1, before, this.#offset + more + 1));
      return more + 1;
    }
    if (this.#mode === 'lf') {
      // Text: the CRs of the last chunk join the line; this chunk's are scanned as ever.
      this.#add(Buffer.alloc(before, CR), 0, before);
      return 0;
    }
    this.#mode = 'cr';
    lines.push(this.#line(chunk, 0, 0, 0, 1, this.#offset - before + 1));
    for (let i = 1; i < before + more; i++) lines.push({ raw: Buffer.from([CR]), size: 0 });
    this.#lineEnd = this.#offset + more;
    return more;
  }

  #scan(chunk: Buffer, from: number, lines: (Line | LongLine)[]): void {
    let start = from;
    let cr = chunk.indexOf(CR, from);
    let lf = chunk.indexOf(LF, from);
    while (cr >= 0 || lf >= 0) {
      if (lf >= 0 && (cr < 0 || lf < cr)) {
        this.#mode ??= 'lf';
        lines.push(this.#line(chunk, start, lf, lf + 1, 0, this.#offset + lf + 1));
        start = lf + 1;
      } else {
        let run = cr;
        while (run < chunk.length && chunk[run] === CR) run++;
        if (run === chunk.length) {
          // Whether these end the line is the next chunk's to say.
          this.#add(chunk, start, cr);
          this.#pendingCrs = run - cr;
          return;
        }
        if (chunk[run] === LF) {
          this.#mode ??= 'lf';
          lines.push(this.#line(chunk, start, cr, run + 1, 0, this.#offset + run + 1));
          start = run + 1;
        } else if (this.#mode === 'lf') {
          // A lone CR inside a line of a file of LF or CRLF ends: text.
          cr = chunk.indexOf(CR, run);
          continue;
        } else {
          this.#mode = 'cr';
          lines.push(this.#line(chunk, start, cr, cr + 1, 0, this.#offset + cr + 1));
          for (let at = cr + 1; at < run; at++) lines.push({ raw: chunk.subarray(at, at + 1), size: 0 });
          this.#lineEnd = this.#offset + run;
          start = run;
        }
      }
      if (cr >= 0 && cr < start) cr = chunk.indexOf(CR, start);
      if (lf >= 0 && lf < start) lf = chunk.indexOf(LF, start);
    }
    this.#add(chunk, start, chunk.length);
  }

  /**
   * The line of the bytes kept and `chunk` from `from` to `to`; its line end is `crsBefore` CRs
   * left over from the last chunk, then `chunk` from `to` to `endTo`; it ends at `end` in the whole.
   */
  #line(chunk: Buffer, from: number, to: number, endTo: number, crsBefore: number, end: number): Line | LongLine {
    let line: Line | LongLine;
    if (this.#size === 0 && crsBefore === 0 && to - from <= this.#limit) line = { raw: chunk.subarray(from, endTo), size: to - from };
    else {
      this.#add(chunk, from, to);
      if (this.#long) line = this.#takeLong();
      else {
        const parts = this.#parts;
        const size = this.#size;
        if (crsBefore > 0) parts.push(Buffer.alloc(crsBefore, CR));
        parts.push(chunk.subarray(to, endTo));
        this.#parts = [];
        this.#size = 0;
        line = { raw: Buffer.concat(parts), size };
      }
    }
    this.#lineEnd = end;
    return line;
  }

  #takeLong(): LongLine {
    const fault = this.#longFault ?? this.#long?.end();
    const long: LongLine = { long: this.#size, ...(fault && { fault }) };
    this.#parts = [];
    this.#size = 0;
    this.#long = undefined;
    this.#longFault = undefined;
    return long;
  }

  #add(chunk: Buffer, from: number, to: number): void {
    if (to <= from) return;
    this.#size += to - from;
    const bytes = chunk.subarray(from, to);
    if (!this.#long && this.#size > this.#limit) {
      // Too long to keep: what was kept is checked now, the rest as it comes.
      this.#long = new TextBytesCheck(this.#lineEnd);
      for (const part of this.#parts) this.#checkLong(part);
      this.#parts = [];
    }
    if (this.#long) this.#checkLong(bytes);
    else this.#parts.push(bytes);
  }

  #checkLong(bytes: Buffer): void {
    const fault = this.#long!.push(bytes);
    this.#longFault ??= fault;
  }
}
