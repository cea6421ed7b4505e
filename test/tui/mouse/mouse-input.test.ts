// The mouse's parts on their own: reading reports (SGR and X10, whole or cut between reads),
// their place among the keys in the terminal reader's batches, what a report does as commands
// (and that it leaves the areas as drawn), double-clicks,
// and the terminal's reporting turned on and off by the screen writer (checked in a terminal
// emulator: xterm.js's own idea of the mode it is in).
import { EventEmitter } from 'node:events';
import xterm from '@xterm/headless';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { canRun } from '../../../src/tui/keys/keymap.js';
import { nextClick, DOUBLE_CLICK_MS } from '../../../src/tui/mouse/clicks.js';
import type { Hit, MouseArea } from '../../../src/tui/mouse/mouse-areas.js';
import { LIST_COMMANDS } from '../../../src/tui/mouse/mouse-areas.js';
import { MOUSE_OFF, MOUSE_ON, parseMouseReport, type MouseReport, X10Rewriter } from '../../../src/tui/mouse/mouse-report.js';
import { mouseAtStart } from '../../../src/tui/mouse/mouse-setting.js';
import { mouseSteps, WHEEL_ROWS } from '../../../src/tui/mouse/mouse-steps.js';
import { TerminalReader } from '../../../src/tui/keys/terminal-reader.js';
import { FakeStdin, reader } from '../../helpers/fake-stdin.js';
import { Screen } from '../../../src/tui/terminal/screen.js';

const ESC = '\u001b';
const at = (column: number, row: number) => ({ column, row, shift: false, alt: false, ctrl: false });

describe('parseMouseReport', () => {
  it('reads SGR presses, releases and wheel steps, cells counted from 0', () => {
    expect(parseMouseReport(`${ESC}[<0;1;1M`)).toEqual({ action: 'press', button: 'left', ...at(0, 0) });
    expect(parseMouseReport(`${ESC}[<0;300;120m`)).toEqual({ action: 'release', button: 'left', ...at(299, 119) });
    expect(parseMouseReport(`${ESC}[<1;5;6M`)).toEqual({ action: 'press', button: 'middle', ...at(4, 5) });
    expect(parseMouseReport(`${ESC}[<2;5;6M`)).toEqual({ action: 'press', button: 'right', ...at(4, 5) });
    expect(parseMouseReport(`${ESC}[<64;10;3M`)).toEqual({ action: 'wheel-up', button: undefined, ...at(9, 2) });
    expect(parseMouseReport(`${ESC}[<65;10;3M`)).toEqual({ action: 'wheel-down', button: undefined, ...at(9, 2) });
    // Shift 4, Alt (meta) 8, Ctrl 16.
    expect(parseMouseReport(`${ESC}[<28;2;2M`)).toEqual({ action: 'press', button: 'left', column: 1, row: 1, shift: true, alt: true, ctrl: true });
  });

  it('is undefined for motion, the sideways wheel, buttons past the third, cell 0 and what is no report', () => {
    for (const piece of [`${ESC}[<32;5;5M`, `${ESC}[<35;5;5M`, `${ESC}[<66;5;5M`, `${ESC}[<67;5;5M`, `${ESC}[<128;5;5M`, `${ESC}[<0;0;5M`, `${ESC}[<64;5;5m`, `${ESC}[<0;5M`, `${ESC}[A`, 'M', `${ESC}[<0;5;5X`, `${ESC}[M !!`]) {
      expect(parseMouseReport(piece), JSON.stringify(piece)).toBeUndefined();
    }
  });
});

describe('X10Rewriter', () => {
  const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))));
  const x10 = (code: number, column: number, row: number) => [0x1b, 0x5b, 0x4d, code + 32, column + 32, row + 32];

  it('rewrites X10 reports as SGR ones, whatever their bytes: past column 95 they are no UTF-8', () => {
    const rewriter = new X10Rewriter();
    expect(rewriter.rewrite(bytes('a', x10(0, 100, 5), 'j')).toString()).toBe(`a${ESC}[<0;100;5Mj`);
    // 0xC4 0x84 would be one UTF-8 character: here a column and a row, and the j after them is kept.
    expect(rewriter.rewrite(bytes(x10(0, 0xc4 - 32, 0x84 - 32), 'j')).toString()).toBe(`${ESC}[<0;164;100Mj`);
    expect(rewriter.rewrite(bytes(x10(65, 223, 1))).toString()).toBe(`${ESC}[<65;223;1M`);
  });

  it('leaves releases out (nothing acts on them), and everything else as it was', () => {
    const rewriter = new X10Rewriter();
    expect(rewriter.rewrite(bytes(x10(3, 10, 10), 'k')).toString()).toBe('k');
    const plain = bytes(`x${ESC}[A${ESC}[1;5C é ${ESC}`);
    expect(rewriter.rewrite(plain)).toBe(plain);
    expect(rewriter.holding).toBe(false);
  });

  it('holds a report cut at the end of a read for the next; a lone ESC is not held', () => {
    const rewriter = new X10Rewriter();
    expect(rewriter.rewrite(bytes('j', [0x1b, 0x5b, 0x4d, 32, 0xc8])).toString()).toBe('j');
    expect(rewriter.holding).toBe(true);
    expect(rewriter.rewrite(bytes([0x90], 'k')).toString()).toBe(`${ESC}[<0;168;112Mk`);
    expect(rewriter.rewrite(bytes(`q${ESC}[`)).toString()).toBe('q');
    expect(rewriter.release().toString()).toBe(`${ESC}[`);
    expect(rewriter.rewrite(bytes(`q${ESC}`)).toString()).toBe(`q${ESC}`);
    expect(rewriter.holding).toBe(false);
  });
});

const opened: TerminalReader[] = [];

/** A reader on a fake terminal, told the mouse is reported: what it hands over, as `shown`. */
function reading() {
  const source = new FakeStdin();
  const input = new TerminalReader(source);
  opened.push(input);
  input.mouseReports = true;
  const seen = reader(input);
  return { source, input, seen, send: (read: string | Buffer | number[]) => source.send(read) };
}

describe('TerminalReader with the mouse', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    for (const input of opened.splice(0)) input.detach();
    vi.useRealTimers();
  });

  it('hands reports over in order with the keys around them, in the read\'s batch, never as keys', () => {
    const { seen, send } = reading();
    send(`j${ESC}[<0;3;4Mk${ESC}[<0;3;4m${ESC}[M !!d`);
    // Releases are no events.
    expect(seen).toEqual(['j', 'mouse:press@2,3×1', 'k', 'mouse:press@0,0×1', 'd']);
    expect(seen.batches).toEqual([5]);
    // A read of only a release hands nothing over.
    send(`${ESC}[<0;3;4m`);
    expect(seen.batches).toEqual([5]);
  });

  it('takes a report cut between two reads as one, SGR and X10 alike', () => {
    const { seen, send } = reading();
    send(`${ESC}[<0;1`);
    expect(seen).toEqual([]);
    send(`2;7Mx${ESC}[M`);
    send([33, 0xe0, 0xa0]);
    expect(seen).toEqual(['mouse:press@11,6×1', 'x', 'mouse:press@191,127×1']);
    expect(seen.batches).toEqual([2, 1]);
  });

  it('takes a run of wheel steps in one cell in one read as one event with a count, and no other run', () => {
    const { seen, send } = reading();
    const down = `${ESC}[<65;5;5M`;
    send(`${down.repeat(5)}${ESC}[<65;5;6M${ESC}[<64;5;6M${ESC}[<64;5;6M${ESC}[<0;5;5M${ESC}[<0;5;5M`);
    expect(seen).toEqual(['mouse:wheel-down@4,4×5', 'mouse:wheel-down@4,5×1', 'mouse:wheel-up@4,5×2', 'mouse:press@4,4×1', 'mouse:press@4,4×1']);
    // A key between two steps, or two reads, keep them apart.
    send(`${down}j${down}`);
    send(down);
    expect(seen.slice(5)).toEqual(['mouse:wheel-down@4,4×1', 'j', 'mouse:wheel-down@4,4×1', 'mouse:wheel-down@4,4×1']);
  });

  it('the end of a report that came too late to be joined (a slow link) is dropped, not typed, for a second', () => {
    const { seen, send } = reading();
    send(`${ESC}[<0;12;3`);
    vi.advanceTimersByTime(60);
    send('mj');
    // Cut just after its ESC: the Esc key (it cannot be told from one), then the rest dropped.
    send(`k${ESC}`);
    vi.advanceTimersByTime(60);
    send(`[<65;5;5Ml`);
    expect(seen).toEqual(['j', 'k', 'esc', 'l']);
    // A second on, what looks like the end of one is typed: it is no longer known for one.
    send(`${ESC}[<0;12;3`);
    vi.advanceTimersByTime(20 + 1001);
    send('5mq');
    expect(seen.slice(4)).toEqual(['5', 'm', 'q']);
  });

  it('with the mouse not reported, ESC [ M is no report (F1 on some terminals), and its bytes are not taken', () => {
    const { input, seen, send } = reading();
    input.mouseReports = false;
    send(`${ESC}[Mab`);
    expect(seen).toEqual(['a', 'b']);
  });

  it('gives each report the time its read came, the time of the read that ends a cut one', () => {
    const { seen, send } = reading();
    vi.setSystemTime(50_000);
    send('j'.repeat(5) + `${ESC}[<0;3;4M`.repeat(3));
    vi.advanceTimersByTime(10);
    send(`${ESC}[<0;3;`);
    vi.advanceTimersByTime(15);
    send('4M');
    const times = seen.events.flatMap((event) => (event.kind === 'mouse' ? [event.at] : []));
    expect(times).toEqual([50_000, 50_000, 50_000, 50_025]);
  });

  it('hands SGR presses on whether or not the mouse is reported (the router drops them when it is off); motion is no event', () => {
    const source = new FakeStdin();
    const input = new TerminalReader(source);
    opened.push(input);
    const seen = reader(input);
    source.send(`${ESC}[<0;3;4M${ESC}[<35;9;9M${ESC}[<32;4;4Mq`);
    expect(seen).toEqual(['mouse:press@2,3×1', 'q']);
  });
});

const rows = (over: Partial<Extract<MouseArea, { kind: 'rows' }>> = {}): MouseArea => ({
  kind: 'rows',
  first: 1,
  top: 10,
  rows: 5,
  cursor: 12,
  count: 30,
  commands: LIST_COMMANDS.contacts,
  ...over,
});
const hit = (area: MouseArea, row: number, column = 3): Hit => ({ area, row, column });
const leftPress: MouseReport = { action: 'press', button: 'left', ...at(3, 3) };

describe('mouseSteps', () => {
  it('a click on a row moves the highlight there by the list\'s own moves, the header and blank lines doing nothing', () => {
    expect(mouseSteps(leftPress, [hit(rows(), 5)])).toEqual([{ command: 'contacts.down', count: 2 }]);
    expect(mouseSteps(leftPress, [hit(rows(), 1)])).toEqual([{ command: 'contacts.up', count: 2 }]);
    expect(mouseSteps(leftPress, [hit(rows(), 3)])).toEqual([]);
    expect(mouseSteps(leftPress, [hit(rows(), 0)])).toEqual([]);
    expect(mouseSteps(leftPress, [hit(rows(), 6)])).toEqual([]);
    // Past the last item, in the list's lines (a short list's blank, a totals row).
    expect(mouseSteps(leftPress, [hit(rows({ count: 12 }), 4)])).toEqual([]);
  });

  it('focuses the pane first when it is not focused, then moves; a focused pane is left as it is', () => {
    const pane = (focused: boolean): MouseArea => ({ kind: 'pane', focused });
    expect(mouseSteps(leftPress, [hit(pane(false), 6), hit(rows(), 5)])).toEqual([
      { command: 'focus-next', count: 1 },
      { command: 'contacts.down', count: 2 },
    ]);
    expect(mouseSteps(leftPress, [hit(pane(true), 6), hit(rows(), 5)])).toEqual([{ command: 'contacts.down', count: 2 }]);
    expect(mouseSteps(leftPress, [hit(pane(false), 0)])).toEqual([{ command: 'focus-next', count: 1 }]);
  });

  it('the second click of a double-click opens the row; a list without an open command opens nothing', () => {
    expect(mouseSteps(leftPress, [hit(rows(), 3)], 2)).toEqual([{ command: 'contacts.open', count: 1 }]);
    expect(mouseSteps(leftPress, [hit(rows({ commands: { down: 'alerts.down', up: 'alerts.up' } }), 3)], 2)).toEqual([]);
  });

  it('a list that does not have the keys is given them first; the picker moves even onto its own highlight', () => {
    const log = rows({ commands: { down: 'alerts.down', up: 'alerts.up', activate: 'alerts.section' } });
    expect(mouseSteps(leftPress, [hit(log, 4)])).toEqual([
      { command: 'alerts.section', count: 1 },
      { command: 'alerts.down', count: 1 },
    ]);
    expect(mouseSteps(leftPress, [hit(rows({ commands: LIST_COMMANDS.picker }), 3)], 2)).toEqual([
      { command: 'picker.down', count: 0 },
      { command: 'picker.add', count: 1 },
    ]);
  });

  it('the wheel moves the innermost list three rows a step (times its count), or steps what it steps through', () => {
    const wheel = (action: 'wheel-up' | 'wheel-down'): MouseReport => ({ action, button: undefined, ...at(3, 3) });
    expect(mouseSteps(wheel('wheel-down'), [hit({ kind: 'pane', focused: true }, 4), hit(rows(), 3)])).toEqual([{ command: 'contacts.down', count: WHEEL_ROWS }]);
    expect(mouseSteps(wheel('wheel-up'), [hit({ kind: 'pane', focused: false }, 4), hit(rows(), 3)], 1, 4)).toEqual([
      { command: 'focus-next', count: 1 },
      { command: 'contacts.up', count: 4 * WHEEL_ROWS },
    ]);
    const chart: MouseArea = { kind: 'wheel', up: 'detail.span-shorter', down: 'detail.span-longer', step: 1 };
    expect(mouseSteps(wheel('wheel-down'), [hit(chart, 9)], 1, 2)).toEqual([{ command: 'detail.span-longer', count: 2 }]);
    expect(mouseSteps(wheel('wheel-down'), [hit({ kind: 'pane', focused: false }, 9)])).toEqual([]);
  });

  it('leaves the areas it is given as they were drawn (what a click changed is the key router\'s to keep)', () => {
    const pane: MouseArea = { kind: 'pane', focused: false };
    const list = rows();
    const before = structuredClone({ pane, list });
    expect(mouseSteps(leftPress, [hit(pane, 6), hit(list, 5)], 2)).toEqual([
      { command: 'focus-next', count: 1 },
      { command: 'contacts.down', count: 2 },
      { command: 'contacts.open', count: 1 },
    ]);
    expect({ pane, list }).toEqual(before);
  });

  it('right and middle presses, releases: nothing', () => {
    for (const report of [
      { ...leftPress, button: 'right' as const },
      { ...leftPress, button: 'middle' as const },
      { ...leftPress, action: 'release' as const },
    ]) {
      expect(mouseSteps(report, [hit({ kind: 'pane', focused: false }, 4), hit(rows(), 5)], 2)).toEqual([]);
    }
  });
});

describe('nextClick', () => {
  it('a second press soon, on the line and within a column, is a double-click; a third starts again', () => {
    const first = nextClick(undefined, { column: 10, row: 5, at: 1000 });
    expect(first.count).toBe(1);
    const second = nextClick(first, { column: 11, row: 5, at: 1000 + DOUBLE_CLICK_MS });
    expect(second.count).toBe(2);
    expect(nextClick(second, { column: 11, row: 5, at: 1000 + DOUBLE_CLICK_MS + 50 }).count).toBe(1);
    expect(nextClick(first, { column: 10, row: 5, at: 1001 + DOUBLE_CLICK_MS }).count).toBe(1);
    expect(nextClick(first, { column: 10, row: 6, at: 1100 }).count).toBe(1);
    expect(nextClick(first, { column: 12, row: 5, at: 1100 }).count).toBe(1);
    // A clock that went back is not a double-click.
    expect(nextClick(first, { column: 10, row: 5, at: 900 }).count).toBe(1);
  });
});

describe('canRun', () => {
  it('is what some key would run now: nothing of a pane through a modal, the global keys where they reach', () => {
    expect(canRun(['contacts', 'global'], 'contacts.down')).toBe(true);
    expect(canRun(['contacts', 'global'], 'focus-next')).toBe(true);
    expect(canRun(['contacts.confirm'], 'contacts.down')).toBe(false);
    expect(canRun(['contacts.confirm'], 'focus-next')).toBe(false);
    expect(canRun(['contacts.rename'], 'focus-next')).toBe(false);
    expect(canRun(['ticker.picker'], 'picker.down')).toBe(true);
    expect(canRun(['hidden'], 'contacts.down')).toBe(false);
    expect(canRun(['alerts', 'global'], 'alerts.section')).toBe(true);
    expect(canRun(['help'], 'help.next-page')).toBe(true);
    expect(canRun(['detail', 'global'], 'detail.span-longer')).toBe(true);
  });
});

describe('mouseAtStart', () => {
  it('on, unless the config turns it off or the terminal is dumb', () => {
    expect(mouseAtStart({ TERM: 'xterm-256color' }, undefined)).toEqual({ on: true });
    expect(mouseAtStart({ TERM: 'linux' }, true)).toEqual({ on: true });
    expect(mouseAtStart({ TERM: 'xterm' }, false)).toMatchObject({ on: false, reason: expect.stringContaining('config') });
    expect(mouseAtStart({ TERM: 'dumb' }, undefined)).toMatchObject({ on: false, reason: expect.stringContaining('dumb') });
  });
});

/** A Screen on an xterm.js terminal, to ask the terminal which mouse mode it is in. */
function emulated(): { screen: Screen; mode: () => Promise<string>; written: () => string } {
  const emulator = new xterm.Terminal({ cols: 40, rows: 10, allowProposedApi: true });
  let written = '';
  const terminal = Object.assign(new EventEmitter(), {
    columns: 40,
    rows: 10,
    write(data: string) {
      written += data;
      emulator.write(data);
      return true;
    },
  });
  const screen = new Screen(terminal);
  return {
    screen,
    mode: () => new Promise((resolve) => emulator.write('', () => resolve(emulator.modes.mouseTrackingMode))),
    written: () => written,
  };
}

describe('the screen writer and the terminal\'s mouse reporting', () => {
  it('on while the screen is ours, off when it is left, on again when it is entered (fg after Ctrl-Z)', async () => {
    const { screen, mode, written } = emulated();
    screen.mouse = true;
    expect(written()).toBe('');
    screen.enter();
    expect(await mode()).toBe('vt200');
    expect(written()).toContain(MOUSE_ON);
    screen.leave();
    expect(await mode()).toBe('none');
    expect(written().endsWith(`${ESC}[?1049l`)).toBe(true);
    expect(written().lastIndexOf(MOUSE_OFF)).toBeGreaterThan(written().lastIndexOf(MOUSE_ON));
    screen.enter();
    expect(await mode()).toBe('vt200');
    screen.dispose();
    expect(await mode()).toBe('none');
  });

  it('O turns it off and on at once; off from the start, it is never asked for', async () => {
    const { screen, mode, written } = emulated();
    screen.enter();
    expect(await mode()).toBe('none');
    expect(written()).not.toContain('?1000h');
    screen.mouse = true;
    expect(await mode()).toBe('vt200');
    screen.mouse = false;
    expect(await mode()).toBe('none');
    screen.mouse = true;
    screen.stopReports();
    expect(await mode()).toBe('none');
    screen.leave();
  });

  it('after a hang-up nothing is written, the mouse\'s off included', () => {
    const { screen, written } = emulated();
    screen.mouse = true;
    screen.enter();
    const before = written().length;
    screen.hangUp();
    screen.mouse = false;
    screen.leave();
    expect(written().length).toBe(before);
  });
});
