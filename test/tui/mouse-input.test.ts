// The mouse's parts on their own: reading reports (SGR and X10, whole or cut between reads),
// their place among the keys in the paced input, what a report does as commands, double-clicks,
// and the terminal's reporting turned on and off by the screen writer (checked in a terminal
// emulator: xterm.js's own idea of the mode it is in).
import { EventEmitter } from 'node:events';
import xterm from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { canRun } from '../../src/tui/keys/keymap.js';
import { splitInput } from '../../src/tui/keys/terminal-input.js';
import { nextClick, DOUBLE_CLICK_MS } from '../../src/tui/mouse/clicks.js';
import type { Hit, MouseArea } from '../../src/tui/mouse/mouse-areas.js';
import { LIST_COMMANDS } from '../../src/tui/mouse/mouse-areas.js';
import { MOUSE_OFF, MOUSE_ON, parseMouseReport, type MouseReport } from '../../src/tui/mouse/mouse-report.js';
import { mouseAtStart } from '../../src/tui/mouse/mouse-setting.js';
import { mouseSteps, WHEEL_ROWS } from '../../src/tui/mouse/mouse-steps.js';
import { PacedInput, type TerminalInput } from '../../src/tui/paced-input.js';
import { Screen } from '../../src/tui/screen.js';

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

  it('reads X10 reports: each byte 32 more than its value, a release without its button', () => {
    expect(parseMouseReport(`${ESC}[M !!`)).toEqual({ action: 'press', button: 'left', ...at(0, 0) });
    expect(parseMouseReport(`${ESC}[M#dy`)).toEqual({ action: 'release', button: undefined, ...at(67, 88) });
    expect(parseMouseReport(`${ESC}[Ma+,`)).toEqual({ action: 'wheel-down', button: undefined, ...at(10, 11) });
  });

  it('is undefined for motion, the sideways wheel, buttons past the third, cell 0 and what is no report', () => {
    for (const piece of [`${ESC}[<32;5;5M`, `${ESC}[<35;5;5M`, `${ESC}[<66;5;5M`, `${ESC}[<67;5;5M`, `${ESC}[<128;5;5M`, `${ESC}[<0;0;5M`, `${ESC}[<64;5;5m`, `${ESC}[<0;5M`, `${ESC}[A`, 'M', `${ESC}[<0;5;5X`]) {
      expect(parseMouseReport(piece), JSON.stringify(piece)).toBeUndefined();
    }
  });
});

describe('splitInput and mouse reports', () => {
  it('cuts an X10 report whole, whatever its three bytes are (a control character, an Escape)', () => {
    expect(splitInput(`a${ESC}[M !!b`).pieces).toEqual(['a', `${ESC}[M !!`, 'b']);
    expect(splitInput(`${ESC}[M${ESC}\u0007\u007fj`).pieces).toEqual([`${ESC}[M${ESC}\u0007\u007f`, 'j']);
  });

  it('keeps a report cut off by the end of a read for the next one', () => {
    expect(splitInput(`j${ESC}[M !`)).toEqual({ pieces: ['j'], rest: `${ESC}[M !` });
    expect(splitInput(`j${ESC}[<0;12;3`)).toEqual({ pieces: ['j'], rest: `${ESC}[<0;12;3` });
  });
});

class FakeStdin extends EventEmitter implements TerminalInput {
  isTTY = true;
  setRawMode() {}
  pause() {}
  resume() {}
}

/** What the paced input gives, in order: keys as Ink reads them, and mouse reports. */
function events(input: PacedInput): string[] {
  const seen: string[] = [];
  input.on('readable', () => {
    let chunk: string | null;
    while ((chunk = input.read() as string | null) !== null) seen.push(chunk);
  });
  input.mouseHandler = (report: MouseReport, count: number) => seen.push(`${report.action}@${report.column},${report.row}${count > 1 ? `x${count}` : ''}`);
  return seen;
}

const settle = (ms = 150) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PacedInput with the mouse', () => {
  it('hands reports over in order with the keys around them, never as keys', async () => {
    const source = new FakeStdin();
    const input = new PacedInput(source);
    const seen = events(input);
    source.emit('data', Buffer.from(`j${ESC}[<0;3;4Mk${ESC}[<0;3;4m${ESC}[M !!d`));
    await settle();
    expect(seen).toEqual(['j', 'press@2,3', 'k', 'release@2,3', 'press@0,0', 'd']);
    input.detach();
  });

  it('takes a report cut between two reads as one', async () => {
    const source = new FakeStdin();
    const input = new PacedInput(source);
    const seen = events(input);
    source.emit('data', Buffer.from(`${ESC}[<0;1`));
    source.emit('data', Buffer.from(`2;7Mx${ESC}[M`));
    source.emit('data', Buffer.from(`#dy`));
    await settle();
    expect(seen).toEqual(['press@11,6', 'x', 'release@67,88']);
    input.detach();
  });

  it('takes a run of wheel steps in one cell as one report with a count, and no other run', async () => {
    const source = new FakeStdin();
    const input = new PacedInput(source);
    const seen = events(input);
    const down = `${ESC}[<65;5;5M`;
    source.emit('data', Buffer.from(`${down.repeat(5)}${ESC}[<65;5;6M${ESC}[<64;5;6M${ESC}[<64;5;6M${ESC}[<0;5;5M${ESC}[<0;5;5M`));
    await settle();
    expect(seen).toEqual(['wheel-down@4,4x5', 'wheel-down@4,5', 'wheel-up@4,5x2', 'press@4,4', 'press@4,4']);
    input.detach();
  });

  it('drops reports nothing listens for, and what is no action (motion)', async () => {
    const source = new FakeStdin();
    const input = new PacedInput(source);
    const seen: string[] = [];
    input.on('readable', () => {
      let chunk: string | null;
      while ((chunk = input.read() as string | null) !== null) seen.push(chunk);
    });
    source.emit('data', Buffer.from(`${ESC}[<0;3;4M${ESC}[<35;9;9Mq`));
    await settle();
    expect(seen).toEqual(['q']);
    input.detach();
  });
});

const rows = (over: Partial<Extract<MouseArea, { kind: 'rows' }>> = {}): MouseArea => ({
  kind: 'rows',
  first: 1,
  top: 10,
  shown: 5,
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
