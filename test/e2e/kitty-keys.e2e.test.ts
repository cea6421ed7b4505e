// The kitty keyboard protocol, where the terminal has it: the dashboard asks (CSI ? u); a terminal
// that answers gets the protocol's first level pushed while the screen is the dashboard's
// (CSI > 1 u), and popped on the way out (CSI < u), and its keys in that encoding work; a terminal
// that does not answer is never sent the push. Asserted in the bytes a real pty received.
import { describe, expect, it } from 'vitest';
import { hasScript, setUpPtyHome, SEQ } from '../helpers/pty.js';
import { BIN } from '../helpers/sandbox.js';

const ESC = '\u001b';
const QUERY = `${ESC}[?u`;
const PUSH = `${ESC}[>1u`;
const POP = `${ESC}[<u`;
/** A key as the kitty protocol's first level sends it: its code point, CSI … u. */
const kitty = (char: string) => `${ESC}[${char.codePointAt(0)}u`;

describe.skipIf(!hasScript())('the kitty keyboard protocol in the dashboard', () => {
  const pty = setUpPtyHome('tickbook-kitty-pty-');

  it('answered, it is pushed while the dashboard runs, its keys work, and it is popped on the way out', async () => {
    const run = pty.start([process.execPath, BIN, '--watchlist', 'AAPL']);
    await run.until((t) => /\d+ on this page/.test(t), 'the contacts', 30_000);
    expect(run.bytes()).toContain(QUERY);
    expect(run.bytes()).not.toContain(PUSH);
    // The terminal's answer: the flags it has on now (none).
    run.send(`${ESC}[?0u`);
    await run.until(() => run.bytes().includes(PUSH), 'the protocol pushed', 10_000);
    // ? and Esc as the protocol sends them: the help opens, and Esc closes it at once.
    run.send(kitty('?'));
    await run.untilScreen((screen) => /tickbook keys/.test(screen), 'the help', 10_000);
    run.send(`${ESC}[27u`);
    await run.untilScreen((screen) => !/tickbook keys/.test(screen) && /\d+ on this page/.test(screen), 'the help closed', 10_000);
    run.send(kitty('q'));
    expect(await run.exited).toBe(0);
    const bytes = run.bytes();
    // Popped once, after the push and before the screen is the shell's again.
    const popped = bytes.lastIndexOf(POP);
    expect(popped).toBeGreaterThan(bytes.indexOf(PUSH));
    expect(popped).toBeLessThan(bytes.lastIndexOf(SEQ.leaveAltScreen));
    expect(bytes.split(POP)).toHaveLength(2);
  }, 60_000);

  it('unanswered, it is never pushed, and the keys a terminal always sent work', async () => {
    const run = pty.start([process.execPath, BIN, '--watchlist', 'AAPL']);
    await run.until((t) => /\d+ on this page/.test(t), 'the contacts', 30_000);
    run.send('?');
    await run.untilScreen((screen) => /tickbook keys/.test(screen), 'the help', 10_000);
    run.send('q');
    await run.untilScreen((screen) => !/tickbook keys/.test(screen), 'the help closed', 10_000);
    run.send('q');
    expect(await run.exited).toBe(0);
    expect(run.bytes()).toContain(QUERY);
    expect(run.bytes()).not.toContain(PUSH);
    expect(run.bytes()).not.toContain(POP);
  }, 60_000);
});
