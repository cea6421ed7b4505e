// A file's lines from its bytes, a chunk at a time, as node:readline splits them (CRLF, LF or a
// lone CR ends a line), but never holding more than `limit` bytes of one: readline keeps a line
// however long it grows, so a file of one 300 MB line was read whole. A longer line is given as
// its length alone.

const CR = 0x0d;
const LF = 0x0a;

/** A line longer than the limit, in place of its text. */
export interface LongLine {
  /** Its length in bytes. */
  long: number;
}

export class LineSplitter {
  readonly #limit: number;
  #parts: Buffer[] = [];
  #size = 0;
  /** The last chunk ended with a CR: an LF first in the next is the same line end. */
  #afterCr = false;
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
  push(chunk: Buffer): (string | LongLine)[] {
    const lines: (string | LongLine)[] = [];
    let start = 0;
    if (this.#afterCr && chunk[0] === LF) {
      start = 1;
      this.#lineEnd = this.#offset + 1;
    }
    this.#afterCr = false;
    let cr = chunk.indexOf(CR, start);
    let lf = chunk.indexOf(LF, start);
    while (cr >= 0 || lf >= 0) {
      const at = cr >= 0 && (lf < 0 || cr < lf) ? cr : lf;
      lines.push(this.#line(chunk, start, at));
      let next = at + 1;
      if (at === cr) {
        if (chunk[at + 1] === LF) next++;
        else if (at + 1 === chunk.length) this.#afterCr = true;
      }
      this.#lineEnd = this.#offset + next;
      start = next;
      if (cr >= 0 && cr < start) cr = chunk.indexOf(CR, start);
      if (lf >= 0 && lf < start) lf = chunk.indexOf(LF, start);
    }
    this.#add(chunk, start, chunk.length);
    this.#offset += chunk.length;
    return lines;
  }

  /** The last line, when the file does not end with a line end. */
  end(): (string | LongLine)[] {
    if (this.#size === 0) return [];
    const last = this.#line(Buffer.alloc(0), 0, 0);
    this.#lineEnd = this.#offset;
    return [last];
  }

  #line(chunk: Buffer, from: number, to: number): string | LongLine {
    if (this.#size === 0) return to - from > this.#limit ? { long: to - from } : chunk.toString('utf8', from, to);
    this.#add(chunk, from, to);
    const size = this.#size;
    const parts = this.#parts;
    this.#parts = [];
    this.#size = 0;
    return size > this.#limit ? { long: size } : Buffer.concat(parts, size).toString('utf8');
  }

  #add(chunk: Buffer, from: number, to: number): void {
    if (to <= from) return;
    this.#size += to - from;
    if (this.#size > this.#limit) this.#parts = [];
    else this.#parts.push(chunk.subarray(from, to));
  }
}
