// Helpers for driving Ink components through ink-testing-library: every step inside act(), and
// waiting for what the frame shows instead of sleeping for fixed times.
import { stripVTControlCharacters } from 'node:util';
import { act } from 'react';

export type LastFrame = () => string | undefined;

/** Runs `work` inside act() and returns what it gave. */
export async function inAct<T>(work: () => T | Promise<T>): Promise<T> {
  let result!: T;
  await act(async () => {
    result = await work();
  });
  return result;
}

/** Lets timers and I/O run for `ms` inside act(), so React flushes what they caused. */
export async function pause(ms: number): Promise<void> {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, ms));
  });
}

/**
 * Polls the last frame every ~20 ms (inside act) until `predicate` holds; returns that frame.
 * Fails with the last frame printed when it does not hold within `timeoutMs`.
 */
export async function waitForFrame(
  lastFrame: LastFrame,
  predicate: (frame: string) => boolean,
  timeoutMs = 5000,
  what = 'the expected frame',
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const frame = lastFrame() ?? '';
    if (predicate(frame)) return frame;
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last frame:\n${frame}`);
    }
    await pause(20);
  }
}

/**
 * Waits until some condition outside the frame holds (server state, recorded calls). The check
 * runs inside act too: while it awaits a request of its own, the app's answers keep arriving.
 */
export async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 5000, what = 'the condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let holds = false;
    await act(async () => {
      holds = await condition();
    });
    if (holds) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await pause(20);
  }
}

/** The frame without colours and styles. */
export const plain = (frame: string | undefined): string => stripVTControlCharacters(frame ?? '');

/**
 * The texts drawn inverted (selected rows, the status line's target), in frame order, plain.
 * Ink writes inverse as SGR 7 … 27.
 */
export function inverseSegments(frame: string | undefined): string[] {
  const segments: string[] = [];
  const pattern = /\u001b\[7m([\s\S]*?)\u001b\[27m/g;
  for (const match of (frame ?? '').matchAll(pattern)) segments.push(stripVTControlCharacters(match[1]!));
  return segments;
}
