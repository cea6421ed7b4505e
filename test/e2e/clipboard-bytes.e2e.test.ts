// y and Y put the selected contact's phone number and username on the clipboard as a terminal
// is asked to: an OSC 52 sequence, asserted in the bytes a real pty received, and the status line
// says what was copied. A hostile server's username (the end of a bracketed paste, then a line
// break and a command) is copied as it is shown: one line, no controls.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasScript, setUpPtyHome } from '../helpers/pty.js';
import { startProxy } from '../helpers/proxy.js';
import { BIN, startTestSandbox } from '../helpers/sandbox.js';
import { runChild } from '../helpers/child.js';

const ESC = '\u001b';
const BEL = '\u0007';

describe.skipIf(!hasScript())('copying a contact in the dashboard', () => {
  const pty = setUpPtyHome('tickbook-clipboard-pty-');

  it('y sends the phone number and Y the username by OSC 52, and the status line says so', async () => {
    const run = pty.start([process.execPath, BIN, '--watchlist', 'AAPL']);
    // The embedded sandbox's demo contacts, newest first: the cursor starts on the first.
    await run.until((t) => /\d+ on this page/.test(t), 'the contacts', 30_000);
    run.send('y');
    await run.untilScreen((screen) => /copied the phone number of /.test(screen), 'the phone number copied', 10_000);
    run.send('Y');
    // On the screen, not in the bytes: the second notice rewrites only the cells that changed.
    await run.untilScreen((screen) => /copied the username of /.test(screen), 'the username copied', 10_000);
    // What the terminal was asked to put on the clipboard, in order.
    const copied = [...run.bytes().matchAll(new RegExp(`${ESC}\\]52;c;([A-Za-z0-9+/=]*)${BEL}`, 'g'))].map((m) => Buffer.from(m[1]!, 'base64').toString('utf8'));
    run.send('q');
    expect(await run.exited).toBe(0);
    // The first contact of the list, as the command line reads it from the same sandbox.
    const listed = await runChild(process.execPath, [BIN, 'contacts', 'list', '--limit', '1', '--json'], { env: { ...process.env, ...pty.env() }, timeoutMs: 20_000 });
    const first = (JSON.parse(listed.stdout) as { data: { phone_number: string; username: string }[] }).data[0]!;
    expect(copied).toEqual([first.phone_number, first.username]);
  }, 60_000);

  it('copies a hostile server’s username as the status line shows it: no escape, control or line break', async () => {
    const sandbox = await startTestSandbox({ demoData: true });
    // The server's answer, changed on the way: the newest contact's username ends bash's
    // bracketed paste (ESC[201~), then a line break and a command.
    const hostile = 'evil\u001b[201~\ntouch /tmp/pwned-by-tickbook';
    const proxy = await startProxy(sandbox.url, {
      rewrite: (req, body) => {
        if (!req.url.startsWith('/v1/contacts')) return body;
        const page = JSON.parse(body.toString('utf8')) as { data: { username: string }[] };
        if (page.data[0]) page.data[0].username = hostile;
        return Buffer.from(JSON.stringify(page));
      },
    });
    try {
      const dir = join(pty.home(), 'config', 'tickbook');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'config.json'), JSON.stringify({ base_url: proxy.url, token: sandbox.token, api_key: sandbox.apiKey }), { mode: 0o600 });
      const run = pty.start([process.execPath, BIN, '--watchlist', 'AAPL']);
      await run.until((t) => /\d+ on this page/.test(t), 'the contacts', 30_000);
      run.send('Y');
      await run.untilScreen((screen) => /copied the username of .*: evil touch \/tmp\/pwned-by-tickbook/.test(screen), 'the username copied', 10_000);
      const copied = [...run.bytes().matchAll(new RegExp(`${ESC}\\]52;c;([A-Za-z0-9+/=]*)${BEL}`, 'g'))].map((m) => Buffer.from(m[1]!, 'base64').toString('utf8'));
      run.send('q');
      expect(await run.exited).toBe(0);
      expect(copied).toEqual(['evil touch /tmp/pwned-by-tickbook']);
    } finally {
      await proxy.close();
      await sandbox.close();
    }
  }, 60_000);
});
