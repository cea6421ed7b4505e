// In a real terminal, pastes are text: bracketed paste is on while the dashboard runs, a paste
// into a field is one line of text (its line breaks spaces, never Enter), and a paste with no
// field open is ignored and said so, never run as keys. And a field's keys act at its cursor.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, hasTmux, startTmux, setUpE2eHome } from '../helpers/tmux.js';

interface Listed {
  id: string;
  username: string;
  display_name: string | null;
}

describe.skipIf(!hasTmux())('the dashboard in tmux: fields and pastes', () => {
  const ctx = setUpE2eHome('tickbook-e2e-paste-');

  const contacts = (): Listed[] =>
    JSON.parse(
      execFileSync(process.execPath, [BIN, 'contacts', 'list', '--all', '--limit', '100', '--json'], { env: { ...process.env, ...ctx.env }, encoding: 'utf8' }),
    ).data;

  it('"dy" pasted with no field open deletes nothing; a paste with line breaks into rename is one line, then saved', async () => {
    const s = (ctx.session = startTmux([process.execPath, BIN], ctx.env, 120, 40));
    await s.waitFor((t) => /page 1/.test(t), 'the first page');
    const before = contacts();

    s.paste('dy');
    let screen = await s.waitFor((t) => /paste ignored: no field is open to paste into/.test(t), 'the notice');
    expect(screen).not.toMatch(/y: delete|deleted /);

    s.keys('e');
    await s.waitFor((t) => /✎/.test(t), 'the rename field');
    // A marker shows the field holds what it is given; Ctrl-U then clears it, name and marker.
    await s.typeUntil('#', (t) => /✎ .*#/.test(t), 'the field taking keys');
    s.keys('C-u');
    await s.waitFor((t) => /✎/.test(t) && !/✎ .*#/.test(t), 'the field cleared');
    // What a careless copy brings along: a line break in the middle, one at the end, a tab.
    s.paste('Pasted\nName\tdy\n');
    screen = await s.waitFor((t) => /✎ Pasted Name dy/.test(t), 'the pasted name, on one line');
    // Still editing: the line breaks were not Enter.
    expect(screen).not.toMatch(/renamed to/);
    s.keys('Enter');
    await s.waitFor((t) => /renamed to Pasted Name dy/.test(t), 'the rename confirmed');
    s.keys('q');
    await s.waitFor((t) => /\[exited 0\]/.test(t), 'the exit');

    const after = contacts();
    expect(after.map((c) => c.id)).toEqual(before.map((c) => c.id));
    expect(after.filter((c) => c.display_name === 'Pasted Name dy')).toHaveLength(1);
  }, 90_000);

  it('Home, End, Delete, Ctrl-A, Ctrl-E, Ctrl-K and Alt-B act at the cursor of the filter field', async () => {
    const s = (ctx.session = startTmux([process.execPath, BIN], ctx.env, 120, 40));
    await s.waitFor((t) => /page 1/.test(t), 'the first page');
    s.keys('f');
    await s.waitFor((t) => /Enter keep filter/.test(t), 'the filter field');
    await s.typeUntil('a', (t) => /\/ a/.test(t), 'the field taking keys');
    s.type('bc def');
    await s.waitFor((t) => /\/ abc def/.test(t), 'the typed text');
    const field = async (text: string, what: string) => s.waitFor((t) => t.includes(`/ ${text} `), what);
    s.keys('Home');
    s.type('X');
    await field('Xabc def', 'X at the start');
    s.keys('End');
    s.type('Y');
    await field('Xabc defY', 'Y at the end');
    s.keys('C-a', 'DC');
    await field('abc defY', 'Delete at the start');
    s.keys('C-e', 'M-b', 'C-k');
    await field('abc', 'Ctrl-K from the last word');
    // A paste far longer than any field: cut, and said so, and the dashboard keeps up.
    s.keys('Escape');
    await s.waitFor((t) => !/Enter keep filter/.test(t), 'the field closed');
    s.keys('f');
    await s.waitFor((t) => /Enter keep filter/.test(t), 'the filter field again');
    await s.typeUntil('a', (t) => /\/ a/.test(t), 'the field taking keys again');
    s.paste('z'.repeat(5000));
    await s.waitFor((t) => /paste cut to its first 4096 characters/.test(t), 'the notice');
    // Esc and q apart: sent in one read they are Alt-q.
    s.keys('Escape');
    await s.waitFor((t) => !/Enter keep filter/.test(t), 'the field closed');
    s.keys('q');
    await s.waitFor((t) => /\[exited 0\]/.test(t), 'the exit');
  }, 90_000);
});
