// UTF-16 bytes (a file that begins with a byte-order mark, as Excel's "Unicode text" and some
// address books save it) as UTF-8 bytes, a chunk at a time, so that the readers of UTF-8 text read
// it as any other: a byte or a surrogate cut between two chunks is carried to the next. Checked as
// they pass, as UTF-8 text is: the first unpaired surrogate, odd byte at the end or NUL character
// is a fault, on the line it is on.

/** A fault in UTF-16 text: the line it is on (from 1), and what it is. */
export interface Utf16Fault {
  line: number;
  kind: 'nul' | 'utf16';
}

/** The byte order a byte-order mark at the start of `bytes` gives, or undefined when there is none. */
export function utf16Of(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const linesIn = (text: string, end = text.length): number => {
  let count = 0;
  for (let at = text.indexOf('\n'); at >= 0 && at < end; at = text.indexOf('\n', at + 1)) count++;
  return count;
};

export class Utf16Text {
  readonly #bigEndian: boolean;
  #carry: Buffer = Buffer.alloc(0);
  #begun = false;
  /** Line ends given out so far. */
  #lines = 0;

  constructor(encoding: 'utf-16le' | 'utf-16be') {
    this.#bigEndian = encoding === 'utf-16be';
  }

  /** The UTF-8 bytes of the text that ends in `chunk` (with what came before it), or its first fault. */
  push(chunk: Buffer): Buffer | Utf16Fault {
    let bytes = this.#carry.length > 0 ? Buffer.concat([this.#carry, chunk]) : chunk;
    if (!this.#begun) {
      if (bytes.length < 2) {
        this.#carry = Buffer.from(bytes);
        return Buffer.alloc(0);
      }
      // The byte-order mark: no character of the text.
      bytes = bytes.subarray(2);
      this.#begun = true;
    }
    const whole = bytes.length - (bytes.length % 2);
    const units = this.#bigEndian ? Buffer.from(bytes.subarray(0, whole)).swap16() : bytes.subarray(0, whole);
    let text = units.toString('utf16le');
    let kept = bytes.length - whole;
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      // A surrogate pair cut in two: its first half waits for the second.
      text = text.slice(0, -1);
      kept += 2;
    }
    // Copied: a kept slice would hold the whole chunk.
    this.#carry = Buffer.from(bytes.subarray(bytes.length - kept));
    const lone = LONE_SURROGATE.exec(text)?.index ?? -1;
    const nul = text.indexOf('\0');
    if (lone >= 0 || nul >= 0) {
      const first = lone < 0 || (nul >= 0 && nul < lone) ? nul : lone;
      return { line: this.#lines + linesIn(text, first) + 1, kind: first === nul ? 'nul' : 'utf16' };
    }
    this.#lines += linesIn(text);
    return Buffer.from(text, 'utf8');
  }

  /** At the end: a byte or half a surrogate pair left over is a fault. */
  end(): Utf16Fault | undefined {
    return this.#carry.length > 0 && this.#begun ? { line: this.#lines + 1, kind: 'utf16' } : undefined;
  }
}
