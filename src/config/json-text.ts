// A config file as the text the user wrote. Reading it says where a mistake is (line and
// column); changing keys splices new values into the text, so that everything else (keys
// tickbook does not know, numbers beyond a double's precision, order, spacing, a byte-order
// mark) stays exactly as it was. Parsing and re-serialising would lose some of that.

/** A JSON syntax error at a place in the text, counted from 1 as editors do. */
export class JsonSyntaxError extends Error {
  override readonly name = 'JsonSyntaxError';
  constructor(
    readonly problem: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`invalid JSON at line ${line}, column ${column}: ${problem}`);
  }
}

/** One `"key": value` of the top-level object, as offsets into the text. */
interface Member {
  key: string;
  /** Where the key's opening quote is. */
  start: number;
  valueStart: number;
  valueEnd: number;
}

interface ObjectText {
  /** The parsed object, every key kept. */
  value: Record<string, unknown>;
  members: Member[];
  /** Where the closing brace is. */
  close: number;
}

const BOM = '\uFEFF';
const WHITESPACE = /[ \t\n\r]*/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const LITERAL = /true|false|null/y;

/** A character as a person reads it in a message. */
const shown = (ch: string | undefined): string => (ch === undefined ? 'the end of the file' : JSON.stringify(ch));

class Scanner {
  at = 0;
  constructor(readonly text: string) {}

  fail(problem: string, at = this.at): never {
    const before = this.text.slice(0, at);
    const line = before.split('\n').length;
    const column = at - (before.lastIndexOf('\n') + 1) + 1;
    throw new JsonSyntaxError(problem, line, column);
  }

  skipWhitespace(): void {
    WHITESPACE.lastIndex = this.at;
    WHITESPACE.exec(this.text);
    this.at = WHITESPACE.lastIndex;
  }

  match(pattern: RegExp): string | undefined {
    pattern.lastIndex = this.at;
    const found = pattern.exec(this.text)?.[0];
    if (found !== undefined) this.at += found.length;
    return found;
  }

  expect(ch: string, what: string): void {
    if (this.text[this.at] !== ch) this.fail(`expected ${what}, found ${shown(this.text[this.at])}`);
    this.at++;
  }

  string(): void {
    if (this.match(STRING) !== undefined) return;
    // Say what is wrong inside it: the first thing the pattern could not take.
    for (let i = this.at + 1; i < this.text.length; i++) {
      const ch = this.text[i]!;
      if (ch === '"') break;
      if (ch < ' ') this.fail(ch === '\n' ? 'a string runs past the end of the line' : 'a control character in a string', i);
      if (ch === '\\') {
        if (!/^\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/.test(this.text.slice(i, i + 6))) this.fail('an invalid escape in a string', i);
        i++;
      }
    }
    this.fail('a string is not closed');
  }

  value(depth: number): void {
    if (depth > 512) this.fail('nested too deeply');
    this.skipWhitespace();
    const ch = this.text[this.at];
    if (ch === '{') {
      this.object(depth);
      return;
    }
    if (ch === '[') return this.array(depth);
    if (ch === '"') return this.string();
    if (this.match(LITERAL) !== undefined || this.match(NUMBER) !== undefined) return;
    this.fail(ch === undefined ? 'the file ends where a value should be' : `expected a value, found ${shown(ch)}`);
  }

  /** Calls `each` with the key and where its member lies; returns where the closing brace is. */
  object(depth: number, each?: (member: Member) => void): number {
    this.expect('{', '"{"');
    this.skipWhitespace();
    if (this.text[this.at] === '}') return this.at++;
    for (;;) {
      this.skipWhitespace();
      const start = this.at;
      if (this.text[this.at] !== '"') {
        const found = this.text[this.at];
        this.fail(found === '}' ? 'a comma before "}" (JSON allows none there)' : `expected a key in double quotes, found ${shown(found)}`);
      }
      this.string();
      const key = JSON.parse(this.text.slice(start, this.at)) as string;
      this.skipWhitespace();
      this.expect(':', '":" after the key');
      this.skipWhitespace();
      const valueStart = this.at;
      this.value(depth + 1);
      each?.({ key, start, valueStart, valueEnd: this.at });
      this.skipWhitespace();
      if (this.text[this.at] === '}') return this.at++;
      this.expect(',', '"," or "}"');
    }
  }

  array(depth: number): void {
    this.expect('[', '"["');
    this.skipWhitespace();
    if (this.text[this.at] === ']') {
      this.at++;
      return;
    }
    for (;;) {
      this.value(depth + 1);
      this.skipWhitespace();
      if (this.text[this.at] === ']') {
        this.at++;
        return;
      }
      this.expect(',', '"," or "]"');
    }
  }
}

/** Whether the text holds no settings at all: empty, or only whitespace (and a byte-order mark). */
export const isBlank = (text: string): boolean => text.replace(BOM, '').trim() === '';

/**
 * The top-level object of `text` and where its members are. Throws a JsonSyntaxError at the
 * first mistake, or an Error when the text is JSON but not an object.
 */
export function parseObjectText(text: string): ObjectText {
  const scanner = new Scanner(text);
  if (text.startsWith(BOM)) scanner.at = 1;
  scanner.skipWhitespace();
  if (scanner.text[scanner.at] !== '{') {
    const start = scanner.at;
    scanner.value(0);
    scanner.skipWhitespace();
    if (scanner.at < text.length) scanner.fail(`unexpected ${shown(text[scanner.at])} after the value`);
    throw new NotAnObject(start);
  }
  const members: Member[] = [];
  const close = scanner.object(0, (member) => members.push(member));
  scanner.skipWhitespace();
  if (scanner.at < text.length) scanner.fail(`unexpected ${shown(text[scanner.at])} after the closing "}"`);
  const value = JSON.parse(text.slice(text.startsWith(BOM) ? 1 : 0)) as Record<string, unknown>;
  return { value, members, close };
}

/** Valid JSON that is not an object. */
export class NotAnObject extends Error {
  override readonly name = 'NotAnObject';
  constructor(readonly at: number) {
    super('the file must hold a JSON object, like {"base_url": "https://…"}');
  }
}

/** How a value is written into the file: small arrays on one line, as a person would. */
const written = (value: unknown): string =>
  Array.isArray(value) ? `[${value.map((item) => JSON.stringify(item) ?? 'null').join(', ')}]` : JSON.stringify(value);

/**
 * `text` with each key of `changes` set to its value (an undefined value leaves the key as it
 * is), and every other byte as it was. A key written twice is set in both places, so that whichever one a
 * reader keeps holds the new value. Blank text becomes a new object.
 */
export function setKeysInText(text: string, changes: object): string {
  if (isBlank(text)) {
    const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
    return `${text.startsWith(BOM) ? BOM : ''}{\n${entries.map(([k, v]) => `  ${JSON.stringify(k)}: ${written(v)}`).join(',\n')}\n}\n`;
  }
  const { members, close } = parseObjectText(text);
  // Edits from the end backwards, so that earlier offsets stay true.
  const edits: { from: number; to: number; insert: string }[] = [];
  const absent: [string, unknown][] = [];
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    const found = members.filter((m) => m.key === key);
    if (found.length === 0) absent.push([key, value]);
    for (const member of found) edits.push({ from: member.valueStart, to: member.valueEnd, insert: written(value) });
  }
  if (absent.length > 0) {
    const indent = indentOf(text, members[0]);
    const last = members.at(-1);
    const pairs = absent.map(([k, v]) => `${JSON.stringify(k)}: ${written(v)}`);
    const lines = pairs.map((pair) => `${indent ?? '  '}${pair}`);
    if (last && indent === undefined) {
      // Written on one line: so are the new members.
      edits.push({ from: last.valueEnd, to: last.valueEnd, insert: `, ${pairs.join(', ')}` });
    } else if (last) {
      edits.push({ from: last.valueEnd, to: last.valueEnd, insert: `,\n${lines.join(',\n')}` });
    } else {
      // An empty object: the new members go in on their own lines.
      edits.push({ from: close, to: close, insert: `\n${lines.join(',\n')}\n` });
    }
  }
  edits.sort((a, b) => b.from - a.from);
  let out = text;
  for (const edit of edits) out = out.slice(0, edit.from) + edit.insert + out.slice(edit.to);
  return out;
}

/** The whitespace that starts the line a member is on, when the member starts its line. */
function indentOf(text: string, member: Member | undefined): string | undefined {
  if (!member) return undefined;
  const lineStart = text.lastIndexOf('\n', member.start - 1) + 1;
  const before = text.slice(lineStart, member.start);
  return /^[ \t]*$/.test(before) ? before : undefined;
}
