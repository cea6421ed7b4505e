// The stdout Ink is given answers a write's callback as a stream does, once the frame is on the
// terminal: Ink 8 waits for the callback of an empty write before it lets the process end (without
// it, q never quit). An empty write draws nothing.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { Screen } from '../../../src/tui/terminal/screen.js';

class RecordingTerminal extends EventEmitter {
  readonly columns = 20;
  readonly rows = 4;
  written = '';
  write(data: string): boolean {
    this.written += data;
    return true;
  }
}

/** A screen that has drawn a first frame, and the terminal it writes to. */
function shown(): { screen: Screen; terminal: RecordingTerminal } {
  const terminal = new RecordingTerminal();
  const screen = new Screen(terminal);
  screen.enter();
  screen.sink.write('first');
  screen.flush();
  terminal.written = '';
  return { screen, terminal };
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('FrameSink, the stdout Ink writes frames to', () => {
  it('calls back after a frame, which is on the terminal by then, with or without an encoding', async () => {
    const { screen, terminal } = shown();
    const calls: string[] = [];
    screen.sink.write('second', () => calls.push(terminal.written));
    screen.sink.write('third', 'utf8', () => calls.push(terminal.written));
    await turn();
    expect(calls).toHaveLength(2);
    expect(calls[0]).toContain('second');
    expect(calls[1]).toContain('third');
  });

  it('an empty write calls back and draws nothing: the frame on screen stays', async () => {
    const { screen, terminal } = shown();
    let called = false;
    screen.sink.write('', () => (called = true));
    await turn();
    expect(called).toBe(true);
    expect(terminal.written).toBe('');
  });

  it('a frame written without a callback waits for the tick, as Ink 6 writes them', async () => {
    const { screen, terminal } = shown();
    screen.sink.write('second');
    expect(terminal.written).toBe('');
    // The screen draws frames of one tick once, on a timer.
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    expect(terminal.written).toContain('second');
  });
});
