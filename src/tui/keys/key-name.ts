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
  if (key.meta) return [];
  // eslint-disable-next-line no-control-regex
  if (/\u001b/.test(input) || isSequenceTail(input)) return [];
  return [...input].map((char) => CONTROL_NAMES[char] ?? char);
}

/**
 * Ink strips the ESC of key sequences it does not know (Shift-F1 arrives as "[1;2P", F13 as
 * "[25~"); those are keys nobody bound, not text.
 */
export const isSequenceTail = (input: string): boolean => /^(?:\[[0-9;:<=>?]*[ -/]*[@-~]|O[@-~])$/.test(input) && input.length > 1;
