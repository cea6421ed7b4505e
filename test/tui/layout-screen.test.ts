// The frame's geometry, the screen writer that draws only what changed, and the small text
// helpers of the ticker (numbers and sparklines).
import { describe, expect, it } from 'vitest';
import { compactNumber, formatChange, formatPrice, shortAge, signedPercent } from '../../src/text/numbers.js';
import { computeLayout } from '../../src/tui/layout.js';
import { ENTER_ALT_SCREEN, LEAVE_ALT_SCREEN, Screen } from '../../src/tui/terminal/screen.js';
import { sparkline } from '../../src/tui/ticker/Sparkline.js';
import { FakeTerminal } from '../helpers/fake-terminal.js';

describe('computeLayout', () => {
  it('too small below 60 columns or 16 rows', () => {
    expect(computeLayout({ columns: 59, rows: 40 })).toEqual({ kind: 'too-small', width: 59 });
    expect(computeLayout({ columns: 200, rows: 15 })).toEqual({ kind: 'too-small', width: 200 });
    expect(computeLayout({ columns: 10, rows: 3 })).toEqual({ kind: 'too-small', width: 10 });
    expect(computeLayout({ columns: 60, rows: 16 }).kind).toBe('stacked');
  });

  it('side by side from 110 columns', () => {
    expect(computeLayout({ columns: 109, rows: 40 }).kind).toBe('stacked');
    expect(computeLayout({ columns: 110, rows: 40 })).toEqual({
      kind: 'side-by-side',
      width: 110,
      panes: 37,
      contacts: { width: 55, height: 37 },
      ticker: { width: 55, height: 37 },
    });
  });

  it('stacked: contacts above, ticker below with the odd row; the contacts never fewer than two rows', () => {
    expect(computeLayout({ columns: 80, rows: 24 })).toEqual({
      kind: 'stacked',
      width: 80,
      panes: 21,
      contacts: { width: 80, height: 10 },
      ticker: { width: 80, height: 11 },
    });
    const heights = (rows: number) => {
      const layout = computeLayout({ columns: 80, rows });
      return layout.kind === 'stacked' ? [layout.contacts.height, layout.ticker.height] : [];
    };
    expect(heights(25)).toEqual([11, 11]);
    expect(heights(20)).toEqual([8, 9]);
    expect(heights(17)).toEqual([7, 7]);
    expect(heights(16)).toEqual([7, 6]);
  });

  it('panes and the two chrome lines fill exactly rows-1; widths add up to the columns', () => {
    for (const columns of [60, 61, 80, 109, 110, 111, 151, 240]) {
      for (const rows of [16, 17, 24, 25, 50, 81]) {
        const layout = computeLayout({ columns, rows });
        if (layout.kind === 'too-small') throw new Error(`${columns}x${rows} too small`);
        const label = `${columns}x${rows}`;
        expect(layout.width, label).toBe(columns);
        expect(layout.panes + 2, label).toBe(rows - 1);
        if (layout.kind === 'side-by-side') {
          expect(layout.contacts.width + layout.ticker.width, label).toBe(columns);
          expect(layout.contacts.height, label).toBe(layout.panes);
          expect(layout.ticker.height, label).toBe(layout.panes);
        } else {
          expect(layout.contacts.width, label).toBe(columns);
          expect(layout.ticker.width, label).toBe(columns);
          expect(layout.contacts.height + layout.ticker.height, label).toBe(layout.panes);
        }
      }
    }
  });
});

const CSI = '\u001b[';
const at = (row: number) => `${CSI}${row + 1};1H`;
/** Long enough for the screen's scheduled flush (a timer or an immediate) to have run. */
const settled = () => new Promise<void>((resolve) => setTimeout(resolve, 20));

function entered(): { terminal: FakeTerminal; screen: Screen } {
  const terminal = new FakeTerminal();
  const screen = new Screen(terminal);
  screen.enter();
  return { terminal, screen };
}

const frame10 = Array.from({ length: 10 }, (_, i) => `line ${i} ${'·'.repeat(40)}`);

describe('Screen', () => {
  it('reports the terminal size, 80x24 when it has none', () => {
    const terminal = new FakeTerminal();
    terminal.columns = 132;
    terminal.rows = 50;
    const screen = new Screen(terminal);
    expect(screen.size).toEqual({ columns: 132, rows: 50 });
    expect(screen.sink.columns).toBe(132);
    expect(screen.sink.rows).toBe(50);
    terminal.columns = 0;
    terminal.rows = 0;
    expect(screen.size).toEqual({ columns: 80, rows: 24 });
  });

  it('enter switches to the alternate screen before anything else', () => {
    const { terminal, screen } = entered();
    expect(screen.active).toBe(true);
    expect(terminal.writes[0]?.startsWith(ENTER_ALT_SCREEN)).toBe(true);
    expect(ENTER_ALT_SCREEN).toBe('\u001b[?1049h');
    expect(terminal.all).toContain(`${CSI}?25l`); // cursor hidden
    screen.enter();
    expect(terminal.writes).toHaveLength(1);
  });

  it('the first frame writes every line at its own row', () => {
    const { terminal, screen } = entered();
    terminal.take();
    screen.frame(frame10.join('\n'));
    screen.flush();
    const out = terminal.take();
    frame10.forEach((line, row) => expect(out).toContain(`${at(row)}${CSI}2K${line}`));
  });

  it('a second frame with one line changed writes only that line', () => {
    const { terminal, screen } = entered();
    terminal.take();
    screen.frame(frame10.join('\n'));
    screen.flush();
    const first = terminal.take();
    const changed = [...frame10];
    changed[4] = 'line 4 changed';
    screen.frame(changed.join('\n'));
    screen.flush();
    const second = terminal.take();
    expect(second).toContain(`${at(4)}${CSI}2Kline 4 changed`);
    for (const [row, line] of frame10.entries()) {
      if (row !== 4) expect(second).not.toContain(line);
    }
    expect(second).not.toContain(at(3));
    expect(second).not.toContain(at(5));
    expect(second.length * 5).toBeLessThan(first.length);
  });

  it('an identical frame writes nothing', () => {
    const { terminal, screen } = entered();
    screen.frame(frame10.join('\n'));
    screen.flush();
    terminal.take();
    screen.frame(frame10.join('\n'));
    screen.flush();
    expect(terminal.writes).toEqual([]);
  });

  it('a shorter frame clears the rows it no longer has', () => {
    const { terminal, screen } = entered();
    screen.frame('a\nb\nc\nd');
    screen.flush();
    terminal.take();
    screen.frame('a\nb');
    screen.flush();
    const out = terminal.take();
    expect(out).toContain(`${at(2)}${CSI}2K`);
    expect(out).toContain(`${at(3)}${CSI}2K`);
    expect(out).not.toContain(at(0));
    expect(out).not.toContain(at(1));
    // And the next frame, as long as the first, draws those rows again.
    screen.frame('a\nb\nc\nd');
    screen.flush();
    const again = terminal.take();
    expect(again).toContain(`${at(2)}${CSI}2Kc`);
    expect(again).toContain(`${at(3)}${CSI}2Kd`);
  });

  it('the first frame is drawn at once, before the effects of its render run', () => {
    const { terminal, screen } = entered();
    terminal.take();
    screen.sink.write('first\nframe');
    expect(terminal.take()).toContain('first');
    screen.sink.write('second\nframe');
    expect(terminal.writes).toEqual([]);
  });

  it('frames arriving in one tick are drawn once, the last one', async () => {
    const { terminal, screen } = entered();
    screen.sink.write('zero');
    terminal.take();
    screen.sink.write('one\ntwo');
    screen.sink.write('three\nfour');
    expect(terminal.writes).toEqual([]);
    await settled();
    const out = terminal.take();
    expect(out).toContain('three');
    expect(out).toContain('four');
    expect(out).not.toContain('one');
    expect(out).not.toContain('two');
  });

  it('frames before enter are drawn after enter', async () => {
    const terminal = new FakeTerminal();
    const screen = new Screen(terminal);
    screen.frame('early\nframe');
    await settled();
    screen.flush();
    expect(terminal.writes).toEqual([]);
    screen.enter();
    await settled();
    expect(terminal.writes[0]?.startsWith(ENTER_ALT_SCREEN)).toBe(true);
    const out = terminal.all;
    expect(out).toContain(`${at(0)}${CSI}2Kearly`);
    expect(out).toContain(`${at(1)}${CSI}2Kframe`);
    expect(out.indexOf('early')).toBeGreaterThan(out.indexOf(ENTER_ALT_SCREEN));
  });

  it('leave shows the cursor and leaves the alternate screen; frames after it are not drawn', async () => {
    const { terminal, screen } = entered();
    screen.frame('x');
    screen.flush();
    terminal.take();
    screen.leave();
    expect(screen.active).toBe(false);
    const out = terminal.take();
    expect(out).toContain(LEAVE_ALT_SCREEN);
    expect(LEAVE_ALT_SCREEN).toBe('\u001b[?1049l');
    expect(out).toContain(`${CSI}?25h`);
    screen.leave();
    expect(terminal.writes).toEqual([]);
    screen.frame('after');
    await settled();
    screen.flush();
    expect(terminal.writes).toEqual([]);
  });

  it('entering again repaints everything', () => {
    const { terminal, screen } = entered();
    screen.frame('a\nb');
    screen.flush();
    screen.leave();
    screen.enter();
    terminal.take();
    screen.frame('a\nb');
    screen.flush();
    const out = terminal.take();
    expect(out).toContain(`${at(0)}${CSI}2Ka`);
    expect(out).toContain(`${at(1)}${CSI}2Kb`);
  });

  it('a resize clears the screen, forces a full repaint and is passed on to the sink', () => {
    const { terminal, screen } = entered();
    screen.frame(frame10.join('\n'));
    screen.flush();
    terminal.take();
    let resized = 0;
    screen.sink.on('resize', () => resized++);
    terminal.columns = 120;
    terminal.emit('resize');
    expect(resized).toBe(1);
    expect(terminal.take()).toContain(`${CSI}2J`);
    expect(screen.sink.columns).toBe(120);
    screen.frame(frame10.join('\n'));
    screen.flush();
    const out = terminal.take();
    frame10.forEach((line, row) => expect(out).toContain(`${at(row)}${CSI}2K${line}`));
  });

  it('dispose leaves and stops listening for resizes', () => {
    const { terminal, screen } = entered();
    let resized = 0;
    screen.sink.on('resize', () => resized++);
    screen.dispose();
    expect(terminal.all).toContain(LEAVE_ALT_SCREEN);
    terminal.emit('resize');
    expect(resized).toBe(0);
    expect(terminal.listenerCount('resize')).toBe(0);
  });

  it('bytesWritten counts the bytes (not characters) written', () => {
    const { terminal, screen } = entered();
    screen.frame('€uro ▁▂▃\nplain');
    screen.flush();
    screen.leave();
    const bytes = terminal.writes.reduce((sum, data) => sum + Buffer.byteLength(data), 0);
    expect(screen.bytesWritten).toBe(bytes);
    expect(screen.bytesWritten).toBeGreaterThan(terminal.all.length);
  });

  it('the sink is a TTY that takes frames', () => {
    const { screen } = entered();
    expect(screen.sink.isTTY).toBe(true);
    expect(screen.sink.write('x')).toBe(true);
  });
});

describe('numbers', () => {
  it('formatPrice: 2 decimals, 4 below 1.00', () => {
    expect(formatPrice(210)).toBe('210.00');
    expect(formatPrice(1234.5)).toBe('1234.50');
    expect(formatPrice(1)).toBe('1.00');
    expect(formatPrice(0.4567)).toBe('0.4567');
    expect(formatPrice(0.5)).toBe('0.5000');
  });

  it('formatPrice below 0.01: four significant digits, never 0.0000; in exponent form past the 9-column price column', () => {
    expect(formatPrice(0.0001234)).toBe('0.0001234');
    expect(formatPrice(0.000001234)).toBe('1.234e-6');
    expect(formatPrice(0.001234)).toBe('0.001234');
    expect(formatPrice(0.0099)).toBe('0.009900');
    expect(formatPrice(1.234e-12)).toBe('1.234e-12');
    expect(formatPrice(0)).toBe('0.0000');
    expect(formatChange(0.000000001, 0.000001234)).toBe('1.000e-9');
    expect(formatChange(0.0000123, 0.001234)).toBe('0.000012');
  });

  it('formatChange: the decimals of its price', () => {
    expect(formatChange(1.5, 210)).toBe('1.50');
    expect(formatChange(-2.345, 100)).toBe('-2.35');
    expect(formatChange(0.0012, 0.45)).toBe('0.0012');
  });

  it('compactNumber', () => {
    expect(compactNumber(56_350_348)).toBe('56.4M');
    expect(compactNumber(999)).toBe('999');
    expect(compactNumber(0)).toBe('0');
    expect(compactNumber(1000)).toBe('1.0k');
    expect(compactNumber(1500)).toBe('1.5k');
    expect(compactNumber(250_000)).toBe('250k');
    expect(compactNumber(2_500_000_000)).toBe('2.5B');
    expect(compactNumber(3e12)).toBe('3.0T');
    expect(compactNumber(150_000_000)).toBe('150M');
  });

  it('shortAge', () => {
    expect(shortAge(0)).toBe('0s');
    expect(shortAge(4_900)).toBe('4s');
    expect(shortAge(59_999)).toBe('59s');
    expect(shortAge(60_000)).toBe('1m');
    expect(shortAge(3_599_999)).toBe('59m');
    expect(shortAge(3_600_000)).toBe('1h');
    expect(shortAge(-5000)).toBe('0s');
  });

  it('signedPercent: a sign always, never "-0.00%"', () => {
    expect(signedPercent(1.234)).toBe('+1.23%');
    expect(signedPercent(-1.5)).toBe('-1.50%');
    expect(signedPercent(0)).toBe('±0.00%');
    expect(signedPercent(-0)).toBe('±0.00%');
    expect(signedPercent(-0.004)).toBe('±0.00%');
    expect(signedPercent(0.004)).toBe('±0.00%');
    expect(signedPercent(-0.005)).not.toBe('-0.00%');
    expect(signedPercent(12.345)).toMatch(/^\+12\.3[45]%$/);
  });
});

describe('sparkline', () => {
  it('is exactly as wide as asked, right-aligned when there are few prices', () => {
    expect(sparkline([1, 2, 3], 6)).toBe('   ▁▅█');
    expect(sparkline([], 4)).toBe('    ');
  });

  it('shows only the most recent prices that fit, scaled to their range', () => {
    const line = sparkline([100, 1, 2, 3, 4], 4);
    expect(line).toHaveLength(4);
    expect(line).toBe('▁▃▆█');
  });

  it('a flat series is a flat mid-height line', () => {
    expect(sparkline([5, 5, 5], 3)).toBe('▄▄▄');
    expect(sparkline([7], 1)).toBe('▄');
  });

  it('the lowest price is the lowest bar and the highest the highest', () => {
    const values = [10, 14, 9, 20, 15, 11];
    const line = sparkline(values, values.length);
    expect([...line][2]).toBe('▁');
    expect([...line][3]).toBe('█');
    expect([...line].every((bar) => '▁▂▃▄▅▆▇█'.includes(bar))).toBe(true);
  });

  it('bars rise with the price', () => {
    const line = [...sparkline([1, 2, 3, 4, 5, 6, 7, 8], 8)];
    for (let i = 1; i < line.length; i++) expect('▁▂▃▄▅▆▇█'.indexOf(line[i]!)).toBeGreaterThanOrEqual('▁▂▃▄▅▆▇█'.indexOf(line[i - 1]!));
    expect(line.join('')).toBe('▁▂▃▄▅▆▇█');
  });
});
