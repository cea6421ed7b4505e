// Any byte sequence a terminal can send is a known key or ignored: the dashboard, wired as
// runDashboard wires it (the terminal reader in front of the key router, the screen writer behind it), against a
// real sandbox, is fed seeded random input of every shape (CSI, SS3, kitty, modifyOtherKeys,
// string controls, Alt chords, raw bytes, cut at random between reads) and must stay up.
import { render } from 'ink';
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { TickbookClient } from '../../src/api/client.js';
import { sequence } from '../../src/server/random.js';
import { Dashboard } from '../../src/tui/Dashboard.js';
import { ErrorBoundary } from '../../src/tui/ErrorBoundary.js';
import { keyPresses, splitInput } from '../../src/tui/keys/terminal-input.js';
import { TerminalReader } from '../../src/tui/keys/terminal-reader.js';
import { InputSourceContext } from '../../src/tui/keys/input-source.js';
import { PassThrough } from 'node:stream';
import { Screen } from '../../src/tui/terminal/screen.js';
import { StatusBoard } from '../../src/tui/state/status.js';
import { FakeTerminal } from '../helpers/fake-terminal.js';
import { waitFor } from '../helpers/ink.js';
import { FakeKeyboard } from '../helpers/ink-terminal.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const ESC = '\u001b';

type Random = () => number;
const pick = <T,>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const int = (random: Random, max: number): number => Math.floor(random() * max);
const chars = (random: Random, alphabet: string, max: number): string =>
  Array.from({ length: int(random, max + 1) }, () => pick(random, [...alphabet])).join('');

/** One piece of terminal input of a random shape. */
function randomPiece(random: Random): string | Buffer {
  const params = () => chars(random, '0123456789;:', 12);
  const final = () => String.fromCharCode(0x40 + int(random, 0x3f));
  switch (int(random, 14)) {
    case 0: // the crashes the issue names
      return pick(random, [`${ESC}[1;5P`, `${ESC}[1;5Q`, `${ESC}[1;5R`, `${ESC}[1;5S`, `${ESC}[1;6P`, `${ESC}[1;7Q`, `${ESC}[1;5G`, `${ESC}[31m`]);
    case 1: // CSI of any shape, private markers and intermediates included
      return `${ESC}[${pick(random, ['', '?', '<', '>', '='])}${params()}${chars(random, ' !"#$%&\'()*+,-./', 2)}${final()}`;
    case 2: // CSI with a modifier on a letter or a tilde key
      return `${ESC}[${int(random, 30)};${int(random, 260)}${pick(random, [...'ABCDEFGHIJKLMNOPQRSZ~^$@`abcde'])}`;
    case 3: // SS3
      return `${ESC}O${chars(random, '0123456789;', 2)}${String.fromCharCode(0x20 + int(random, 0x5f))}`;
    case 4: // kitty CSI u, with alternates, event types and text
      return `${ESC}[${pick(random, [0, 1, 8, 9, 13, 27, 32, 97, 127, 0xd800, 57399, 57414, 57441, 57428, 0x10ffff, 0x110000, int(random, 70000)])}${random() < 0.3 ? `:${int(random, 200)}` : ''};${int(random, 260)}${random() < 0.3 ? `:${int(random, 4)}` : ''}${random() < 0.2 ? `;${int(random, 70000)}:${int(random, 300)}` : ''}u`;
    case 5: // kitty special keys with event types
      return `${ESC}[${int(random, 30)};${int(random, 20)}:${int(random, 5)}${pick(random, [...'ABCDFHPQRS~'])}`;
    case 6: // modifyOtherKeys
      return `${ESC}[27;${int(random, 20)};${int(random, 70000)}~`;
    case 7: // string controls, some never terminated
      return `${ESC}${pick(random, [...']P_^X'])}${chars(random, 'abc;:/0123456789', 20)}${pick(random, ['\u0007', `${ESC}\\`, ''])}`;
    case 8: // Alt with anything, one or two Esc
      return `${ESC}${random() < 0.2 ? ESC : ''}${String.fromCodePoint(pick(random, [int(random, 128), int(random, 0x3000), 0x1f4da]))}`;
    case 9: // control characters
      return String.fromCharCode(pick(random, [int(random, 32), 127]));
    case 10: // raw bytes, invalid UTF-8 and C1 included
      return Buffer.from(Array.from({ length: 1 + int(random, 8) }, () => int(random, 256)));
    case 11: // the keys of the dashboard
      return pick(random, ['j', 'k', 'n', 'p', 'g', 'G', '\t', '/', 'i', 'x', 'u', 'J', 'K', 's', ' ', '+', '-', 'r', 'a', 'e', 'd', 'y', 'c', '?', '\r', ESC, `${ESC}[A`, `${ESC}[B`, `${ESC}[6~`, `${ESC}[5~`]);
    case 12: // text, wide and zero-width included
      return chars(random, 'abcxyz AB09.-_éü日本👍\u200b\u0301', 10);
    default: // a lone Esc
      return ESC;
  }
}

/**
 * Whether these bytes would quit (q, Ctrl-C) or suspend: those are keys, not crashes, and would
 * end the run being tested.
 */
function ends(bytes: Buffer): boolean {
  const { pieces, rest } = splitInput(bytes.toString('utf8'));
  return [...pieces, rest].some((piece) => keyPresses(piece).some((key) => ['q', 'ctrl-c', 'ctrl-z'].includes(key.name)));
}

let sandbox: TestSandbox | undefined;
let api: TickbookClient | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
  await sandbox?.close();
  sandbox = undefined;
});

describe('the dashboard fed random terminal input', () => {
  it('stays up, and still answers its keys afterwards', async () => {
    sandbox = await startTestSandbox({ demoData: true });
    api = new TickbookClient({ contactsUrl: sandbox.contactsUrl, marketDataUrl: sandbox.marketDataUrl, token: sandbox.token, apiKey: sandbox.apiKey });
    const seed = Number(process.env.FUZZ_SEED ?? 20261123);
    const random = sequence(seed);
    const stdin = new FakeKeyboard();
    const terminal = new FakeTerminal();
    terminal.columns = 120;
    terminal.rows = 40;
    const screen = new Screen(terminal);
    screen.enter();
    const input = new TerminalReader(stdin);
    const crashes: unknown[] = [];
    const onCrash = (error: unknown) => crashes.push(error);
    process.on('uncaughtException', onCrash);
    let instance!: ReturnType<typeof render>;
    try {
      await act(async () => {
        instance = render(
          <ErrorBoundary onError={onCrash}>
            <InputSourceContext.Provider value={input}>
              <Dashboard client={api!} status={new StatusBoard()} target="fuzz" watchlist={['AAPL', 'MSFT']} intervalS={1} undoWindowMs={50} />
            </InputSourceContext.Provider>
          </ErrorBoundary>,
          { stdout: screen.sink as unknown as NodeJS.WriteStream, stdin: new PassThrough() as unknown as NodeJS.ReadStream, debug: true, exitOnCtrlC: false, patchConsole: false },
        );
      });
      const frame = () => screen.flush();
      // Reads of random pieces, each read cut at a random point into two.
      let sent = 0;
      for (let read = 0; read < 400; read++) {
        const bytes = Buffer.concat(Array.from({ length: 1 + int(random, 4) }, () => {
          const piece = randomPiece(random);
          return typeof piece === 'string' ? Buffer.from(piece) : piece;
        }));
        if (ends(bytes)) continue;
        const cut = int(random, bytes.length + 1);
        await act(async () => {
          stdin.emit('data', bytes.subarray(0, cut));
          stdin.emit('data', bytes.subarray(cut));
          await new Promise((resolve) => setTimeout(resolve, read % 20 === 0 ? 25 : 1));
        });
        sent += bytes.length;
        if (crashes.length > 0) break;
      }
      await act(async () => {
        await new Promise((resolve) => setTimeout(resolve, 200));
      });
      expect(crashes, `seed ${seed}`).toEqual([]);
      expect(sent).toBeGreaterThan(2000);

      // Still up: Esc leaves whatever was open (a field, the picker, a prompt, the help), and
      // the help opens.
      for (const key of [ESC, ESC, ESC, '\t', ESC]) {
        await act(async () => {
          stdin.emit('data', Buffer.from(key));
          await new Promise((resolve) => setTimeout(resolve, 40));
        });
      }
      terminal.take();
      await act(async () => {
        stdin.emit('data', Buffer.from('?'));
      });
      // On a loaded machine the help is drawn later, never otherwise.
      await waitFor(() => {
        frame();
        return terminal.all.includes('tickbook keys');
      }, 5000, 'the help, after Esc Esc Esc Tab Esc ?');
      expect(crashes).toEqual([]);
    } finally {
      process.off('uncaughtException', onCrash);
      await act(async () => instance?.unmount());
      input.detach();
      screen.dispose();
    }
  });
});
