// ink-text-input, wrapped: focus is always said out loud (it defaults to true), pasted control
// characters never reach the value or the screen, and the line-editing keys people expect work
// (Ctrl-U clears, Ctrl-W deletes a word) instead of typing their letter.
import { useInput } from 'ink';
import TextInput from 'ink-text-input';
import { createContext, useContext, useEffect, useRef } from 'react';
import { sanitize } from '../../text/sanitize.js';
import { isSequenceTail } from '../keys/key-name.js';

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
    else if (!/[\u0000-\u001f]/.test(char)) next += char;
  }
  return next;
}

/**
 * Sees each key before ink-text-input does (its effect runs first, as an earlier sibling), so a
 * Ctrl or Alt chord can be acted on and the letter ink-text-input would insert for it dropped.
 * Keys that arrive together with control keys among them are applied here one by one.
 */
function ChordGuard(props: { focus: boolean; value: string; onChange: (v: string) => void; swallow: { current: boolean } }) {
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
        props.onChange(applyTyped(props.value, input));
        return;
      }
      if (isSequenceTail(input)) {
        // An unknown key's sequence, not text to insert.
        props.swallow.current = true;
        return;
      }
      if (!(key.ctrl || key.meta) || key.escape || key.return || key.tab) return;
      if (key.ctrl && input === 'c') return;
      props.swallow.current = true;
      if (key.ctrl && input === 'u') props.onChange('');
      else if (key.ctrl && input === 'w') props.onChange(deleteLastWord(props.value));
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

export function TextField({ value, onChange, focus, placeholder }: TextFieldProps) {
  const swallow = useRef(false);
  return (
    <>
      <ChordGuard focus={focus} value={value} onChange={onChange} swallow={swallow} />
      <TextInput
        value={value}
        onChange={(next) => {
          if (swallow.current) {
            swallow.current = false;
            return;
          }
          onChange(sanitize(next));
        }}
        focus={focus}
        showCursor={focus}
        {...(placeholder !== undefined && { placeholder })}
      />
    </>
  );
}
