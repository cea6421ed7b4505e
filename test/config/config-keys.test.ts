// Reading the config file as a person wrote it (issue 17, item 11 and the small things): a key
// tickbook does not know is warned about with the known key it probably meant; a byte-order mark
// and a blank file are fine; a JSON mistake is named by line and column.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_KEYS, ConfigError, readConfigFile } from '../../src/config/config-file.js';
import { editDistance, nearestKey } from '../../src/config/nearest-key.js';

let dir: string;
let counter = 0;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tickbook-config-keys-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function writeRaw(text: string | Buffer): string {
  const path = join(dir, `config-${++counter}.json`);
  writeFileSync(path, text, { mode: 0o600 });
  return path;
}

function readError(path: string): string {
  try {
    readConfigFile(path);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('unknown keys', () => {
  it('each misspelt key gets a warning naming it, the file and the key it probably meant; the rest is read', () => {
    const path = writeRaw(
      JSON.stringify({
        baseUrl: 'https://x.example',
        Token: 'secret-abc',
        'api-key': 'k',
        marketDataUrl: 'https://m.example',
        intervall: 3,
        watch_list: ['AAPL'],
        colour: 'none',
        glyph: 'ascii',
        interval: 4,
      }),
    );
    const { config, warnings } = readConfigFile(path);
    expect(config).toEqual({ interval: 4 });
    expect(warnings).toEqual([
      `unknown key "baseUrl" in ${path}; did you mean "base_url"?`,
      `unknown key "Token" in ${path}; did you mean "token"?`,
      `unknown key "api-key" in ${path}; did you mean "api_key"?`,
      `unknown key "marketDataUrl" in ${path}; did you mean "market_data_url"?`,
      `unknown key "intervall" in ${path}; did you mean "interval"?`,
      `unknown key "watch_list" in ${path}; did you mean "watchlist"?`,
      `unknown key "colour" in ${path}; did you mean "colors"?`,
      `unknown key "glyph" in ${path}; did you mean "glyphs"?`,
    ]);
    expect(warnings.join('\n')).not.toContain('secret-abc');
  });

  it('a key near none of them is named with the list of known keys', () => {
    const path = writeRaw('{"proxy": "http://p.example"}');
    expect(readConfigFile(path).warnings).toEqual([
      `unknown key "proxy" in ${path}; tickbook does not use it (known keys: ${CONFIG_KEYS.join(', ')})`,
    ]);
  });

  it('the first 10 unknown keys are named; past them, one line counts the rest (comment keys not among them)', () => {
    const keys = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, i]));
    const ten = writeRaw(JSON.stringify(keys(10)));
    expect(readConfigFile(ten).warnings).toHaveLength(10);
    const eleven = writeRaw(JSON.stringify({ '// note': 'x', ...keys(11) }));
    const warnings = readConfigFile(eleven).warnings;
    expect(warnings.slice(0, 10).map((warning) => /^unknown key "(k\d+)"/.exec(warning)?.[1])).toEqual(Object.keys(keys(10)));
    expect(warnings.slice(10)).toEqual([`and 1 more unknown key in ${eleven}; tickbook config list names them all`]);
    const many = writeRaw(JSON.stringify(keys(1234)));
    expect(readConfigFile(many).warnings.at(-1)).toBe(`and 1,224 more unknown keys in ${many}; tickbook config list names them all`);
  });

  it('an export_dir that is not a path is named as malformed, and left out', () => {
    const read = readConfigFile(writeRaw(JSON.stringify({ export_dir: 42 })));
    expect(read.malformed.export_dir).toBe('export_dir must be the path of a directory');
    expect(read.config.export_dir).toBeUndefined();
  });

  it('a screen_reader that is not true or false, and a read_prices_every that is no whole number of seconds, are named as malformed, and left out', () => {
    const read = readConfigFile(writeRaw(JSON.stringify({ screen_reader: 'yes', read_prices_every: 2.5 })));
    expect(read.malformed.screen_reader).toBe('screen_reader must be true or false');
    expect(read.malformed.read_prices_every).toBe('read_prices_every must be a whole number of seconds from 0 (only when asked) to 3600');
    expect(read.config).toEqual({});
    for (const bad of [-1, 3601, '30']) expect(readConfigFile(writeRaw(JSON.stringify({ read_prices_every: bad }))).config.read_prices_every, String(bad)).toBeUndefined();
    expect(readConfigFile(writeRaw(JSON.stringify({ screen_reader: true, read_prices_every: 0 }))).config).toEqual({ screen_reader: true, read_prices_every: 0 });
  });

  it('a hide_money that is not true or false is named as malformed, and left out', () => {
    const read = readConfigFile(writeRaw(JSON.stringify({ hide_money: 'yes' })));
    expect(read.malformed.hide_money).toBe('hide_money must be true or false');
    expect(read.config.hide_money).toBeUndefined();
  });

  it('every known key, glyphs and colors included, and a "//" comment key, are read without a warning', () => {
    const path = writeRaw(
      JSON.stringify({
        '//': 'a comment',
        '// more': 'another',
        base_url: 'https://x.example',
        market_data_url: 'https://m.example',
        token: 't',
        api_key: 'k',
        watchlist: ['AAPL'],
        watchlists: [{ name: 'Tech', symbols: ['AAPL'], sort: 'price', descending: true }],
        active_watchlist: 'Tech',
        interval: 2,
        glyphs: 'ascii',
        colors: '16',
        theme: 'light',
        motion: false,
        hide_money: true,
        mouse: false,
        export_dir: '~/Exports',
        screen_reader: true,
        read_prices_every: 30,
        alerts: { bell: false, notify: true },
      }),
    );
    expect(readConfigFile(path).warnings).toEqual([]);
    expect(readConfigFile(path).config.hide_money).toBe(true);
    expect(readConfigFile(path).config.theme).toBe('light');
    expect(readConfigFile(path).config.mouse).toBe(false);
    expect([...CONFIG_KEYS].sort()).toEqual(
      ['active_watchlist', 'alerts', 'api_key', 'base_url', 'colors', 'export_dir', 'glyphs', 'hide_money', 'insecure_http', 'interval', 'market_data_url', 'motion', 'mouse', 'read_prices_every', 'screen_reader', 'theme', 'token', 'watchlist', 'watchlists'].sort(),
    );
  });

  it('nearestKey folds case, "_", "-" and counts a swap as one edit; short or distant names get no guess', () => {
    expect(nearestKey('BASE_URL', CONFIG_KEYS)).toBe('base_url');
    expect(nearestKey('intreval', CONFIG_KEYS)).toBe('interval');
    expect(nearestKey('watchlsit', CONFIG_KEYS)).toBe('watchlist');
    expect(nearestKey('tok', CONFIG_KEYS)).toBeUndefined();
    expect(nearestKey('url', CONFIG_KEYS)).toBeUndefined();
    expect(nearestKey('editor', CONFIG_KEYS)).toBeUndefined();
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('ab', 'ba')).toBe(1);
  });
});

describe('the text of the file', () => {
  it('a UTF-8 byte-order mark is accepted', () => {
    const path = writeRaw(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"interval": 5}')]));
    expect(readConfigFile(path)).toEqual({ config: { interval: 5 }, warnings: [], malformed: {} });
  });

  it('an empty file, or one of whitespace only (a BOM too), holds no settings', () => {
    for (const text of ['', '   \n\t\n', '\uFEFF', '\uFEFF\n']) {
      expect(readConfigFile(writeRaw(text)), JSON.stringify(text)).toEqual({ config: {}, warnings: [], malformed: {} });
    }
  });

  it('a JSON mistake is named by the path, its line and column, and what is wrong there', () => {
    const cases: [string, string][] = [
      ['{\n  "base_url": "https://x.example",\n  x\n}', 'line 3, column 3: expected a key in double quotes, found "x"'],
      ['{\n  "interval": 2,\n}', 'line 3, column 1: a comma before "}" (JSON allows none there)'],
      ['{"interval": 2 "token": "t"}', 'line 1, column 16: expected "," or "}", found a string'],
      ['{\n  "token": "abc\n"}', 'line 2, column 16: a string runs past the end of the line'],
      ['{\n  "interval": 02\n}', 'line 2, column 16: expected "," or "}", found "2"'],
      ['{"watchlist": ["AAPL",]}', 'line 1, column 23: a comma before "]" (JSON allows none there)'],
      ['{"interval": 2', 'line 1, column 15: expected "," or "}", found the end of the file'],
      ['{"a": 1} {"b": 2}', 'line 1, column 10: unexpected "{" after the closing "}"'],
      ["{'token': 't'}", `line 1, column 2: expected a key in double quotes, found text in single quotes`],
    ];
    for (const [text, where] of cases) {
      const path = writeRaw(text);
      expect(readError(path), text).toBe(`${path}: invalid JSON at ${where}`);
    }
  });

  it('a mistake beside a secret never prints the secret', () => {
    for (const text of [
      '{"token": sk_live_abcdef123456}',
      '{"token": "sec"ret_abcdef123456"}',
      '{"api_key": 123456789012345x}',
      '{"token" "sk_live_abcdef123456"}',
    ]) {
      const message = readError(writeRaw(text));
      expect(message, text).toMatch(/invalid JSON at line 1/);
      expect(message, text).not.toMatch(/sk_live|ret_abc|123456789|abcdef/);
    }
  });

  it('bytes that are not UTF-8 are refused, not read as U+FFFD (a save would write them back changed)', () => {
    const path = writeRaw(Buffer.from('{"note": "Jos\xe9"}', 'latin1'));
    expect(readError(path)).toBe(`${path} is not UTF-8 text`);
  });

  it('JSON that is not an object says so', () => {
    const path = writeRaw('["AAPL"]');
    expect(readError(path)).toBe(`${path}: the file must hold a JSON object, like {"base_url": "https://…"}`);
  });
});
