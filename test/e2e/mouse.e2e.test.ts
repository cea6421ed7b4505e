// The mouse in a real terminal: bin/tickbook in tmux, reports typed into the pane as xterm sends
// them (SGR form), and tmux's own record of the modes the program asked for: reporting on while
// the dashboard runs, off after O, on Ctrl-Z (in a shell with job control) and on quitting, on
// again after fg; "mouse": false in the config starts it off.
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, hasTmux, startTmux, type TmuxSession, setUpE2eHome } from '../helpers/tmux.js';

const click = (column: number, row: number) => `\u001b[<0;${column + 1};${row + 1}M\u001b[<0;${column + 1};${row + 1}m`;
const wheelDown = (column: number, row: number) => `\u001b[<65;${column + 1};${row + 1}M`;
const wheelUp = (column: number, row: number) => `\u001b[<64;${column + 1};${row + 1}M`;

/** Waits until tmux says the pane's terminal reports the mouse (or not). */
async function mouseIs(s: TmuxSession, on: boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (s.mouse().reporting !== on || s.mouse().sgr !== on) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for mouse reporting ${on ? 'on' : 'off'} (${what}); the screen:\n${s.screen()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!hasTmux())('the mouse in a real terminal', () => {
  const ctx = setUpE2eHome('tickbook-mouse-');

  it('clicks focus and select, a double-click opens the chart, the wheel steps its span; O turns reporting off and saves it; q leaves it off', async () => {
    const s = (ctx.session = startTmux(['node', BIN, '--watchlist', 'AAPL,MSFT,NVDA'], ctx.env));
    await s.waitFor((t) => /page 1/.test(t) && /NVDA +\d/.test(t), 'the first page and prices', 30_000);
    await mouseIs(s, true, 'at the start');

    // At 120×40 the ticker pane is columns 60-119; its first symbol is on row 3. Clicks on NVDA.
    s.type(click(70, 4));
    await s.waitFor((t) => /▸ Ticker/.test(t), 'the ticker focused');
    await s.waitFor(() => /\u001b\[7m *MSFT /.test(s.styled()), 'MSFT highlighted');
    // Both presses of the double-click in one write: two writes may be further apart than one.
    s.type(click(70, 5) + click(70, 5));
    await s.waitFor((t) => /NVDA · /.test(t) && /h\/l or 1-5: span/.test(t), 'the chart of NVDA (a double-click)');
    // The span shown in inverse video; the wheel steps it (down: longer, up: shorter).
    const span = () => /\u001b\[7m *(1h|1d|5d|1m|all) *\u001b/.exec(s.styled())?.[1];
    const before = span();
    expect(before).toBeDefined();
    const [there, back] = before === 'all' ? [wheelUp, wheelDown] : [wheelDown, wheelUp];
    s.type(there(50, 20));
    await s.waitFor(() => span() !== undefined && span() !== before, `the span stepped from ${before}`);
    s.type(back(50, 20));
    await s.waitFor(() => span() === before, `the span back to ${before}`);
    s.keys('Escape');
    await s.waitFor((t) => /▸ Ticker/.test(t), 'the panes again');

    s.keys('O');
    await s.waitFor((t) => /mouse off: the terminal selects text again/.test(t), 'the notice');
    await mouseIs(s, false, 'after O');
    expect(JSON.parse(readFileSync(join(ctx.home, 'config', 'tickbook', 'config.json'), 'utf8'))).toMatchObject({ mouse: false });
    s.keys('O');
    await mouseIs(s, true, 'after O again');
    s.keys('q');
    await s.waitFor((t) => /\[exited 0\]/.test(t), 'the exit');
    await mouseIs(s, false, 'after q');
  }, 90_000);

  it('Ctrl-Z gives the shell a terminal without reporting; fg asks for it again', async () => {
    const s = (ctx.session = startTmux(['bash', '--norc', '--noprofile', '-i'], { ...ctx.env, PS1: 'shell$ ' }));
    await s.waitFor((t) => /^shell\$ *$/m.test(t), 'the shell prompt');
    s.type(`node ${BIN}`);
    s.keys('Enter');
    await s.waitFor((t) => /page 1/.test(t), 'the first page', 30_000);
    await mouseIs(s, true, 'running');
    s.keys('C-z');
    await s.waitFor((t) => /Stopped/.test(t) && /^shell\$ *$/m.test(t), 'the job stopped and the prompt back');
    await mouseIs(s, false, 'stopped');
    s.type('fg');
    s.keys('Enter');
    await s.waitFor((t) => /page 1/.test(t), 'the dashboard again');
    await mouseIs(s, true, 'after fg');
    s.keys('q');
    await s.waitFor((t) => t.split('\n').filter((l) => l.trim() !== '').at(-1)?.startsWith('shell$') === true, 'the prompt after q');
    await mouseIs(s, false, 'after q');
  }, 90_000);

  it('doctor, in the terminal: the widths it draws asked and matching, the mouse line; the probe leaves nothing on screen', async () => {
    const s = (ctx.session = startTmux(['node', BIN, 'doctor'], ctx.env));
    const screen = await s.waitFor((t) => /\[exited \d+\]/.test(t), 'doctor done', 30_000);
    expect(screen.split('\n')[0]).toMatch(/^✓ +node /);
    expect(screen).toMatch(/^✓ +widths +every character checked \(\d+, an emoji and a CJK one among them\)/m);
    expect(screen).toMatch(/^✓ +mouse +the dashboard reads clicks and the wheel/m);
    s.kill();
    mkdirSync(join(ctx.home, 'config', 'tickbook'), { recursive: true });
    writeFileSync(join(ctx.home, 'config', 'tickbook', 'config.json'), '{ "mouse": false }\n');
    const off = (ctx.session = startTmux(['node', BIN, 'doctor'], ctx.env));
    const again = await off.waitFor((t) => /\[exited \d+\]/.test(t), 'doctor done', 30_000);
    expect(again).toMatch(/^· +mouse +left to the terminal: off in the config \("mouse": false\) \(O turns it on\)/m);
  }, 90_000);

  it('"mouse": false in the config starts with reporting off, the terminal selecting; O turns it on', async () => {
    mkdirSync(join(ctx.home, 'config', 'tickbook'), { recursive: true });
    writeFileSync(join(ctx.home, 'config', 'tickbook', 'config.json'), '{ "mouse": false }\n');
    const s = (ctx.session = startTmux(['node', BIN], ctx.env));
    await s.waitFor((t) => /page 1/.test(t), 'the first page', 30_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(s.mouse()).toEqual({ reporting: false, sgr: false });
    s.keys('O');
    await mouseIs(s, true, 'after O');
    s.keys('q');
    await s.waitFor((t) => /\[exited 0\]/.test(t), 'the exit');
  }, 90_000);
});
