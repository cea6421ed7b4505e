// Real Ink on a fake terminal, keys through the terminal reader as runDashboard wires it: for tests
// of keys that arrive in separate reads faster than a redraw, each in its own turn of the event
// loop, as a terminal sends them.
import { EventEmitter } from 'node:events';
import { stripVTControlCharacters } from 'node:util';
import { render } from 'ink';
import type { ReactElement } from 'react';
import type { TickbookClient } from '../../src/api/client.js';
import { Dashboard, type DashboardProps } from '../../src/tui/Dashboard.js';
import { PassThrough } from 'node:stream';
import { InputSourceContext } from '../../src/tui/keys/input-source.js';
import { TerminalReader, type TerminalInput } from '../../src/tui/keys/terminal-reader.js';
import { StatusBoard } from '../../src/tui/state/status.js';
import { FakeTerminal } from './fake-terminal.js';

/** A terminal's stdin: raw mode and pausing are recorded, keys are emitted. */
export class FakeKeyboard extends EventEmitter implements TerminalInput {
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

export interface InkMount {
  keyboard: FakeKeyboard;
  /** Frames Ink has drawn so far. */
  frames(): number;
  /** The last frame Ink drew, plain text. */
  frame(): string;
  /** The last frame Ink drew, with its styles. */
  raw(): string;
  unmount(): void;
}

export function mountInk(element: ReactElement, columns = 80, rows = 24, mouseReports = false): InkMount {
  const keyboard = new FakeKeyboard();
  const terminal = new FakeTerminal();
  terminal.columns = columns;
  terminal.rows = rows;
  const input = new TerminalReader(keyboard);
  // As runDashboard sets it when the terminal is asked to report the mouse.
  input.mouseReports = mouseReports;
  // Wired to the dashboard as runDashboard wires it: the reader alone reads the keyboard.
  const instance = render(<InputSourceContext.Provider value={input}>{element}</InputSourceContext.Provider>, {
    stdout: terminal as unknown as NodeJS.WriteStream,
    stdin: new PassThrough() as unknown as NodeJS.ReadStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  input.setRawMode(true);
  return {
    keyboard,
    frames: () => terminal.writes.length,
    frame: () => stripVTControlCharacters(terminal.writes.at(-1) ?? ''),
    raw: () => terminal.writes.at(-1) ?? '',
    unmount: () => {
      instance.unmount();
      input.setRawMode(false);
      input.detach();
    },
  };
}

export interface InkDashboard extends InkMount {
  /** Polls the plain frame until `predicate` holds; fails with the last frame. */
  until(predicate: (frame: string) => boolean, what: string): Promise<void>;
}

/**
 * The whole dashboard at 120×30 on a fake terminal, keys through the terminal reader, on `client`
 * (`props` over the test's own);
 * resolves once the first page is on screen. Call `unmount` when done.
 */
export async function mountInkDashboard(client: TickbookClient, props: Partial<DashboardProps> = {}): Promise<InkDashboard> {
  const mounted = mountInk(
    <Dashboard client={client} status={new StatusBoard()} target="test" watchlist={['AAPL']} intervalS={30} size={{ columns: 120, rows: 30 }} {...props} />,
    120,
    30,
    props.mouse === true,
  );
  const until = async (predicate: (frame: string) => boolean, what: string) => {
    const deadline = Date.now() + 5000;
    while (!predicate(mounted.frame())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the frame:\n${mounted.frame()}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  try {
    await until((f) => /on this page/.test(f), 'the first page');
  } catch (error) {
    mounted.unmount();
    throw error;
  }
  return { ...mounted, until };
}
