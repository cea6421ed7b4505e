// ink-text-input, wrapped: focus is always said out loud (it defaults to true), and pasted
// control characters never reach the value or the screen.
import TextInput from 'ink-text-input';
import { sanitize } from '../../text/sanitize.js';

export interface TextFieldProps {
  value: string;
  onChange: (value: string) => void;
  focus: boolean;
  placeholder?: string;
}

export function TextField({ value, onChange, focus, placeholder }: TextFieldProps) {
  return (
    <TextInput
      value={value}
      onChange={(next) => onChange(sanitize(next))}
      focus={focus}
      showCursor={focus}
      {...(placeholder !== undefined && { placeholder })}
    />
  );
}
