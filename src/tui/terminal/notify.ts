// What a terminal is sent to ring its bell and show a desktop notification for a fired alert, by
// its own means: OSC 9 by default, OSC 99 in kitty, OSC 777 where that is the terminal's way,
// each wrapped for tmux's passthrough inside tmux. Pure: the environment in, the bytes out.
import { shownText } from '../../text/sanitize.js';

type Env = Readonly<Record<string, string | undefined>>;

const ESC = '\u001b';
const BEL = '\u0007';
const ST = `${ESC}\\`;

/** Terminals that take OSC 777's notify (rxvt-unicode and its kin; foot; Ghostty reads 9 and 777). */
const OSC_777_TERMINALS: ReadonlySet<string> = new Set(['foot', 'rxvt', 'urxvt']);

/** Text a notification may carry: one line, no controls (it travels inside an escape sequence). */
export function notificationText(text: string): string {
  const line = text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  // OSC 9 text that starts "digit;" is read as a progress report by some terminals (ConEmu, Windows Terminal).
  return /^[0-9]+;/.test(line) ? `tickbook: ${line}` : line;
}

/** The escape sequence that shows `title` and `body` as a desktop notification here. */
export function notificationSequence(title: string, body: string, env: Env): string {
  const text = notificationText(`${title}: ${body}`);
  const term = (env.TERM ?? '').toLowerCase();
  let sequence: string;
  if (env.KITTY_WINDOW_ID !== undefined || term === 'xterm-kitty') {
    // kitty's own protocol: the title, then the body, one notification (d=0 then d=1).
    sequence = `${ESC}]99;i=tickbook:d=0;${notificationText(title)}${ST}${ESC}]99;i=tickbook:d=1:p=body;${notificationText(body)}${ST}`;
  } else if ([...OSC_777_TERMINALS].some((name) => term.startsWith(name)) || env.TERM_PROGRAM === 'foot') {
    sequence = `${ESC}]777;notify;${notificationText(title).replaceAll(';', ',')};${notificationText(body)}${BEL}`;
  } else {
    sequence = `${ESC}]9;${text}${BEL}`;
  }
  return env.TMUX ? tmuxPassthrough(sequence) : sequence;
}

/** tmux hands a sequence to the terminal outside it when wrapped so (and allow-passthrough is on). */
export const tmuxPassthrough = (sequence: string): string => `${ESC}Ptmux;${sequence.replaceAll(ESC, `${ESC}${ESC}`)}${ST}`;

/** What an alert sends: the bell, and a notification unless they are turned off. */
export function alertBytes(title: string, body: string, env: Env, channels: { bell: boolean; notify: boolean }): string {
  return `${channels.bell ? BEL : ''}${channels.notify ? notificationSequence(title, body, env) : ''}`;
}

/**
 * What is copied of a server's text: what the dashboard shows of it, one line with no controls,
 * escape sequences or invisible characters (shownText). A username holding `ESC[201~` and a line
 * break, pasted into bash, ended its bracketed paste early and ran the rest as a command.
 */
export const clipboardText = (text: string): string => shownText(text);

/**
 * What puts `text` on the system clipboard by the terminal's own means: OSC 52, which works over
 * SSH. Inside tmux it is sent both as it is (tmux takes it with `set-clipboard on` and passes it
 * on) and wrapped for passthrough (with `allow-passthrough on`): either setting is enough. The
 * text is clipboardText's, whoever calls.
 */
export function clipboardSequence(text: string, env: Env): string {
  const sequence = `${ESC}]52;c;${Buffer.from(clipboardText(text), 'utf8').toString('base64')}${BEL}`;
  return env.TMUX ? `${sequence}${tmuxPassthrough(sequence)}` : sequence;
}
