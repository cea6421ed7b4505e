// The terminal reader on its own: each read's keys named and handed over at once, in order, as one
// batch; characters and key sequences whole across reads; the terminal's answers and bracketed
// pastes taken out, never keys; what it passes on to the terminal. Time is faked: the reader's
// waits (20 ms for the rest of a sequence, 2 s and 10 s for a paste's end) are stepped through.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PASTE_MAX, TerminalReader } from '../../../src/tui/keys/terminal-reader.js';
import { FakeStdin, reader } from '../../helpers/fake-stdin.js';

const ESC = '\u001b';
const START = `${ESC}[200~`;
const END = `${ESC}[201~`;

const opened: TerminalReader[] = [];
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  for (const input of opened.splice(0)) input.detach();
  vi.useRealTimers();
});

/** A reader on a fake terminal; `handled`: whether the handler is set from the start. */
function reading(handled = true) {
  const source = new FakeStdin();
  const input = new TerminalReader(source);
  opened.push(input);
  const seen = handled ? reader(input) : undefined;
  return { source, input, seen: seen!, send: (read: string | Buffer) => source.send(read) };
}

describe('TerminalReader', () => {
  it('hands a read\'s keys over at once, named and in order, as one batch; printable ones with their text', () => {
    const { seen, send } = reading();
    send(`ab${ESC}[Dcd${ESC}[1;5Cé${ESC}x${ESC}`);
    expect(seen).toEqual(['a', 'b', 'left', 'c', 'd', 'right', 'é', 'alt-x', 'esc']);
    expect(seen.events.map((event) => (event.kind === 'key' ? event.key.text : event.kind))).toEqual(['a', 'b', undefined, 'c', 'd', undefined, 'é', undefined, undefined]);
    send('typed text');
    send('e\u0015New name\r');
    expect(seen.slice(9)).toEqual(['t', 'y', 'p', 'e', 'd', 'space', 't', 'e', 'x', 't', 'e', 'ctrl-u', 'N', 'e', 'w', 'space', 'n', 'a', 'm', 'e', 'enter']);
    expect(seen.batches).toEqual([9, 10, 11]);
  });

  it('hands a run of one key in one read over as that many presses in one batch; reads are not joined', () => {
    const { seen, send } = reading();
    // 100 Down in one read with a j after them, two more j reads, then two Ups in one read.
    send(`${ESC}[B`.repeat(100) + 'j');
    send('j');
    send('j');
    send(`${ESC}[A${ESC}[A`);
    expect(seen).toEqual([...Array<string>(100).fill('down'), 'j', 'j', 'j', 'up', 'up']);
    expect(seen.batches).toEqual([101, 1, 1, 2]);
  });

  it('keeps characters whole across reads, their bytes cut anywhere', () => {
    const bytes = Buffer.from('é📚');
    for (let first = 1; first < bytes.length; first++) {
      for (let second = first; second < bytes.length; second++) {
        const { seen, send } = reading();
        send(bytes.subarray(0, first));
        send(bytes.subarray(first, second));
        send(bytes.subarray(second));
        expect(seen, `cut at ${first} and ${second}`).toEqual(['é', '📚']);
        expect(seen.events.map((event) => event.kind === 'key' && event.key.text)).toEqual(['é', '📚']);
      }
    }
    // A read that comes as a string (a stream with an encoding set) is that text.
    const { source, seen } = reading();
    source.emit('data', 'ü');
    expect(seen).toEqual(['ü']);
  });

  it('joins an escape sequence cut between reads; a lone Esc at the end of a read is Esc at once; an unfinished one is let go after 20 ms', () => {
    const { seen, send } = reading();
    send(`${ESC}[`);
    vi.advanceTimersByTime(5);
    expect(seen).toEqual([]);
    send('A');
    expect(seen).toEqual(['up']);
    // No wait for more: Esc goes as it is read.
    send(ESC);
    expect(seen).toEqual(['up', 'esc']);
    send(`${ESC}[1;`);
    vi.advanceTimersByTime(19);
    send('5C');
    expect(seen).toEqual(['up', 'esc', 'right']);
    // A start whose end never comes is let go after 20 ms: no key, and what is typed next is not
    // taken for its end (`CSI 1;j`, no key, would swallow the j).
    send(`${ESC}[1;`);
    vi.advanceTimersByTime(20);
    send('j');
    expect(seen).toEqual(['up', 'esc', 'right', 'j']);
    // ESC O could start an SS3 key: after 20 ms with nothing more it is Alt-O.
    send(`${ESC}O`);
    vi.advanceTimersByTime(19);
    expect(seen.slice(4)).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(seen.slice(4)).toEqual(['alt-o']);
  });

  it('hands on no key for what is none of ours (Ctrl-F1, CSI 1;5G, SGR as input, string controls); a read of only those is no batch', () => {
    const { seen, send } = reading();
    send(`a${ESC}[1;5Pb${ESC}[1;5G${ESC}[31m${ESC}]10;rgb:0/0/0\u0007c${ESC}[97;5u${ESC}P1$r0m${ESC}\\d`);
    expect(seen).toEqual(['a', 'b', 'c', 'ctrl-a', 'd']);
    send(`${ESC}[1;5P${ESC}[15~`);
    expect(seen.batches).toEqual([5]);
  });

  it('passes raw mode to the terminal while it is one; detach stops reading it and drops what was waiting', () => {
    const { source, input, seen, send } = reading();
    expect(input.isTTY).toBe(true);
    expect(source.listenerCount('data')).toBe(1);
    input.setRawMode(true);
    input.setRawMode(false);
    expect(source.raw).toEqual([true, false]);
    // A paste under way, cut off by the detach: never handed on.
    send(`${START}half`);
    input.detach();
    expect(source.listenerCount('data')).toBe(0);
    expect(source.paused).toBe(true);
    // The terminal is the shell's again (or gone): not touched.
    input.setRawMode(true);
    expect(source.raw).toEqual([true, false]);
    vi.advanceTimersByTime(20_000);
    send('j');
    expect(seen).toEqual([]);

    const pipe = Object.assign(new FakeStdin(), { isTTY: false });
    const piped = new TerminalReader(pipe);
    opened.push(piped);
    expect(piped.isTTY).toBe(false);
    piped.setRawMode(true);
    expect(pipe.raw).toEqual([]);
    // Nor a key waiting for the rest of its sequence (ESC O is Alt-O after 20 ms).
    const keys = reader(piped);
    pipe.send(`${ESC}O`);
    piped.detach();
    vi.advanceTimersByTime(100);
    expect(keys).toEqual([]);
  });

  it('keeps events that come before there is a handler and hands them to it, as one batch, when it is set', () => {
    const { input, send } = reading(false);
    send('jk');
    send(`${ESC}[A`);
    const seen = reader(input);
    expect(seen).toEqual(['j', 'k', 'up']);
    expect(seen.batches).toEqual([3]);
    send('q');
    expect(seen.batches).toEqual([3, 1]);
    // Between two handlers (the router mounted again) nothing is lost either.
    input.handler = undefined;
    send('x');
    reader(input, seen);
    expect(seen.slice(4)).toEqual(['x']);
  });

  it('keeps a bounded number of early events, the first ones; a detach drops them', () => {
    const early = reading(false);
    early.send('a' + 'j'.repeat(3000));
    const seen = reader(early.input);
    // EARLY_MAX.
    expect(seen).toHaveLength(1024);
    expect(seen[0]).toBe('a');

    const gone = reading(false);
    gone.send('j');
    gone.input.detach();
    expect(reader(gone.input)).toEqual([]);
  });

  it('emits the terminal\'s answers (the background colour, the kitty keyboard flags) as they are, never as keys', () => {
    const { input, seen, send } = reading();
    const backgrounds: string[] = [];
    const kitty: string[] = [];
    input.on('background', (answer: string) => backgrounds.push(answer));
    input.on('kitty', (answer: string) => kitty.push(answer));
    send(`j${ESC}]11;rgb:ffff/ffff/ffff${ESC}\\k${ESC}[?1uq`);
    expect(seen).toEqual(['j', 'k', 'q']);
    expect(backgrounds).toEqual([`${ESC}]11;rgb:ffff/ffff/ffff${ESC}\\`]);
    expect(kitty).toEqual([`${ESC}[?1u`]);
    // Cut between reads, and alone in a read: whole, and no batch.
    send(`${ESC}]11;rgb:00`);
    send('00/2b2b/3636\u0007');
    send(`${ESC}[?0u`);
    expect(backgrounds.at(-1)).toBe(`${ESC}]11;rgb:0000/2b2b/3636\u0007`);
    expect(kitty.at(-1)).toBe(`${ESC}[?0u`);
    expect(seen.batches).toEqual([3]);
  });

  it('drops the tail of an answer whose end came too late (a slow link), never typing it; after a second it is keys again', () => {
    const { seen, send } = reading();
    send(`${ESC}]11;rgb:ff`);
    vi.advanceTimersByTime(30);
    // Typed, "ff/ffff/ffff" would open the filter (f) and fill it.
    send('ff/ffff/ffff\u0007j');
    send(`${ESC}[?`);
    vi.advanceTimersByTime(30);
    // Typed, "1u" would undo a delete (u).
    send('1uk');
    expect(seen).toEqual(['j', 'k']);
    send(`${ESC}]11;rgb:ff`);
    vi.advanceTimersByTime(1500);
    send('f');
    expect(seen).toEqual(['j', 'k', 'f']);
  });

  it('drops an answer cut right after its ESC, and one cut again and again, as long as it is the rest of one; [ and ] after Esc stay keys', () => {
    const { seen, send } = reading();
    // Cut just after the ESC: the Esc is a key at once (it could be one), the rest is no keys.
    send(`j${ESC}`);
    send(']11;rgb:ffff/ffff/ffff\u0007k');
    send(ESC);
    send('[?0u');
    send('l');
    expect(seen).toEqual(['j', 'esc', 'k', 'esc', 'l']);
    // Cut three times, each part more than 20 ms after the one before.
    send(`${ESC}]11;rgb:ff`);
    vi.advanceTimersByTime(30);
    send('ff/ff');
    vi.advanceTimersByTime(30);
    send('ff/ffff\u0007m');
    expect(seen.slice(5)).toEqual(['m']);
    send(`${ESC}[?`);
    vi.advanceTimersByTime(30);
    send('1');
    vi.advanceTimersByTime(30);
    send('u');
    send('n');
    expect(seen.slice(6)).toEqual(['n']);
    // Esc, then the keys [ and ] (previous and next list): a person's, kept.
    send(ESC);
    send('[');
    send(ESC);
    send(']');
    expect(seen.slice(7)).toEqual(['esc', '[', 'esc', ']']);
  });

  it('takes no colour from a background answer cut off and let go: only a whole answer is one', () => {
    const { input, seen, send } = reading();
    const backgrounds: string[] = [];
    input.on('background', (answer: string) => backgrounds.push(answer));
    send(`${ESC}]11;rgb:ffff/ff`);
    vi.advanceTimersByTime(30);
    send(`ff/ffff\u0007`);
    expect(backgrounds).toEqual([]);
    send(`${ESC}]11;rgb:0000/0000/0000\u0007`);
    expect(backgrounds).toEqual([`${ESC}]11;rgb:0000/0000/0000\u0007`]);
    expect(seen).toEqual([]);
  });

  describe('bracketed paste', () => {
    it('hands a paste over whole, newlines and all, in order with the keys around it; never as keys', () => {
      const { seen, send } = reading();
      send(`r${START}New Name\rdy${ESC}[A${END}\r`);
      expect(seen).toEqual(['r', `paste:New Name\rdy${ESC}[A`, 'enter']);
      expect(seen.batches).toEqual([3]);
    });

    it('keeps a paste whole across reads, its marks cut anywhere, characters split between reads', () => {
      const bytes = Buffer.from(`x${START}déjà 📚\nvu${END}y`);
      // Every way of cutting the bytes in two but one: a read that ends on the very Esc the start
      // mark begins with is the Esc key (an Esc is never held back waiting for more), as in
      // every terminal program; terminals write the mark in one piece.
      for (let cut = 1; cut < bytes.length; cut++) {
        if (cut === 2) continue;
        const { seen, send } = reading();
        send(bytes.subarray(0, cut));
        vi.advanceTimersByTime(5);
        send(bytes.subarray(cut));
        expect(seen, `cut at byte ${cut}`).toEqual(['x', 'paste:déjà 📚\nvu', 'y']);
      }
    });

    it('a paste that stalls goes in as far as it came, and what follows before its end mark is text, never keys', () => {
      const { seen, send } = reading();
      send(`${START}first half`);
      vi.advanceTimersByTime(1999);
      expect(seen).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(seen).toEqual(['paste:first half']);
      vi.advanceTimersByTime(500);
      // A slow link: the rest comes 2.5 s on, with a line break and "dy" that must not run.
      send(`\rdy${END}j`);
      expect(seen).toEqual(['paste:first half', 'paste:\rdy', 'j']);
    });

    it('ends a paste whose end mark never comes after 10 s without input; keys after that are keys', () => {
      const { seen, send } = reading();
      send(`${START}half a paste${ESC}[20`);
      vi.advanceTimersByTime(9000);
      // 9 s on, still inside the paste: text (with what looked like the start of its end mark).
      send('k');
      vi.advanceTimersByTime(10_500);
      send('j');
      expect(seen).toEqual(['paste:half a paste', `paste:${ESC}[20k`, 'j']);

      // The start of an end mark that never came is the paste's too, when it is given up.
      const cut = reading();
      cut.send(`${START}abc${ESC}[20`);
      vi.advanceTimersByTime(9999);
      expect(cut.seen).toEqual(['paste:abc']);
      vi.advanceTimersByTime(1);
      cut.send('j');
      expect(cut.seen).toEqual(['paste:abc', `paste:${ESC}[20`, 'j']);
    });

    it('hands on no empty paste: the marks alone are nothing', () => {
      const { seen, send } = reading();
      send(`j${START}${END}k`);
      expect(seen).toEqual(['j', 'k']);
    });

    it('keeps at most PASTE_MAX characters of one paste', () => {
      const { source, seen } = reading();
      source.send(START);
      // Reads that do not add up to it: the one that goes past it is cut.
      for (let i = 0; i < 3; i++) source.send('a'.repeat(PASTE_MAX / 2 + 1));
      source.send(END);
      expect(seen.events.map((event) => event.kind === 'paste' && event.text.length)).toEqual([PASTE_MAX]);
    });
  });
});
