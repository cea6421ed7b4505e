// A base URL is an origin and a path, nothing more: a user name and password in it are refused
// and never shown (nor sent), and a query or fragment, which joining paths would drop in
// silence, is refused too.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseBaseUrl } from '../../src/api/rules.js';
import { runChild } from '../helpers/child.js';

const BIN = fileURLToPath(new URL('../../bin/tickbook', import.meta.url));

describe('parseBaseUrl', () => {
  it.each([
    ['http://alice:secret@127.0.0.1:8080/x', 'must not hold a user name or password'],
    ['https://alice@api.example/v1', 'must not hold a user name or password'],
    ['https://:secret@api.example', 'must not hold a user name or password'],
    ['http://alice:secret@127.0.0.1:99999/x', 'is not a URL'],
    ['ftp://alice:secret@host/', 'must be an http:// or https:// URL'],
    // Spellings the URL parser still reads a login from.
    ['https:/alice:secret@api.example.com', 'must not hold a user name or password'],
    ['https:alice:secret@api.example.com', 'must not hold a user name or password'],
    [' https://alice:secret@api.example.com', 'must not hold a user name or password'],
    ['https:\\\\alice:secret@api.example.com', 'must not hold a user name or password'],
    ['https:/alice:secret@api.example.com:99999', 'is not a URL'],
  ])('%s is refused without its password: %s', (raw, problem) => {
    const result = parseBaseUrl(raw, 'the base URL');
    expect(result).toHaveProperty('problem');
    const text = (result as { problem: string }).problem;
    expect(text).toContain(problem);
    expect(text).not.toMatch(/secret|alice/);
  });

  it.each(['https://api.example/v1?x=1', 'https://api.example/v1?', 'https://api.example/#frag', 'https://api.example/v1#'])(
    '%s (a query or a fragment) is refused',
    (raw) => {
      expect(parseBaseUrl(raw, 'the base URL')).toEqual({
        problem: `the base URL ${JSON.stringify(raw)} must not have a query (?…) or a fragment (#…): give the base URL alone`,
      });
    },
  );

  it('a plain base URL, with or without a path, is accepted', () => {
    expect((parseBaseUrl('https://api.example/v1', 'x') as URL).href).toBe('https://api.example/v1');
    expect((parseBaseUrl('http://127.0.0.1:8080', 'x') as URL).href).toBe('http://127.0.0.1:8080/');
  });

  it('the command line: exit 2, one line, no password anywhere', async () => {
    const run = await runChild(process.execPath, [BIN, 'contacts', 'list', '--base-url', 'http://alice:secret@127.0.0.1:99999/x'], {
      env: { ...process.env, TICKBOOK_TOKEN: '' },
    });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('"http://127.0.0.1:99999/x" is not a URL');
    expect(run.stderr).not.toMatch(/secret|alice/);
  });
});
