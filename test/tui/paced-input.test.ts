// The paced terminal input on its own: order, whole characters, whole key sequences, and what
// it passes on to the terminal.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { PacedInput, type TerminalInput } from '../../src/tui/paced-input.js';

class FakeStdin extends EventEmitter implements TerminalInput {
  isTTY = true;
  raw: boolean[] = [];
  refs = 0;
  paused = false;
  setRawMode(mode: boolean) {
    this.raw.push(mode);
  }
  ref() {
    this.refs++;
  }
  unref() {
    this.refs--;
  }
  pause() {
    this.paused = true;
  }
  resume() {
    this.paused = false;
  }
}

/** Reads as Ink does: on 'readable', everything there is. */
function reader(input: PacedInput): string[] {
  const seen: string[] = [];
  input.on('readable', () => {
    let chunk: string | null;
    while ((chunk = input.read() as string | null) !== null) seen.push(chunk);
  });
  return seen;
}

const settle = (ms = 100) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PacedInput', () => {
  it('hands over one key sequence at a time, in order, text runs whole', async () => {
    const source = new FakeStdin();
    const input = new PacedInput(source);
    const seen = reader(input);
    source.emit('data', Buffer.from('ab\u001b[Dcd\u001b[1;5Cé\u001bx\u001b'));
    source.emit('data', Buffer.from('pasted text'));
    source.emit('data', Buffer.from('e\u0015New name\r'));
    await settle();
    expect(seen).toEqual(['ab', '\u001b[D', 'cd', '\u001b[1;5C', 'é', '\u001bx', '\u001b', 'pasted text', 'e', '\u0015', 'New name', '\r']);
    input.detach();
  });

  it('keeps characters whole across reads, even when Ink sets an encoding in between', async () => {
    const source = new FakeStdin();
    const input = new PacedInput(source);
    const seen = reader(input);
    const bytes = Buffer.from('é📚');
    input.setEncoding('utf8');
    source.emit('data', bytes.subarray(0, 1));
    input.setEncoding('utf8');
    source.emit('data', bytes.subarray(1, 3));
    input.setEncoding('latin1');
    source.emit('data', bytes.subarray(3));
    await settle();
    expect(seen.join('')).toBe('é📚');
    input.detach();
  });

  it('joins an escape sequence cut between reads; a lone Esc is not held back for long', async () => {
    const source = new FakeStdin();
    const input = new PacedInput(source);
    const seen = reader(input);
    source.emit('data', Buffer.from('\u001b['));
    await settle(5);
    source.emit('data', Buffer.from('A'));
    await settle();
    expect(seen).toEqual(['\u001b[A']);
    source.emit('data', Buffer.from('\u001b'));
    await settle(30);
    expect(seen).toEqual(['\u001b[A', '\u001b']);
    // A start of a sequence whose end never comes is let go after a moment: no key, so nothing
    // reaches Ink, and it does not hold back what is typed next.
    source.emit('data', Buffer.from('\u001b[1;'));
    await settle();
    source.emit('data', Buffer.from('j'));
    await settle();
    expect(seen.slice(2)).toEqual(['j']);
    input.detach();
  });

  it('never hands Ink a sequence it has no key for (Ctrl-F1, CSI 1;5G, SGR as input), nor string controls', async () => {
    const source = new FakeStdin();
    const input = new PacedInput(source);
    const seen = reader(input);
    source.emit('data', Buffer.from('a\u001b[1;5Pb\u001b[1;5G\u001b[31m\u001b]11;rgb:0/0/0\u0007c\u001b[97;5u'));
    await settle();
    expect(seen).toEqual(['a', 'b', 'c', '\u0001']);
    input.detach();
  });

  it('passes raw mode and ref counting to the terminal; detach stops reading it', () => {
    const source = new FakeStdin();
    const input = new PacedInput(source);
    expect(input.isTTY).toBe(true);
    expect(source.listenerCount('data')).toBe(1);
    input.setRawMode(true);
    input.ref();
    input.setRawMode(false);
    input.unref();
    expect(source.raw).toEqual([true, false]);
    expect(source.refs).toBe(0);
    input.detach();
    expect(source.listenerCount('data')).toBe(0);
    expect(source.paused).toBe(true);
  });
});
