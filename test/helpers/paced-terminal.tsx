// Real Ink on a fake terminal, keys through the paced input as runDashboard feeds them: for tests
// of keys that arrive in separate reads faster than a redraw (ink-testing-library's stdin hands
// every write to Ink at once, so it cannot show what pacing is for).
import { EventEmitter } from 'node:events';
import { stripVTControlCharacters } from 'node:util';
import { render } from 'ink';
import type { ReactElement } from 'react';
import type { TickbookClient } from '../../src/api/client.js';
import { Dashboard, type DashboardProps } from '../../src/tui/Dashboard.js';
import { InputTarget } from '../../src/tui/keys/input-target.js';
import { PacedInput, type TerminalInput } from '../../src/tui/keys/paced-input.js';
import { StatusStore } from '../../src/tui/state/status.js';
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

export interface PacedMount {
  keyboard: FakeKeyboard;
  /** Frames Ink has drawn so far. */
  frames(): number;
  /** The last frame Ink drew, plain text. */
  frame(): string;
  /** The last frame Ink drew, with its styles. */
  raw(): string;
  unmount(): void;
}

export function mountPaced(element: ReactElement, columns = 80, rows = 24, mouseReports = false): PacedMount {
  const keyboard = new FakeKeyboard();
  const terminal = new FakeTerminal();
  terminal.columns = columns;
  terminal.rows = rows;
  const input = new PacedInput(keyboard);
  // As runDashboard sets it when the terminal is asked to report the mouse.
  input.mouseReports = mouseReports;
  // Wired to the dashboard as runDashboard wires it: pastes, and runs of one key taken at once.
  const instance = render(<InputTarget.Provider value={input}>{element}</InputTarget.Provider>, {
    stdout: terminal as unknown as NodeJS.WriteStream,
    stdin: input as unknown as NodeJS.ReadStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  return {
    keyboard,
    frames: () => terminal.writes.length,
    frame: () => stripVTControlCharacters(terminal.writes.at(-1) ?? ''),
    raw: () => terminal.writes.at(-1) ?? '',
    unmount: () => {
      instance.unmount();
      input.detach();
    },
  };
}

export interface PacedDashboard extends PacedMount {
  /** Polls the plain frame until `predicate` holds; fails with the last frame. */
  until(predicate: (frame: string) => boolean, what: string): Promise<void>;
}

/**
 * The whole dashboard at 120×30 on a fake terminal, keys through the paced input, on `client`
 * (`props` over the test's own);
 * resolves once the first page is on screen. Call `unmount` when done.
 */
export async function mountPacedDashboard(client: TickbookClient, props: Partial<DashboardProps> = {}): Promise<PacedDashboard> {
  const mounted = mountPaced(
    <Dashboard client={client} status={new StatusStore()} target="test" watchlist={['AAPL']} intervalS={30} size={{ columns: 120, rows: 30 }} {...props} />,
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
