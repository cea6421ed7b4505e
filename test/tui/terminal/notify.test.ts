import { describe, expect, it } from 'vitest';
import { alertBytes, notificationSequence, notificationText, tmuxPassthrough, clipboardSequence } from '../../../src/tui/terminal/notify.js';

const ESC = '\u001b';
const BEL = '\u0007';

describe('desktop notifications by the terminal\'s own means', () => {
  it('OSC 9 by default, its text one line without controls', () => {
    expect(notificationSequence('tickbook alert', 'AAPL at 201.00 crossed above 200.00', { TERM: 'xterm-256color' })).toBe(
      `${ESC}]9;tickbook alert: AAPL at 201.00 crossed above 200.00${BEL}`,
    );
    expect(notificationText('a\nb\u0007c\u001b[31m')).toBe('a b c [31m');
  });

  it('never starts OSC 9 text with "digit;", which some terminals read as progress', () => {
    expect(notificationText('4;2 is not progress')).toBe('tickbook: 4;2 is not progress');
    expect(notificationSequence('7203.T', 'x', {})).toBe(`${ESC}]9;7203.T: x${BEL}`);
  });

  it('OSC 99 in kitty, OSC 777 in foot and rxvt', () => {
    expect(notificationSequence('t', 'b', { KITTY_WINDOW_ID: '1' })).toBe(`${ESC}]99;i=tickbook:d=0;t${ESC}\\${ESC}]99;i=tickbook:d=1:p=body;b${ESC}\\`);
    expect(notificationSequence('a;b', 'c', { TERM: 'foot' })).toBe(`${ESC}]777;notify;a,b;c${BEL}`);
    expect(notificationSequence('t', 'b', { TERM: 'rxvt-unicode-256color' })).toBe(`${ESC}]777;notify;t;b${BEL}`);
  });

  it('wrapped for tmux\'s passthrough inside tmux, every ESC doubled', () => {
    expect(notificationSequence('t', 'b', { TMUX: '/tmp/tmux-0/default,1,0' })).toBe(`${ESC}Ptmux;${ESC}${ESC}]9;t: b${BEL}${ESC}\\`);
    expect(tmuxPassthrough(`${ESC}]9;x${BEL}`)).toBe(`${ESC}Ptmux;${ESC}${ESC}]9;x${BEL}${ESC}\\`);
  });

  it('the bell and the notification, each only when on', () => {
    expect(alertBytes('t', 'b', {}, { bell: true, notify: true })).toBe(`${BEL}${ESC}]9;t: b${BEL}`);
    expect(alertBytes('t', 'b', {}, { bell: false, notify: true })).toBe(`${ESC}]9;t: b${BEL}`);
    expect(alertBytes('t', 'b', {}, { bell: true, notify: false })).toBe(BEL);
    expect(alertBytes('t', 'b', {}, { bell: false, notify: false })).toBe('');
  });
});

describe('clipboardSequence', () => {
  it('is OSC 52 with the text in base64, and inside tmux sent as it is and wrapped for passthrough', () => {
    const plain = '\u001b]52;c;KzQ0MjA3OTQ2MDk1OA==\u0007';
    expect(clipboardSequence('+442079460958', {})).toBe(plain);
    expect(clipboardSequence('+442079460958', { TMUX: '/tmp/tmux-0/default,1,0' })).toBe(`${plain}\u001bPtmux;\u001b\u001b]52;c;KzQ0MjA3OTQ2MDk1OA==\u0007\u001b\\`);
    // UTF-8, whatever the text: a name with accents and an emoji comes back whole.
    const sent = /52;c;([^\u0007]+)/.exec(clipboardSequence('José 🏄', {}))![1]!;
    expect(Buffer.from(sent, 'base64').toString('utf8')).toBe('José 🏄');
  });

  it('copies what is shown: no escape sequence, control character or line break of a server’s text reaches the clipboard', () => {
    const copied = (text: string) => Buffer.from(/52;c;([^\u0007]*)/.exec(clipboardSequence(text, {}))![1]!, 'base64').toString('utf8');
    // The end of bash's bracketed paste, then a line break: pasted, the rest would run.
    expect(copied('evil\u001b[201~\ntouch /tmp/pwned')).toBe('evil touch /tmp/pwned');
    expect(copied('a\u009b201~b')).toBe('ab');
    expect(copied('a\u001b]52;c;aGk=\u0007b')).toBe('ab');
    expect(copied('one\r\ntwo\u2028three\u0000four\u007f')).toBe('one  two three four ');
    expect(copied('+44\u202e1234')).toBe('+44 1234');
    // Invisible characters the status line does not show either: direction marks, a ZWSP, a word
    // joiner, a BOM, tags; what a visible character carries stays (an emoji's ZWJ, a ZWNJ).
    expect(copied('ad\u200Fmin\u200B\u2060\u{E0041}x\u061C\uFEFF\u200E')).toBe('adminx');
    expect(copied('family 👨\u200D👩\u200D👧')).toBe('family 👨\u200D👩\u200D👧');
    expect(copied('می\u200Cخواهم')).toBe('می\u200Cخواهم');
    for (const text of ['x\u001b[201~\ny', '\u0085\u008d\u0090\u009c\u009d', 'a\tb\u000bc']) {
      expect(copied(text)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
    }
  });
});
