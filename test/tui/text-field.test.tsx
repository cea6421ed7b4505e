// Keys that reach a text field in separate reads before it is drawn again (a script typing, a
// slow link, a busy moment): through the paced terminal input every one of them counts. Real
// Ink on a fake terminal, not ink-testing-library, whose stdin hands keys over at once.
import { EventEmitter } from 'node:events';
import { render, Text } from 'ink';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { TextField } from '../../src/tui/components/TextField.js';
import { PacedInput, type TerminalInput } from '../../src/tui/paced-input.js';
import { FakeTerminal } from '../helpers/fake-terminal.js';

/** A terminal's stdin: raw mode, ref counting and pausing are recorded, keys are emitted. */
class FakeKeyboard extends EventEmitter implements TerminalInput {
  isTTY = true;
  raw = false;
  paused = false;
  setRawMode(mode: boolean) {
    this.raw = mode;
  }
  ref() {}
  unref() {}
  pause() {
    this.paused = true;
  }
  resume() {
    this.paused = false;
  }
  /** Each argument is one read, each in its own turn of the event loop, faster than a redraw. */
  async type(...reads: (string | Buffer)[]) {
    for (const read of reads) {
      this.emit('data', typeof read === 'string' ? Buffer.from(read) : read);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

function mount(initial: string) {
  const keyboard = new FakeKeyboard();
  const values: string[] = [initial];
  function Field() {
    const [value, setValue] = useState(initial);
    return (
      <>
        <TextField
          value={value}
          onChange={(next) => {
            values.push(next);
            setValue(next);
          }}
          focus
        />
        <Text>{`[${value}]`}</Text>
      </>
    );
  }
  const input = new PacedInput(keyboard);
  const instance = render(<Field />, {
    stdout: new FakeTerminal() as unknown as NodeJS.WriteStream,
    stdin: input as unknown as NodeJS.ReadStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  cleanup = () => {
    instance.unmount();
    input.detach();
  };
  return { keyboard, value: () => values.at(-1) };
}

describe('TextField over the paced terminal input', () => {
  it('keeps every letter typed in separate reads', async () => {
    const f = mount('ab');
    await sleep(50);
    expect(f.keyboard.raw).toBe(true);
    await f.keyboard.type('c', 'd', 'e');
    await sleep(100);
    expect(f.value()).toBe('abcde');
  });

  it('Ctrl-U then typing: the field holds only what was typed after it', async () => {
    const f = mount('bank');
    await sleep(50);
    await f.keyboard.type('\u0015', 'appl');
    await sleep(100);
    expect(f.value()).toBe('appl');
    await f.keyboard.type('e');
    await sleep(50);
    expect(f.value()).toBe('apple');
  });

  it('mid-line: arrows, a burst of letters and a backspace land at the cursor', async () => {
    const f = mount('abcd');
    await sleep(50);
    await f.keyboard.type('\u001b[D', '\u001b[D', 'x', 'y', '\u007f', 'z');
    await sleep(150);
    expect(f.value()).toBe('abxzcd');
    await f.keyboard.type('w');
    await sleep(50);
    expect(f.value()).toBe('abxzwcd');
  });

  it('Ctrl-W then typing replaces the last word', async () => {
    const f = mount('new york');
    await sleep(50);
    await f.keyboard.type('\u0017', 'jersey');
    await sleep(100);
    expect(f.value()).toBe('new jersey');
  });

  it('a character split across two reads arrives whole', async () => {
    const f = mount('');
    await sleep(50);
    const bytes = Buffer.from('é📚');
    await f.keyboard.type(bytes.subarray(0, 1), bytes.subarray(1, 4), bytes.subarray(4));
    await sleep(100);
    expect(f.value()).toBe('é📚');
  });

  it('an arrow key cut between two reads is still an arrow key', async () => {
    const f = mount('abc');
    await sleep(50);
    await f.keyboard.type('\u001b[', 'D', 'x');
    await sleep(150);
    expect(f.value()).toBe('abxc');
  });

  it('an arrow key and letters in one read: the letters go where the arrow put the cursor', async () => {
    const f = mount('abc');
    await sleep(50);
    await f.keyboard.type('\u001b[Dxy');
    await sleep(150);
    expect(f.value()).toBe('abxyc');
  });

  it('typing inside an emoji (the cursor counts halves of it) puts the text after it', async () => {
    const f = mount('a📚b');
    await sleep(50);
    await f.keyboard.type('\u001b[D', '\u001b[D', 'x');
    await sleep(150);
    expect(f.value()).toBe('a📚xb');
  });

  it('Backspace after an emoji removes all of it, never half', async () => {
    const f = mount('hi 📚');
    await sleep(50);
    await f.keyboard.type('\u007f');
    await sleep(50);
    expect(f.value()).toBe('hi ');
    await f.keyboard.type('x');
    await sleep(50);
    expect(f.value()).toBe('hi x');
  });

  it('detaching stops reading the terminal and pauses it for the shell', async () => {
    const f = mount('');
    await sleep(50);
    cleanup?.();
    cleanup = undefined;
    expect(f.keyboard.paused).toBe(true);
    expect(f.keyboard.listenerCount('data')).toBe(0);
  });
});
