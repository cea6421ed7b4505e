// What terminals send, cut into key sequences and each named by the name the keymap binds: known
// keys in every encoding terminals use (legacy, xterm modifiers, kitty, modifyOtherKeys) to one
// name, with the text a printable key types, and every other sequence no key at all.
import { describe, expect, it } from 'vitest';
import { type KeyPress, keyPresses, splitInput } from '../../../src/tui/keys/terminal-input.js';

const ESC = '\u001b';
/** A key that types nothing. */
const key = (name: string): KeyPress[] => [{ name }];
/** A key that types `text`, named `name` (a character is named by itself, Space "space"). */
const typed = (text: string, name = text): KeyPress[] => [{ name, text }];

describe('splitInput', () => {
  it('cuts sequences, control keys and text runs apart', () => {
    expect(splitInput(`ab${ESC}[Dcd${ESC}[1;5Cé${ESC}x${ESC}`).pieces).toEqual(['ab', `${ESC}[D`, 'cd', `${ESC}[1;5C`, 'é', `${ESC}x`, ESC]);
    expect(splitInput('e\u0015New name\r').pieces).toEqual(['e', '\u0015', 'New name', '\r']);
    expect(splitInput(`${ESC}${ESC}[A${ESC}OP${ESC}[[A`).pieces).toEqual([`${ESC}${ESC}[A`, `${ESC}OP`, `${ESC}[[A`]);
  });

  it('keeps string controls (OSC, DCS, APC) whole, ended by BEL or ST, so their text is never typed', () => {
    const reply = `${ESC}]11;rgb:0000/0000/0000\u0007`;
    const dcs = `${ESC}P1$r0m${ESC}\\`;
    expect(splitInput(`${reply}j${dcs}k${ESC}_Gi=1;OK${ESC}\\`).pieces).toEqual([reply, 'j', dcs, 'k', `${ESC}_Gi=1;OK${ESC}\\`]);
  });

  it('returns a sequence cut off by the end of a read as the rest, to be joined with the next', () => {
    expect(splitInput(`j${ESC}[1;`)).toEqual({ pieces: ['j'], rest: `${ESC}[1;` });
    expect(splitInput(`${ESC}]11;rgb:00`)).toEqual({ pieces: [], rest: `${ESC}]11;rgb:00` });
    expect(splitInput(`${ESC}O`)).toEqual({ pieces: [], rest: `${ESC}O` });
    // A lone Esc at the end is the Esc key, not a start.
    expect(splitInput(`k${ESC}`)).toEqual({ pieces: ['k', ESC], rest: '' });
  });

  it('treats a control character inside a CSI as the end of a broken sequence', () => {
    expect(splitInput(`${ESC}[12\rj`).pieces).toEqual([`${ESC}[`, '12', '\r', 'j']);
  });
});

describe('keyPresses', () => {
  it.each([
    ['Up', `${ESC}[A`, key('up')],
    ['Up (application mode)', `${ESC}OA`, key('up')],
    // Modifiers on the arrows are not told apart: Ctrl-Right moves as Right does.
    ['Ctrl-Right', `${ESC}[1;5C`, key('right')],
    ['Alt-Up (ESC ESC form)', `${ESC}${ESC}[A`, key('up')],
    ['Home (rxvt)', `${ESC}[7~`, key('home')],
    ['End (SS3)', `${ESC}OF`, key('end')],
    ['PgDn', `${ESC}[6~`, key('pagedown')],
    ['Ctrl-PgUp', `${ESC}[5;5~`, key('pageup')],
    // Forward Delete is its own key, never Backspace, with any modifiers.
    ['Delete', `${ESC}[3~`, key('delete')],
    ['Shift-Delete', `${ESC}[3;2~`, key('delete')],
    ['Shift-Tab', `${ESC}[Z`, key('shift-tab')],
    ['keypad Enter (application mode)', `${ESC}OM`, key('enter')],
    ['keypad 7 (application mode)', `${ESC}Ow`, typed('7')],
    ['kitty a', `${ESC}[97u`, typed('a')],
    ['kitty Shift-a', `${ESC}[97;2u`, typed('A')],
    ['kitty Shift-1 with its shifted key', `${ESC}[49:33;2u`, typed('!')],
    ['kitty text field', `${ESC}[97;2;65u`, typed('A')],
    ['kitty Ctrl-c', `${ESC}[99;5u`, key('ctrl-c')],
    ['kitty Esc', `${ESC}[27u`, key('esc')],
    ['kitty Alt-Esc', `${ESC}[27;3u`, key('esc')],
    ['kitty Enter', `${ESC}[13u`, key('enter')],
    ['kitty Shift-Tab', `${ESC}[9;2u`, key('shift-tab')],
    ['kitty Backspace', `${ESC}[127u`, key('backspace')],
    ['kitty keypad 5', `${ESC}[57404u`, typed('5')],
    ['kitty keypad Enter', `${ESC}[57414u`, key('enter')],
    ['kitty Up with an event type', `${ESC}[1;1:1A`, key('up')],
    ['modifyOtherKeys Ctrl-u', `${ESC}[27;5;117~`, key('ctrl-u')],
    ['modifyOtherKeys Shift-j', `${ESC}[27;2;106~`, typed('J')],
    ['Alt-x', `${ESC}x`, key('alt-x')],
    // Alt with Enter, Backspace or Esc is the key itself.
    ['Alt-Backspace', `${ESC}\u007f`, key('backspace')],
    ['Esc', ESC, key('esc')],
    ['Alt-Esc', `${ESC}${ESC}`, key('esc')],
    ['Ctrl-A', '\u0001', key('ctrl-a')],
    ['Backspace (Ctrl-H)', '\b', key('backspace')],
    // Keys of the names the keymap binds, in the forms not above.
    ['Enter (CR)', '\r', key('enter')],
    ['Enter (LF)', '\n', key('enter')],
    ['Tab', '\t', key('tab')],
    ['Backspace (DEL)', '\u007f', key('backspace')],
    ['Ctrl-Z', '\u001a', key('ctrl-z')],
    ['Space', ' ', typed(' ', 'space')],
    ['Shift-j', 'J', typed('J')],
    ['Home', `${ESC}[H`, key('home')],
    ['Home (CSI 1 ~)', `${ESC}[1~`, key('home')],
    ['End (CSI 4 ~)', `${ESC}[4~`, key('end')],
    ['End (rxvt)', `${ESC}[8~`, key('end')],
    ['PgUp', `${ESC}[5~`, key('pageup')],
    ['Ctrl-Delete', `${ESC}[3;5~`, key('delete')],
    ['Shift-Down (SS3 with a modifier)', `${ESC}O2B`, key('down')],
    ['Alt-Enter', `${ESC}\r`, key('enter')],
    ['Alt-Ctrl-H (Alt-Backspace on some terminals)', `${ESC}\b`, key('backspace')],
    ['Alt-B (Shift held: the same binding)', `${ESC}B`, key('alt-b')],
    ['kitty Alt-f', `${ESC}[102;3u`, key('alt-f')],
    ['kitty Space', `${ESC}[32u`, typed(' ', 'space')],
    ['kitty keypad Delete', `${ESC}[57426u`, key('delete')],
    ['kitty é (text field)', `${ESC}[101;1;233u`, typed('é')],
    ['modifyOtherKeys Ctrl-Shift-w', `${ESC}[27;6;87~`, key('ctrl-w')],
    ['modifyOtherKeys Alt-Enter', `${ESC}[27;3;13~`, key('enter')],
  ])('%s → its key', (_name, sent, expected) => {
    expect(keyPresses(sent)).toEqual(expected);
  });

  it('is a press a character for a run of text, each typing itself; C1 controls are dropped', () => {
    expect(keyPresses('héllo 📚')).toEqual(
      [...'héllo 📚'].map((char) => ({ name: char === ' ' ? 'space' : char, text: char })),
    );
    expect(keyPresses('a\u009bb\u0085')).toEqual([...typed('a'), ...typed('b')]);
    // A letter and its combining mark are two code points, each typed (a field joins them again).
    expect(keyPresses('e\u0301').map((press) => press.text)).toEqual(['e', '\u0301']);
  });

  it.each([
    // The crashes of issue 9: a modifier on a key with no name.
    ['Ctrl-F1', `${ESC}[1;5P`],
    ['Ctrl-F2', `${ESC}[1;5Q`],
    ['Ctrl-F3', `${ESC}[1;5R`],
    ['Ctrl-F4', `${ESC}[1;5S`],
    ['Ctrl-F1 (SS3 with a modifier)', `${ESC}O5P`],
    ['Ctrl-Shift-F1', `${ESC}[1;6P`],
    ['Ctrl-Alt-F2', `${ESC}[1;7Q`],
    ['CSI 1;5G', `${ESC}[1;5G`],
    ['SGR red sent as input', `${ESC}[31m`],
    // Everything else that is no key of ours.
    ['F5', `${ESC}[15~`],
    ['F1 (SS3)', `${ESC}OP`],
    ['Insert', `${ESC}[2~`],
    ['kitty key release', `${ESC}[97;1:3u`],
    ['kitty Left Shift alone', `${ESC}[57441;2u`],
    ['kitty media play', `${ESC}[57428u`],
    ['kitty Super-a', `${ESC}[97;9u`],
    ['kitty Ctrl-Alt-a', `${ESC}[97;7u`],
    ['kitty Ctrl-1', `${ESC}[49;5u`],
    ['kitty Ctrl on keypad 5', `${ESC}[57404;5u`],
    ['kitty code point out of range', `${ESC}[1114112u`],
    ['kitty surrogate', `${ESC}[55296u`],
    ['kitty flags report', `${ESC}[?1u`],
    ['SGR mouse', `${ESC}[<0;10;5M`],
    ['focus in', `${ESC}[I`],
    ['cursor position report', `${ESC}[12;40R`],
    ['device attributes', `${ESC}[?62;22c`],
    ['bracketed paste start', `${ESC}[200~`],
    ['OSC colour report', `${ESC}]11;rgb:0000/0000/0000\u0007`],
    ['DCS', `${ESC}P1$r0m${ESC}\\`],
    ['Linux console F1', `${ESC}[[A`],
    ['Alt-minus (would read as "-")', `${ESC}-`],
    ['Alt-é', `${ESC}é`],
    ['Alt-Ctrl-A', `${ESC}\u0001`],
    ['NUL (Ctrl-Space)', '\u0000'],
    ['Ctrl-\\', '\u001c'],
    ['a lone CSI start', `${ESC}[`],
    ['C1 only', '\u009b'],
    ['nothing', ''],
  ])('%s → no key', (_name, sent) => {
    expect(keyPresses(sent)).toEqual([]);
  });

  it('names the keys of a read with its sequences dropped, in order', () => {
    const pieces = splitInput(`j${ESC}[1;5Pk${ESC}[31ml`).pieces;
    expect(pieces.map((piece) => keyPresses(piece).map((press) => press.name))).toEqual([['j'], [], ['k'], [], ['l']]);
  });
});
