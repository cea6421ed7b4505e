// Arguments that are not UTF-8 (issue 17, item 5): in a Latin-1 shell `--display-name $'Jos\xe9'`
// reached the server as "Jos\uFFFD" and exit 0. Now any such argument, of any subcommand, option
// or positional, is refused with exit 2 naming the option; a U+FFFD typed as its UTF-8 bytes is
// text like any other. The built CLI is run through bash so that argv holds the real bytes.
import { describe, expect, it } from 'vitest';
import { commandLineArguments, decodeEscapingBytes, isNotText, shownArgument } from '../../src/cli/argv.js';
import { BIN, setUpSandboxCalls } from '../helpers/sandbox.js';
import { runChild } from '../helpers/child.js';

const ctx = setUpSandboxCalls();

const HINT = 'is not valid UTF-8 text (is the terminal or script set to UTF-8?) (see tickbook --help)';

/** `tickbook WORDS` from bash in a C locale, each word a bash $'…' string (so \xNN is a raw byte). */
async function tickbook(words: readonly string[], connect = true) {
  const quoted = words.map((word) => `$'${word.replace(/'/g, "\\'")}'`).join(' ');
  const connection = connect ? ` --base-url ${ctx.sb.url} --token ${ctx.sb.token} --api-key ${ctx.sb.apiKey}` : '';
  const script = `exec '${process.execPath}' '${BIN}' ${quoted}${connection}`;
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: ctx.sb.dir, LC_ALL: 'C', XDG_CONFIG_HOME: ctx.sb.dir, XDG_DATA_HOME: ctx.sb.dir };
  const run = await runChild('bash', ['-c', script], { env, timeoutMs: 15_000 });
  expect(run.timedOut).toBe(false);
  return run;
}

async function usernames(): Promise<string[]> {
  const reply = await ctx.api.list('?limit=100');
  return (reply.json as { data: { username: string }[] }).data.map((c) => c.username);
}

describe('arguments that are not UTF-8', () => {
  it('contacts create --display-name $\'Jos\\xe9\' is refused, exit 2, naming the option; nothing is created', async () => {
    for (const form of [['--display-name', 'Jos\\xe9'], ['--display-name=Jos\\xe9']]) {
      const run = await tickbook(['contacts', 'create', '--username', 'latin1_jose', '--phone', '+14155550100', ...form]);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toBe(`tickbook: option --display-name ${HINT}\n`);
      expect(run.stdout).toBe('');
    }
    expect(await usernames()).not.toContain('latin1_jose');
  });

  it('contacts rename ID $\'Jos\\xe9\' is refused naming the argument; the name is unchanged', async () => {
    const created = await ctx.api.create({ username: 'to_rename', phone_number: '+14155550101', display_name: 'Before' });
    const id = (created.json as { id: string }).id;
    const run = await tickbook(['contacts', 'rename', id, 'Jos\\xe9']);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toBe(`tickbook: argument "Jos\\xe9" ${HINT}\n`);
    expect(((await ctx.api.get(id)).json as { display_name: string }).display_name).toBe('Before');
  });

  it('every subcommand, every option and positional: exit 2 naming it, before anything is done', async () => {
    const cases: [string[], string][] = [
      [['contacts', 'create', '--username', 'u\\xff', '--phone', '+14155550102'], 'option --username'],
      [['contacts', 'create', '--username', 'u2', '--phone', '+1415\\xa0555'], 'option --phone'],
      [['contacts', 'create', '--username', 'u3', '--phone', '+14155550103', '--avatar-url', 'https://x/\\xe9.png'], 'option --avatar-url'],
      [['contacts', 'list', '--after', 'ct_\\xc3'], 'option --after'],
      [['contacts', 'list', '--limit', '1\\xff'], 'option --limit'],
      [['contacts', 'get', 'ct_\\xe9'], 'argument "ct_\\xe9"'],
      [['contacts', 'delete', '--yes', 'ct_\\xe9'], 'argument "ct_\\xe9"'],
      [['contacts', 'li\\xe9st'], 'argument "li\\xe9st"'],
      [['quote', 'AAPL', 'M\\xe9'], 'argument "M\\xe9"'],
      [['symbols', '--search', 'caf\\xe9'], 'option --search'],
      [['contacts', 'list', '--debug-log', '/tmp/\\xe9.log'], 'option --debug-log'],
      // Overlong, surrogate and truncated forms are not UTF-8 either.
      [['contacts', 'get', '\\xc0\\xaf'], 'argument "\\xc0\\xaf"'],
      [['contacts', 'get', '\\xed\\xa0\\x80'], 'argument "\\xed\\xa0\\x80"'],
      [['contacts', 'get', 'ab\\xe2\\x82'], 'argument "ab\\xe2\\x82"'],
      [['contacts', 'get', '--', '\\xe9'], 'argument "\\xe9"'],
      [['\\xe9'], 'argument "\\xe9"'],
    ];
    const runs = await Promise.all(cases.map(([words]) => tickbook(words)));
    runs.forEach((run, i) => {
      const [words, named] = cases[i]!;
      expect(run.code, `${words.join(' ')}: ${run.stderr}`).toBe(2);
      expect(run.stderr, words.join(' ')).toBe(`tickbook: ${named} ${HINT}\n`);
    });
    expect(await usernames()).not.toContain('u2');
  });

  it('options of serve, of the dashboard and the connection: named, and a token\'s value never shown', async () => {
    const cases: [string[], string][] = [
      [['serve', '--db', '/tmp/\\xe9.db'], 'option --db'],
      [['serve', '--token', 'se\\xe9cret'], 'option --token'],
      [['--watchlist', 'AAPL,\\xe9'], 'option --watchlist'],
      [['contacts', 'list', '--token=tok\\xe9n'], 'option --token'],
      [['contacts', 'list', '--base-url', 'http://h\\xe9.example'], 'option --base-url'],
    ];
    const runs = await Promise.all(cases.map(([words]) => tickbook(words, false)));
    runs.forEach((run, i) => {
      const [words, named] = cases[i]!;
      expect(run.code, `${words.join(' ')}: ${run.stderr}`).toBe(2);
      expect(run.stderr, words.join(' ')).toBe(`tickbook: ${named} ${HINT}\n`);
      expect(run.stderr).not.toMatch(/cret|xe9n/);
    });
  });

  it('a U+FFFD typed as UTF-8 (EF BF BD) is text: stored as typed, exit 0', async () => {
    const run = await tickbook(['contacts', 'create', '--username', 'real_fffd', '--phone', '+14155550104', '--display-name', 'Jos\\xef\\xbf\\xbd', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as { display_name: string }).display_name).toBe('Jos\uFFFD');
  });

  it('other text in UTF-8 passes unchanged: accents, CJK, emoji', async () => {
    const run = await tickbook(['contacts', 'create', '--username', 'utf8_ok', '--phone', '+14155550105', '--display-name', 'Jos\\xc3\\xa9 \\xe6\\x9d\\xb1 \\xf0\\x9f\\x93\\x9a', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as { display_name: string }).display_name).toBe('José 東 📚');
  });
});

describe('decodeEscapingBytes', () => {
  it('valid UTF-8 decodes as text; each byte of an invalid sequence becomes U+DC00 + byte', () => {
    const decode = (bytes: number[]) => decodeEscapingBytes(Uint8Array.from(bytes));
    expect(decode([0x4a, 0xc3, 0xa9])).toBe('Jé');
    expect(decode([0xef, 0xbf, 0xbd])).toBe('\uFFFD');
    expect(decode([0xf0, 0x9f, 0x93, 0x9a])).toBe('📚');
    expect(decode([0x4a, 0xe9])).toBe('J\uDCE9');
    expect(decode([0xc0, 0xaf])).toBe('\uDCC0\uDCAF');
    expect(decode([0xed, 0xa0, 0x80])).toBe('\uDCED\uDCA0\uDC80');
    expect(decode([0xf4, 0x90, 0x80, 0x80])).toBe('\uDCF4\uDC90\uDC80\uDC80');
    expect(decode([0xe2, 0x82])).toBe('\uDCE2\uDC82');
    expect(shownArgument('J\uDCE9 "x"')).toBe('"J\\xe9 \\"x\\""');
  });

  it('arguments whose raw bytes are not these (not the process\'s own): a U+FFFD is taken for a byte that was not text', () => {
    const [arg] = commandLineArguments(['not-this-process-\uFFFD']);
    expect(isNotText(arg!)).toBe(true);
    expect(shownArgument(arg!)).toBe('"not-this-process-\\ufffd"');
    expect(isNotText(commandLineArguments(['plain'])[0]!)).toBe(false);
  });
});
