// Mounting the Dashboard (or anything wrapping it) through ink-testing-library and driving it as a
// terminal would: every step inside act(), keys one write each, waits on what the frame shows.
// Every mount is tracked: call unmountAll() in afterEach.
//
// A test file that needs Ink's colours in the frame sets FORCE_COLOR in a vi.hoisted block of its
// own, before this module (and Ink with it) is imported.
import { render } from 'ink-testing-library';
import type { ReactElement } from 'react';
import { act } from 'react';
import { plain, waitForFrame } from './ink.js';
import stringWidth from 'string-width';
import { stripVTControlCharacters } from 'node:util';
import { expect } from 'vitest';
import { InputSourceContext } from '../../src/tui/keys/input-source.js';
import { TerminalReader } from '../../src/tui/keys/terminal-reader.js';
import { FakeStdin } from './fake-stdin.js';

export type Instance = ReturnType<typeof render>;

export interface DashboardHarness {
  instance: Instance;
  /** The last frame as written (with styles). */
  raw(): string;
  /** The last frame, plain text. */
  frame(): string;
  /** Presses each key in its own read, as a terminal sends them (its bytes), and lets the app react. */
  press(...keys: string[]): Promise<void>;
  /** Types text in one write (as a paste or a fast typist does). */
  type(text: string): Promise<void>;
  /** Waits until the plain frame satisfies `predicate`; returns it. */
  until(predicate: (frame: string) => boolean, what?: string, timeoutMs?: number): Promise<string>;
  /** The dashboard has unmounted: nothing handles the keyboard any more (exit() ran). */
  exited(): boolean;
}

const live: Instance[] = [];
/** The keyboard each mounted instance reads, through the terminal reader as runDashboard wires it. */
const keyboards = new WeakMap<Instance, { keyboard: FakeStdin; input: TerminalReader }>();

/** Unmounts (inside act) everything renderDashboard mounted. */
export async function unmountAll(): Promise<void> {
  for (const instance of live.splice(0)) {
    await act(async () => {
      instance.unmount();
    });
    keyboards.get(instance)?.input.detach();
  }
}

/**
 * Renders `element` inside act and lays it out `columns` wide.
 *
 * ink-testing-library's stdout says it is 100 columns wide, and Ink lays out and clips to that
 * width: a 120-column dashboard comes out with its right pane cut and shifted. Tell Ink the width
 * the dashboard is drawn for (Ink re-lays out on 'resize').
 */
export async function renderDashboard(element: ReactElement, columns: number): Promise<Instance> {
  let instance!: Instance;
  const keyboard = new FakeStdin();
  const input = new TerminalReader(keyboard);
  await act(async () => {
    instance = render(<InputSourceContext.Provider value={input}>{element}</InputSourceContext.Provider>);
  });
  live.push(instance);
  keyboards.set(instance, { keyboard, input });
  // Drawn again inside the same keyboard, so the tree keeps its shape and its state.
  const rerender = instance.rerender.bind(instance);
  instance.rerender = (next) => rerender(<InputSourceContext.Provider value={input}>{next}</InputSourceContext.Provider>);
  Object.defineProperty(instance.stdout, 'columns', { value: columns, configurable: true });
  await act(async () => {
    instance.stdout.emit('resize');
  });
  return instance;
}

/** Reads and drives a mounted instance. */
export function drive(instance: Instance): DashboardHarness {
  const wired = keyboards.get(instance);
  if (!wired) throw new Error('drive() takes what renderDashboard mounted: its keyboard is wired there');
  const { keyboard, input } = wired;
  return {
    instance,
    raw: () => instance.lastFrame() ?? '',
    frame: () => plain(instance.lastFrame()),
    async press(...keys) {
      for (const key of keys) {
        await act(async () => {
          keyboard.emit('data', Buffer.from(key));
          await new Promise((resolve) => setTimeout(resolve, 10));
        });
      }
    },
    async type(text) {
      await act(async () => {
        keyboard.emit('data', Buffer.from(text));
        await new Promise((resolve) => setTimeout(resolve, 10));
      });
    },
    until: (predicate, what, timeoutMs = 5000) => waitForFrame(() => plain(instance.lastFrame()), predicate, timeoutMs, what),
    exited: () => input.handler === undefined,
  };
}

/** Every frame written so far fits the terminal: no line wider than `columns`, no more lines than `rows`. */
export function expectFramesFit(instance: Instance, columns: number, rows = Number.POSITIVE_INFINITY): void {
  const frames = instance.frames;
  expect(frames.length).toBeGreaterThan(0);
  for (const [i, frame] of frames.entries()) {
    const lines = stripVTControlCharacters(frame).split('\n');
    expect(lines.length, `frame ${i} has ${lines.length} lines`).toBeLessThanOrEqual(rows);
    for (const line of lines) {
      if (stringWidth(line) > columns) {
        throw new Error(`frame ${i} has a line ${stringWidth(line)} columns wide (terminal ${columns}):\n${line}`);
      }
    }
  }
}
