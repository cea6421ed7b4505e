// The dashboard for a screen reader, in a real pty: what the terminal receives is what a reader
// reading it in order would speak. Per key, only the new text, appended, in order; per tick,
// nothing; every value labelled in words; no box drawing, braille, arrows or marks; no cursor
// addressing or alternate screen; a field echoed as a shell echoes it; an alert said unasked.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runChild } from '../helpers/child.js';
import { hasScript, type PtyRun, setUpPtyHome } from '../helpers/pty.js';
import { BIN } from '../helpers/sandbox.js';

const ESC = '\u001b';
/** Characters a reader speaks as symbols: box drawing, blocks, braille, arrows, marks. */
const DECORATION = /[\u2190-\u21ff\u2500-\u259f\u25a0-\u25ff\u2800-\u28ff\u2713\u2717]/;
/** Every control sequence the terminal was sent but those that only mark pastes and keys. */
const controlSequences = (bytes: string): string[] =>
  (bytes.match(/\u001b\[[0-9;?<>=]*[ -/]*[@-~]|\u001b[\]P^_][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[^[\]P^_]/g) ?? []).filter(
    (sequence) => !['\u001b[?2004h', '\u001b[?2004l', '\u001b[?u', '\u001b[>1u', '\u001b[<u'].includes(sequence),
  );

/** What the terminal is sent from now on, once `done` says it is all there. */
async function after(run: PtyRun, send: string, done: (delta: string) => boolean, what: string): Promise<string> {
  const mark = run.bytes().length;
  run.send(send);
  await run.until(() => done(run.bytes().slice(mark)), what, 20_000);
  return run.bytes().slice(mark);
}

const line = (delta: string) => delta.endsWith('\r\n');

describe.skipIf(!hasScript())('the dashboard for a screen reader', () => {
  const pty = setUpPtyHome('tickbook-reader-pty-');

  it('says each key\'s change once, appended, labelled in words, and nothing at a tick', async () => {
    const run = pty.start([process.execPath, BIN, '--screen-reader', '--watchlist', 'AAPL,MSFT', '--interval', '1']);
    await run.until((t) => /Contacts, page 1\r\n[^\r\n]+, 1 of 10\r\n/.test(t), 'the first contact', 30_000);
    const start = run.bytes();
    expect(start.indexOf('tickbook, for a screen reader.')).toBeLessThan(start.indexOf('Contacts, page 1'));

    // A move: the contact it lands on, and nothing else.
    expect(await after(run, 'j', line, 'the next contact')).toMatch(/^[^\r\n]+, username [^\r\n]+, 2 of 10\r\n$|^[^\r\n]+, no display name, 2 of 10\r\n$/);

    // The other pane: its place, then its selection with the price in words.
    const ticker = await after(run, '\t', (d) => /1 of 2\r\n$/.test(d), 'the ticker');
    expect(ticker).toMatch(/^Ticker, list Watchlist, watchlist order\r\nAAPL, (Apple Inc\., )?\d+ dollars( \d\d)?, [^\r\n]*session (up|down|unchanged)[^\r\n]*, 1 of 2\r\n$/);

    // Prices move every second; the reader hears one only when asked (t), however many ticks pass.
    const mark = run.bytes().length;
    const first = (await after(run, 't', line, 'the price read')).trim();
    expect(first).toMatch(/^AAPL, /);
    let reading = first;
    let reads = 1;
    while (reading === first && reads < 20) {
      await new Promise((resolve) => setTimeout(resolve, 1200));
      reading = (await after(run, 't', line, 'the price read again')).trim();
      reads++;
    }
    expect(reading, 'the price changed between readings: ticks came').not.toBe(first);
    const heard = run.bytes().slice(mark).split('\r\n').filter(Boolean);
    expect(heard, 'a line for each t, and nothing else').toHaveLength(reads);
    for (const said of heard) expect(said).toMatch(/^AAPL, (Apple Inc\., )?\d+ dollars/);

    // Back to the contacts: the place and the contact still selected.
    expect(await after(run, '\t', (d) => /2 of 10\r\n$/.test(d), 'the contacts again')).toMatch(/^Contacts, page 1\r\n[^\r\n]+, 2 of 10\r\n$/);

    // A field, echoed as a shell echoes it: a letter is the letter, a Backspace back-blank-back.
    const opened = await after(run, 'e', (d) => /Enter saves, Escape cancels[^\r\n]*\r\n[^\r\n]+$/.test(d), 'the rename field');
    expect(opened).toMatch(/^Rename [^\r\n]+\r\nNew display name\. Enter saves, Escape cancels; empty shows the username\.\r\n[^\r\n]+$/);
    expect(await after(run, 'Z', (d) => d.length > 0, 'the echo')).toBe('Z');
    expect(await after(run, '\u007f', (d) => d.length >= 3, 'the rubout')).toBe('\b \b');
    const left = await after(run, ESC, (d) => /2 of 10\r\n$/.test(d), 'the field closed');
    expect(left).toMatch(/^\r\nContacts, page 1\r\n[^\r\n]+, 2 of 10\r\n$/);

    // Marks and a delete, confirmed in words.
    expect(await after(run, ' ', (d) => /1 marked\r\n$/.test(d), 'the mark')).toMatch(/1 marked\r\n$/);
    expect(await after(run, `${ESC}`, (d) => /none marked\r\n$/.test(d), 'unmarked')).toMatch(/none marked\r\n$/);
    const asked = await after(run, 'd', line, 'the delete asked');
    const name = /^Delete (.+) and the conversation\? y deletes, n keeps\.\r\n$/.exec(asked)?.[1];
    expect(name, asked).toBeDefined();
    expect(await after(run, 'y', (d) => /u to undo within 5 seconds\r\n/.test(d), 'the delete said')).toContain(`deleted ${name}, u to undo within 5 seconds\r\n`);
    expect(await after(run, 'u', (d) => /kept /.test(d) && line(d), 'the undo said')).toContain(`kept ${name}`);

    run.send('q');
    expect(await run.exited).toBe(0);
    const all = run.bytes();
    expect(run.text()).not.toMatch(DECORATION);
    expect(controlSequences(all), 'no cursor addressing, alternate screen or colour').toEqual([]);
  }, 120_000);

  it('says an alert that fires at once, asked for or not', async () => {
    const env = pty.env();
    const added = await runChild(process.execPath, [BIN, 'alerts', 'add', 'IBM', 'move', '0.0001', '--from', 'set', '--once'], { env: { ...process.env, ...env }, timeoutMs: 20_000 });
    expect(added.code, added.stderr).toBe(0);
    const run = pty.start([process.execPath, BIN, '--screen-reader', '--watchlist', 'AAPL', '--interval', '1']);
    await run.until((t) => /\r\nalert: IBM at [^\r\n]+ from the price when set\r\n/.test(t), 'the alert said on a line of its own', 30_000);
    run.send('q');
    expect(await run.exited).toBe(0);
  }, 60_000);

  it('reads the selected price every N seconds when the config asks, and on a dumb terminal sends no control sequence at all, an alert\'s included', async () => {
    const home = pty.home();
    const added = await runChild(process.execPath, [BIN, 'alerts', 'add', 'IBM', 'move', '0.0001', '--from', 'set', '--once'], { env: { ...process.env, ...pty.env() }, timeoutMs: 20_000 });
    expect(added.code, added.stderr).toBe(0);
    mkdirSync(join(home, 'config', 'tickbook'), { recursive: true });
    writeFileSync(join(home, 'config', 'tickbook', 'config.json'), JSON.stringify({ screen_reader: true, read_prices_every: 1 }), { mode: 0o600 });
    const run = pty.start(['env', 'TERM=dumb', process.execPath, BIN, '--watchlist', 'AAPL', '--interval', '1']);
    await run.until((t) => (t.match(/\r\nAAPL, (Apple Inc\., )?\d+ dollars[^\r\n]*\r\n/g) ?? []).length >= 2, 'two prices read unasked', 30_000);
    await run.until((t) => /\nalert: IBM at [^\r\n]+\r\n/.test(t), 'the alert said', 30_000);
    run.send('q');
    expect(await run.exited).toBe(0);
    expect(run.bytes()).not.toContain(ESC);
  }, 60_000);
});
