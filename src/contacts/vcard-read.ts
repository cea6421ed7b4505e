// Cards read as phones and mail address books export them (2.1, 3.0, 4.0 or no VERSION at all), a
// line at a time, leniently: ical.js parses by the letter of 3.0 and 4.0, so a card was refused
// whole for one property tickbook never uses (a Mac's `PHOTO;BASE64:`, a bare `TEL;CELL` in 3.0, a
// card without VERSION, a comment line), and each of 2.1's forms had to be rewritten into 3.0
// before it could read them. Here only the structure has to hold (BEGIN and END, properties as
// name:value lines); the properties tickbook uses (FN, N, NICKNAME, TEL, PHOTO, UID) are read in
// every form exporters write (vcard-values.ts, vcard-fields.ts), and every other one is passed
// over unread.
import { truncate } from '../text/width.js';
import { contentOf, type Line, LineSplitter } from './text-lines.js';
import { type CardFields, fieldsOf } from './vcard-fields.js';
import { CardLineReader } from './vcard-lines.js';
import { type Unended, withoutBom } from './vcard-splitter.js';
import { CardProblem, CardValues, type Property } from './vcard-values.js';

/** A few words of a line or value for a message: never the 24 KB of a photo. */
const excerpt = (text: string): string => JSON.stringify(truncate(text.slice(0, 200), 40));

/** Properties whose value tickbook takes (and the card's own lines): a line that is no property after one breaks the card. */
const USED = new Set(['BEGIN', 'VERSION', 'FN', 'N', 'NICKNAME', 'TEL', 'PHOTO', 'UID']);

/** How a card's values are read: in a UTF-16 file, text is decoded already (CHARSET then speaks of quoted-printable bytes only). */
interface ReadOptions {
  /** The file line the card begins on, for messages. */
  line?: number | undefined;
  decoded?: boolean | undefined;
  /** What came instead of its END:VCARD, when the splitter knows (for the message). */
  unended?: Unended | undefined;
}

/** The fields of one card, from its bytes as written, or why it cannot be read. */
export function readCard(raw: Buffer | string, options: ReadOptions = {}): CardFields | { problem: string } {
  try {
    return fieldsOf(propertiesOf(typeof raw === 'string' ? Buffer.from(raw) : raw, options.line ?? 1, options.unended), new CardValues(options.decoded ?? false));
  } catch (error) {
    if (error instanceof CardProblem) return { problem: error.message };
    throw error;
  }
}

/**
 * Why a card with no END:VCARD is refused, in the file's lines: the card's line is the report's
 * (`phone.vcf card at line 12: …`), so this names where it stops; `cut`, its last line when that
 * is no property (a file cut short in the middle of one).
 */
function unendedProblem(lastLine: number, unended: Unended | undefined, cut: string | undefined): string {
  const cutOff = cut === undefined ? '' : `, its last line cut off: ${cut}`;
  if (unended === 'next card') return `it has no END:VCARD before the next BEGIN:VCARD, at line ${lastLine + 1}${cutOff}`;
  if (unended === 'end of file') return `it has no END:VCARD before the file ends, at line ${lastLine}${cutOff} (is the file cut short?)`;
  return `it has no END:VCARD: its last line is line ${lastLine}${cutOff}`;
}

/** The card's own properties, in order (a nested card's left out), once its structure is seen to hold. */
function propertiesOf(bytes: Buffer, firstLine: number, unended?: Unended): Property[] {
  const splitter = new LineSplitter(Number.POSITIVE_INFINITY);
  const lines = [...splitter.push(bytes), ...splitter.end()] as Line[];
  const reader = new CardLineReader();
  const properties: Property[] = [];
  let current: Property | undefined;
  let depth = 0;
  for (const [i, line] of lines.entries()) {
    const content = i === 0 ? withoutBom(contentOf(line)) : contentOf(line);
    const read = reader.next(content);
    const value = content.subarray(read.valueAt);
    if (read.kind === 'blank' || read.kind === 'comment') continue;
    const head = read.head;
    const mark = head && (head.name === 'BEGIN' || head.name === 'END' || head.name === 'AGENT') ? value.toString('latin1').trim().toUpperCase() : undefined;
    if (depth === 0) {
      if (read.kind === 'folded' && /^[ \t]+BEGIN[ \t]*:[ \t]*VCARD[ \t]*$/i.test(content.toString('latin1'))) {
        throw new CardProblem('BEGIN:VCARD is indented: a line that begins with a space or a tab goes on from the line before it (RFC 6350 folding), so nothing of the card can be read');
      }
      if (head?.name !== 'BEGIN' || mark !== 'VCARD') throw new CardProblem('not a vCard (it does not begin with BEGIN:VCARD)');
      depth = 1;
      current = { head, parts: [] };
      continue;
    }
    if (head) {
      if (head.name === 'END' && mark === 'VCARD') {
        if (--depth === 0) return properties;
        current = undefined;
        continue;
      }
      // A card within this one (2.1's AGENT): another person's, not read into this one.
      if ((head.name === 'BEGIN' && mark === 'VCARD') || (head.name === 'AGENT' && mark === 'BEGIN:VCARD')) depth++;
      if (depth > 1) {
        current = undefined;
        continue;
      }
      current = { head, parts: [value] };
      properties.push(current);
      continue;
    }
    if (depth > 1) continue;
    if (read.kind === 'loose' && (current === undefined || USED.has(current.head.name))) {
      // The card's last line with no END:VCARD after it: most likely a file cut short inside a
      // line; its missing end is what to say.
      if (i === lines.length - 1) throw new CardProblem(unendedProblem(firstLine + i, unended, excerpt(content.toString('utf8'))));
      throw new CardProblem(`line ${firstLine + i} is not a property (name:value): ${excerpt(content.toString('utf8'))}`);
    }
    if (!current) continue;
    if (read.kind === 'soft-break') {
      // The "=" that ended the line before is no byte of the value.
      const last = current.parts.length - 1;
      current.parts[last] = current.parts[last]!.subarray(0, -1);
    } else if (read.kind === 'backslash' || read.kind === 'loose') {
      // The backslash that ended the line before and this "n" are the escape of a line break.
      current.parts.push(Buffer.from(read.kind === 'loose' ? '\\n' : 'n'));
    }
    current.parts.push(value);
  }
  throw new CardProblem(unendedProblem(firstLine + Math.max(0, lines.length - 1), unended, undefined));
}
