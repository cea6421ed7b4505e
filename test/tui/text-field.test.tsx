// The text field wrapper: keys that arrive in separate reads before the screen is redrawn (a
// script, a slow link, a busy moment) must edit the value as typed, not the value last drawn.
import { render } from 'ink-testing-library';
import { act, useState } from 'react';
import { Text } from 'ink';
import { afterEach, describe, expect, it } from 'vitest';
import { TextField } from '../../src/tui/components/TextField.js';
import { pause } from '../helpers/ink.js';

function Field({ initial, seen }: { initial: string; seen: string[] }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <TextField
        value={value}
        onChange={(next) => {
          seen.push(next);
          setValue(next);
        }}
        focus
      />
      <Text>{`[${value}]`}</Text>
    </>
  );
}

let unmount: (() => void) | undefined;
afterEach(async () => {
  await act(async () => unmount?.());
  unmount = undefined;
});

async function mount(initial = '') {
  const seen: string[] = [];
  let instance!: ReturnType<typeof render>;
  await act(async () => {
    instance = render(<Field initial={initial} seen={seen} />);
  });
  unmount = instance.unmount;
  await pause(20);
  const value = () => /\[(.*)\]/.exec(instance.lastFrame() ?? '')?.[1];
  /** Writes each chunk as its own read, all before React draws again. */
  const burst = async (...chunks: string[]) => {
    await act(async () => {
      for (const chunk of chunks) instance.stdin.write(chunk);
    });
    await pause(20);
  };
  return { value, burst, seen };
}

describe('TextField under bursts of separate reads', () => {
  it('keeps every letter typed in separate reads before a redraw', async () => {
    const f = await mount('ab');
    await f.burst('c', 'd', 'e');
    expect(f.value()).toBe('abcde');
  });

  it('Ctrl-U then typing: the field holds only what was typed after it', async () => {
    const f = await mount('bank');
    await f.burst('\u0015', 'appl');
    expect(f.value()).toBe('appl');
    // And the cursor is at the end: more typing goes after it.
    await f.burst('e');
    expect(f.value()).toBe('apple');
  });

  it('Ctrl-W then typing replaces the last word', async () => {
    const f = await mount('new york');
    await f.burst('\u0017', 'jersey');
    expect(f.value()).toBe('new jersey');
  });

  it('backspaces and letters in separate reads', async () => {
    const f = await mount('abc');
    await f.burst('\u007f', '\u007f', 'x');
    expect(f.value()).toBe('ax');
    await f.burst('y', '\u007f', 'z');
    expect(f.value()).toBe('axz');
  });

  it('keys drawn one at a time still edit at the cursor, mid-line too', async () => {
    const f = await mount('abcd');
    await f.burst('\u001b[D');
    await f.burst('\u001b[D');
    await f.burst('x');
    expect(f.value()).toBe('abxcd');
    await f.burst('\u007f');
    expect(f.value()).toBe('abcd');
  });

  it('a burst after moving left lands where the cursor is', async () => {
    const f = await mount('abcd');
    await f.burst('\u001b[D');
    await f.burst('\u001b[D');
    await f.burst('x', 'y', 'z');
    expect(f.value()).toBe('abxyzcd');
  });

  it('one read with everything in it still works', async () => {
    const f = await mount('bank');
    await f.burst('\u0015appl');
    expect(f.value()).toBe('appl');
  });
});
