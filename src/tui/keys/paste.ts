// Bracketed paste: what the terminal sends around a paste, and the paste as a one-line field
// takes it. Every field of the dashboard is one line: a line break in a paste becomes a space
// (never Enter, which would save the field and run the rest of the paste as commands).

/**
 * The most of a paste a field is given, in characters: far more than any field of ours holds,
 * and little enough that a 1 MiB paste does not stall the keyboard while it is taken apart.
 */
export const FIELD_PASTE_MAX = 4096;

export const PASTE_START = '\u001b[200~';
export const PASTE_END = '\u001b[201~';

const SEQUENCE = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[^[\]])?/g;
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * A paste as one line: line breaks (CRLF, CR, LF) and tabs inside it become one space each, those
 * at its ends go; escape sequences (colours copied from a terminal) and other control characters
 * are dropped.
 */
export function pastedLine(text: string): string {
  return text
    .replace(SEQUENCE, '')
    .replace(/\r\n?/g, '\n')
    .replace(CONTROL, '')
    .replace(/^[\n\t]+|[\n\t]+$/g, '')
    .replace(/[\n\t]/g, ' ');
}

/** How many characters at the end of `text` could be the start of `mark`, cut between two reads. */
export function partialMarkAtEnd(text: string, mark: string): number {
  for (let length = Math.min(mark.length - 1, text.length); length > 0; length--) {
    if (text.endsWith(mark.slice(0, length))) return length;
  }
  return 0;
}
