// y and Y put the selected contact's phone number and username on the clipboard as a terminal
// is asked to: an OSC 52 sequence, asserted in the bytes a real pty received, and the status line
// says what was copied.
import { describe, expect, it } from 'vitest';
import { hasScript, usePtyHome } from '../helpers/pty.js';
import { BIN } from '../helpers/sandbox.js';
import { runChild } from '../helpers/child.js';

const ESC = '\u001b';
const BEL = '\u0007';

describe.skipIf(!hasScript())('copying a contact in the dashboard', () => {
  const pty = usePtyHome('tickbook-clipboard-pty-');

  it('y sends the phone number and Y the username by OSC 52, and the status line says so', async () => {
    const run = pty.start([process.execPath, BIN, '--watchlist', 'AAPL']);
    // The embedded sandbox's demo contacts, newest first: the cursor starts on the first.
    await run.until((t) => /\d+ on this page/.test(t), 'the contacts', 30_000);
    run.send('y');
    await run.until((t) => /copied the phone number of /.test(t), 'the phone number copied', 10_000);
    run.send('Y');
    await run.until((t) => /copied the username of /.test(t), 'the username copied', 10_000);
    // What the terminal was asked to put on the clipboard, in order.
    const copied = [...run.bytes().matchAll(new RegExp(`${ESC}\\]52;c;([A-Za-z0-9+/=]*)${BEL}`, 'g'))].map((m) => Buffer.from(m[1]!, 'base64').toString('utf8'));
    run.send('q');
    expect(await run.exited).toBe(0);
    // The first contact of the list, as the command line reads it from the same sandbox.
    const listed = await runChild(process.execPath, [BIN, 'contacts', 'list', '--limit', '1', '--json'], { env: { ...process.env, ...pty.env() }, timeoutMs: 20_000 });
    const first = (JSON.parse(listed.stdout) as { data: { phone_number: string; username: string }[] }).data[0]!;
    expect(copied).toEqual([first.phone_number, first.username]);
  }, 60_000);
});
