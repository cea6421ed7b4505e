// ink-text-input, wrapped: focus is always said out loud (it defaults to true), pasted control
// characters never reach the value or the screen, and Ctrl and Alt chords never type their letter
// (Ctrl-U and Ctrl-W edit the field through the keymap instead).
import { useInput } from 'ink';
import TextInput from 'ink-text-input';
import { createContext, useContext, useEffect, useRef, useState } from 'react';
import { sanitize } from '../../text/sanitize.js';

export interface TextFieldProps {
  value: string;
  onChange: (value: string) => void;
  focus: boolean;
  placeholder?: string;
}

/**
 * Whether a focused text field is taking keys yet. Its input handler is subscribed in an effect,
 * a moment after the field is drawn; keys that arrive before that (typed straight after the key
 * that opened the field) are fed to the field by the key router instead of being lost.
 */
export const FieldListening = createContext<{ current: boolean }>({ current: false });

/** The value after Ctrl-W: the last word and the spaces before it gone. */
export const deleteLastWord = (value: string): string => value.replace(/\S*\s*$/, '');

/** Applies a chunk of typed keys (typed faster than they were read) to a value, as editing would. */
export function applyTyped(value: string, chunk: string): string {
  let next = value;
  for (const char of chunk) {
    if (char === '\r' || char === '\n') break; // Enter: the router submits.
    if (char === '\u0015') next = '';
    else if (char === '\u0017') next = deleteLastWord(next);
    else if (char === '\u007f' || char === '\b') next = [...next].slice(0, -1).join('');
    // Other control characters, escapes and bidi overrides never reach a value.
    else if (sanitize(char) === char) next += char;
  }
  return next;
}

/**
 * Sees each key before ink-text-input does (its effect runs first, as an earlier sibling), so the
 * letter ink-text-input would insert for a Ctrl or Alt chord is dropped. Keys that arrive
 * together with control keys among them are applied here one by one.
 */
function ChordGuard(props: {
  focus: boolean;
  value: string;
  onChange: (v: string) => void;
  swallow: { current: boolean };
  redraw: () => void;
}) {
  // ink-text-input keeps its own cursor and moves it for the key it was told to drop: after an
  // edit made here, the field is drawn afresh, with its cursor at the end of the new value.
  const edit = (next: string): void => {
    props.onChange(next);
    props.redraw();
  };
  const listening = useContext(FieldListening);
  useInput(
    (input, key) => {
      // Every listener of this key runs before the microtask: the flag never outlives the key.
      queueMicrotask(() => {
        props.swallow.current = false;
      });
      // eslint-disable-next-line no-control-regex
      if (input.length > 1 && /[\u0000-\u001f\u007f]/.test(input) && !input.startsWith('\u001b')) {
        props.swallow.current = true;
        edit(applyTyped(props.value, input));
        return;
      }
      if (!(key.ctrl || key.meta) || key.escape || key.return || key.tab) return;
      if (key.ctrl && input === 'c') return;
      props.swallow.current = true;
      // Ctrl-U and Ctrl-W are the keymap's: the router edits the value; the field is drawn
      // afresh, its cursor at the end of what is left.
      if (key.ctrl && (input === 'u' || input === 'w')) props.redraw();
    },
    { isActive: props.focus },
  );
  // After useInput's own effect: once this runs, the field's handlers are subscribed.
  useEffect(() => {
    if (!props.focus) return undefined;
    listening.current = true;
    return () => {
      listening.current = false;
    };
  }, [props.focus, listening]);
  return null;
}

/**
 * ink-text-input counts its cursor in UTF-16 units, so it can stop inside an emoji. Text typed
 * there goes after the emoji instead; what a Backspace leaves of one goes too.
 */
function wholeCharacters(text: string): string {
  return text
    .replace(/([\ud800-\udbff])([^\udc00-\udfff]+)([\udc00-\udfff])/g, '$1$3$2')
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '');
}

export function TextField({ value, onChange, focus, placeholder }: TextFieldProps) {
  const swallow = useRef(false);
  // Bumped to draw ink-text-input afresh: a new one puts its cursor at the end of the value.
  const [generation, setGeneration] = useState(0);
  const redraw = () => setGeneration((g) => g + 1);
  return (
    <>
      <ChordGuard focus={focus} value={value} onChange={onChange} swallow={swallow} redraw={redraw} />
      <TextInput
        key={generation}
        value={value}
        onChange={(next) => {
          if (swallow.current) {
            swallow.current = false;
            return;
          }
          const clean = sanitize(next);
          const whole = wholeCharacters(clean);
          onChange(whole);
          // Its cursor is a unit or more off now.
          if (whole !== clean) redraw();
        }}
        focus={focus}
        showCursor={focus}
        {...(placeholder !== undefined && { placeholder })}
      />
    </>
  );
}
