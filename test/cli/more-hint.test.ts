// The "more:" hint is a command to run: a cursor id from the server is one quoted word (the shell
// runs nothing in it), and the hint goes back to the server this run used, naming credentials by
// their variables. A real server of our own on loopback hands out the hostile id.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shellWord } from '../../src/cli/shell-word.js';
import { runChild } from '../helpers/child.js';

const BIN = fileURLToPath(new URL('../../bin/tickbook', import.meta.url));

describe('shellWord', () => {
  it.each([
    ['ct_abc123', 'ct_abc123'],
    ['http://127.0.0.1:8080/v1', 'http://127.0.0.1:8080/v1'],
    ["it's", `'it'\\''s'`],
    ['a b', "'a b'"],
    ['$(touch x);y', "'$(touch x);y'"],
    ['', "''"],
  ])('%s is %s', (value, word) => {
    expect(shellWord(value)).toBe(word);
  });
});

describe('the "more:" hint', () => {
  let dir: string;
  let server: Server;
  let url: string;
  let marker: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tickbook-hint-'));
    marker = join(dir, 'ran');
    const id = `c2x$(touch ${marker});y'\`touch ${marker}\``;
    server = createServer((_req, res) => {
      const body = JSON.stringify({
        has_more: true,
        data: [{ id, username: 'ada', phone_number: '+15550001111', avatar_url: null, display_name: null, conversation_id: 'cv_1', last_active_at: null, created_at: 1_690_000_000 }],
      });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('quotes the id, repeats the base URL, names the token by its variable; run by a shell it runs nothing', async () => {
    const run = await runChild(process.execPath, [BIN, 'contacts', 'list', '--limit', '1', '--base-url', url, '--token', 'tok-secret-1234'], {
      env: { ...process.env, HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data') },
    });
    expect(run.code, run.stderr).toBe(0);
    const hint = run.stderr.split('\n').find((line) => line.startsWith('more: '))!;
    expect(hint).toBeDefined();
    expect(hint).not.toContain('tok-secret-1234');
    expect(hint).toContain(`--base-url ${url}`);
    expect(hint).toContain('--token "$TICKBOOK_TOKEN"');
    // The words a shell makes of it, run with printf in place of tickbook.
    const command = hint.slice('more: tickbook '.length);
    const words = execFileSync('sh', ['-c', `printf '%s\\n' ${command}`], { encoding: 'utf8', env: { PATH: process.env.PATH, TICKBOOK_TOKEN: 'T' } }).split('\n');
    expect(existsSync(marker)).toBe(false);
    expect(words.slice(0, 2)).toEqual(['contacts', 'list']);
    expect(words[words.indexOf('--after') + 1]).toBe(`c2x$(touch ${marker});y'\`touch ${marker}\``);
    expect(words[words.indexOf('--token') + 1]).toBe('T');
  });

  it('names a token file by its path (quoted) and repeats --insecure-http, never the token', async () => {
    const file = join(dir, "my token's file");
    writeFileSync(file, 'file-secret-5678\n', { mode: 0o600 });
    const run = await runChild(process.execPath, [BIN, 'contacts', 'list', '--limit', '1', '--base-url', url, '--token-file', file, '--insecure-http'], {
      env: { ...process.env, HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data') },
    });
    expect(run.code, run.stderr).toBe(0);
    const hint = run.stderr.split('\n').find((line) => line.startsWith('more: '))!;
    expect(hint).not.toContain('file-secret-5678');
    const words = execFileSync('sh', ['-c', `printf '%s\\n' ${hint.slice('more: tickbook '.length)}`], { encoding: 'utf8' }).split('\n');
    expect(words[words.indexOf('--token-file') + 1]).toBe(file);
    expect(words).toContain('--insecure-http');
  });
});
