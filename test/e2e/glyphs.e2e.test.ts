// What a person sees in a real terminal (bin/tickbook in tmux) when the text or the terminal is
// unusual: names with invisible and format characters, a query longer than the field, no
// colour, a locale that is not UTF-8, a dumb terminal.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import stringWidth from 'string-width';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { BIN, hasTmux, startTmux, tmux, type TmuxSession } from '../helpers/tmux.js';

/** Columns as tmux draws them: each code point on its own (marks and zero-width ones none). */
const terminalWidth = (text: string): number => [...text].reduce((sum, char) => sum + stringWidth(char), 0);

/** The columns at which each border character of a line stands. */
function borderColumns(line: string): number[] {
  const columns: number[] = [];
  let column = 0;
  for (const char of line) {
    if (/[│┃╭╮╰╯┏┓┗┛|+#]/.test(char)) columns.push(column);
    column += stringWidth(char);
  }
  return columns;
}

/**
 * What is out of line in the two panes: a row whose borders are not where the top row has its
 * corners, or that is not as wide as the screen's panes. Undefined when every row lines up.
 */
function misaligned(screen: string): string | undefined {
  const lines = screen.split('\n');
  const top = lines.findIndex((line) => /^[╭┏+#]/.test(line));
  const bottom = lines.findLastIndex((line) => /^[╰┗+#]/.test(line));
  if (top < 0 || bottom < top + 3) return 'no panes on the screen';
  // The pane corners: left and right of each pane.
  const corners: number[] = [];
  let column = 0;
  const chars = [...lines[top]!];
  chars.forEach((char, i) => {
    const ascii = (char === '+' || char === '#') && (i === 0 || i === chars.length - 1 || /[+#]/.test(chars[i - 1]!) || /[+#]/.test(chars[i + 1] ?? ''));
    if (/[╭╮┏┓]/.test(char) || ascii) corners.push(column);
    column += stringWidth(char);
  });
  if (corners.length !== 4) return `the top row has ${corners.length} corners: ${lines[top]}`;
  for (let row = top + 1; row < bottom; row++) {
    const line = lines[row]!;
    const at = borderColumns(line);
    if (!corners.every((corner) => at.includes(corner))) return `row ${row} has its borders at ${at.join(',')}, not ${corners.join(',')}: ${line}`;
    if (terminalWidth(line.trimEnd()) !== corners[3]! + 1) return `row ${row} is ${terminalWidth(line.trimEnd())} columns: ${line}`;
  }
  return undefined;
}

/** Waits for every row to line up (a frame may be caught half drawn); fails with what does not. */
async function expectAlignedPanes(s: TmuxSession): Promise<string> {
  try {
    return await s.waitFor((t) => misaligned(t) === undefined, 'every row of both panes to line up', 3000);
  } catch {
    const screen = s.screen();
    expect(misaligned(screen), screen).toBeUndefined();
    return screen;
  }
}

const NAMES = [
  'Zed\u200B\u200FYZ',
  'Joiner a\u200Db Jo',
  'Marks \u200E\u200F left right',
  'Bom\uFEFFBom',
  'Ideo\u3000Graphic',
  'Family \u{1F468}\u200D\u{1F469}\u200D\u{1F467} Fam',
  'Thumb \u{1F44D}\u{1F3FD} Up',
  'Heart \u2764\uFE0F Love',
  'Soft\u00ADHyphen Sam',
  'Conjunct \u0915\u094D\u0937 Kay',
  'Hangul\u3164Filler',
  'Keycap 1\uFE0F\u20E3 One',
];

describe.skipIf(!hasTmux())('unusual text and terminals in tmux', () => {
  let sandbox: TestSandbox;
  let home: string;
  let env: Record<string, string>;
  let args: string[];
  let session: TmuxSession | undefined;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const api = client(sandbox);
    for (const [i, name] of NAMES.entries()) {
      const reply = await api.create({ username: `user${i}`, display_name: name, phone_number: `+1555010${String(i).padStart(4, '0')}` });
      expect(reply.status, JSON.stringify(reply.json)).toBe(201);
    }
    home = mkdtempSync(join(tmpdir(), 'tickbook-glyphs-e2e-'));
    env = { HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), LANG: 'C.UTF-8', LC_ALL: '', LC_CTYPE: '' };
    args = [process.execPath, BIN, '--base-url', sandbox.contactsUrl, '--market-data-url', sandbox.marketDataUrl, '--token', sandbox.token, '--api-key', sandbox.apiKey, '--watchlist', 'AAPL,MSFT', '--interval', '1'];
  });
  afterAll(async () => {
    await sandbox.close();
    rmSync(home, { recursive: true, force: true });
  });
  afterEach(() => {
    session?.kill();
    session = undefined;
  });

  const attributes = (s: TmuxSession): string => tmux(['capture-pane', '-p', '-e', '-t', s.name]);

  it('names with invisible characters: every row keeps its borders; rename saves what it shows; a long query scrolls on one line', async () => {
    const s = (session = startTmux(args, env, 120, 40));
    await s.waitFor((t) => /on this page/.test(t) && /MSFT\s+\S*\s*\d+\.\d{2}/.test(t), 'the contacts and prices');
    let screen = await expectAlignedPanes(s);
    expect(screen).toContain('ZedYZ');

    // Rename the first row (sorted by name, "Bom…" first): find the row of ZedYZ.
    const rows = screen.split('\n').filter((line) => /Bom|Conjunct|Family|Heart|Hangul|Ideo|Joiner|Keycap|Marks|Soft|Thumb|Zed/.test(line));
    const index = rows.findIndex((line) => line.includes('ZedYZ'));
    expect(index).toBeGreaterThanOrEqual(0);
    for (let i = 0; i < index; i++) s.keys('j');
    await s.waitFor(() => {
      const selected = attributes(s).split('\n').find((line) => line.includes('\u001b[7m') && /\S/.test(line) && !/sandbox|127\.0\.0\.1/.test(line));
      return selected !== undefined && selected.includes('ZedYZ');
    }, 'ZedYZ selected');
    s.keys('e');
    await s.waitFor((t) => /✎ ZedYZ/.test(t), 'the rename field');
    // The cursor is shown after the last character, in inverse video.
    expect(attributes(s)).toMatch(/✎ (?:\u001b\[[0-9;]*m)*ZedYZ(?:\u001b\[[0-9;]*m)*\u001b\[[0-9;]*7[0-9;]*m /);
    s.keys('Left', 'Left');
    await s.typeUntil('d', (t) => /✎ Zed(?:d+)YZ/.test(t), 'd typed before YZ');
    screen = s.screen();
    const shown = /✎ (\S+)/.exec(screen)![1]!;
    s.keys('Enter');
    await s.waitFor((t) => /renamed to/.test(t), 'the rename confirmed');
    const saved = (await client(sandbox).list('?limit=100')).json as { data: { username: string; display_name: string }[] };
    expect(saved.data.find((c) => c.username === 'user0')!.display_name).toBe(shown);

    // The picker: a 300-character query stays on one line, its end and the cursor in view.
    s.keys('Tab', '/');
    await s.waitFor((t) => /Add symbol:/.test(t), 'the picker');
    const query = `${'abcdefghij'.repeat(29)}0123456789`;
    s.type(query);
    screen = await s.waitFor((t) => /Add symbol: \S*0123456789/.test(t), 'the end of the query');
    expect(screen.split('\n').filter((line) => /abcdefghij|0123456789/.test(line) && !/matches "/.test(line))).toHaveLength(1);
    await expectAlignedPanes(s);
    expect(attributes(s)).toMatch(/0123456789(?:\u001b\[[0-9;]*m)*\u001b\[[0-9;]*7[0-9;]*m /);
    s.keys('Escape');
    await s.waitFor((t) => !/Add symbol:/.test(t), 'the picker closed');
    s.keys('q');
    await s.waitFor((t) => /\[exited 0\]/.test(t), 'a clean exit');
  }, 60_000);

  it('without colour (FORCE_COLOR=0) and in the C locale: ASCII only, the selection and the cursor in inverse video', async () => {
    const s = (session = startTmux(args, { ...env, FORCE_COLOR: '0', LANG: 'C', LC_ALL: 'C' }, 120, 40));
    const screen = await s.waitFor((t) => /on this page/.test(t) && /MSFT\s+\S*\s*\d+\.\d{2}/.test(t), 'the contacts and prices');
    let coloured = attributes(s);
    // No colour at all, but the selected row in inverse video.
    expect(coloured).not.toMatch(/\u001b\[[0-9;]*(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])(?:;[0-9;]*)?m/);
    const paneRows = (text: string) => text.split('\n').filter((line) => /^[#┃│|] /.test(line) && !/Contacts|NAME/.test(line));
    const inverted = paneRows(coloured).filter((line) => /\u001b\[[0-9;]*7[0-9;]*m/.test(line));
    expect(inverted, coloured).toHaveLength(1);
    const name = /\u001b\[[0-9;]*7[0-9;]*m(\S+)/.exec(inverted[0]!)![1]!;
    const field = (line: string) => line.replace(/\u001b\[[0-9;]*m/g, '').slice(2).startsWith(`${line.includes('✎') ? '✎' : '>'} ${name}`);
    s.keys('e');
    await s.waitFor((t) => paneRows(t).some(field), 'the rename field');
    coloured = attributes(s);
    // The cursor: an inverse space after the name.
    expect(paneRows(coloured).find(field)).toMatch(/\u001b\[[0-9;]*7[0-9;]*m (?:\u001b\[[0-9;]*m)*\s/);
    // And in the C locale, nothing but ASCII, the borders in line.
    expect(screen).toMatch(/^[\u0000-\u007f]*$/);
    expect(screen).toMatch(/^#[=#]+#\+-+\+/m);
    expect(screen).toMatch(/# > Contacts/);
    await expectAlignedPanes(s);
    s.keys('Escape');
    // Esc and q in one read are Alt-q, as in any terminal program: wait for the field to close.
    await s.waitFor((t) => !/save name/.test(t), 'the rename field closed');
    s.keys('q');
    await s.waitFor((t) => /\[exited 0\]/.test(t), 'a clean exit');
  }, 40_000);

  it('the Linux console: ASCII and its eight colours, never a bright one; the config can ask for ASCII anywhere', async () => {
    let s = (session = startTmux(args, { ...env, TERM: 'linux' }, 120, 40));
    let screen = await s.waitFor((t) => /on this page/.test(t) && /MSFT\s+\S*\s*\d+\.\d{2}/.test(t), 'the contacts and prices');
    expect(screen).toMatch(/^[\u0000-\u007f]*$/);
    await expectAlignedPanes(s);
    const coloured = attributes(s);
    expect(coloured).toMatch(/\u001b\[[0-9;]*3[1-6]m/);
    expect(coloured).not.toMatch(/\u001b\[(?:[0-9;]*;)?(?:9[0-7]|10[0-7]|38;5|38;2)[;m]/);
    s.keys('q');
    await s.waitFor((t) => /\[exited 0\]/.test(t), 'a clean exit');
    s.kill();

    const config = join(home, 'ascii-config');
    mkdirSync(join(config, 'tickbook'), { recursive: true });
    writeFileSync(join(config, 'tickbook', 'config.json'), JSON.stringify({ glyphs: 'ascii', colors: 'none' }));
    s = session = startTmux(args, { ...env, XDG_CONFIG_HOME: config, TERM: 'xterm-256color' }, 120, 40);
    screen = await s.waitFor((t) => /on this page/.test(t), 'the contacts');
    expect(screen).toMatch(/^[\u0000-\u007f]*$/);
    expect(screen).toMatch(/^#[=#]+#\+-+\+/m);
    expect(attributes(s)).not.toMatch(/\u001b\[[0-9;]*(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])(?:;[0-9;]*)?m/);
    s.keys('q');
    await s.waitFor((t) => /\[exited 0\]/.test(t), 'a clean exit');
  }, 40_000);

  it('TERM=dumb: one line pointing to the subcommands, exit 2', async () => {
    const s = (session = startTmux(args, { ...env, TERM: 'dumb' }, 200, 10));
    const screen = await s.waitFor((t) => /\[exited \d+\]/.test(t), 'the exit');
    expect(screen).toMatch(/\[exited 2\]/);
    const said = screen.split('\n').filter((line) => line.trim() !== '' && !/\[exited/.test(line));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/TERM=dumb.*subcommands/);
  }, 20_000);
});
