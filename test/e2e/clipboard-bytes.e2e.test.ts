// y and Y put the selected contact's phone number and username on the clipboard as a terminal
// is asked to: an OSC 52 sequence, asserted in the bytes a real pty received, and the status line
// says what was copied.
import { describe, expect, it } from 'vitest';
import { hasScript, usePtyHome } from '../helpers/pty.js';
import { BIN } from '../helpers/sandbox.js';

const ESC = '\u001b';
const BEL = '\u0007';
const osc52 = (text: string) => `${ESC}]52;c;${Buffer.from(text, 'utf8').toString('base64')}${BEL}`;

describe.skipIf(!hasScript())('copying a contact in the dashboard', () => {
  const pty = usePtyHome('tickbook-clipboard-pty-');

  it('y sends the phone number and Y the username by OSC 52, and the status line says so', async () => {
    const run = pty.start([process.execPath, BIN, '--watchlist', 'AAPL']);
    // The embedded sandbox's demo contacts, newest first: the cursor starts on the first.
    await run.until((t) => /\d+ on this page/.test(t), 'the contacts', 30_000);
    run.send('y');
    await run.until((t) => /copied the phone number of .+: \+\d+/.test(t), 'the phone number copied', 10_000);
    const phone = /copied the phone number of .+?: (\+\d+)/.exec(run.text())![1]!;
    expect(run.bytes()).toContain(osc52(phone));
    run.send('Y');
    await run.until((t) => /copied the username of .+: [\w.-]+/.test(t), 'the username copied', 10_000);
    const username = /copied the username of .+?: ([\w.-]+)/.exec(run.text())![1]!;
    expect(run.bytes()).toContain(osc52(username));
    run.send('q');
    expect(await run.exited).toBe(0);
  }, 60_000);
});
