// Where tickbook connects (flags > environment > config file, or the embedded sandbox), the
// config file itself, and the XDG paths it lives under.
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, configFilePath, readConfigFile, updateConfigFile, type ConfigFile } from '../../src/config/config-file.js';
import { resolveConnection, type Connection, type ConnectionFlags } from '../../src/config/connection.js';
import { configDir, dataDir, defaultDatabasePath } from '../../src/config/paths.js';

type Env = Record<string, string | undefined>;

function remote(connection: Connection) {
  if (connection.mode !== 'remote') throw new Error(`expected a remote connection, got ${JSON.stringify(connection)}`);
  return connection;
}

/** The thrown error, asserted to be a ConfigError. */
function configErrorOf(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError, nothing was thrown');
}

describe('resolveConnection: flags > environment > config file', () => {
  const flags: ConnectionFlags = {
    baseUrl: 'https://flag-contacts.example',
    marketDataUrl: 'https://flag-market.example',
    token: 'flag-token',
    apiKey: 'flag-key',
  };
  const env: Env = {
    TICKBOOK_BASE_URL: 'https://env-contacts.example',
    TICKBOOK_MARKET_DATA_URL: 'https://env-market.example',
    TICKBOOK_TOKEN: 'env-token',
    TICKBOOK_API_KEY: 'env-key',
  };
  const file: ConfigFile = {
    base_url: 'https://file-contacts.example',
    market_data_url: 'https://file-market.example',
    token: 'file-token',
    api_key: 'file-key',
  };

  it('takes every value from the flags when all three levels give one', () => {
    const c = remote(resolveConnection(flags, env, file));
    expect(c).toMatchObject({
      contactsUrl: 'https://flag-contacts.example/',
      marketDataUrl: 'https://flag-market.example/',
      token: 'flag-token',
      apiKey: 'flag-key',
    });
    expect(c.warnings).toEqual([]);
  });

  it('takes every value from the environment when no flag gives one', () => {
    const c = remote(resolveConnection({}, env, file));
    expect(c).toMatchObject({
      contactsUrl: 'https://env-contacts.example/',
      marketDataUrl: 'https://env-market.example/',
      token: 'env-token',
      apiKey: 'env-key',
    });
  });

  it('takes every value from the config file when neither flags nor environment give one', () => {
    const c = remote(resolveConnection({}, {}, file));
    expect(c).toMatchObject({
      contactsUrl: 'https://file-contacts.example/',
      marketDataUrl: 'https://file-market.example/',
      token: 'file-token',
      apiKey: 'file-key',
    });
  });

  // Each of the four values on its own: the level above overrides the one below, the others fall through.
  const values = [
    { flag: 'baseUrl', envName: 'TICKBOOK_BASE_URL', fileName: 'base_url', out: 'contactsUrl' },
    { flag: 'marketDataUrl', envName: 'TICKBOOK_MARKET_DATA_URL', fileName: 'market_data_url', out: 'marketDataUrl' },
    { flag: 'token', envName: 'TICKBOOK_TOKEN', fileName: 'token', out: 'token' },
    { flag: 'apiKey', envName: 'TICKBOOK_API_KEY', fileName: 'api_key', out: 'apiKey' },
  ] as const;

  for (const v of values) {
    it(`${v.out}: a flag overrides the environment, which overrides the file, each value on its own`, () => {
      const isUrl = v.out === 'contactsUrl' || v.out === 'marketDataUrl';
      const make = (level: string) => (isUrl ? `https://${level}-only.example` : `${level}-only`);
      const shown = (level: string) => (isUrl ? `https://${level}-only.example/` : `${level}-only`);
      // The other three values come from the file only.
      const baseFile: ConfigFile = { ...file };

      const fromFlag = remote(
        resolveConnection({ [v.flag]: make('flag') }, { [v.envName]: make('env') }, { ...baseFile, [v.fileName]: make('file') }),
      );
      expect(fromFlag[v.out]).toBe(shown('flag'));

      const fromEnv = remote(resolveConnection({}, { [v.envName]: make('env') }, { ...baseFile, [v.fileName]: make('file') }));
      expect(fromEnv[v.out]).toBe(shown('env'));

      const fromFile = remote(resolveConnection({}, {}, { ...baseFile, [v.fileName]: make('file') }));
      expect(fromFile[v.out]).toBe(shown('file'));

      // A saved credential stays with the saved URL: pointed elsewhere, it is not sent.
      const bound = v.out === 'contactsUrl' ? 'token' : v.out === 'marketDataUrl' ? 'apiKey' : undefined;
      if (bound !== undefined) {
        for (const moved of [fromFlag, fromEnv]) {
          expect(moved[bound]).toBeUndefined();
          expect(moved.withheld[bound]).toContain('saved for https://file-only.example');
          expect(moved.withheld[bound]).toContain(`${bound === 'token' ? '--token' : '--api-key'}-file`);
        }
      }
      // The other values were not disturbed by this one's level.
      for (const other of values.filter((o) => o !== v && o.out !== bound)) {
        const expected = file[other.fileName]!;
        const normalised = other.out === 'contactsUrl' || other.out === 'marketDataUrl' ? `${expected}/` : expected;
        expect(fromFlag[other.out], `${other.out} beside a flag ${v.flag}`).toBe(normalised);
        expect(fromEnv[other.out], `${other.out} beside ${v.envName}`).toBe(normalised);
      }
    });
  }

  it('an empty environment variable does not hide the config file', () => {
    const c = remote(resolveConnection({}, { TICKBOOK_TOKEN: '', TICKBOOK_BASE_URL: '' }, file));
    expect(c.token).toBe('file-token');
    expect(c.contactsUrl).toBe('https://file-contacts.example/');
  });

  it('one base URL stands for both groups, whichever of the two is given', () => {
    const onlyBase = remote(resolveConnection({ baseUrl: 'http://127.0.0.1:8080' }, {}, {}));
    expect(onlyBase.contactsUrl).toBe('http://127.0.0.1:8080/');
    expect(onlyBase.marketDataUrl).toBe('http://127.0.0.1:8080/');

    const onlyMarket = remote(resolveConnection({}, { TICKBOOK_MARKET_DATA_URL: 'https://market.example/api' }, {}));
    expect(onlyMarket.contactsUrl).toBe('https://market.example/api');
    expect(onlyMarket.marketDataUrl).toBe('https://market.example/api');

    const fromFile = remote(resolveConnection({}, {}, { base_url: 'https://one.example' }));
    expect(fromFile.marketDataUrl).toBe('https://one.example/');
  });

  it('a token or key without any URL is still the sandbox', () => {
    expect(resolveConnection({ token: 't', apiKey: 'k' }, { TICKBOOK_TOKEN: 'e' }, { token: 'f', api_key: 'g' })).toEqual({
      mode: 'sandbox',
      warnings: [],
    });
  });

  it('no URL anywhere: mode sandbox', () => {
    expect(resolveConnection({}, {}, {})).toEqual({ mode: 'sandbox', warnings: [] });
  });

  it('a URL that is not http(s) is a ConfigError naming it, at every level and for either URL', () => {
    expect(configErrorOf(() => resolveConnection({ baseUrl: 'ftp://x' }, {}, {})).message).toContain('ftp://x');
    expect(configErrorOf(() => resolveConnection({}, { TICKBOOK_BASE_URL: 'ftp://env.example' }, {})).message).toContain(
      'ftp://env.example',
    );
    expect(configErrorOf(() => resolveConnection({}, {}, { base_url: 'file:///etc/passwd' })).message).toContain('file:///etc/passwd');
    const market = configErrorOf(() =>
      resolveConnection({ baseUrl: 'https://ok.example', marketDataUrl: 'ws://market.example' }, {}, {}),
    );
    expect(market.message).toContain('ws://market.example');
    expect(market.message).toMatch(/market data/i);
    expect(configErrorOf(() => resolveConnection({ baseUrl: 'not a url' }, {}, {})).message).toContain('not a url');
  });

  it('plain http to a non-loopback host: the token is not sent, and the reason names the host and the way to opt in', () => {
    const c = remote(resolveConnection({ baseUrl: 'http://api.example.com', token: 'zq-secret-9876' }, {}, {}));
    expect(c.token).toBeUndefined();
    expect(c.withheld.token).toContain('http://api.example.com');
    expect(c.withheld.token).toMatch(/plain http/);
    expect(c.withheld.token).toContain('--insecure-http');
    expect(c.withheld.token).not.toContain('zq-secret-9876');
    expect(c.warnings).toEqual([]);
  });

  it('with --insecure-http (or "insecure_http": true saved) it is sent, with a warning naming the host and the opt-in', () => {
    for (const [flags, file, optIn] of [
      [{ insecureHttp: true }, {}, '--insecure-http'],
      [{}, { insecure_http: true, base_url: 'http://api.example.com' }, 'insecure_http'],
    ] as const) {
      const c = remote(resolveConnection({ baseUrl: 'http://api.example.com', token: 'zq-secret-9876', ...flags }, {}, file));
      expect(c.token).toBe('zq-secret-9876');
      expect(c.withheld.token).toBeUndefined();
      expect(c.warnings).toHaveLength(1);
      expect(c.warnings[0]).toContain('api.example.com');
      expect(c.warnings[0]).toContain(optIn);
      expect(c.warnings[0]).not.toContain('zq-secret-9876');
    }
  });

  it('a saved "insecure_http": true is for the server saved beside it, not wherever a run points', () => {
    const file: ConfigFile = { base_url: 'http://intranet.example', insecure_http: true };
    const elsewhere = remote(resolveConnection({ baseUrl: 'http://evil.example', token: 'tok' }, {}, file));
    expect(elsewhere.token).toBeUndefined();
    expect(elsewhere.withheld.token).toMatch(/over plain http/);
    const saved = remote(resolveConnection({ token: 'tok' }, {}, file));
    expect(saved.token).toBe('tok');
  });

  it('a config with only market_data_url: its token belongs to that URL, which stands for both', () => {
    const c = remote(resolveConnection({}, {}, { market_data_url: 'https://api.example', token: 'T', api_key: 'K' }));
    expect([c.token, c.apiKey]).toEqual(['T', 'K']);
    expect(c.withheld).toEqual({});
  });

  it('a saved URL that is not one, overridden by a flag, stops nothing and binds nothing', () => {
    const c = remote(resolveConnection({ baseUrl: 'https://ok.example' }, {}, { base_url: 'htp:/x', token: 'T' }));
    expect(c.contactsUrl).toBe('https://ok.example/');
    expect(c.token).toBeUndefined();
    expect(c.withheld.token).toMatch(/saved with no URL beside it/);
  });

  it('a malformed saved credential that is withheld anyway stops nothing; one that would be sent is refused', () => {
    const file: ConfigFile = { base_url: 'https://a.example', token: 'ab\ncd' };
    const elsewhere = remote(resolveConnection({ baseUrl: 'https://b.example', apiKey: 'K' }, {}, file));
    expect(elsewhere.apiKey).toBe('K');
    expect(elsewhere.withheld.token).toMatch(/saved for https:\/\/a\.example/);
    expect(configErrorOf(() => resolveConnection({}, {}, file)).message).toMatch(/the bearer token has a line break at character 3/);
  });

  it('names under localhost are this machine: no opt-in needed for them', () => {
    const c = remote(resolveConnection({ baseUrl: 'http://app.localhost:8080', token: 'tok' }, {}, {}));
    expect(c.token).toBe('tok');
    expect(c.warnings).toEqual([]);
  });

  it('plain http to a non-loopback market host: the API key is not sent, the token to https is', () => {
    const c = remote(
      resolveConnection(
        { baseUrl: 'https://contacts.example', marketDataUrl: 'http://market.example:8080', apiKey: 'k3y-value', token: 'tok' },
        {},
        {},
      ),
    );
    expect(c.apiKey).toBeUndefined();
    expect(c.withheld.apiKey).toContain('http://market.example:8080');
    expect(c.withheld.apiKey).not.toContain('k3y-value');
    expect(c.token).toBe('tok');
    expect(c.withheld.token).toBeUndefined();
  });

  it('a host that merely starts like loopback is not loopback', () => {
    for (const url of ['http://localhost.evil.example', 'http://127.0.0.1.nip.io', 'http://10.0.0.5']) {
      const c = remote(resolveConnection({ baseUrl: url, token: 'tok' }, {}, {}));
      expect(c.token, url).toBeUndefined();
      expect(c.withheld.token).toContain(new URL(url).hostname);
    }
  });

  it('https, or http to loopback, gives no warning', () => {
    for (const url of [
      'https://api.example.com',
      'http://127.0.0.1:8080',
      'http://127.3.2.1',
      'http://localhost:9000',
      'http://LOCALHOST',
      'http://[::1]:8080',
    ]) {
      const c = remote(resolveConnection({ baseUrl: url, token: 'tok', apiKey: 'key' }, {}, {}));
      expect(c.warnings, url).toEqual([]);
      expect(c.withheld, url).toEqual({});
      expect([c.token, c.apiKey]).toEqual(['tok', 'key']);
    }
  });

  it('plain http with no credential to send gives no warning', () => {
    expect(remote(resolveConnection({ baseUrl: 'http://api.example.com' }, {}, {})).warnings).toEqual([]);
  });
});

describe('config file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tickbook-config-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  function writeRaw(text: string, mode = 0o600): string {
    const path = join(dir, 'config.json');
    writeFileSync(path, text, { mode });
    chmodSync(path, mode);
    return path;
  }

  it('a missing file is an empty config with no warnings', () => {
    expect(readConfigFile(join(dir, 'nope', 'config.json'))).toEqual({ config: {}, warnings: [], malformed: {} });
  });

  it('reads every field', () => {
    const config: ConfigFile = {
      base_url: 'https://api.example.com',
      market_data_url: 'https://market.example.com',
      token: 't',
      api_key: 'k',
      watchlist: ['AAPL', 'SHOP.TO'],
      interval: 5,
    };
    expect(readConfigFile(writeRaw(JSON.stringify(config)))).toEqual({ config, warnings: [], malformed: {} });
  });

  it('malformed JSON is a ConfigError naming the path', () => {
    const path = writeRaw('{"base_url": "https://x.example",');
    expect(configErrorOf(() => readConfigFile(path)).message).toContain(path);
  });

  it('JSON that is not an object is a ConfigError naming the path', () => {
    for (const text of ['[]', '"text"', '42', 'null']) {
      const path = writeRaw(text);
      expect(configErrorOf(() => readConfigFile(path)).message, text).toContain(path);
    }
  });

  it('a connection field of the wrong type is a ConfigError naming the field', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ base_url: 42 }, 'base_url'],
      [{ market_data_url: ['https://x.example'] }, 'market_data_url'],
      [{ token: true }, 'token'],
      [{ api_key: { value: 'k' } }, 'api_key'],
    ];
    for (const [value, field] of cases) {
      const path = writeRaw(JSON.stringify(value));
      const error = configErrorOf(() => readConfigFile(path));
      expect(error.message, JSON.stringify(value)).toContain(field);
      expect(error.message).toContain(path);
    }
  });

  it('a malformed watchlist or interval (the dashboard\'s alone) is left out with a warning naming the file and the key', () => {
    const cases: [Record<string, unknown>, 'watchlist' | 'interval'][] = [
      [{ watchlist: 'AAPL' }, 'watchlist'],
      [{ watchlist: [1, 2] }, 'watchlist'],
      [{ watchlist: ['AAPL', 3] }, 'watchlist'],
      [{ interval: '5' }, 'interval'],
      [{ interval: 0 }, 'interval'],
      [{ interval: 61 }, 'interval'],
    ];
    for (const [value, key] of cases) {
      const path = writeRaw(JSON.stringify({ base_url: 'https://x.example', ...value }));
      const { config, warnings, malformed } = readConfigFile(path);
      expect(config, JSON.stringify(value)).toEqual({ base_url: 'https://x.example' });
      expect(warnings, JSON.stringify(value)).toHaveLength(1);
      expect(warnings[0]).toContain(path);
      expect(warnings[0]).toContain(key);
      expect(Object.keys(malformed)).toEqual([key]);
      expect(malformed[key]).toContain(key);
    }
  });

  it('updateConfigFile sets the keys given and keeps every other key as it was: unknown, malformed, in place', () => {
    const original = { token: 'tok', theme: { dark: true }, watchlist: 'AAPL', interval: 3, notes: 'mine' };
    const path = writeRaw(JSON.stringify(original), 0o600);
    updateConfigFile(path, { interval: 4 });
    // The text is spliced, not re-serialised: the rest stays as written, on one line here.
    expect(readFileSync(path, 'utf8')).toBe(JSON.stringify({ ...original, interval: 4 }));
    updateConfigFile(path, { watchlist: ['MSFT'] });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ ...original, interval: 4, watchlist: ['MSFT'] });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    // Nothing to change writes nothing: no file appears where there was none.
    const absent = join(dir, 'absent', 'config.json');
    updateConfigFile(absent, {});
    expect(existsSync(absent)).toBe(false);
  });

  it('a file holding a token that others can read warns to chmod 600', () => {
    const path = writeRaw(JSON.stringify({ token: 'secret-token' }), 0o644);
    const { config, warnings } = readConfigFile(path);
    expect(config.token).toBe('secret-token');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('chmod 600');
    expect(warnings[0]).toContain(path);
    expect(warnings[0]).not.toContain('secret-token');
  });

  it('a group-readable file holding an API key warns too', () => {
    const path = writeRaw(JSON.stringify({ api_key: 'secret-key' }), 0o640);
    expect(readConfigFile(path).warnings.join('\n')).toContain('chmod 600');
  });

  it('no warning for a 0600 file with secrets, or a 0644 file without any', () => {
    expect(readConfigFile(writeRaw(JSON.stringify({ token: 't', api_key: 'k' }), 0o600)).warnings).toEqual([]);
    expect(readConfigFile(writeRaw(JSON.stringify({ base_url: 'https://x.example', watchlist: ['AAPL'] }), 0o644)).warnings).toEqual([]);
  });

  it('updateConfigFile creates the directory, writes mode 0600, and reads back equal', () => {
    const path = join(dir, 'nested', 'tickbook', 'config.json');
    const config: ConfigFile = {
      base_url: 'https://api.example.com',
      token: 'tok-123',
      api_key: 'key-456',
      watchlist: ['AAPL', 'VOD.L'],
      interval: 2,
    };
    updateConfigFile(path, config);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readConfigFile(path)).toEqual({ config, warnings: [], malformed: {} });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(config);
  });

  it('updateConfigFile replaces an existing file atomically: a new inode, mode 0600, no temporary left behind', () => {
    const path = writeRaw(JSON.stringify({ token: 'old' }), 0o644);
    const before = statSync(path).ino;
    updateConfigFile(path, { token: 'new', base_url: 'https://new.example' });
    const after = statSync(path);
    expect(after.mode & 0o777).toBe(0o600);
    // Renamed into place, not rewritten in place: a reader sees the old file or the new, never half.
    expect(after.ino).not.toBe(before);
    expect(readdirSync(dir)).toEqual(['config.json']);
    expect(readConfigFile(path)).toEqual({ config: { token: 'new', base_url: 'https://new.example' }, warnings: [], malformed: {} });
  });

  it('the file lives at $XDG_CONFIG_HOME/tickbook/config.json', () => {
    expect(configFilePath({ XDG_CONFIG_HOME: '/xdg/config' })).toBe('/xdg/config/tickbook/config.json');
  });
});

describe('paths', () => {
  it('honours absolute XDG_CONFIG_HOME and XDG_DATA_HOME', () => {
    const env = { XDG_CONFIG_HOME: '/tmp/cfg-home', XDG_DATA_HOME: '/tmp/data-home' };
    expect(configDir(env)).toBe('/tmp/cfg-home/tickbook');
    expect(dataDir(env)).toBe('/tmp/data-home/tickbook');
    expect(defaultDatabasePath(env)).toBe('/tmp/data-home/tickbook/sandbox.db');
  });

  it('falls back to ~/.config and ~/.local/share when unset or empty', () => {
    for (const env of [{}, { XDG_CONFIG_HOME: '', XDG_DATA_HOME: '' }]) {
      expect(configDir(env)).toBe(join(homedir(), '.config', 'tickbook'));
      expect(dataDir(env)).toBe(join(homedir(), '.local', 'share', 'tickbook'));
      expect(configFilePath(env)).toBe(join(homedir(), '.config', 'tickbook', 'config.json'));
      expect(defaultDatabasePath(env)).toBe(join(homedir(), '.local', 'share', 'tickbook', 'sandbox.db'));
    }
  });

  it('ignores relative XDG values, as the XDG spec requires', () => {
    for (const relative of ['relative/dir', './here', '~/cfg', 'cfg']) {
      const env = { XDG_CONFIG_HOME: relative, XDG_DATA_HOME: relative };
      expect(configDir(env), relative).toBe(join(homedir(), '.config', 'tickbook'));
      expect(dataDir(env), relative).toBe(join(homedir(), '.local', 'share', 'tickbook'));
    }
  });
});
