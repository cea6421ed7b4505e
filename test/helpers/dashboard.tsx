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
import { canonicalKey } from '../../src/tui/keys/terminal-input.js';

export type Instance = ReturnType<typeof render>;

export interface DashboardHarness {
  instance: Instance;
  /** The last frame as written (with styles). */
  raw(): string;
  /** The last frame, plain text. */
  frame(): string;
  /**
   * Presses each key in its own write, as a terminal sends them, and lets the app react. Each goes
   * to Ink in the form the app's input (PacedInput) gives it: a lone Esc as kitty's, which Ink 8
   * takes at once, where it would hold a lone ESC 20 ms for more of a sequence.
   */
  press(...keys: string[]): Promise<void>;
  /** Types text in one write (as a paste or a fast typist does). */
  type(text: string): Promise<void>;
  /** Waits until the plain frame satisfies `predicate`; returns it. */
  until(predicate: (frame: string) => boolean, what?: string, timeoutMs?: number): Promise<string>;
  /** Ink has unmounted: it no longer listens to stdin (exit() ran). */
  exited(): boolean;
}

const live: Instance[] = [];

/** Unmounts (inside act) everything renderDashboard mounted. */
export async function unmountAll(): Promise<void> {
  for (const instance of live.splice(0)) {
    await act(async () => {
      instance.unmount();
    });
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
  await act(async () => {
    instance = render(element);
  });
  live.push(instance);
  Object.defineProperty(instance.stdout, 'columns', { value: columns, configurable: true });
  await act(async () => {
    instance.stdout.emit('resize');
  });
  return instance;
}

/** Reads and drives a mounted instance. */
export function drive(instance: Instance): DashboardHarness {
  return {
    instance,
    raw: () => instance.lastFrame() ?? '',
    frame: () => plain(instance.lastFrame()),
    async press(...keys) {
      for (const key of keys) {
        const given = canonicalKey(key);
        await act(async () => {
          if (given !== undefined) instance.stdin.write(given);
          await new Promise((resolve) => setTimeout(resolve, 10));
        });
      }
    },
    async type(text) {
      await act(async () => {
        instance.stdin.write(text);
        await new Promise((resolve) => setTimeout(resolve, 10));
      });
    },
    until: (predicate, what, timeoutMs = 5000) => waitForFrame(() => plain(instance.lastFrame()), predicate, timeoutMs, what),
    exited: () => instance.stdin.listenerCount('readable') === 0,
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
