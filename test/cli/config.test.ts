// `tickbook config` as a user runs it: the built bin in a fresh home, values checked as the file's
// reader checks them, the file written whole with mode 0600, everything it was not asked to
// change kept, a link kept a link, secrets never shown, a broken file never written over.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanEnv, pollUntil } from '../helpers/child.js';
import { BIN } from '../helpers/sandbox.js';

let home: string;
let file: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'tickbook-config-cli-'));
  file = join(home, 'config', 'tickbook', 'config.json');
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function tickbook(args: string[], input?: string) {
  const env = { ...cleanEnv(), HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data') };
  const run = spawnSync(process.execPath, [BIN, 'config', ...args], { env, input: input ?? '', encoding: 'utf8', timeout: 15_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

const text = () => readFileSync(file, 'utf8');

describe('tickbook config', () => {
  it('path says where the file is, before it exists', () => {
    expect(tickbook(['path'])).toMatchObject({ code: 0, stdout: `${file}\n` });
    expect(existsSync(file)).toBe(false);
  });

  it('set then get, each kind of value as the file holds it; the file mode 0600', () => {
    for (const [key, value] of [
      ['interval', '15'],
      ['colors', '16'],
      ['watchlist', 'aapl, msft,AAPL'],
      ['insecure_http', 'true'],
      ['alerts.bell', 'false'],
      ['alerts.command', 'notify-send tickbook'],
      ['base_url', 'https://api.example.com'],
      ['watchlists', '[{"name": "Tech", "symbols": ["NVDA"]}]'],
    ]) {
      expect(tickbook(['set', key!, value!]), key).toMatchObject({ code: 0, stdout: '', stderr: '' });
    }
    expect(JSON.parse(text())).toEqual({
      interval: 15,
      colors: '16',
      watchlist: ['AAPL', 'MSFT'],
      insecure_http: true,
      alerts: { bell: false, command: 'notify-send tickbook' },
      base_url: 'https://api.example.com',
      watchlists: [{ name: 'Tech', symbols: ['NVDA'] }],
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(tickbook(['get', 'interval']).stdout).toBe('15\n');
    expect(tickbook(['get', 'colors']).stdout).toBe('16\n');
    expect(tickbook(['get', 'watchlist']).stdout).toBe('["AAPL","MSFT"]\n');
    expect(tickbook(['get', 'alerts.command']).stdout).toBe('notify-send tickbook\n');
    const unset = tickbook(['get', 'motion']);
    expect(unset).toMatchObject({ code: 1, stdout: '' });
    expect(unset.stderr).toMatch(/motion is not set/);
  });

  it('a token set from standard input is kept, and list and list --json never show it', () => {
    const token = 'tok-secret-0123456789';
    expect(tickbook(['set', 'token', '-'], `${token}\n`).code).toBe(0);
    expect(JSON.parse(text()).token).toBe(token);
    const listed = tickbook(['list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^token\s+\*{8} \(set, 21 characters\)$/m);
    const json = tickbook(['list', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ token: '******** (set, 21 characters)' });
    for (const out of [listed.stdout, listed.stderr, json.stdout, json.stderr]) expect(out).not.toContain('0123456789');
    // get is asked for the value itself: it gives it.
    expect(tickbook(['get', 'token']).stdout).toBe(`${token}\n`);
  });

  it('refuses a bad value naming the key, exit 2, the file unchanged to the byte', () => {
    mkdirSync(join(home, 'config', 'tickbook'), { recursive: true });
    writeFileSync(file, '{\n    "interval": 5\n}\n');
    const before = text();
    for (const [key, value, message] of [
      ['interval', '0', /interval must be a number of seconds from 1 to 60/],
      ['interval', 'soon', /interval must be a number/],
      ['glyphs', 'fancy', /glyphs must be "auto", "unicode" or "ascii"/],
      ['base_url', 'ftp://example.com', /base_url must be an http:\/\/ or https:\/\/ URL/],
      ['motion', 'yes', /motion must be true or false/],
      ['mouse', 'off', /mouse must be true or false/],
      ['watchlist', 'AAPL,M SFT', /watchlist: "M SFT" is not a stock symbol/],
      ['watchlists', '[{"name": "x"}', /watchlists takes a JSON value/],
      ['alerts.command', '', /alerts must be like/],
    ] as const) {
      const run = tickbook(['set', key, value]);
      expect(run.code, `${key} ${value}`).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(text()).toBe(before);
    }
    const secret = tickbook(['set', 'token', '-'], 'two\nlines\n');
    expect(secret.code).toBe(2);
    expect(secret.stderr).toMatch(/token has a line break at character 4/);
    expect(secret.stderr).not.toContain('lines');
  });

  it('an unknown key or action: exit 2 naming it, with the nearest key and every valid one', () => {
    const key = tickbook(['set', 'intervall', '5']);
    expect(key.code).toBe(2);
    expect(key.stderr).toMatch(/unknown config key "intervall" \(did you mean interval\?\); the keys are base_url, .*alerts\.command/);
    expect(tickbook(['get', 'nope']).code).toBe(2);
    const action = tickbook(['show']);
    expect(action.code).toBe(2);
    expect(action.stderr).toMatch(/unknown config action "show"; one of path, get, set, unset, list/);
    expect(tickbook(['set', 'interval']).code).toBe(2);
    expect(tickbook([]).code).toBe(2);
    expect(existsSync(file)).toBe(false);
  });

  it('a file changed by hand into invalid JSON is not written over: set and unset say why and where, exit 1', () => {
    mkdirSync(join(home, 'config', 'tickbook'), { recursive: true });
    writeFileSync(file, '{"interval": 5,\n');
    for (const args of [['set', 'motion', 'false'], ['unset', 'interval']]) {
      const run = tickbook(args);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/is left as it is: it holds invalid JSON at line 2, column 1: .*correct it first/);
      expect(text()).toBe('{"interval": 5,\n');
    }
  });

  it('a file that is not JSON, to get or list: exit 2 (the usage mistake it is for every command), one line naming it and the place', () => {
    mkdirSync(join(home, 'config', 'tickbook'), { recursive: true });
    writeFileSync(file, '{"interval": 5,\n');
    for (const args of [['list'], ['list', '--json'], ['get', 'interval']]) {
      const run = tickbook(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toBe(`tickbook: ${file}: invalid JSON at line 2, column 1: expected a key in double quotes, found the end of the file (see tickbook --help)\n`);
      expect(run.stdout).toBe('');
    }
  });

  it('keeps what it was not asked to change: unknown keys, notes, spacing, order; unset takes out only its key', () => {
    mkdirSync(join(home, 'config', 'tickbook'), { recursive: true });
    writeFileSync(file, '{\n\t"// note": "mine",\n\t"future_key": {"x": 12345678901234567890},\n\t"interval": 5,\n\t"colors": "none"\n}\n');
    chmodSync(file, 0o644);
    expect(tickbook(['set', 'interval', '30']).code).toBe(0);
    expect(text()).toBe('{\n\t"// note": "mine",\n\t"future_key": {"x": 12345678901234567890},\n\t"interval": 30,\n\t"colors": "none"\n}\n');
    // Written with mode 0600 whatever it was: it may hold a token.
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(tickbook(['unset', 'colors']).code).toBe(0);
    expect(text()).toBe('{\n\t"// note": "mine",\n\t"future_key": {"x": 12345678901234567890},\n\t"interval": 30\n}\n');
    // A key tickbook does not know, but the file holds (a misspelling), may be taken out.
    expect(tickbook(['unset', 'future_key']).code).toBe(0);
    expect(JSON.parse(text())).toEqual({ '// note': 'mine', interval: 30 });
    const listed = tickbook(['list']).stdout;
    expect(listed).toMatch(/^interval\s+30$/m);
    expect(listed).not.toMatch(/note/);
    // Nothing to take out: nothing written, nothing made.
    const before = text();
    expect(tickbook(['unset', 'motion']).code).toBe(0);
    expect(text()).toBe(before);
    rmSync(file);
    expect(tickbook(['unset', 'motion']).code).toBe(0);
    expect(existsSync(file)).toBe(false);
  });

  it('the last of the alerts settings unset takes alerts out', () => {
    tickbook(['set', 'alerts.bell', 'false']);
    tickbook(['set', 'interval', '2']);
    expect(tickbook(['unset', 'alerts.bell']).code).toBe(0);
    expect(JSON.parse(text())).toEqual({ interval: 2 });
  });

  it('set and unset of one alerts setting keep another set meanwhile by another process: the alerts object is made of the file under its lock', async () => {
    tickbook(['set', 'alerts.bell', 'true']);
    const lock = join(dirname(file), '.config.json.lock');
    const env = { ...cleanEnv(), HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data') };
    // Another process's save, seen by a command started while it held the lock: the command has
    // read config.json (before the lock) once it has read the lock file to see who holds it, which
    // sets the lock's access time, left older than its change time here (relatime then updates it).
    const raced = async (args: string[], save: object) => {
      writeFileSync(lock, `${process.pid} ${hostname()}\n`, { mode: 0o600 });
      utimesSync(lock, new Date(0), statSync(lock).mtime);
      const child = spawn(process.execPath, [BIN, 'config', ...args], { env, stdio: 'ignore' });
      const exited = new Promise<number | null>((done) => child.on('exit', done));
      await pollUntil(() => statSync(lock).atimeMs > 0, 'the command looking at the lock');
      writeFileSync(file, `${JSON.stringify(save, null, 2)}\n`, { mode: 0o600 });
      rmSync(lock);
      expect(await exited).toBe(0);
    };
    await raced(['set', 'alerts.bell', 'false'], { alerts: { bell: true, command: 'notify-send tickbook' } });
    expect(JSON.parse(text())).toEqual({ alerts: { bell: false, command: 'notify-send tickbook' } });
    await raced(['unset', 'alerts.bell'], { alerts: { bell: false, command: 'notify-send tickbook', notify: true } });
    expect(JSON.parse(text())).toEqual({ alerts: { command: 'notify-send tickbook', notify: true } });
  });

  it('a config.json that is a link (dotfiles) stays a link: its target is written', () => {
    const dotfiles = join(home, 'dotfiles');
    mkdirSync(dotfiles);
    mkdirSync(join(home, 'config', 'tickbook'), { recursive: true });
    writeFileSync(join(dotfiles, 'tickbook.json'), '{"interval": 5}\n');
    symlinkSync(join(dotfiles, 'tickbook.json'), file);
    expect(tickbook(['set', 'hide_money', 'true']).code).toBe(0);
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(join(dotfiles, 'tickbook.json'), 'utf8'))).toEqual({ interval: 5, hide_money: true });
  });
});
