// What terminals send, cut into key sequences and put in the form Ink names safely: known keys
// in every encoding terminals use (legacy, xterm modifiers, kitty, modifyOtherKeys), and every
// other sequence dropped, never handed to Ink's parser (which crashed on several).
import { describe, expect, it } from 'vitest';
import { canonicalKey, splitInput } from '../../../src/tui/keys/terminal-input.js';

const ESC = '\u001b';
const keys = (text: string): (string | undefined)[] => splitInput(text).pieces.map(canonicalKey);

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

describe('canonicalKey', () => {
  it.each([
    ['Up', `${ESC}[A`, `${ESC}[A`],
    ['Up (application mode)', `${ESC}OA`, `${ESC}[A`],
    ['Ctrl-Right', `${ESC}[1;5C`, `${ESC}[1;5C`],
    ['Alt-Up (ESC ESC form)', `${ESC}${ESC}[A`, `${ESC}[1;3A`],
    ['Home (rxvt)', `${ESC}[7~`, `${ESC}[1~`],
    ['End (SS3)', `${ESC}OF`, `${ESC}[F`],
    ['PgDn', `${ESC}[6~`, `${ESC}[6~`],
    ['Ctrl-PgUp', `${ESC}[5;5~`, `${ESC}[5;5~`],
    ['Delete (as Ctrl-D: Ink names Backspace and Delete alike)', `${ESC}[3~`, '\u0004'],
    ['Shift-Delete', `${ESC}[3;2~`, `${ESC}[3;2~`],
    ['Shift-Tab', `${ESC}[Z`, `${ESC}[Z`],
    ['keypad Enter (application mode)', `${ESC}OM`, '\r'],
    ['keypad 7 (application mode)', `${ESC}Ow`, '7'],
    ['kitty a', `${ESC}[97u`, 'a'],
    ['kitty Shift-a', `${ESC}[97;2u`, 'A'],
    ['kitty Shift-1 with its shifted key', `${ESC}[49:33;2u`, '!'],
    ['kitty text field', `${ESC}[97;2;65u`, 'A'],
    ['kitty Ctrl-c', `${ESC}[99;5u`, '\u0003'],
    ['kitty Esc', `${ESC}[27u`, `${ESC}[27u`],
    ['kitty Alt-Esc', `${ESC}[27;3u`, `${ESC}[27;3u`],
    ['kitty Enter', `${ESC}[13u`, '\r'],
    ['kitty Shift-Tab', `${ESC}[9;2u`, `${ESC}[Z`],
    ['kitty Backspace', `${ESC}[127u`, '\u007f'],
    ['kitty keypad 5', `${ESC}[57404u`, '5'],
    ['kitty keypad Enter', `${ESC}[57414u`, '\r'],
    ['kitty Up with an event type', `${ESC}[1;1:1A`, `${ESC}[A`],
    ['modifyOtherKeys Ctrl-u', `${ESC}[27;5;117~`, '\u0015'],
    ['modifyOtherKeys Shift-j', `${ESC}[27;2;106~`, 'J'],
    ['Alt-x', `${ESC}x`, `${ESC}x`],
    ['Alt-Backspace', `${ESC}\u007f`, `${ESC}\u007f`],
    ['Esc (as kitty sends it: Ink 8 holds a lone ESC 20 ms)', ESC, `${ESC}[27u`],
    ['Alt-Esc', `${ESC}${ESC}`, `${ESC}[27;3u`],
    ['Ctrl-A', '\u0001', '\u0001'],
    ['Backspace (Ctrl-H)', '\b', '\b'],
    ['text', 'héllo 📚', 'héllo 📚'],
    ['text with C1 controls', 'a\u009bb\u0085', 'ab'],
  ])('%s → the key Ink knows', (_name, sent, expected) => {
    expect(canonicalKey(sent)).toBe(expected);
  });

  it.each([
    // The crashes of issue 9: a modifier on a key Ink has no name for.
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
    ['kitty key release', `${ESC}[97;1:3u`],
    ['kitty Left Shift alone', `${ESC}[57441;2u`],
    ['kitty media play', `${ESC}[57428u`],
    ['kitty Super-a', `${ESC}[97;9u`],
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
  ])('%s → ignored', (_name, sent) => {
    expect(canonicalKey(sent)).toBeUndefined();
  });

  it('passes text with the sequences of a read dropped, in order', () => {
    expect(keys(`j${ESC}[1;5Pk${ESC}[31ml`)).toEqual(['j', undefined, 'k', undefined, 'l']);
  });
});
