// A small form's fields, one a line: the label, then a text field where the cursor is and the
// value elsewhere; under them one line that says what is wrong, or what is still to be filled
// in, or (only once it can be saved) what the form will do.
import { Box, Text } from 'ink';
import { drawn } from '../../text/sanitize.js';
import { fit, truncate } from '../../text/width.js';
import { useGlyphs } from '../style/glyphs.js';
import { useTheme } from '../style/theme.js';
import type { FormState } from '../state/form.js';
import { Spinner } from './Spinner.js';
import { TextField } from './TextField.js';

export interface FormFieldLine {
  key: string;
  label: string;
  value: string;
  placeholder?: string | undefined;
  maxLength?: number | undefined;
  /** Shown, not edited (an edited alert's symbol). */
  fixed?: boolean | undefined;
}

export interface FormFieldsProps {
  title: string;
  fields: readonly FormFieldLine[];
  focused: string;
  /** Where the cursor is in the focused field (the form's state keeps it). */
  cursor: number;
  saving: boolean;
  /** What the line under the fields says (state/form.ts formState). */
  state: FormState;
  /** What saving would do, said once the form is ready. */
  outcome: string;
  /** Said after the fields still to fill ("needs condition: above 200 · …"). */
  hint?: string | undefined;
  width: number;
}

/** "a", "a and b", "a, b and c". */
const listed = (words: readonly string[]): string => (words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`);

/** Lines a form takes: its title, a line a field, and the line under them. */
export const formHeight = (fields: number): number => fields + 2;

export function FormFields({ title, fields, focused, cursor, saving, state, outcome, hint, width }: FormFieldsProps) {
  const theme = useTheme();
  const glyphs = useGlyphs();
  const label = Math.min(18, Math.max(...fields.map((f) => f.label.length)) + 3);
  const cut = glyphs.ellipsis;
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end" {...(theme.accent && { color: theme.accent })}>
        {fit(title, width - (saving ? 2 : 0), 'left', cut)}
        {saving ? ' ' : ''}
        {saving ? <Spinner {...(theme.accent && { color: theme.accent })} /> : null}
      </Text>
      {fields.map((field) => {
        const here = field.key === focused && !field.fixed;
        return (
          <Box key={field.key}>
            <Text {...(here ? { bold: true } : {})} {...(!here && theme.muted && { color: theme.muted })}>
              {`${here ? glyphs.fieldMarker : ' '} ${fit(field.label, label - 3, 'left', cut)} `}
            </Text>
            {here ? (
              <TextField value={field.value} cursor={cursor} focus={!saving} placeholder={field.placeholder && glyphs.text(field.placeholder)} width={width - label} maxLength={field.maxLength} />
            ) : (
              <Text wrap="truncate-end">{fit(field.value === '' ? '' : truncate(drawn(field.value), Math.max(1, width - label), cut), width - label, 'left', cut)}</Text>
            )}
          </Box>
        );
      })}
      {state.kind === 'wrong' ? (
        <Text wrap="truncate-end" {...(theme.error && { color: theme.error })}>
          {fit(glyphs.text(`${glyphs.cross} ${drawn(state.problem)}`), width, 'left', cut)}
        </Text>
      ) : state.kind === 'missing' ? (
        <Text wrap="truncate-end" {...(theme.muted && { color: theme.muted })}>
          {fit(glyphs.text(`needs ${listed(state.fields.map((key) => fields.find((f) => f.key === key)?.label ?? key))}${hint ? `: ${hint}` : ''}`), width, 'left', cut)}
        </Text>
      ) : (
        <Text wrap="truncate-end" {...(theme.muted && { color: theme.muted })}>
          {fit(glyphs.text(`${glyphs.check} ${outcome}`), width, 'left', cut)}
        </Text>
      )}
    </Box>
  );
}
