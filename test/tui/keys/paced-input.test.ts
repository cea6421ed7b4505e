// The paced terminal input on its own: order, whole characters, whole key sequences, and what
// it passes on to the terminal.
import { describe, expect, it, vi } from 'vitest';
import { PacedInput, PASTE_MAX } from '../../../src/tui/keys/paced-input.js';
import { FakeStdin, reader } from '../../helpers/fake-stdin.js';

const settle = (ms = 100) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `work` with setTimeout faked (it may switch back itself to settle), real again after. */
async function onFakeTimeouts(work: () => Promise<void>): Promise<void> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  try {
    await work();
  } finally {
    vi.useRealTimers();
  }
}

describe('PacedInput', () => {
  it('hands over one key sequence at a time, in order, text runs whole', async () => {
    const source = new FakeStdin();
    const input = new PacedInput(source);
    const seen = reader(input);
    source.emit('data', Buffer.from('ab\u001b[Dcd\u001b[1;5Cé\u001bx\u001b'));
    source.emit('data', Buffer.from('pasted text'));
    source.emit('data', Buffer.from('e\u0015New name\r'));
    await settle();
    expect(seen).toEqual(['ab', '\u001b[D', 'cd', '\u001b[1;5C', 'é', '\u001bx', '\u001b[27u', 'pasted text', 'e', '\u0015', 'New name', '\r']);
    input.detach();
  });

  it('hands over a run of one key sequence as one, with its count, only while the app takes runs', async () => {
    const source = new FakeStdin();
    const input = new PacedInput(source);
    const seen: [string, number][] = [];
    input.on('readable', () => {
      let chunk: string | null;
      while ((chunk = input.read() as string | null) !== null) seen.push([chunk, input.repeats]);
    });
    let takesRuns = true;
    input.takesRuns = () => takesRuns;
    // 100 Down in one read with a j after them, two more j reads, then two Ups in one read.
    source.emit('data', Buffer.from('\u001b[B'.repeat(100) + 'j'));
    source.emit('data', Buffer.from('j'));
    source.emit('data', Buffer.from('j'));
    source.emit('data', Buffer.from('\u001b[A\u001b[A'));
    await settle();
    expect(seen).toEqual([
      ['\u001b[B', 100],
      ['j', 3],
      ['\u001b[A', 2],
    ]);
    // In a text field every key is its own (the field moves its own cursor).
    takesRuns = false;
    seen.length = 0;
    source.emit('data', Buffer.from('\u001b[D\u001b[D\u001b[D'));
    await settle();
    expect(seen).toEqual([
      ['\u001b[D', 1],
      ['\u001b[D', 1],
      ['\u001b[D', 1],
    ]);
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
    expect(seen).toEqual(['\u001b[A', '\u001b[27u']);
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

  describe('bracketed paste', () => {
    const START = '\u001b[200~';
    const END = '\u001b[201~';

    /** An input whose pastes are recorded (and go nowhere), and the keys it hands Ink. */
    function pasting() {
      const source = new FakeStdin();
      const input = new PacedInput(source);
      const seen = reader(input);
      const pastes: string[] = [];
      input.pasteHandler = (paste) => {
        pastes.push(paste);
        return undefined;
      };
      return { source, input, seen, pastes };
    }

    it('hands a paste to the paste handler whole, newlines and all, in order with the keys around it; never as keys', async () => {
      const source = new FakeStdin();
      const input = new PacedInput(source);
      const seen = reader(input);
      const pastes: string[] = [];
      input.pasteHandler = (text) => {
        pastes.push(text);
        return `<${pastes.length}>`;
      };
      source.emit('data', Buffer.from(`r${START}New Name\rdy\u001b[A${END}\r`));
      await settle();
      expect(pastes).toEqual(['New Name\rdy\u001b[A']);
      expect(seen).toEqual(['r', '<1>', '\r']);
      input.detach();
    });

    it('drops a paste nobody takes, rather than typing it', async () => {
      const source = new FakeStdin();
      const input = new PacedInput(source);
      const seen = reader(input);
      source.emit('data', Buffer.from(`j${START}dy${END}k`));
      input.pasteHandler = () => undefined;
      source.emit('data', Buffer.from(`${START}dy${END}g`));
      await settle();
      expect(seen).toEqual(['j', 'k', 'g']);
      input.detach();
    });

    it('keeps a paste whole across reads, its marks cut anywhere, characters split between reads', async () => {
      const text = `x${START}déjà 📚\nvu${END}y`;
      const bytes = Buffer.from(text);
      // Every way of cutting the bytes in two but one: a read that ends on the very Esc the start
      // mark begins with is the Esc key (an Esc is never held back waiting for more), as in
      // every terminal program; terminals write the mark in one piece.
      for (let cut = 1; cut < bytes.length; cut++) {
        if (cut === 2) continue;
        const { source, input, seen, pastes } = pasting();
        source.emit('data', bytes.subarray(0, cut));
        await new Promise((resolve) => setTimeout(resolve, 5));
        source.emit('data', bytes.subarray(cut));
        await settle(80);
        expect(pastes, `cut at byte ${cut}`).toEqual(['déjà 📚\nvu']);
        expect(seen, `cut at byte ${cut}`).toEqual(['x', 'y']);
        input.detach();
      }
    });

    it('a paste that stalls goes in as far as it came, and what follows before its end mark is text, never keys', async () => {
      await onFakeTimeouts(async () => {
        const { source, input, seen, pastes } = pasting();
        source.emit('data', Buffer.from(`${START}first half`));
        vi.advanceTimersByTime(1000);
        expect(pastes).toEqual([]);
        vi.advanceTimersByTime(1500);
        // A slow link: the rest comes 2.5 s on, with a line break and "dy" that must not run.
        source.emit('data', Buffer.from(`\rdy${END}j`));
        vi.useRealTimers();
        await settle();
        expect(pastes).toEqual(['first half', '\rdy']);
        expect(seen).toEqual(['j']);
        input.detach();
      });
    });

    it('ends a paste whose end mark never comes after 10 s without input; keys after that are keys', async () => {
      await onFakeTimeouts(async () => {
        const { source, input, seen, pastes } = pasting();
        source.emit('data', Buffer.from(`${START}half a paste\u001b[20`));
        vi.advanceTimersByTime(9000);
        // 9 s on, still inside the paste: text (with what looked like the start of its end mark).
        source.emit('data', Buffer.from('k'));
        vi.advanceTimersByTime(10_500);
        source.emit('data', Buffer.from('j'));
        vi.useRealTimers();
        await settle();
        expect(pastes).toEqual(['half a paste', '\u001b[20k']);
        expect(seen).toEqual(['j']);
        input.detach();
      });
    });

    it('keeps at most PASTE_MAX characters of one paste', async () => {
      const { source, input, pastes } = pasting();
      source.emit('data', START);
      for (let i = 0; i < 3; i++) source.emit('data', 'a'.repeat(PASTE_MAX / 2));
      source.emit('data', END);
      await settle();
      expect(pastes.map((p) => p.length)).toEqual([PASTE_MAX]);
      input.detach();
    });
  });
});
