// Themes in a real terminal: tmux answers the dashboard's background question (OSC 11) with its
// window style's background, so `--theme auto` is seen choosing light on white and dark
// otherwise; `--theme light` is asked for outright; a theme that is not one is refused.
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, hasTmux, startTmux, type TmuxSession, setUpE2eHome, tmux } from '../helpers/tmux.js';

// The focused pane's border: light's #005f87 as Ink sends it to a 256-colour terminal
// (ansi-styles' rounding into the 6x6x6 cube: 31); dark's the terminal's own cyan (36).
const LIGHT_FOCUS = /\u001b\[(?:[0-9;]*;)?38;5;31m[┏━┃]/;
const DARK_FOCUS = /\u001b\[(?:[0-9;]*;)?36m[┏━┃]/;

describe.skipIf(!hasTmux())('themes in tmux', () => {
  const ctx = setUpE2eHome('tickbook-themes-e2e-');
  let session: TmuxSession | undefined;
  afterEach(() => {
    session?.kill();
    session = undefined;
  });
  const attributes = (s: TmuxSession): string => tmux(['capture-pane', '-p', '-e', '-t', s.name]);
  /** The dashboard, started once tmux has been given the pane's background. */
  const start = (background: string | undefined, extra: string[] = []) => {
    const s = (session = startTmux(['sh', '-c', 'sleep 0.5; exec "$@"', 'sh', process.execPath, BIN, '--watchlist', 'AAPL', ...extra], { ...ctx.env, TERM: 'xterm-256color' }));
    if (background) tmux(['set-option', '-w', '-t', s.name, 'window-style', `bg=${background}`]);
    return s;
  };
  const drawn = (s: TmuxSession) => s.waitFor((t) => /Contacts/.test(t) && /AAPL\s+\d+\.\d{2}/.test(t), 'the dashboard');

  it('auto: light on a white background, dark on a black one', async () => {
    let s = start('#ffffff');
    await drawn(s);
    await s.waitFor(() => LIGHT_FOCUS.test(attributes(s)), 'the light theme');
    expect(attributes(s)).not.toMatch(DARK_FOCUS);
    s.keys('q');
    await s.waitFor((t) => /\[exited 0\]/.test(t), 'a clean exit');
    s.kill();

    s = start('#000000');
    await drawn(s);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(attributes(s)).toMatch(DARK_FOCUS);
    expect(attributes(s)).not.toMatch(LIGHT_FOCUS);
    s.keys('q');
    await s.waitFor((t) => /\[exited 0\]/.test(t), 'a clean exit');
  }, 60_000);

  it('--theme light on a black background: light as asked; --theme mono: no colour; --theme neon: exit 2 naming the themes', async () => {
    let s = start('#000000', ['--theme', 'light']);
    await drawn(s);
    await s.waitFor(() => LIGHT_FOCUS.test(attributes(s)), 'the light theme');
    s.keys('q');
    await s.waitFor((t) => /\[exited 0\]/.test(t), 'a clean exit');
    s.kill();

    s = start(undefined, ['--theme', 'mono']);
    await drawn(s);
    expect(attributes(s)).not.toMatch(/\u001b\[[0-9;]*(?:3[0-8]|9[0-7])(?:;[0-9;]*)?m/);
    s.keys('q');
    await s.waitFor((t) => /\[exited 0\]/.test(t), 'a clean exit');
    s.kill();

    s = start(undefined, ['--theme', 'neon']);
    await s.waitFor((t) => /\[exited 2\]/.test(t), 'a usage error');
    expect(s.screen()).toMatch(/option --theme must be one of auto, dark, light, mono, not "neon"/);
  }, 60_000);
});
