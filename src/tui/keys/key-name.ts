// One name per key press, so bindings are data: "j", "G", "up", "pagedown", "shift-tab", "ctrl-c".
import type { Key } from 'ink';

const CONTROL_NAMES: Record<string, string> = { '\r': 'enter', '\n': 'enter', '\t': 'tab', '\u007f': 'backspace', ' ': 'space' };

/**
 * The names of the keys in one input event. Keys typed faster than the app reads them (or held
 * down) arrive together as "jjj": each is a press of its own.
 */
export function keyNames(input: string, key: Key): string[] {
  if (key.ctrl && input) return [`ctrl-${input.toLowerCase()}`];
  if (key.tab) return [key.shift ? 'shift-tab' : 'tab'];
  if (key.upArrow) return ['up'];
  if (key.downArrow) return ['down'];
  if (key.leftArrow) return ['left'];
  if (key.rightArrow) return ['right'];
  if (key.pageUp) return ['pageup'];
  if (key.pageDown) return ['pagedown'];
  if (key.home) return ['home'];
  if (key.end) return ['end'];
  if (key.return) return ['enter'];
  if (key.escape) return ['esc'];
  if (key.backspace || key.delete) return ['backspace'];
  // Alt with a letter (ESC then the letter): line editing's Alt-B and Alt-F.
  if (key.meta && /^[a-z]$/i.test(input)) return [`alt-${input.toLowerCase()}`];
  if (key.meta) return [];
  // A key sequence reaches here only as a key Ink names (the paced input sends nothing else),
  // so what is left is text, whatever it looks like ("Ol", "[x" typed fast or pasted).
  if (/\u001b/.test(input)) return [];
  return [...input].map((char) => CONTROL_NAMES[char] ?? char);
}

