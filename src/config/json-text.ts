// A config file as the text the user wrote, read and changed with Microsoft's jsonc-parser (the
// parser of VS Code's settings). Reading it says where a mistake is (line and column); changing
// keys edits the text in place, so that everything else (keys tickbook does not know, numbers
// beyond a double's precision, order, spacing, line endings, a byte-order mark) stays exactly as
// it was. Parsing and re-serialising would lose some of that.
//
// jsonc-parser reads JSON with comments; with comments disallowed and no trailing commas it
// accepts exactly JSON, and JSON.parse, which gives the value, checks the text once more.
import {
  applyEdits,
  createScanner,
  type Edit,
  format,
  type FormattingOptions,
  modify,
  type Node,
  type ParseErrorCode,
  parseTree,
  printParseErrorCode,
  visit,
} from 'jsonc-parser';

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

/** Valid JSON that is not an object. */
export class NotAnObject extends Error {
  override readonly name = 'NotAnObject';
  constructor() {
    super('the file must hold a JSON object, like {"base_url": "https://…"}');
  }
}

const BOM = '\uFEFF';
/** Deeper than this is refused: jsonc-parser recurses, and would overflow the stack. */
const MAX_DEPTH = 512;
const STRICT = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false } as const;

/** Whether the text holds no settings at all: empty, or only whitespace (and a byte-order mark). */
export const isBlank = (text: string): boolean => text.replace(BOM, '').trim() === '';

/** The text without its byte-order mark: jsonc-parser does not take one, and columns do not count it. */
const splitBom = (text: string): [bom: string, body: string] => (text.startsWith(BOM) ? [BOM, text.slice(1)] : ['', text]);

/** A JsonSyntaxError at an offset of `body`. Lines end at \n, \r\n or \r, as in jsonc-parser. */
function syntaxError(body: string, at: number, problem: string): JsonSyntaxError {
  const lines = body.slice(0, at).split(/\r\n|\r|\n/);
  return new JsonSyntaxError(problem, lines.length, lines.at(-1)!.length + 1);
}

/**
 * The top-level object of `text`, every key kept (the last of a key written twice, as JSON.parse
 * does). Throws a JsonSyntaxError at the first mistake, or a NotAnObject when the text is JSON but
 * not an object.
 */
export function parseObjectText(text: string): Record<string, unknown> {
  const [, body] = splitBom(text);
  checkDepth(body);
  const problem = firstProblem(body);
  if (problem) throw syntaxError(body, problem.at, problem.message);
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    // Not seen: jsonc-parser refuses all JSON.parse refuses. Said in JSON.parse's words if it happens.
    const message = error instanceof Error ? error.message : String(error);
    const at = /at position (\d+)/.exec(message)?.[1];
    throw syntaxError(body, at === undefined ? body.length : Number(at), message.replace(/,? ?(?:in JSON )?at position \d+.*$/s, ''));
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new NotAnObject();
  return value as Record<string, unknown>;
}

/** Refuses nesting deeper than MAX_DEPTH at the bracket that goes too deep, scanning without recursion. */
function checkDepth(body: string): void {
  const scanner = createScanner(body, true);
  let depth = 0;
  while (scanner.getPosition() < body.length) {
    scanner.scan();
    const at = scanner.getTokenOffset();
    const token = scanner.getTokenLength() === 1 ? body[at] : undefined;
    if (token === '{' || token === '[') depth++;
    else if (token === '}' || token === ']') depth--;
    if (depth > MAX_DEPTH) throw syntaxError(body, at, `nested too deeply (more than ${MAX_DEPTH} levels)`);
  }
}

/** What the parser looked for when it met a mistake, and in what. */
interface State {
  expecting: 'value' | 'key' | 'colon' | 'comma' | 'end';
  container: 'object' | 'array' | undefined;
  /** What came before, when the end of the file was expected. */
  after: string;
}

/** The first mistake in `body`, in words, and where it is. */
function firstProblem(body: string): { at: number; message: string } | undefined {
  const containers: ('object' | 'array')[] = [];
  let expecting: State['expecting'] = 'value';
  let rootIsObject = false;
  // jsonc-parser ends a container before it says that its closing brace is missing.
  let beforeEnd: State | undefined;
  let problem: { at: number; message: string } | undefined;
  const state = (): State => ({ expecting, container: containers.at(-1), after: rootIsObject ? 'the closing "}"' : 'the value' });
  const afterValue = (): void => {
    expecting = containers.length > 0 ? 'comma' : 'end';
  };
  const end = (): void => {
    beforeEnd = state();
    containers.pop();
    afterValue();
  };
  visit(
    body,
    {
      onObjectBegin: () => {
        if (containers.length === 0) rootIsObject = true;
        containers.push('object');
        expecting = 'key';
      },
      onObjectProperty: () => {
        expecting = 'colon';
      },
      onObjectEnd: end,
      onArrayBegin: () => {
        containers.push('array');
        expecting = 'value';
      },
      onArrayEnd: end,
      onLiteralValue: afterValue,
      onSeparator: (ch) => {
        expecting = ch === ':' ? 'value' : containers.at(-1) === 'object' ? 'key' : 'value';
      },
      onError: (code, offset, length) => {
        const closing = ['CloseBraceExpected', 'CloseBracketExpected'].includes(printParseErrorCode(code));
        problem ??= describe(body, code, offset, length, (closing && beforeEnd) || state());
      },
    },
    STRICT,
  );
  return problem;
}

/**
 * What was found, as a person reads it in a message: one character as it is, anything longer by
 * its kind, never its text. The file may hold a token or an API key, and a mistake beside one
 * must not print it.
 */
function shown(token: string): string {
  if (token === '') return 'the end of the file';
  if ([...token].length === 1) {
    // A space that is not one, or a character that shows as nothing, by its code.
    return JSON.stringify(token).replace(/(?! )[\p{Z}\p{C}]/gu, (ch) => `\\u${ch.codePointAt(0)!.toString(16).padStart(4, '0')}`);
  }
  if (token.startsWith('"')) return 'a string';
  if (token.startsWith("'")) return 'text in single quotes';
  if (/^[-+.0-9]/.test(token)) return 'a number';
  return 'a word without quotes';
}

/** The first character of a string token that JSON does not allow there, and why. */
const STRING_FLAW = /[\u0000-\u001f]|\\(?!["\\/bfnrt]|u[0-9a-fA-F]{4})/;

/** jsonc-parser's error code in plain words, with what the parser was looking for. */
function describe(
  body: string,
  code: ParseErrorCode,
  offset: number,
  length: number,
  state: State,
): { at: number; message: string } {
  const token = body.slice(offset, offset + length);
  const at = (message: string, where = offset): { at: number; message: string } => ({ at: where, message });
  switch (printParseErrorCode(code)) {
    case 'InvalidCommentToken':
    case 'UnexpectedEndOfComment':
      return at('comments are not allowed in JSON');
    case 'UnexpectedEndOfString': {
      // A string stops at the end of its line, or of the file.
      const end = body.slice(offset + 1).search(/[\r\n]/);
      return end === -1 ? at('a string is not closed') : at('a string runs past the end of the line', offset + 1 + end);
    }
    case 'InvalidCharacter':
    case 'InvalidEscapeCharacter':
    case 'InvalidUnicode': {
      const flaw = STRING_FLAW.exec(token);
      if (!flaw) return at('an invalid string');
      return at(flaw[0] === '\\' ? 'an invalid escape in a string' : 'a control character in a string', offset + flaw.index);
    }
    case 'UnexpectedEndOfNumber':
    case 'InvalidNumberFormat':
      return at(`an incomplete number, found ${shown(token)}`);
  }
  // A mistake in the structure: say what should have been there.
  const found = offset >= body.length ? '' : token || body[offset]!;
  const trailingComma = body.slice(0, offset).trimEnd().endsWith(',');
  const { expecting, container } = state;
  if (trailingComma && ((expecting === 'key' && found === '}') || (expecting === 'value' && container === 'array' && found === ']'))) {
    return at(`a comma before "${found}" (JSON allows none there)`);
  }
  switch (expecting) {
    case 'end':
      return at(`unexpected ${shown(found)} after ${state.after}`);
    case 'value':
      return at(found === '' ? 'the file ends where a value should be' : `expected a value, found ${shown(found)}`);
    case 'key':
      return at(`expected a key in double quotes, found ${shown(found)}`);
    case 'colon':
      return at(`expected ":" after the key, found ${shown(found)}`);
    case 'comma':
      return at(`expected "," or "${container === 'array' ? ']' : '}'}", found ${shown(found)}`);
  }
}

/** How a value is written into the file: small arrays on one line, as a person would. */
const written = (value: unknown): string =>
  Array.isArray(value) ? `[${value.map((item) => JSON.stringify(item) ?? 'null').join(', ')}]` : JSON.stringify(value);

/** The top-level object's `"key": value` members. */
const membersOf = (body: string): Node[] => parseTree(body, [], STRICT)?.children ?? [];

/**
 * How the file lays out its members, for a new one: on one line with the opening brace, or each
 * on its own line indented like the first (tabs or so many spaces), with the file's line ending.
 */
function layoutOf(body: string, first: Node | undefined): { oneLine: boolean; options: FormattingOptions } {
  const eol = /\r\n|\n|\r/.exec(body)?.[0] ?? '\n';
  const lineStart = first ? Math.max(body.lastIndexOf('\n', first.offset - 1), body.lastIndexOf('\r', first.offset - 1)) + 1 : 0;
  const indent = first ? body.slice(lineStart, first.offset) : '  ';
  if (!/^[ \t]*$/.test(indent)) return { oneLine: true, options: { insertSpaces: true, tabSize: 2, eol } };
  const tabs = indent !== '' && /^\t+$/.test(indent);
  return { oneLine: false, options: { insertSpaces: !tabs, tabSize: tabs ? 4 : indent.length || 2, eol } };
}

/** `body` with `key` added to the top-level object (as null: its value is written afterwards). */
function addMember(body: string, key: string): string {
  const members = membersOf(body);
  const { oneLine, options } = layoutOf(body, members[0]);
  if (members.length === 0) {
    // An empty object: jsonc-parser lays it out, the new member on its own line.
    return applyEdits(body, modify(body, [key], null, { formattingOptions: options }));
  }
  // After the last member: modify's own formatting would lay out again every line the change
  // touches (the last member's value too), so only the inserted text is formatted.
  const inserted = modify(body, [key], null, {});
  const spliced = applyEdits(body, inserted);
  const ranges = inserted.map((edit) => ({ offset: edit.offset, length: edit.content.length }));
  return applyEdits(spliced, ranges.flatMap((range) => format(spliced, range, { ...options, keepLines: oneLine })));
}

/**
 * `text` with each key of `changes` set to its value (an undefined value leaves the key as it
 * is), and every other byte as it was. A key written twice is set in both places, so that
 * whichever one a reader keeps holds the new value. Blank text becomes a new object. Throws as
 * parseObjectText does when the text is not a JSON object.
 */
export function setKeysInText(text: string, changes: object): string {
  const [bom, original] = splitBom(text);
  const entries = new Map(Object.entries(changes).filter(([, value]) => value !== undefined));
  let body = isBlank(original) ? `{}${/\r\n|\n|\r/.exec(original)?.[0] ?? '\n'}` : original;
  parseObjectText(body);
  const present = new Set(membersOf(body).map((member) => member.children?.[0]?.value as string));
  for (const key of entries.keys()) if (!present.has(key)) body = addMember(body, key);
  // Every place a key is written, not only the first that modify would find.
  const edits: Edit[] = [];
  for (const member of membersOf(body)) {
    const [name, value] = member.children ?? [];
    if (!name || !value || !entries.has(name.value as string)) continue;
    edits.push({ offset: value.offset, length: value.length, content: written(entries.get(name.value as string)) });
  }
  return bom + applyEdits(body, edits);
}

/**
 * `text` without the top-level `keys` (every place each is written), every other byte as it
 * was: a member goes with the comma and spacing that lead to the next one (or, the last, with
 * the comma after the one before), so its neighbours keep their lines. Throws as
 * parseObjectText does.
 */
export function removeKeysInText(text: string, keys: readonly string[]): string {
  const [bom, original] = splitBom(text);
  if (isBlank(original)) return text;
  let body = original;
  parseObjectText(body);
  for (;;) {
    const members = membersOf(body);
    const at = members.findIndex((member) => keys.includes(member.children?.[0]?.value as string));
    if (at < 0) break;
    const member = members[at]!;
    const next = members[at + 1];
    const previous = members[at - 1];
    if (next) body = body.slice(0, member.offset) + body.slice(next.offset);
    else if (previous) body = body.slice(0, previous.offset + previous.length) + body.slice(member.offset + member.length);
    else body = body.slice(0, body.indexOf('{') + 1) + body.slice(body.lastIndexOf('}'));
  }
  return bom + body;
}
