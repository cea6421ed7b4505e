// ink-text-input, wrapped: focus is always said out loud (it defaults to true), pasted control
// characters never reach the value or the screen, and the line-editing keys people expect work
// (Ctrl-U clears, Ctrl-W deletes a word) instead of typing their letter.
import { useInput } from 'ink';
import TextInput from 'ink-text-input';
import { useRef } from 'react';
import { sanitize } from '../../text/sanitize.js';

export interface TextFieldProps {
  value: string;
  onChange: (value: string) => void;
  focus: boolean;
  placeholder?: string;
}

/** The value after Ctrl-W: the last word and the spaces before it gone. */
export const deleteLastWord = (value: string): string => value.replace(/\S*\s*$/, '');

/**
 * Sees each key before ink-text-input does (its effect runs first, as an earlier sibling), so a
 * Ctrl or Alt chord can be acted on and the letter ink-text-input would insert for it dropped.
 */
function ChordGuard(props: { focus: boolean; value: string; onChange: (v: string) => void; swallow: { current: boolean } }) {
  useInput(
    (input, key) => {
      if (!(key.ctrl || key.meta) || key.escape || key.return || key.tab) return;
      if (key.ctrl && input === 'c') return;
      props.swallow.current = true;
      if (key.ctrl && input === 'u') props.onChange('');
      else if (key.ctrl && input === 'w') props.onChange(deleteLastWord(props.value));
    },
    { isActive: props.focus },
  );
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
