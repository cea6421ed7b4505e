// The command line as the bytes that were typed. Node decodes argv as UTF-8 and turns every byte
// that is not UTF-8 into U+FFFD, so `--display-name $'Jos\xe9'` (a Latin-1 terminal) would be
// stored as "Jos�" with nobody told. Here such a byte becomes a lone surrogate U+DC80–U+DCFF
// instead (Python's "surrogateescape"): no valid UTF-8 decodes to one, so it marks exactly the
// bytes that were not text, and a U+FFFD the user really typed (EF BF BD) stays valid.
import { readFileSync } from 'node:fs';

/**
 * A byte that was not UTF-8, as the lone surrogate standing for it; U+DC00 (no argument holds a
 * NUL byte) where only Node's U+FFFD was there to tell, the byte itself unknown.
 */
const NOT_TEXT = /[\uDC00\uDC80-\uDCFF]/u;
const UNKNOWN_BYTE = '\uDC00';

/** `bytes` decoded as UTF-8, each byte outside a valid sequence as U+DC00 + byte. */
export function decodeEscapingBytes(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; ) {
    const lead = bytes[i]!;
    // Lengths and second-byte ranges from the Unicode standard's table of well-formed UTF-8
    // (no overlong forms, no surrogates, nothing above U+10FFFF).
    let length = 0;
    let low = 0x80;
    let high = 0xbf;
    if (lead < 0x80) length = 1;
    else if (lead >= 0xc2 && lead <= 0xdf) length = 2;
    else if (lead >= 0xe0 && lead <= 0xef) {
      length = 3;
      if (lead === 0xe0) low = 0xa0;
      if (lead === 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      length = 4;
      if (lead === 0xf0) low = 0x90;
      if (lead === 0xf4) high = 0x8f;
    }
    let valid = length > 0 && i + length <= bytes.length;
    for (let k = 1; valid && k < length; k++) {
      const b = bytes[i + k]!;
      valid = k === 1 ? b >= low && b <= high : b >= 0x80 && b <= 0xbf;
    }
    if (!valid) {
      out += String.fromCharCode(0xdc00 + lead);
      i++;
      continue;
    }
    out += Buffer.from(bytes.subarray(i, i + length)).toString('utf8');
    i += length;
  }
  return out;
}

/** The arguments' raw bytes on Linux (the end of /proc/self/cmdline); undefined elsewhere. */
function rawArguments(count: number): Uint8Array[] | undefined {
  let cmdline: Buffer;
  try {
    cmdline = readFileSync('/proc/self/cmdline');
  } catch {
    return undefined;
  }
  const parts: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i < cmdline.length; i++) {
    if (cmdline[i] === 0) {
      parts.push(cmdline.subarray(start, i));
      start = i + 1;
    }
  }
  // Node's own options and the script come first; the arguments are always the last ones.
  return parts.length >= count ? parts.slice(parts.length - count) : undefined;
}

/**
 * process.argv after the script, with every byte that was not UTF-8 as a lone surrogate (see
 * above). Where the raw bytes cannot be had, a U+FFFD is taken for such a byte, since that is
 * far more often what it is than a replacement character typed on purpose.
 */
export function commandLineArguments(argv: readonly string[] = process.argv.slice(2)): string[] {
  const decoded = rawArguments(argv.length)?.map(decodeEscapingBytes);
  // The bytes must be these arguments: the same text around the places that were not. (Node may
  // put one U+FFFD for several bytes, so those places are left out of the comparison.)
  const around = (arg: string) => arg.replace(/[\uFFFD\uDC80-\uDCFF]/gu, '');
  if (decoded?.every((arg, i) => around(arg) === around(argv[i]!))) return decoded;
  return argv.map((arg) => arg.replace(/\uFFFD/g, UNKNOWN_BYTE));
}

/** Whether an argument holds a byte that was not UTF-8. */
export const isNotText = (arg: string): boolean => NOT_TEXT.test(arg);

/** An argument for a message: its bytes that were not text as \xNN, the rest as typed. */
export const shownArgument = (arg: string): string =>
  `"${Array.from(arg, (ch) =>
    ch === UNKNOWN_BYTE
      ? '\\ufffd'
      : NOT_TEXT.test(ch)
        ? `\\x${(ch.charCodeAt(0) - 0xdc00).toString(16)}`
        : JSON.stringify(ch).slice(1, -1),
  ).join('')}"`;
