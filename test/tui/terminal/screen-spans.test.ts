// The screen writer sends only the changed span of a changed line. These tests play its output
// into a terminal emulator (xterm.js, headless, with Unicode 11 widths, as string-width counts
// them) and check, after every frame, that the screen shows exactly what a fresh terminal shows
// when given that frame line by line whole: every cell's character, width, colours and
// attributes. And that a tick writes about the bytes of what it changed.
import { EventEmitter } from 'node:events';
import { Unicode11Addon } from '@xterm/addon-unicode11';
import xterm from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { Screen } from '../../../src/tui/terminal/screen.js';

const ESC = '\u001b';
const CSI = `${ESC}[`;
const sgr = (params: string) => `${CSI}${params}m`;
const SYNC = `${CSI}?2026h${CSI}?2026l`;

function emulator(columns: number, rows: number): xterm.Terminal {
  const terminal = new xterm.Terminal({ cols: columns, rows, allowProposedApi: true });
  terminal.loadAddon(new Unicode11Addon());
  terminal.unicode.activeVersion = '11';
  return terminal;
}

/** Resolves once the emulator has taken in everything written to it so far. */
const parsed = (terminal: xterm.Terminal) => new Promise<void>((resolve) => terminal.write('', resolve));

/** A terminal for a Screen that is an emulator, counting the bytes it is sent. */
class EmulatedTerminal extends EventEmitter {
  readonly emulator: xterm.Terminal;
  bytes = 0;
  last = '';
  constructor(
    public columns: number,
    public rows: number,
  ) {
    super();
    this.emulator = emulator(columns, rows);
  }
  write(data: string): boolean {
    this.bytes += Buffer.byteLength(data);
    this.last = data;
    this.emulator.write(data);
    return true;
  }
}

/** Every cell of the screen: character, width, colours and attributes, a row a string. */
function shown(terminal: xterm.Terminal): string[] {
  const buffer = terminal.buffer.active;
  const rows: string[] = [];
  for (let y = 0; y < terminal.rows; y++) {
    const line = buffer.getLine(y)!;
    const cells: string[] = [];
    for (let x = 0; x < terminal.cols; x++) {
      const cell = line.getCell(x)!;
      const attributes = [
        cell.isBold() && 'bold',
        cell.isDim() && 'dim',
        cell.isItalic() && 'italic',
        cell.isUnderline() && 'underline',
        cell.isBlink() && 'blink',
        cell.isInverse() && 'inverse',
        cell.isInvisible() && 'invisible',
        cell.isStrikethrough() && 'strike',
        cell.isOverline() && 'overline',
      ].filter(Boolean);
      const fg = cell.isFgDefault() ? '' : `fg${cell.getFgColorMode()}:${cell.getFgColor()}`;
      const bg = cell.isBgDefault() ? '' : `bg${cell.getBgColorMode()}:${cell.getBgColor()}`;
      cells.push(`${JSON.stringify(cell.getChars())}/${cell.getWidth()}${fg}${bg}${attributes.join('+')}`);
    }
    rows.push(`${y}: ${cells.join(' ')}`);
  }
  return rows;
}

/** What a fresh terminal shows for the frame, each line written whole from the default state. */
async function reference(frame: readonly string[], columns: number, rows: number): Promise<string[]> {
  const terminal = emulator(columns, rows);
  terminal.write(`${CSI}?7l`);
  frame.forEach((line, row) => terminal.write(`${CSI}${row + 1};1H${sgr('0')}${line}${sgr('0')}`));
  await parsed(terminal);
  const screen = shown(terminal);
  terminal.dispose();
  return screen;
}

/** A Screen on an emulated terminal, taking frames and checking what it shows after each. */
async function writer(columns: number, rows: number) {
  const terminal = new EmulatedTerminal(columns, rows);
  const screen = new Screen(terminal);
  screen.enter();
  await parsed(terminal.emulator);
  return {
    terminal,
    screen,
    /** Draws the frame and returns the bytes it took; fails unless the screen shows the frame. */
    async draw(frame: readonly string[], what = ''): Promise<number> {
      const before = terminal.bytes;
      screen.frame(frame.join('\n'));
      screen.flush();
      await parsed(terminal.emulator);
      expect(shown(terminal.emulator), what).toEqual(await reference(frame, terminal.columns, terminal.rows));
      return terminal.bytes - before;
    },
  };
}

const bold = (text: string) => `${sgr('1')}${text}${sgr('22')}`;
const color = (code: string, text: string) => `${sgr(code)}${text}${sgr('39')}`;
const inverse = (text: string) => `${sgr('7')}${text}${sgr('27')}`;

describe('the screen writer’s spans, played into a terminal emulator', () => {
  it('a sequence of frames: every one ends up on screen exactly', async () => {
    const columns = 64;
    const { draw, terminal } = await writer(columns, 10);
    // The rest of a watchlist row, so that a change is a small part of its line, as it is.
    const tail = `  56.4M ${'▁▂▃▄▅▆▇█'}  3s │`;
    const full = 'x'.repeat(columns - 1);
    const frames: { what: string; frame: string[]; written: 'spans' | 'whole lines' }[] = [];
    const first = [
      bold('Ticker') + ' ' + color('90', 'updated 3s ago') + '  sandbox · latency 3 ms · 12 symbols',
      `AAPL   ${color('32', '187.42')}  ${color('32', '▲0.15')}${tail}`,
      `MSFT   ${color('31', '402.10')}  ${color('31', '▼1.02')}${tail}`,
      `名前   ${color('33', '中文の名前')} end${tail}`,
      `emoji 😀 here, and café${tail}`,
      'a line that will get shorter and longer, and then longer again',
      `${full}${color('36', 'L')}`,
      inverse('selected row'.padEnd(40)),
      '',
      `last line ${sgr('48;5;236')}  ${sgr('38;5;208')}warm${sgr('39')}  ${sgr('49')} and the rest of it, a long way on`,
    ];
    frames.push({ what: 'the first frame', frame: first, written: 'whole lines' });
    const step = (what: string, written: 'spans' | 'whole lines', change: (frame: string[]) => void) => {
      const frame = [...frames[frames.length - 1]!.frame];
      change(frame);
      frames.push({ what, frame, written });
    };
    step('a price changes, in its colour', 'spans', (f) => (f[1] = `AAPL   ${color('32', '188.07')}  ${color('32', '▲0.65')}${tail}`));
    step('a colour changes, the text does not', 'spans', (f) => (f[1] = `AAPL   ${color('31', '188.07')}  ${color('31', '▲0.65')}${tail}`));
    step('bold goes, the text stays', 'spans', (f) => (f[0] = 'Ticker ' + color('90', 'updated 3s ago') + '  sandbox · latency 3 ms · 12 symbols'));
    step('an attribute comes in the middle of a line', 'spans', (f) => (f[2] = `MSFT   ${color('31', '402.10')}  ${sgr('4')}${color('31', '▼1.02')}${sgr('24')}${tail}`));
    step('two prices in two rows, the second in the first one’s colour', 'spans', (f) => {
      f[1] = `AAPL   ${color('31', '188.01')}  ${color('31', '▲0.65')}${tail}`;
      f[2] = `MSFT   ${color('31', '402.99')}  ${sgr('4')}${color('31', '▼1.02')}${sgr('24')}${tail}`;
    });
    step('a wide character over two narrow ones', 'spans', (f) => (f[4] = `emoji 😀 中re, and café${tail}`));
    step('wide characters shift by a column', 'spans', (f) => (f[3] = `名前   ${color('33', 'x中文の名前')}end${tail}`));
    step('narrow characters where a wide one was', 'spans', (f) => (f[3] = `名前   ${color('33', 'ab文の名前')} end${tail}`));
    step('a mark joins a character', 'spans', (f) => (f[4] = `emoji 😀 中re, and cafe\u0301\u0323${tail}`));
    // (A mark after a change of style is left to line-cells.test.ts: xterm.js gives it a column
    // of its own, where string-width, and with it Ink's layout, count none.)
    step('a mark leaves it', 'spans', (f) => (f[4] = `emoji 😀 中re, and cafe${tail}`));
    step('an emoji for another', 'spans', (f) => (f[4] = `emoji 🚀 中re, and cafe${tail}`));
    step('an emoji for two letters', 'spans', (f) => (f[4] = `emoji ok 中re, and cafe${tail}`));
    step('the line gets shorter', 'spans', (f) => (f[5] = 'a line that will get shorter and longer'));
    step('shorter by a character styled to its end', 'spans', (f) => (f[5] = `a line that will get shorter and longe${color('35', 'R')}`));
    step('and longer again', 'spans', (f) => (f[5] = `a line that will get shorter and longe${color('35', 'R')}, and then longer again`));
    step('most of it changes', 'whole lines', (f) => (f[5] = 'a line that is quite another line from what it was'));
    step('the last column changes', 'spans', (f) => (f[6] = `${full}${color('36', 'R')}`));
    step('the last column goes', 'spans', (f) => (f[6] = full));
    step('the last column comes back', 'spans', (f) => (f[6] = `${full}Q`));
    step('a wide character in the last two columns', 'spans', (f) => (f[6] = `${full.slice(1)}中`));
    step('the last two columns go, in colour up to them', 'spans', (f) => (f[6] = `${full.slice(0, -2)}${color('32', 'gg')}`));
    step('the selected row moves', 'whole lines', (f) => {
      f[7] = 'selected row';
      f[8] = inverse('next row'.padEnd(40));
    });
    step('a background goes from under a word', 'spans', (f) => (f[9] = `last line ${sgr('48;5;236')}  ${sgr('49')}${sgr('38:2::10:20:30')}warm${sgr('39')}   and the rest of it, a long way on`));
    step('a colour cut short, which terminals read their own ways', 'whole lines', (f) => (f[9] = `last line ${sgr('48;5')}  ${sgr('49')}warm   and the rest of it, a long way on`));
    step('and a change beside it', 'whole lines', (f) => (f[9] = `last line ${sgr('48;5')}  ${sgr('49')}cold   and the rest of it, a long way on`));
    step('an empty line', 'whole lines', (f) => (f[9] = ''));
    step('the frame loses rows', 'whole lines', (f) => f.splice(7));
    step('and has them again', 'whole lines', (f) => f.push('seven', 'eight', 'nine'));
    for (const { what, frame, written } of frames) {
      terminal.last = '';
      await draw(frame, what);
      // A whole line is erased first; a span, never.
      expect(terminal.last.includes(`${CSI}2K`), `${what}: ${JSON.stringify(terminal.last)}`).toBe(written === 'whole lines');
    }
    // The same frame again writes nothing at all.
    expect(await draw(frames[frames.length - 1]!.frame)).toBe(0);
  });

  it('a line wider than the terminal is written whole, as before, and still shows the same', async () => {
    const { draw } = await writer(20, 3);
    await draw(['a'.repeat(25), 'short']);
    await draw(['a'.repeat(24) + 'b', 'short']);
    // Changed past the last column, but not the last character: what shows does not change.
    await draw(['a'.repeat(22) + 'Xb', 'short']);
    await draw(['a'.repeat(10), 'shorts']);
    await draw(['a'.repeat(30), 'shorts']);
  });

  it('after a resize every line is written whole, onto the cleared screen', async () => {
    const { terminal, draw } = await writer(30, 4);
    await draw(['one', `two ${color('32', '2')}`, 'three']);
    terminal.columns = 40;
    terminal.emulator.resize(40, 4);
    terminal.emit('resize');
    terminal.last = '';
    await draw(['one', `two ${color('32', '2')}`, 'three']);
    expect(terminal.last).toContain(`${CSI}1;1H${CSI}2Kone`);
  });

  it('random frames and random changes, a few hundred of them', async () => {
    let seed = 20261123;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return Math.floor((seed / 2 ** 31) * n); // the high bits: the low ones of this generator repeat
    };
    const pick = <T>(items: readonly T[]): T => items[random(items.length)]!;
    const characters = ['a', 'b', 'z', ' ', '0', '7', '.', '─', '▁', '▆', '…', '中', '文', '😀', '🚀', 'é', 'e\u0301', 'a\u0308\u0323'];
    const styles = ['', '1', '2', '3', '4', '7', '9', '31', '32', '1;33', '38;5;208', '38;2;1;2;3', '44', '48;5;236', '7;32', '4:3'];
    const columns = 48;
    const rows = 6;
    type Run = { style: string; text: string[] };
    const width = (run: Run) => run.text.reduce((sum, c) => sum + (/[中文😀🚀]/u.test(c) ? 2 : 1), 0);
    const randomLine = (): Run[] => {
      const runs: Run[] = [];
      let used = 0;
      const target = columns / 2 + random(columns / 2 + 2);
      while (used < target) {
        const run = { style: pick(styles), text: Array.from({ length: 1 + random(5) }, () => pick(characters)) };
        if (used + width(run) > columns) break;
        runs.push(run);
        used += width(run);
      }
      return runs;
    };
    // As Ink writes them: each styled run closed again, so a line ends in the default state.
    const written = (line: Run[]) => line.map((run) => (run.style === '' ? run.text.join('') : `${sgr(run.style)}${run.text.join('')}${sgr('0')}`)).join('');
    const { draw, terminal } = await writer(columns, rows);
    let lines = Array.from({ length: rows }, randomLine);
    let spans = 0;
    let wholeLines = 0;
    for (let frame = 0; frame < 300; frame++) {
      lines = lines.map((line) => {
        if (random(3) !== 0) return line;
        const changed = line.map((run) => ({ ...run, text: [...run.text] }));
        switch (random(5)) {
          case 0: // a character for another
            if (changed.length > 0) {
              const run = pick(changed);
              run.text[random(run.text.length)] = pick(characters);
            }
            break;
          case 1: // a run's style
            if (changed.length > 0) pick(changed).style = pick(styles);
            break;
          case 2: // shorter
            changed.splice(random(changed.length + 1));
            break;
          case 3: // longer
            changed.push({ style: pick(styles), text: Array.from({ length: 1 + random(5) }, () => pick(characters)) });
            break;
          default:
            return randomLine();
        }
        // Kept within the terminal: wider lines are written whole (the test above).
        while (changed.reduce((sum, run) => sum + width(run), 0) > columns) changed.pop();
        return changed;
      });
      const shownFrame = lines.slice(0, rows - random(2)).map(written);
      terminal.last = '';
      await draw(shownFrame, `frame ${frame}: ${JSON.stringify(shownFrame)}`);
      for (const [, erased] of terminal.last.matchAll(/\u001b\[\d+;\d+H(\u001b\[2K)?/g)) {
        if (erased) wholeLines++;
        else spans++;
      }
    }
    // Both ways of writing a line were put to the test, many times over.
    expect(spans).toBeGreaterThan(150);
    expect(wholeLines).toBeGreaterThan(100);
  });
});

describe('bytes a tick writes', () => {
  // A watchlist row as the dashboard draws it at 120 columns: symbol, name, price, tick and
  // session change in colour, volume, a sparkline, age.
  interface Quote {
    price: string;
    tick: string;
    session: string;
  }
  const colourOf = (change: string) => (change.startsWith('▼') || change.startsWith('-') ? '31' : '32');
  const row = (symbol: string, { price, tick, session }: Quote) =>
    `${symbol.padEnd(8)} ${'Some Company Inc.'.padEnd(36)} ${price.padStart(9)} ${color(colourOf(tick), tick.padStart(8))} ${color(colourOf(session), session.padStart(8))}  56.4M ${'▁▂▃▄▅▆▇█▇▆▅▄▃▂▁▂'}   3s`;
  const frame = (quotes: readonly Quote[]) => [
    bold('tickbook') + '  sandbox  ' + color('90', 'latency 3 ms'),
    ...quotes.map((quote, i) => row(`SYM${i}`, quote)),
    ...Array.from({ length: 40 - 2 - quotes.length }, (_, i) => `contact ${i}`.padEnd(119, ' ') + '│'),
    color('90', '? help · q quit'),
  ];
  const quote = (price: string, tick = '▲0.15', session = '+0.66%'): Quote => ({ price, tick, session });

  it('one price cell in a 120-column line: well under three times its text, plus the cursor move', async () => {
    const { terminal, draw } = await writer(120, 40);
    const others = [quote('402.10'), quote('99.95')];
    await draw(frame([quote('187.42'), ...others]));
    const line = frame([quote('187.42')])[1]!;
    expect(Buffer.byteLength(line)).toBeGreaterThan(150);

    const written = await draw(frame([quote('188.07'), ...others]));
    const price = '188.07';
    // 187.42 to 188.07: the cells from the first that differs are written, nothing else.
    const move = `${CSI}2;${line.indexOf('187.42') + 3}H`;
    expect(terminal.last).toBe(`${CSI}?2026h${move}8.07${CSI}?2026l`);
    // The frame's synchronized-output brackets are the same 16 bytes whatever it holds.
    expect(written - SYNC.length).toBeLessThanOrEqual(3 * Buffer.byteLength(price) + move.length);

    // With a change of colour too: the tick cell, green to red, and the space before it.
    const coloured = await draw(frame([quote('188.07', '▼0.30'), ...others]));
    expect(coloured - SYNC.length).toBeLessThanOrEqual(3 * Buffer.byteLength('▼0.30') + move.length);
  });

  it('two changes far apart in a row: the second is reached by a jump forward, the cells between not written', async () => {
    const { terminal, draw } = await writer(120, 40);
    const row = (price: string, age: string) => `AAPL  ${price}${' '.repeat(60)}${color('32', '▲0.10')}  ${age}`;
    await draw(['title', row('187.42', '5s')]);
    await draw(['title', row('187.45', '1s')]);
    // The price's last digit, a jump over the unchanged columns, the age's digit.
    expect(terminal.last).toBe(`${CSI}?2026h${CSI}2;12H5${CSI}67C1${CSI}?2026l`);
  });

  it('a 120x40 frame where 12 quotes change: at most three times the changed cells’ text, brackets and all', async () => {
    const { terminal, draw } = await writer(120, 40);
    const quotes = Array.from({ length: 12 }, (_, i) => quote((100 + i * 7.31).toFixed(2), `▲${(0.1 * i).toFixed(2)}`));
    const whole = await draw(frame(quotes));
    // Every price moves; the tick changes with it, and in every third row turns down (red).
    const next = quotes.map((q, i) =>
      i % 3 === 0 ? quote((Number(q.price) - 0.61).toFixed(2), '▼0.61', q.session) : quote((Number(q.price) + 1.07).toFixed(2), '▲1.07', q.session),
    );
    const changedText = next.reduce((sum, q) => sum + Buffer.byteLength(q.price + q.tick), 0);
    const written = await draw(frame(next));
    expect(written).toBeLessThanOrEqual(3 * changedText);
    expect(written * 10).toBeLessThan(whole);
    // The frame's last span was in colour; what is written after the frame is not.
    terminal.emulator.write(`${CSI}40;120HZ`);
    await parsed(terminal.emulator);
    const probe = terminal.emulator.buffer.active.getLine(39)!.getCell(119)!;
    expect([probe.getChars(), probe.isFgDefault(), probe.isBgDefault()]).toEqual(['Z', true, true]);
  });
});
