// Quitting inside a delete's undo window sends the DELETE on the way out; when the server refuses
// it, or never answers, the user is told on stderr once the terminal is restored, and the status
// is 1. Before: exit 0 and nothing said, the contact still there. The dashboard runs in a real
// pty against a server of this test's own, which serves the contacts but fails their DELETE.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hasScript, type PtyRun, SEQ, startInPty, terminalRestored } from '../helpers/pty.js';
import { closeAllServers, contactJson, errorJson, httpServer, json, pricingJson, type TestServer } from '../helpers/servers.js';
import { BIN } from '../helpers/tmux.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const CONTACT = contactJson({ id: 'ct_ada', username: 'ada_l', display_name: 'Ada Lovelace' });

/** The contacts and prices as any server gives them; a DELETE as `onDelete` says. */
function server(onDelete: 'refuse' | 'hang'): Promise<TestServer> {
  return httpServer((req, res) => {
    if (req.method === 'GET' && req.path === '/v1/contacts') return json(res, 200, { has_more: false, data: [CONTACT] });
    if (req.method === 'GET' && req.path === '/v1/contacts/ct_ada') return json(res, 200, CONTACT);
    if (req.method === 'POST' && req.path.endsWith('/realtime-pricing')) return json(res, 200, pricingJson(req.body));
    if (req.method === 'GET' && req.path.endsWith('/symbols')) return json(res, 200, { status: 'success', stock_symbols: [{ symbol: 'AAPL', name: 'Apple Inc.' }] });
    if (req.method === 'DELETE' && onDelete === 'refuse') return json(res, 500, errorJson('internal_error', 'the database is on fire'));
    if (req.method === 'DELETE') return; // never answered
    json(res, 404, errorJson('not_found', 'no such thing'));
  });
}

describe.skipIf(!hasScript())('quitting while a delete waits to be undone, the server failing it', () => {
  let home: string;
  let env: Record<string, string>;
  let run: PtyRun | undefined;

  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'tickbook-quit-'));
    env = { LANG: 'C.UTF-8', HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config') };
  });
  afterEach(async () => {
    run?.kill();
    run = undefined;
    await closeAllServers();
    rmSync(home, { recursive: true, force: true });
  });

  /** The dashboard on `api`, the one contact deleted (d, y) and in its undo window. */
  async function deleteWaiting(api: TestServer): Promise<PtyRun> {
    // Kept in `run` at once: afterEach kills it whatever happens next.
    const started = (run = startInPty([process.execPath, BIN, '--base-url', api.url, '--token', 'test-token', '--api-key', 'test-key'], env, home));
    await started.until((t) => /page 1/.test(t) && t.includes('ada_l'), 'the first page');
    await started.pressUntil('d', /y: delete/, 'the delete prompt');
    await started.pressUntil('y', /u: undo \(\d+s\)/, 'the undo offer');
    return started;
  }

  /** d, y, q on the one contact; resolves with the status and what came after the terminal was restored. */
  async function deleteThenQuit(api: TestServer): Promise<{ status: number | null; after: string; ms: number }> {
    run = await deleteWaiting(api);
    const quitAt = Date.now();
    // Again until it shows, as for d and y; a quick refusal may end the run before it does.
    for (let sentAt = 0; !run.ended() && !/finishing/.test(run.text()); await sleep(50)) {
      if (Date.now() - sentAt > 1000) {
        run.send('q');
        sentAt = Date.now();
      }
    }
    const status = await run.exited;
    const ms = Date.now() - quitAt;
    const bytes = run.bytes();
    const restored = terminalRestored(bytes);
    expect(restored.left, `the alternate screen left after the last frame; the recording ended ${restored.tail}`).toBe(true);
    expect(restored.cursorShown, `the cursor shown after the last frame; the recording ended ${restored.tail}`).toBe(true);
    expect(restored.pasteMarksOff, `bracketed paste on while running and off after the last frame; the recording ended ${restored.tail}`).toBe(true);
    expect(restored.mouseOff, `mouse reporting on while running and off after the last frame; the recording ended ${restored.tail}`).toBe(true);
    return { status, after: bytes.slice(bytes.lastIndexOf(SEQ.leaveAltScreen)), ms };
  }

  it('refused (HTTP 500): says so after the terminal is restored, exit 1', async () => {
    const api = await server('refuse');
    const { status, after } = await deleteThenQuit(api);
    expect(status).toBe(1);
    expect(api.count('DELETE', '/v1/contacts/ct_ada')).toBe(1);
    expect(after).toMatch(
      /tickbook: could not delete Ada Lovelace: the database is on fire \(HTTP 500, request 11111111-2222-4333-8444-555555555555\)\r?\n/,
    );
  }, 60_000);

  it('never answered: the wait is bounded, and it says the delete was not confirmed, exit 1', async () => {
    const api = await server('hang');
    const { status, after, ms } = await deleteThenQuit(api);
    expect(status).toBe(1);
    expect(api.count('DELETE', '/v1/contacts/ct_ada')).toBe(1);
    // The dashboard gives up after 10 s, or the transport does (its own 10 s for an answer).
    expect(after).toMatch(/tickbook: could not delete Ada Lovelace: (no answer from the server within 10 s|.*did not answer within 10 s)/);
    expect(ms).toBeLessThan(25_000);
  }, 60_000);

  it('a second signal while the DELETE hangs leaves at once, saying a change may not have been sent', async () => {
    const api = await server('hang');
    run = await deleteWaiting(api);
    const pid = await run.pid();
    process.kill(pid, 'SIGTERM');
    // The first sends the DELETE (which hangs); the second does not wait for it.
    for (const deadline = Date.now() + 15_000; api.count('DELETE', '/v1/contacts/ct_ada') === 0 && Date.now() < deadline; ) await sleep(50);
    const secondAt = Date.now();
    process.kill(pid, 'SIGINT');
    const status = await run.exited;
    expect(Date.now() - secondAt).toBeLessThan(5_000);
    expect(status).toBe(143);
    const bytes = run.bytes();
    expect(bytes.slice(bytes.lastIndexOf(SEQ.leaveAltScreen))).toMatch(/tickbook: stopped before the server answered; a change you made may not have been sent/);
  }, 60_000);

  it('a second Ctrl-C while "finishing…" waits for the DELETE gives the terminal back at once, saying a change may not have been sent', async () => {
    const api = await server('hang');
    run = await deleteWaiting(api);
    run.send('\u0003');
    for (const deadline = Date.now() + 15_000; api.count('DELETE', '/v1/contacts/ct_ada') === 0 && Date.now() < deadline; ) await sleep(50);
    await run.until((t) => /finishing/.test(t), 'finishing…');
    const secondAt = Date.now();
    run.send('\u0003');
    const status = await run.exited;
    // Before: the screen stayed until the DELETE's 10 s were up.
    expect(Date.now() - secondAt).toBeLessThan(5_000);
    expect(status).toBe(130);
    const bytes = run.bytes();
    const restored = terminalRestored(bytes);
    expect([restored.left, restored.cursorShown, restored.pasteMarksOff, restored.mouseOff], restored.tail).toEqual([true, true, true, true]);
    expect(bytes.slice(bytes.lastIndexOf(SEQ.leaveAltScreen))).toMatch(/tickbook: stopped before the server answered; a change you made may not have been sent/);
  }, 60_000);
});
