// Why PacedInput stays on Ink 8 (issue 39, item 6). Ink 8's useInput calls the handler of the
// latest committed render (useEffectEvent), but it emits every key of one read in one loop, and
// the render a key causes is committed after that loop: the next key of the same read reaches a
// handler holding the state from before the first. Two keys in one read are ordinary (an arrow
// and letters, a script typing, a slow link, a busy moment). A field whose handler reads its
// state from its render loses keys; PacedInput hands Ink one key at a time, each once the last is
// drawn. The first case documents Ink's behaviour: if it fails, Ink has changed, and the pacing
// (and the scheduler dependency) can go.
import { Text, render, useInput } from 'ink';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { PacedInput } from '../../../src/tui/keys/paced-input.js';
import { FakeStdin } from '../../helpers/fake-stdin.js';
import { Readable, Writable } from 'node:stream';

/** A field that appends each key to the value its render holds: Backspace takes one off, ← types '<'. */
function Field() {
  const [value, setValue] = useState('');
  useInput((input, key) => {
    if (key.backspace || key.delete) setValue(value.slice(0, -1));
    else if (key.leftArrow) setValue(`${value}<`);
    else setValue(value + input);
  });
  return <Text>[{value}]</Text>;
}

/** A terminal for Ink: frames collected, raw mode accepted. */
function terminal(stdin: NodeJS.ReadableStream & { setRawMode?: (mode: boolean) => unknown; isTTY?: boolean }) {
  const frames: string[] = [];
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, done) {
      frames.push(chunk.toString());
      done();
    },
  }) as unknown as NodeJS.WriteStream;
  Object.assign(stdout, { columns: 40, rows: 10, isTTY: true });
  const app = render(<Field />, { stdout, stdin: stdin as NodeJS.ReadStream, debug: true, exitOnCtrlC: false, patchConsole: false });
  return { app, last: () => frames.at(-1) ?? '' };
}

const settle = (ms = 100) => new Promise((resolve) => setTimeout(resolve, ms));
const READS: [string, string, string][] = [
  ['a, b and Backspace', 'ab\u007f', '[a]'],
  ['a, ← and b', 'a\u001b[Db', '[a<b]'],
];
const unmounts: (() => void)[] = [];
afterEach(() => {
  for (const unmount of unmounts.splice(0)) unmount();
});

describe('keys of one read, on Ink 8', () => {
  it.each(READS)('unpaced, %s reach the handler of one render: keys are lost', async (_name, read) => {
    const stdin = Object.assign(new Readable({ read() {} }), { isTTY: true, setRawMode: () => stdin, ref: () => stdin, unref: () => stdin });
    const { app, last } = terminal(stdin);
    unmounts.push(() => app.unmount());
    await settle(20);
    stdin.push(read);
    await settle();
    // Each key saw the value from before the read: only the last one's change is left.
    expect(last()).toBe(`[${read.endsWith('\u007f') ? '' : read.at(-1)}]`);
  });

  it.each(READS)('through PacedInput, %s are each applied to the value the last one left', async (_name, read, expected) => {
    const source = new FakeStdin();
    const input = new PacedInput(source);
    const { app, last } = terminal(input as unknown as NodeJS.ReadableStream);
    unmounts.push(() => {
      app.unmount();
      input.detach();
    });
    await settle(20);
    source.emit('data', Buffer.from(read));
    await settle();
    expect(last()).toBe(expected);
  });
});
