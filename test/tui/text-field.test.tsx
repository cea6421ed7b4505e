// Keys that reach a text field in separate reads before it is drawn again (a script typing, a
// slow link, a busy moment): through the paced terminal input every one of them counts. Real
// Ink on a fake terminal, not ink-testing-library, whose stdin hands keys over at once.
import { Text } from 'ink';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { TextField } from '../../src/tui/components/TextField.js';
import { mountInk, mountInkDashboard } from '../helpers/ink-terminal.js';
import { setUpSandbox } from '../helpers/sandbox.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

function mount(initial: string, width = 40, maxLength?: number) {
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
          width={width}
          maxLength={maxLength}
        />
        <Text>{`[${value}]`}</Text>
      </>
    );
  }
  const { keyboard, unmount, frame, raw } = mountInk(<Field />);
  cleanup = unmount;
  return { keyboard, value: () => values.at(-1), frame, raw };
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

  it('Home, End, Ctrl-A, Ctrl-E, Alt-B, Alt-F move the cursor; Delete, Ctrl-D and Ctrl-K delete at it; Backspace before it', async () => {
    const f = mount('hello big world');
    await sleep(50);
    const steps: [string[], string][] = [
      [['\u001b[H', '>'], '>hello big world'], // Home
      [['\u001b[F', '<'], '>hello big world<'], // End
      [['\u0001', '\u001b[3~'], 'hello big world<'], // Ctrl-A, Delete
      [['\u001bf', '\u001bf', '_'], 'hello big_ world<'], // Alt-F twice: after "big"
      [['\u001bb', '\u001bb', '\u0004'], 'ello big_ world<'], // Alt-B twice: "hello"'s start; Ctrl-D
      [['\u0005', '\u007f'], 'ello big_ world'], // Ctrl-E, Backspace
      [['\u001bb', '\u000b'], 'ello big_ '], // Alt-B, Ctrl-K
      [['\u001b[1~', '\u0006', '\u0006', '[', '\u0002', '\u0002', ']'], 'e]l[lo big_ '], // Home (VT), Ctrl-F, Ctrl-B
      [['\u001bOH', '\u001b[4~', '!'], 'e]l[lo big_ !'], // Home (SS3), End (VT)
    ];
    for (const [keys, expected] of steps) {
      await f.keyboard.type(...keys);
      await sleep(120);
      expect(f.value(), JSON.stringify(keys)).toBe(expected);
    }
  });

  it('at its limit a field keeps what fits where the cursor is, even when it repeats the text around it', async () => {
    const f = mount('Ann Lee', 40, 10);
    await sleep(50);
    // The cursor after "Ann ", then "Lee Ann" typed in one read: only "Lee" fits.
    await f.keyboard.type('\u001b[D', '\u001b[D', '\u001b[D', 'Lee Ann');
    await sleep(150);
    expect(f.value()).toBe('Ann LeeLee');
    await f.keyboard.type('x');
    await sleep(50);
    expect(f.value()).toBe('Ann LeeLee');
    // Room again: the cursor is where the fitted text ended.
    await f.keyboard.type('\u007f', 'y');
    await sleep(100);
    expect(f.value()).toBe('Ann LeyLee');
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

  it('the cursor steps over an emoji whole: two Lefts from the end and typing put the text before it', async () => {
    const f = mount('a📚b');
    await sleep(50);
    await f.keyboard.type('\u001b[D', '\u001b[D', 'x');
    await sleep(150);
    expect(f.value()).toBe('ax📚b');
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

  it('a value longer than the field scrolls on one line, the cursor in view, showing exactly what it holds', async () => {
    const f = mount('', 12);
    await sleep(50);
    const line = () => f.frame().split('\n')[0]!;
    // Polled, not slept on: on a loaded machine the paced input takes its time.
    await f.keyboard.type('abcdefghijklmnopqrstuvwxyz0123');
    await expect.poll(f.value).toBe('abcdefghijklmnopqrstuvwxyz0123');
    // The last 11 characters and the cursor after them.
    await expect.poll(line).toBe('tuvwxyz0123 ');
    await f.keyboard.type('\u001b[D', '\u001b[D', '\u001b[D', 'X');
    await expect.poll(f.value).toBe('abcdefghijklmnopqrstuvwxyz0X123');
    await expect.poll(line).toContain('0X1');
    // A piece of the value, the field's width, with what was typed in it.
    expect(line()).toHaveLength(12);
    expect(f.value()).toContain(line());
    // Home of the value by Left: the window follows the cursor to the start.
    await f.keyboard.type(...Array<string>(40).fill('\u001b[D'), '>');
    await expect.poll(f.value).toBe('>abcdefghijklmnopqrstuvwxyz0X123');
    await expect.poll(line).toBe('>abcdefghijk');
  });

  it('the cursor is drawn in inverse video whatever the colour level', async () => {
    const f = mount('ab', 12);
    await sleep(50);
    expect(f.raw()).toContain('ab\u001b[7m \u001b[27m');
    await f.keyboard.type('\u001b[D');
    await sleep(100);
    expect(f.raw()).toContain('a\u001b[7mb\u001b[27m');
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

// Ctrl-U and Ctrl-W are keymap keys (every text field's): the router edits the field, so they are
// tried where the router is, in the rename field, over the same paced input.
describe('Ctrl-U and Ctrl-W in a field, keys in separate reads', () => {
  const ctx = setUpSandbox();

  async function renaming(name: string) {
    const mounted = await mountInkDashboard(ctx.client);
    cleanup = mounted.unmount;
    await mounted.keyboard.type('e', '\u0015', name);
    await mounted.until((f) => f.includes(`✎ ${name}`), 'the name to rename from');
    return mounted;
  }

  it('Ctrl-U then typing: the field holds only what was typed after it', async () => {
    const f = await renaming('bank');
    await f.keyboard.type('\u0015', 'appl');
    await f.until((frame) => frame.includes('✎ appl'), 'only what came after Ctrl-U');
    await f.keyboard.type('e');
    await f.until((frame) => frame.includes('✎ apple'), 'the next letter after it');
    expect(f.frame()).not.toContain('bank');
  });

  it('Ctrl-W then typing replaces the last word', async () => {
    const f = await renaming('new york');
    await f.keyboard.type('\u0017', 'jersey');
    await f.until((frame) => frame.includes('✎ new jersey'), 'the last word replaced');
    expect(f.frame()).not.toContain('york');
  });
});
