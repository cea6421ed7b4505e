// The config file's text, read and changed through jsonc-parser: strict JSON only (jsonc-parser
// reads JSON with comments, so comments, trailing commas and the rest must still be refused),
// mistakes in words at a line and column, and saves that change only the keys they set, laid out
// like the file around them (indentation, tabs, line endings, one line), every other byte kept.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isBlank, JsonSyntaxError, NotAnObject, parseObjectText, removeKeysInText, setKeysInText } from '../../src/config/json-text.js';

/** The message parseObjectText throws for `text`, "line L, column C: problem". */
function mistake(text: string): string {
  try {
    parseObjectText(text);
  } catch (error) {
    expect(error).toBeInstanceOf(JsonSyntaxError);
    const { line, column, problem } = error as JsonSyntaxError;
    return `line ${line}, column ${column}: ${problem}`;
  }
  throw new Error(`expected a JsonSyntaxError for ${JSON.stringify(text)}`);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('reading: strict JSON, as JSON.parse takes it', () => {
  it('what jsonc-parser would let through as JSONC, or what JSON does not have, is refused in words', () => {
    const cases: [string, string][] = [
      ['{"a": 1 // note\n}', 'line 1, column 9: comments are not allowed in JSON'],
      ['{\n  /* note */ "a": 1\n}', 'line 2, column 3: comments are not allowed in JSON'],
      ['{"a": 1,}', 'line 1, column 9: a comma before "}" (JSON allows none there)'],
      ['{"a": [1, 2,]}', 'line 1, column 13: a comma before "]" (JSON allows none there)'],
      ['{"a": \'x\'}', `line 1, column 7: expected a value, found text in single quotes`],
      ['{"a": 02}', 'line 1, column 8: expected "," or "}", found "2"'],
      ['{"a": -01.5}', 'line 1, column 9: expected "," or "}", found a number'],
      ['{"a": 0x10}', 'line 1, column 8: expected "," or "}", found a word without quotes'],
      ['{"a": .5}', 'line 1, column 7: expected a value, found a number'],
      ['{"a": +1}', 'line 1, column 7: expected a value, found a number'],
      ['{"a": 1.}', 'line 1, column 7: an incomplete number, found a number'],
      ['{"a": 1e+}', 'line 1, column 7: an incomplete number, found a number'],
      ['{"a": NaN}', 'line 1, column 7: expected a value, found a word without quotes'],
      ['{"a": True}', 'line 1, column 7: expected a value, found a word without quotes'],
      ['{a: 1}', 'line 1, column 2: expected a key in double quotes, found "a"'],
      ['{"a" 1}', 'line 1, column 6: expected ":" after the key, found "1"'],
      ['{"a": 1,,}', 'line 1, column 9: expected a key in double quotes, found ","'],
      ['{"a": [1 2]}', 'line 1, column 10: expected "," or "]", found "2"'],
      ['{"a": "\\x"}', 'line 1, column 8: an invalid escape in a string'],
      ['{"a": "\\u12"}', 'line 1, column 8: an invalid escape in a string'],
      ['{"a": "x\ty"}', 'line 1, column 9: a control character in a string'],
      ['{"a": "abc', 'line 1, column 7: a string is not closed'],
      ['{', 'line 1, column 2: expected a key in double quotes, found the end of the file'],
      ['{"a": [1', 'line 1, column 9: expected "," or "]", found the end of the file'],
      ['{"a":', 'line 1, column 6: the file ends where a value should be'],
      // Only space, tab and line breaks are JSON's whitespace; others are shown by their code.
      ['{"a": 1}\u00a0', 'line 1, column 9: unexpected "\\u00a0" after the closing "}"'],
      ['{"a":\v1}', 'line 1, column 6: expected a value, found a word without quotes'],
      ['[1] 2', 'line 1, column 5: unexpected "2" after the value'],
    ];
    for (const [text, expected] of cases) {
      expect(mistake(text), text).toBe(expected);
      expect(() => JSON.parse(text), text).toThrow(SyntaxError);
    }
  });

  it('lines end at \\n, \\r\\n or \\r; a byte-order mark is not a column', () => {
    expect(mistake('{\r\n  "a": 1,\r\n}')).toBe('line 3, column 1: a comma before "}" (JSON allows none there)');
    expect(mistake('{\r  "a": x\r}')).toBe('line 2, column 8: expected a value, found "x"');
    expect(mistake('\uFEFF{"a": 1,}')).toBe('line 1, column 9: a comma before "}" (JSON allows none there)');
  });

  it('nesting deeper than 512 is refused at the place, not with a stack overflow', () => {
    const deep = `{"a": ${'['.repeat(20000)}${']'.repeat(20000)}}`;
    expect(mistake(deep)).toBe('line 1, column 518: nested too deeply (more than 512 levels)');
    const fine = `{"a": ${'['.repeat(500)}${']'.repeat(500)}}`;
    expect(parseObjectText(fine)).toEqual(JSON.parse(fine));
  });

  it('the value is what JSON.parse makes of it: the last of a key written twice, __proto__ an own key, big numbers as doubles', () => {
    const value = parseObjectText('\uFEFF{"a": 1, "a": 2, "__proto__": {"x": 1}, "big": 123456789012345678901234567890}');
    expect(value.a).toBe(2);
    expect(Object.keys(value)).toEqual(['a', '__proto__', 'big']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(value.big).toBe(1.2345678901234568e29);
  });

  it('should JSON.parse refuse what jsonc-parser took, its own words are given at the line and column', () => {
    vi.spyOn(JSON, 'parse').mockImplementationOnce(() => {
      throw new SyntaxError('Bad thing in JSON at position 9 (line 2 column 8)');
    });
    expect(mistake('{\n  "a": 1\n}')).toBe('line 2, column 8: Bad thing');
  });

  it('JSON that is not an object, and blank text', () => {
    expect(() => parseObjectText('["AAPL"]')).toThrow(NotAnObject);
    expect(() => parseObjectText('null')).toThrow(NotAnObject);
    expect(isBlank('\uFEFF \r\n\t')).toBe(true);
    expect(isBlank('{}')).toBe(false);
  });
});

describe('saving: only the keys set change, laid out like the file', () => {
  const CHANGES = { watchlist: ['MSFT', 'VOD.L'], interval: 5 };

  it('members indented by four spaces, with CRLF line endings: the new ones too', () => {
    const text = '{\r\n    "token": "t",\r\n    "theme": {\r\n        "dark": true\r\n    }\r\n}\r\n';
    expect(setKeysInText(text, CHANGES)).toBe(
      '{\r\n    "token": "t",\r\n    "theme": {\r\n        "dark": true\r\n    },\r\n    "watchlist": ["MSFT", "VOD.L"],\r\n    "interval": 5\r\n}\r\n',
    );
  });

  it('members indented by a tab: the new ones too', () => {
    expect(setKeysInText('{\n\t"token": "t"\n}\n', CHANGES)).toBe('{\n\t"token": "t",\n\t"watchlist": ["MSFT", "VOD.L"],\n\t"interval": 5\n}\n');
  });

  it('a file on one line stays on one line; the line of the last member is not laid out again', () => {
    expect(setKeysInText('{"token":"t","x":[1,2]}', CHANGES)).toBe('{"token":"t","x":[1,2], "watchlist": ["MSFT", "VOD.L"], "interval": 5}');
    expect(setKeysInText('{\n  "x": [1, {"y": null}]\n}', { interval: 5 })).toBe('{\n  "x": [1, {"y": null}],\n  "interval": 5\n}');
  });

  it('an empty object, blank text, a lone byte-order mark: the members on their own lines', () => {
    const made = '{\n  "watchlist": ["MSFT", "VOD.L"],\n  "interval": 5\n}\n';
    expect(setKeysInText('{}\n', CHANGES)).toBe(made);
    expect(setKeysInText('{\n}\n', CHANGES)).toBe(made);
    expect(setKeysInText('', CHANGES)).toBe(made);
    expect(setKeysInText('\uFEFF', CHANGES)).toBe(`\uFEFF${made}`);
    expect(setKeysInText(' \r\n', CHANGES)).toBe(made.replaceAll('\n', '\r\n'));
  });

  it('a value is replaced where it is, in every place its key is written; the rest byte for byte', () => {
    const text = '\uFEFF{ "interval":  2,\n  "big": 123456789012345678901234567890, "ratio": 1.50, "interval": 3,\n  "watchlist": [\n    "AAPL"\n  ] }';
    expect(setKeysInText(text, { interval: 9, watchlist: ['A'] })).toBe(
      '\uFEFF{ "interval":  9,\n  "big": 123456789012345678901234567890, "ratio": 1.50, "interval": 9,\n  "watchlist": ["A"] }',
    );
  });

  it('an undefined value leaves its key as it is; a string is written escaped', () => {
    expect(setKeysInText('{\n  "interval": 2\n}', { interval: undefined, token: 'a"b\\c' })).toBe('{\n  "interval": 2,\n  "token": "a\\"b\\\\c"\n}');
  });

  it('text that is not a JSON object is refused, not changed', () => {
    expect(() => setKeysInText('{"a": 1,}', { interval: 2 })).toThrow(JsonSyntaxError);
    expect(() => setKeysInText('{"a": 1} // note', { interval: 2 })).toThrow(JsonSyntaxError);
    expect(() => setKeysInText('[1]', { interval: 2 })).toThrow(NotAnObject);
  });
});

describe('removing: only the keys named go, the rest laid out as it was', () => {
  it('takes a member out with its comma, in a file a member a line (spaces, tabs, CRLF) and on one line', () => {
    expect(removeKeysInText('{\n    "b": 1,\n    "note": "keep  spacing",\n    "z": 12345678901234567890\n}\r\n', ['b'])).toBe(
      '{\n    "note": "keep  spacing",\n    "z": 12345678901234567890\n}\r\n',
    );
    expect(removeKeysInText('{\r\n\t"a": 1,\r\n\t"b": 2\r\n}\r\n', ['b'])).toBe('{\r\n\t"a": 1\r\n}\r\n');
    expect(removeKeysInText('\ufeff{ "x": 1, "b": true }', ['b'])).toBe('\ufeff{ "x": 1 }');
  });

  it('the members beside keep their own layout: a one-line array or object stays on its line', () => {
    expect(removeKeysInText('{\n  "watchlist": ["AAPL", "MSFT"],\n  "token": "y"\n}\n', ['token'])).toBe('{\n  "watchlist": ["AAPL", "MSFT"]\n}\n');
    expect(removeKeysInText('{\n  "token": "y",\n  "alerts": {"bell": false}\n}\n', ['token'])).toBe('{\n  "alerts": {"bell": false}\n}\n');
    expect(removeKeysInText('{\n  "a": 1,\n  "b": [1,\n    2],\n  "c": 3\n}', ['b'])).toBe('{\n  "a": 1,\n  "c": 3\n}');
    expect(removeKeysInText('{\n\t"only": true\n}\n', ['only'])).toBe('{}\n');
  });

  it('a key written twice goes twice; a key not there, or blank text, leaves the text as it is', () => {
    expect(removeKeysInText('{"a":1,"b":2,"a":3}', ['a'])).toBe('{"b":2}');
    expect(removeKeysInText('{\n  "a": 1\n}\n', ['zzz'])).toBe('{\n  "a": 1\n}\n');
    expect(removeKeysInText('  \n', ['a'])).toBe('  \n');
  });

  it('refuses text that is not a JSON object, as reading does', () => {
    expect(() => removeKeysInText('{"a": 1,', ['a'])).toThrow(JsonSyntaxError);
    expect(() => removeKeysInText('[1]', ['a'])).toThrow(NotAnObject);
  });
});
