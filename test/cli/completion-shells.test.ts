// The completion scripts in real shells: `tickbook completion bash` sourced into bash, asked as
// Tab asks (COMP_WORDS, COMP_CWORD), answering from the built bin; zsh and fish where this
// machine has them. And the symbols of a server: cached, refreshed behind Tab, never waited for.
import Database from 'better-sqlite3';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanEnv, runChild } from '../helpers/child.js';
import { BIN, runTickbookToExit } from '../helpers/sandbox.js';
import { traversable, unprivileged } from '../helpers/unprivileged.js';

let home: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'tickbook-completion-'));
  // `tickbook` on the PATH, as an installed one is.
  mkdirSync(join(home, 'bin'));
  symlinkSync(BIN, join(home, 'bin', 'tickbook'));
  env = {
    ...cleanEnv(),
    HOME: home,
    PATH: `${join(home, 'bin')}:${process.env.PATH}`,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: join(home, 'data'),
    XDG_CACHE_HOME: join(home, 'cache'),
  };
});
afterEach(() => rmSync(home, { recursive: true, force: true, maxRetries: 5 }));

const has = (shell: string) => spawnSync(shell, ['-c', 'exit 0']).status === 0;
const tickbook = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { env, encoding: 'utf8', cwd: home });

/** What bash's Tab would offer after `line` (the last word being completed), one per entry. */
function bashOffers(line: string): string[] {
  const words = ['tickbook', ...line.split(' ')];
  const script = `source <(tickbook completion bash)
COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}
_tickbook
printf '%s\\n' "\${COMPREPLY[@]}"`;
  const run = spawnSync('bash', ['--norc', '-c', script], { env, encoding: 'utf8', cwd: home });
  expect(run.stderr).toBe('');
  return run.stdout.split('\n').filter((line) => line !== '');
}

describe('tickbook completion', () => {
  it('prints a script for bash, zsh and fish; an unknown shell is exit 2 naming the valid ones', () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const run = tickbook(['completion', shell]);
      expect(run.status).toBe(0);
      expect(run.stdout).toContain('tickbook __complete');
    }
    const wrong = tickbook(['completion', 'tcsh']);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toMatch(/unknown shell "tcsh"; one of bash, zsh, fish/);
    expect(tickbook(['completion']).status).toBe(2);
  });

  it('in bash: commands, actions, options, symbols, config values, saved watchlists, file names', () => {
    expect(bashOffers('co')).toEqual(['contacts', 'config', 'completion']);
    expect(bashOffers('contacts ex')).toEqual(['export']);
    expect(bashOffers('contacts export --format ')).toEqual(['vcf', 'csv', 'json', 'ndjson']);
    expect(bashOffers('quote MSF')).toEqual(['MSFT']);
    expect(bashOffers('config set motion ')).toEqual(['true', 'false']);
    mkdirSync(join(home, 'config', 'tickbook'), { recursive: true });
    writeFileSync(join(home, 'config', 'tickbook', 'config.json'), JSON.stringify({ watchlists: [{ name: 'Tech', symbols: ['AAPL'] }, { name: 'Banks', symbols: ['JPM'] }] }));
    expect(bashOffers('--watchlist B')).toEqual(['Banks']);
    writeFileSync(join(home, 'config', 'tickbook', 'config.json'), JSON.stringify({ watchlists: [{ name: 'My List', symbols: ['AAPL'] }] }));
    // One word, quoted, as the shell will read it back.
    expect(bashOffers('--watchlist My')).toEqual(['My\\ List']);
    writeFileSync(join(home, 'people.vcf'), '');
    writeFileSync(join(home, 'people.csv'), '');
    expect(bashOffers('contacts import peo').sort()).toEqual(['people.csv', 'people.vcf']);
    expect(bashOffers('nosuch ')).toEqual([]);
  });

  it('in bash: the ids of the alerts set, and none before there is a history file (none is made)', () => {
    expect(bashOffers('alerts rm ')).toEqual([]);
    expect(existsSync(join(home, 'data', 'tickbook', 'history.db'))).toBe(false);
    for (const line of [['AAPL', 'above', '500'], ['MSFT', 'below', '10']]) expect(tickbook(['alerts', 'add', ...line]).status).toBe(0);
    expect(bashOffers('alerts pause ')).toEqual(['1', '2']);
  });

  it.skipIf(!has('zsh'))('in zsh: the script loads after compinit and offers the same', () => {
    // compadd is the completion system's; standing in for it, the words it is given are printed.
    const offers = (line: string) => {
      const words = ['tickbook', ...line.split(' ')].map((w) => `'${w}'`).join(' ');
      const script = `autoload -Uz compinit && compinit -u -d ${home}/.zcompdump; source <(tickbook completion zsh)
compadd() { print -l -- \${(P)\${@[-1]}} }
words=(${words}); CURRENT=\${#words}; _tickbook`;
      const run = spawnSync('zsh', ['-f', '-c', script], { env, encoding: 'utf8', cwd: home });
      expect(run.stderr).toBe('');
      return run.stdout.split('\n').filter(Boolean);
    };
    expect(offers('co')).toEqual(['contacts', 'config', 'completion']);
    expect(offers('quote MSF')).toEqual(['MSFT']);
    expect(offers('nosuch ')).toEqual([]);
  });

  it.skipIf(!has('fish'))('in fish: complete -C asks the script', () => {
    const conf = join(home, 'tickbook.fish');
    writeFileSync(conf, tickbook(['completion', 'fish']).stdout);
    const run = spawnSync('fish', ['--no-config', '-c', `source ${conf}; complete -C 'tickbook co'`], { env, encoding: 'utf8', cwd: home });
    // fish sorts what it offers.
    expect(run.stdout.split('\n').filter(Boolean).map((l) => l.split('\t')[0])).toEqual(['completion', 'config', 'contacts']);
  });
});

describe('a server\'s symbols', () => {
  let server: Server;
  let asked = 0;
  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** A market server whose catalogue takes `delayMs` to come. */
  async function marketServer(delayMs: number): Promise<string> {
    server = createServer((req, res) => {
      asked++;
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: 'success', stock_symbols: [{ symbol: 'ZZZA', name: 'A' }, { symbol: 'ZZZB', name: 'B' }] }));
      }, delayMs);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    return `http://127.0.0.1:${port}`;
  }

  it('are never waited for: the first Tab offers none at once, a refresh behind it fills the cache, the next Tab offers them', async () => {
    const url = await marketServer(1500);
    env.TICKBOOK_MARKET_DATA_URL = url;
    env.TICKBOOK_API_KEY = 'key';
    const started = performance.now();
    const first = tickbook(['__complete', 'quote', 'ZZZ']);
    expect(performance.now() - started).toBeLessThan(1500);
    expect(first.stdout).toBe('');
    const cache = join(home, 'cache', 'tickbook', 'symbols.json');
    for (let i = 0; i < 100 && !existsSync(cache); i++) await new Promise((r) => setTimeout(r, 100));
    expect(JSON.parse(readFileSync(cache, 'utf8'))).toMatchObject({ url: `${url}/`, symbols: ['ZZZA', 'ZZZB'] });
    expect(tickbook(['__complete', 'quote', 'ZZZ']).stdout).toBe('ZZZA\nZZZB\n');
    // Fresh: no other request.
    await new Promise((r) => setTimeout(r, 300));
    expect(asked).toBe(1);
    // A day old: still offered at once, and refreshed behind.
    writeFileSync(cache, JSON.stringify({ url: `${url}/`, fetchedAt: Date.now() - 25 * 3600_000, symbols: ['ZZZOLD'] }));
    rmSync(join(home, 'cache', 'tickbook', 'symbols.refreshing'), { force: true });
    expect(tickbook(['__complete', 'quote', 'ZZZ']).stdout).toBe('ZZZOLD\n');
    for (let i = 0; i < 100 && readFileSync(cache, 'utf8').includes('ZZZOLD'); i++) await new Promise((r) => setTimeout(r, 100));
    expect(asked).toBe(2);
    // Another server's cache is not this one's.
    env.TICKBOOK_MARKET_DATA_URL = 'http://127.0.0.1:9';
    expect(tickbook(['__complete', 'quote', 'ZZZ']).stdout).toBe('');
  });

  it('a refresh writes the cache whole, beside it and renamed over it (mode 0600), and leaves nothing behind when it cannot', async () => {
    env.TICKBOOK_MARKET_DATA_URL = await marketServer(0);
    env.TICKBOOK_API_KEY = 'key';
    const dir = join(home, 'cache', 'tickbook');
    const cache = join(dir, 'symbols.json');
    // A directory where the cache goes: the rename over it fails.
    mkdirSync(cache, { recursive: true });
    // Beside it, the commands' compile cache (src/launch/compile-cache.ts), Node's to write.
    const left = (): string[] => readdirSync(dir).filter((name) => name !== 'compile');
    expect((await runTickbookToExit(['__refresh-symbols'], env)).code).toBe(1);
    expect(left()).toEqual(['symbols.json']);
    rmSync(cache, { recursive: true });
    expect(await runTickbookToExit(['__refresh-symbols'], env)).toMatchObject({ code: 0, stderr: '' });
    expect(left()).toEqual(['symbols.json']);
    expect(statSync(cache).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(cache, 'utf8')).symbols).toEqual(['ZZZA', 'ZZZB']);
  });

  it('a refresh makes the cache directory 0700 under a umask that lets the group write (002), so the code caches beside it are kept', async () => {
    env.TICKBOOK_MARKET_DATA_URL = await marketServer(0);
    env.TICKBOOK_API_KEY = 'key';
    // The umask a system with a group for each user often gives: directories made 0775 by default.
    const run = await runChild('sh', ['-c', 'umask 002 && exec "$@"', 'sh', process.execPath, BIN, '__refresh-symbols'], { env });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(statSync(join(home, 'cache')).mode & 0o777).toBe(0o700);
    expect(statSync(join(home, 'cache', 'tickbook')).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(join(home, 'cache', 'tickbook', 'symbols.json'), 'utf8')).symbols).toEqual(['ZZZA', 'ZZZB']);
  });
});

describe('what Tab cannot read it leaves out, quietly and at once', () => {
  /** `tickbook __complete WORDS…` as a shell runs it, timed. */
  const complete = (words: string[], asNobody = false) => {
    const [command, args] = asNobody ? unprivileged(process.execPath, [BIN, '__complete', ...words]) : [process.execPath, [BIN, '__complete', ...words]];
    const started = performance.now();
    const run = spawnSync(command, args, { env, encoding: 'utf8', cwd: home, timeout: 10_000 });
    return { status: run.status, stdout: run.stdout, stderr: run.stderr, ms: performance.now() - started };
  };

  it('alert ids: read past another process\'s write lock; none when the file is locked whole or may not be written, in no more time than Tab takes anyway', () => {
    for (const line of [['AAPL', 'above', '500'], ['MSFT', 'below', '10']]) expect(tickbook(['alerts', 'add', ...line]).status).toBe(0);
    const path = join(home, 'data', 'tickbook', 'history.db');
    expect(complete(['alerts', 'rm', ''])).toMatchObject({ status: 0, stdout: '1\n2\n', stderr: '' });
    // What the lock may add to Tab: 50 ms, never the 2 s SQLite waits for a lock otherwise (which a
    // Tab that waited it could not come in under, however fast Node started).
    const within = 2000;

    // Another process writing (BEGIN EXCLUSIVE in WAL mode): reading goes on beside it.
    const holder = new Database(path);
    try {
      holder.exec('BEGIN EXCLUSIVE');
      const writing = complete(['alerts', 'rm', '']);
      expect(writing).toMatchObject({ status: 0, stdout: '1\n2\n', stderr: '' });
      expect(writing.ms).toBeLessThan(within);
      holder.exec('ROLLBACK');
      // Locked whole (exclusive locking mode): not even read; left out.
      holder.pragma('locking_mode = EXCLUSIVE');
      holder.exec('BEGIN EXCLUSIVE');
      const locked = complete(['alerts', 'pause', '']);
      expect(locked).toMatchObject({ status: 0, stdout: '', stderr: '' });
      expect(locked.ms).toBeLessThan(within);
      holder.exec('ROLLBACK');
    } finally {
      holder.close();
    }

    // A file that may be read but not written, in a directory where SQLite cannot make its -shm:
    // as nobody (the files are root's) when run as root, by the directory's mode otherwise.
    traversable(home);
    for (const dir of ['data', 'config']) if (existsSync(join(home, dir))) execFileSync('chmod', ['-R', 'a+rX', join(home, dir)]);
    chmodSync(path, 0o644);
    chmodSync(join(home, 'data', 'tickbook'), 0o555);
    try {
      const readOnly = complete(['alerts', 'resume', ''], true);
      expect(readOnly).toMatchObject({ status: 0, stdout: '', stderr: '' });
      expect(readOnly.ms).toBeLessThan(within);
      expect(existsSync(`${path}-shm`)).toBe(false);
    } finally {
      chmodSync(join(home, 'data', 'tickbook'), 0o755);
    }
  });

  it('alert ids: none from a history that is not a regular file (a FIFO no writer comes to), ending at once', () => {
    const path = join(home, 'data', 'tickbook', 'history.db');
    mkdirSync(join(home, 'data', 'tickbook'), { recursive: true });
    execFileSync('mkfifo', [path]);
    // Ended by itself (spawnSync kills it after 10 s, as a Tab that hangs would be).
    expect(complete(['alerts', 'rm', ''])).toMatchObject({ status: 0, stdout: '', stderr: '' });
    expect(bashOffers('alerts pause ')).toEqual([]);
  });

  it('symbols: only what the contract calls a symbol is offered from the cache, never a control, an escape or an option; a cache that is not a file is none', () => {
    const url = 'http://127.0.0.1:9';
    env.TICKBOOK_MARKET_DATA_URL = url;
    env.TICKBOOK_API_KEY = 'key';
    const cacheDir = join(home, 'cache', 'tickbook');
    mkdirSync(cacheDir, { recursive: true });
    const cache = join(cacheDir, 'symbols.json');
    const hostile = ['ZZA', '-rf', '--help', '-ZZ', 'ZZ\u001b[31mRED', 'ZZ\nZZC', 'ZZ ZZD', 'zzlow', `ZZ${'E'.repeat(14)}`, 'ZZ\u202eX', 42, null, { symbol: 'ZZF' }, 'ZZ.L', 'ZZ-B', ''];
    writeFileSync(cache, JSON.stringify({ url: `${url}/`, fetchedAt: Date.now(), symbols: hostile }));
    expect(complete(['quote', ''])).toMatchObject({ status: 0, stdout: 'ZZA\nZZ.L\nZZ-B\n', stderr: '' });
    expect(bashOffers('quote Z')).toEqual(['ZZA', 'ZZ.L', 'ZZ-B']);
    // A FIFO where the cache was: Tab does not wait for a writer that never comes. A refresh tried
    // a moment ago: none is started behind this Tab (it would outlive the test).
    rmSync(cache);
    execFileSync('mkfifo', [cache]);
    const attempt = join(cacheDir, 'symbols.refreshing');
    writeFileSync(attempt, '');
    // Whole seconds: every file system keeps them exactly.
    const tried = new Date((Math.floor(Date.now() / 1000) - 1) * 1000);
    utimesSync(attempt, tried, tried);
    expect(complete(['quote', 'Z'])).toMatchObject({ status: 0, stdout: '', stderr: '' });
    expect(statSync(attempt).mtimeMs).toBe(tried.getTime());
  });
});
